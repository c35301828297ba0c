"""Spywhere: secret passports, five face-up centre cards, triples taken as clues, secret identifications."""

from games.spywhere.game import GAME, Spywhere

__all__ = ["GAME", "Spywhere"]
