"""The `zebra-table` command (main.py) and one module per sub-command; shared helpers in common.py."""
