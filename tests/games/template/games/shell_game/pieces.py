"""The shell game's one tagged piece, the pea, and the cups (centre slots) it may lie under."""

from __future__ import annotations

from typing import Final

from games.core import Text, centre, tr

GAME_ID: Final = "shell-game"
PEA: Final = f"{GAME_ID}/pea/token/1"


def cup_zone(cup: int) -> str:
    """The logical zone under cup `cup` (1..3)."""
    return centre(cup)


def cup_of(zone: str) -> int | None:
    """The cup over `zone`, or None when the zone is not under a cup."""
    return next((c for c in (1, 2, 3) if centre(c) == zone), None)


def piece_label(piece: str) -> Text:
    """"le pois" / "the pea"; the id itself for anything else."""
    return tr("le pois", "the pea") if piece == PEA else Text(piece, piece)
