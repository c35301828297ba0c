"""Tests of games/droles_de_zebres/."""
