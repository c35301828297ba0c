"""The shell game: one seat hides the pea under a cup, the other guesses where; turns alternate."""

from games.shell_game.game import GAME, ShellGame

__all__ = ["GAME", "ShellGame"]
