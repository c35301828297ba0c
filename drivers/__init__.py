"""Hardware layer: buttons, screens, buzzer, reader controller; each with a simulated backend."""
