"""The table service on the Pi: loop, apps, screens, storage, commands; the one layer knowing drivers and games."""
