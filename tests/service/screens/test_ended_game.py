"""An ended game's screens ask nothing more of the table: no instruction, no leftover message of
the last move (a flip, a piece to lay), only each seat's final screen."""

from __future__ import annotations

import random

import pytest

from tests.service.apps.solo_table import open_table, play_to_the_end, start_from_menu


@pytest.mark.parametrize(("game_id", "levels", "seed"), [
    ("droles-de-zebres", ["strong"], 1), ("zop", ["strong"], 2), ("spywhere", ["strong", "easy"], 3)])
def test_an_ended_game_shows_no_instruction(game_id: str, levels: list[str], seed: int) -> None:
    sim = open_table(seed=seed, iterations=12)
    try:
        start_from_menu(sim, 1, game_id, levels)
        app = play_to_the_end(sim, random.Random(seed))
        sim.settle()
        assert app.over
        assert app.instruction is None
        for seat, table_seat in enumerate(app.seats):
            if table_seat is None:
                continue
            frame = app.seat_frame(seat)
            assert frame.banner is None, (seat, frame.banner)
            assert frame.status is None or frame.status == app.computers.thinking_text(), (seat, frame.status)
    finally:
        sim.close()
