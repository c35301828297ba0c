"""Tests of firmware_host/, one folder per sub-package."""
