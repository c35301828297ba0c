"""Tests of games/mata_hari/."""
