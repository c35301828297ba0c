"""Tests of firmware_host/screens/."""
