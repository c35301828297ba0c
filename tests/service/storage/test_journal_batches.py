"""One event, one commit: a player's move and the chance draws it sets off share a transaction."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from firmware_host.storage.journal import Journal
from games.core import CHANCE, Action
from tests.kits.tabledriver import Driver


class CountingJournal(Journal):
    """The real journal, remembering how many moves each of its commits held."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.batches: list[list[tuple[int, Action]]] = []

    def append_many(self, game: int, first: int, moves: list[tuple[int, Action]]) -> None:
        super().append_many(game, first, moves)
        self.batches.append(list(moves))


def test_an_events_moves_are_committed_together_and_all_of_them(tmp_path: Path) -> None:
    journal = CountingJournal(tmp_path / "j.sqlite")
    driver = Driver(seed=4, journal=journal)
    apply = driver.runner.apply
    per_event: list[int] = []

    def counted(ev: dict[str, Any]) -> None:
        before = len(journal.batches)
        apply(ev)
        per_event.append(len(journal.batches) - before)

    driver.runner.apply = counted  # type: ignore[method-assign]
    try:
        driver.start("spywhere", [1, 2, 3, 4])
        driver.play(max_steps=6000)
        session = driver.session
        assert session.over
    finally:
        driver.close()
    assert max(per_event) == 1  # never two commits of moves for one event
    together = [b for b in journal.batches if len(b) > 1]
    assert together and all(b[0][0] != CHANCE and {s for s, _ in b[1:]} == {CHANCE} for b in together), together[:3]
    assert sum(len(b) for b in journal.batches) == len(session.history)
    reader = Journal(tmp_path / "j.sqlite", read_only=True)
    rec = reader.record(reader.ids()[-1])
    assert rec.status == "finished"
    assert [(s, a) for s, a in rec.moves] == [(s, dict(a)) for s, a in session.history]
