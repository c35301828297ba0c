"""What a game reads once per process (its data files) is read while the table is idle, once a game
is on: no table event waits for it (Opération Mata Hari's statements' words, read by the first
statement composed)."""

from __future__ import annotations

from games.core import Game
from games.mata_hari import rules_statements
from games.registry import game_ids, get_game
from tests.service.apps.test_frame_reuse import open_game


def test_mata_hari_s_statement_words_are_read_while_the_table_is_idle() -> None:
    rules_statements.language.cache_clear()
    s, _ = open_game("mata-hari", 1, False)
    assert rules_statements.language.cache_info().currsize == 0  # the start read none of them
    while s.prepare():  # what the loop does while no event is queued
        pass
    assert rules_statements.language.cache_info().currsize == 1
    assert s.prepare() is False  # read once: nothing left for the idle time


def test_every_game_warms_up_and_the_default_reads_nothing() -> None:
    for g in game_ids():
        get_game(g).warm()  # never raises (the games' data files are valid)
    assert Game.warm is not type(get_game("mata-hari")).warm
