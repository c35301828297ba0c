"""Tests of games/zop/."""
