"""Copies of one card that nobody can tell apart (Opération Mata Hari's partners): the table lets
one stand for the other where the game says no seat can tell, and from then on reads each tag as
the other (a swap kept for the rest of the game on this table)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from firmware_host.apps.reconcile import Fix
from games.core import Game


class Copies:
    """Which tag reads as which piece: a permutation of piece ids, empty until a swap."""

    def __init__(self) -> None:
        self.reads: dict[str, str] = {}  # the piece a tag carries -> the piece the game knows it as

    def read(self, layout: Mapping[str, frozenset[str]]) -> dict[str, frozenset[str]]:
        """The layout with each piece read as the game knows it."""
        if not self.reads:
            return dict(layout)
        return {zone: frozenset(self.reads.get(p, p) for p in pieces) for zone, pieces in layout.items()}

    def take(self, game: Game[Any, Any], state: Any, todo: Sequence[Fix]) -> bool:
        """Where a piece is wanted on a zone and another lies there that may stand for it (`todo`:
        the table's `fixes`), read each as the other from now on. True if a swap was made (the
        table must be read again)."""
        laid = [f for f in todo if f.kind == "remove"]
        if not laid:  # nothing lies where it is not wanted: nothing to read as another piece
            return False
        for want in (f for f in todo if f.kind == "place"):
            for extra in laid:
                if extra.zone == want.zone and game.stands_for(state, want.zone, want.piece, extra.piece):
                    self._swap(want.piece, extra.piece)
                    return True
        return False

    def _swap(self, a: str, b: str) -> None:
        """The tags read as `a` and as `b` are read as the other."""
        tag = {known: carried for carried, known in self.reads.items()}
        tag_a, tag_b = tag.get(a, a), tag.get(b, b)
        self.reads[tag_a], self.reads[tag_b] = b, a
        self.reads = {carried: known for carried, known in self.reads.items() if carried != known}
