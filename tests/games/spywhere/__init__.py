"""Tests of games/spywhere/."""
