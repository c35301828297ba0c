"""Tests of deploy/: install script, systemd unit and watchdog, udev rule, example config, hw_tests."""
