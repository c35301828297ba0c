"""Tests of firmware_host/commands/."""
