"""Tests of firmware_host/apps/."""
