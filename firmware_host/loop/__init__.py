"""The event loop: runtime, the hardware wired to it (table), the simulated table, systemd, diagnostics."""
