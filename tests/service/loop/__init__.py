"""Tests of firmware_host/loop/."""
