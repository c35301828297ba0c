"""What the table keeps: its config, the tag registry, the game journal."""
