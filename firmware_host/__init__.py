"""The table service on the Pi: the loop and its apps, screens, storage, commands; the only layer that knows both drivers and games."""
