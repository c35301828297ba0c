"""Seat screens: frames (what a seat shows), the renderer to 128x64 pixels, fonts."""
