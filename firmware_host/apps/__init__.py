"""The apps the loop runs: the menu, a game session (with reconciliation), the table test."""
