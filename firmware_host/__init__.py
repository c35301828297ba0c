"""The table service: config, tag registry, reader link, runtime, screens, journal, commands."""
