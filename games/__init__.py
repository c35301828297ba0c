"""Pure rules of the table's games: no I/O, no clock, no randomness of their own."""
