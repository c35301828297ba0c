"""Drôles de Zèbres (Bruno Cathala): two players, the zebra board, guardian, lion and crocodile."""

from games.droles_de_zebres.game import GAME, DrolesDeZebres

__all__ = ["GAME", "DrolesDeZebres"]
