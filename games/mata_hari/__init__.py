"""Operation: Mata Hari: trading and bluffing card game for 3 to 7 players (game id "mata-hari")."""

from games.mata_hari.game import GAME, MataHari

__all__ = ["GAME", "MataHari"]
