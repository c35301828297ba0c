"""Computer players at the table: set up in the menu, played through the simulated table,
deciding from their own view only, cancelled by a quit, journaled and resumed."""

from __future__ import annotations

import random
from concurrent.futures import Future

import pytest

from firmware_host.apps.app import StartGame, StartRequest
from firmware_host.apps.computer import InlineThinker, ProcessThinker
from firmware_host.apps.entries import Entry
from firmware_host.apps.menu import ComputerLevel, Do, MenuApp, Pick
from firmware_host.apps.session import GameSession
from firmware_host.commands.script import ScriptRunner
from firmware_host.storage.config import load_config
from firmware_host.storage.journal import Journal
from firmware_host.storage.tags import sim_registry
from games import ai
from games.core import GameConfig, replay
from games.registry import get_game
from tests.kits import menus
from tests.service.apps.solo_table import (
    follow_instruction,
    human_move,
    open_table,
    play_to_the_end,
    session,
    start,
    start_from_menu,
)

ITERATIONS = 12  # small budgets: the decisions are real searches, only short


def test_the_menu_adds_computer_players_with_levels_and_counts_them():
    menu = MenuApp((1, 2, 3))
    menu.on_button(1, "ok", "press")  # takes the menu
    keys = [k for _, k in menu.entries()]
    menu.cursor = keys.index(Pick("droles-de-zebres"))
    menu.on_button(1, "ok", "press")
    keys = [k for _, k in menu.entries()]
    assert Do("cpu_add") in keys and Do("hints") in keys
    menu.cursor = keys.index(Do("cpu_add"))
    menu.on_button(1, "ok", "press")
    assert menu.computers == ["strong"]
    keys = [k for _, k in menu.entries()]
    assert Do("cpu_add") not in keys  # two players at most: the computer counts
    assert menu.hints_on()  # one human against the computer: hints on by default
    menu.cursor = keys.index(ComputerLevel(0))
    menu.on_button(1, "ok", "press")
    assert menu.computers == ["greedy"]
    menu.cursor = [k for _, k in menu.entries()].index(Do("start"))
    started = menu.on_button(1, "ok", "press")
    assert isinstance(started, StartGame)
    req = started.request
    assert req.seats == (1, 2) and req.computers == {1: "greedy"} and req.hints


def test_several_computers_in_spywhere_and_hints_off_with_two_humans():
    menu = MenuApp((1, 2))
    menu.on_button(1, "ok", "press")
    menu.cursor = [k for _, k in menu.entries()].index(Pick("spywhere"))
    menu.on_button(1, "ok", "press")
    menu.on_button(2, "ok", "press")  # seat 2 joins
    for _ in range(3):
        menu.cursor = [k for _, k in menu.entries()].index(Do("cpu_add"))
        menu.on_button(1, "ok", "press")
    assert not menu.hints_on()  # two humans: off unless the host turns them on
    menu.cursor = [k for _, k in menu.entries()].index(Do("start"))
    started = menu.on_button(1, "ok", "press")
    assert isinstance(started, StartGame)
    req = started.request
    # no free table seat left: the computers sit at none
    assert req.seats == (1, 2, None, None, None)
    assert req.computers == {2: "strong", 3: "strong", 4: "strong"} and not req.hints


def _computer_moves_match_choose_on_views(app: GameSession, thinker: InlineThinker) -> int:
    """Every computer move was `games.ai.choose` on that seat's view, and the view is all it got."""
    jobs = [j for j in thinker.jobs if j.kind == "choose"]
    played = [(i, seat, act) for i, (seat, act) in enumerate(app.moves) if seat in app.computers.levels]
    assert len(jobs) == len(played) > 0
    for job, (i, seat, act) in zip(jobs, played, strict=True):
        before = replay(app.game, app.config, app.moves[:i])
        view = app.game.view(before, seat)
        assert job.seat == seat and job.view == view and type(job.view) is type(view)
        assert job.level == app.computers.levels[seat]
        again = ai.choose(app.game.id, view, seat, job.level, random.Random(job.seed), ai.Budget(ITERATIONS))
        assert again == act
    return len(played)


@pytest.mark.parametrize(("game_id", "levels", "seed"), [
    ("droles-de-zebres", ["strong"], 1), ("zop", ["strong"], 2), ("spywhere", ["strong", "easy"], 3)])
def test_a_whole_solo_game_through_the_menu(game_id, levels, seed):
    sim = open_table(seed=seed, iterations=ITERATIONS)
    try:
        app = start_from_menu(sim, 1, game_id, levels)
        assert app.computers.levels == {1 + i: lv for i, lv in enumerate(levels)}
        assert app.humans() == [0]
        app = play_to_the_end(sim, random.Random(seed))
        assert app.over
        thinker = sim.runtime.thinker
        assert isinstance(thinker, InlineThinker)
        assert _computer_moves_match_choose_on_views(app, thinker) >= 3
        # the computers' screens showed the public screen, never their own view's
        for seat in app.computers.levels:
            if app.seats[seat] is not None:
                public = app.game.screen(app.game.view(app.state, None), None)
                assert sim.runtime.frames()[app.seats[seat]].screen.lines == public.lines
    finally:
        sim.close()


def test_a_computer_move_is_guided_and_another_placement_refused():
    sim = open_table(iterations=ITERATIONS)
    try:
        app = start(sim, StartRequest("droles-de-zebres", (1, 2), {"first_player": "seat1"},
                                      computers={1: "strong"}))
        rng = random.Random(0)
        for _ in range(20):  # until the computer placed an animal the humans must lay
            if app.instruction is not None and app.instruction.fix.kind == "place":
                break
            if not follow_instruction(sim):
                assert human_move(sim, rng)
        fix = app.instruction.fix
        zone = app.to_physical(fix.zone)
        wrong = next(z for z in ("A1", "B1", "C1", "D1", "E1", "F1", "A5", "F5")
                     if z != zone and not sim.runtime.settled.get(z))
        sim.place(wrong, fix.piece)
        sim.settle()
        # refused: the instruction now says to take it off again, with the zone lit red
        assert app.instruction is not None and app.instruction.fix.kind == "remove"
        assert sim.runtime.lit.get(wrong) == "red"
        moves = len(app.moves)
        sim.remove(wrong, fix.piece)
        sim.settle()
        assert app.instruction is not None and app.instruction.fix == fix and len(app.moves) == moves
        assert follow_instruction(sim)
    finally:
        sim.close()


def test_a_human_piece_laid_while_the_computer_thinks_says_whose_turn_it_is():
    sim = open_table()
    thinker = ProcessThinker(seconds=60.0, iterations=10_000_000)  # still thinking when the piece lands
    sim.runtime.thinker = thinker
    try:
        app = start(sim, StartRequest("droles-de-zebres", (1, 2), {"first_player": "seat1"},
                                      computers={1: "strong"}))
        assert app.computers.thinking is not None and app.game.to_act(app.state) == {1}
        sim.place("A1", "droles-de-zebres/white/elephant/1")
        sim.settle()
        human, computer = sim.runtime.frames()[1].banner, sim.runtime.frames()[2].banner
        # the hands were a human's: they read whose turn it is; the game's own reason is the computer's
        assert human is not None and human.fr.startswith("Retirez") and \
            human.fr.endswith("C'est à J2 (ordinateur) de jouer."), human
        assert human.en.endswith("It is P2 (computer)'s turn.") or human.en.endswith("It is J2 (computer)'s turn."), human
        assert computer is not None and "J2 (ordinateur)" not in computer.fr
        sim.remove("A1", "droles-de-zebres/white/elephant/1")
        sim.settle()
        assert app.instruction is None and app.moves == []
    finally:
        sim.close()
        thinker.close()


def test_hints_on_the_asking_seat_only():
    sim = open_table(iterations=ITERATIONS)
    try:
        app = start(sim, StartRequest("droles-de-zebres", (1, 2), computers={1: "strong"}, hints=True))
        for _ in range(10):
            if follow_instruction(sim):
                continue
            if 0 in app.humans_to_act() and Entry.HINT in menus.entries(app, 0):
                break
            human_move(sim, random.Random(1))
        labels = [c.label.fr for c in app.menu(0)]
        assert "Conseil" in labels
        from tests.service.apps.solo_table import press_choice
        press_choice(sim, 1, labels.index("Conseil"))
        frames = sim.runtime.frames()
        assert frames[1].status is not None and frames[1].status.fr.startswith("Conseil : ")
        assert all(f.status is None or "Conseil" not in f.status.fr for s, f in frames.items() if s != 1)
        assert [j.kind for j in sim.runtime.thinker.jobs][-1] == "rank"
        assert sim.runtime.thinker.jobs[-1].view == app.game.view(app.state, 0)
    finally:
        sim.close()


def test_a_long_press_quit_while_thinking_cancels_it(tmp_path):
    journal = Journal(tmp_path / "j.sqlite")
    sim = open_table(journal=journal)
    thinker = ProcessThinker(seconds=60.0, iterations=10_000_000)  # far longer than the test
    sim.runtime.thinker = thinker
    try:
        app = start(sim, StartRequest("droles-de-zebres", (1, 2), {"first_player": "seat1"},
                                      computers={1: "strong"}))
        job = app.computers.thinking
        assert job is not None and not job.future.done()
        frame = sim.runtime.frames()[1]
        said = frame.status or frame.banner  # over the menu, or the whole message without one
        assert said is not None and "J2 (ordinateur) réfléchit" in said.fr
        sim.long_press(1)  # the loop answers while the worker thinks: the quit prompt
        assert app.ui[0].quit_prompt
        labels = [c.label.fr for c in app.menu(0)]
        from tests.service.apps.solo_table import press_choice
        press_choice(sim, 1, labels.index("Quitter la partie"))
        assert isinstance(sim.runtime.app, MenuApp)
        job.future.result(timeout=30)  # the search stopped at its next iteration (not after 60 s)
        assert app.moves == []  # its answer was dropped
        rec = journal.games()[0]
        assert rec.status == "abandoned" and rec.moves == ()
    finally:
        sim.close()
        thinker.close()


def test_resume_restores_the_computer_seats_and_its_turn(tmp_path):
    path = tmp_path / "j.sqlite"
    sim = open_table(journal=Journal(path))
    sim.runtime.thinker = ProcessThinker(seconds=60.0, iterations=10_000_000)
    app = start(sim, StartRequest("droles-de-zebres", (1, 2), {"first_player": "seat1"},
                                  computers={1: "greedy"}, hints=True))
    assert app.computers.thinking is not None
    sim.close()  # a power cut while the computer thinks: its turn is still to play
    rec = Journal(path).unfinished()
    assert rec is not None and rec.computers == {1: "greedy"} and rec.hints and rec.moves == ()
    sim = open_table(journal=Journal(path), iterations=ITERATIONS)
    try:
        ScriptRunner(sim, sim.clock)._resume(True, 1)  # "Reprendre" with seat 1's buttons
        app = session(sim)
        assert app.computers.levels == {1: "greedy"} and app.computers.hints and app.computers.seats == frozenset({1})
        assert [seat for seat, _ in app.moves] == [1]  # it thought again and played
    finally:
        sim.close()


def test_undo_in_a_solo_game_takes_back_the_reply_too():
    sim = open_table(iterations=ITERATIONS)
    try:
        app = start(sim, StartRequest("droles-de-zebres", (1, 2), {"first_player": "seat0"},
                                      computers={1: "strong"}))
        rng = random.Random(4)
        for _ in range(200):  # until the computer replied to a move and the table is in order
            if len(app.moves) >= 4 and app.moves[-1][0] == 1 and app.instruction is None and 0 in app.humans_to_act():
                break
            if not follow_instruction(sim):
                assert human_move(sim, rng)
        assert app.moves[-1][0] == 1  # the computer replied
        last_human = max(i for i, (s, _) in enumerate(app.moves) if s == 0)
        labels = [c.label.fr for c in app.menu(0)]
        from tests.service.apps.solo_table import press_choice
        press_choice(sim, 1, labels.index("Annuler le dernier coup"))  # alone: nobody to ask
        assert len(app.moves) == last_human
        while follow_instruction(sim):  # the pieces go back where they were
            pass
        assert 0 in app.humans_to_act() and app.computers.thinking is None
    finally:
        sim.close()


def test_who_starts_is_the_humans_choice_not_the_computers():
    sim = open_table(iterations=ITERATIONS)
    try:
        app = start(sim, StartRequest("droles-de-zebres", (1, 2), {"first_player": "either"},
                                      computers={1: "strong"}))
        for _ in range(5):  # the computer has time to think: it must not place the guardian
            sim.settle()
            app.computers.step()
        assert app.moves == [] and app.state.first is None
        assert 0 in app.humans_to_act()
    finally:
        sim.close()


class FailingThinker(InlineThinker):
    """Every decision fails at once, as a rules bug or an AI without an answer would."""

    def submit(self, job):
        self.jobs.append(job)
        fut = Future()
        fut.set_exception(RuntimeError("no answer"))
        return fut


def test_a_failed_decision_is_asked_again_once_a_pass_not_in_a_spin():
    game = get_game("droles-de-zebres")
    config = load_config(None)
    seats = tuple(s.id for s in config.seats[:2])
    s = GameSession(game, GameConfig(players=2, seed=3), seats, sim_registry(game.pieces()), set(config.zones),
                    lambda: 1000.0, auto_chance=True)
    s.set_computers({0: "easy", 1: "easy"}, hints=False)
    thinker = FailingThinker()
    s.computers.thinker = thinker
    s.begin({})  # the game's first pass: the computer to act is asked once
    assert len(thinker.jobs) == 1 and s.computers.stuck == {thinker.jobs[0].seat}
    for passes in (2, 3):  # each later pass of the loop asks again (a worker may have been restarted)
        s.computers.step()
        assert len(thinker.jobs) == passes
    assert s.moves == []
