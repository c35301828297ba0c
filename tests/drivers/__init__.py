"""Tests of drivers/: buttons, buzzer, screens; the reader in reader/."""
