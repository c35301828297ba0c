"""Tests of games/: the contract on toy games, every game on the table, one folder per game."""
