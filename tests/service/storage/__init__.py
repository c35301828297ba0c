"""Tests of firmware_host/storage/."""
