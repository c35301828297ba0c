"""Helpers shared by tests (and the fault benchmark): game checks, the simulated table driver, toy games."""
