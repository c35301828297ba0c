"""ZOP: a two-player card duel of hidden simultaneous plays on the seat pads, best of three rounds."""

from games.zop.game import GAME, Zop

__all__ = ["GAME", "Zop"]
