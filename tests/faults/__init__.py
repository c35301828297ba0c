"""Fault suites: kills, reader faults, screen failures, bad inputs during whole games."""
