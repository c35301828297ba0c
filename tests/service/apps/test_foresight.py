"""The move under a seat's cursor, worked out while the table is idle (firmware_host/apps/foresight.py),
changes nothing but the work an event does: over seeded random games of every game (buttons,
pieces laid right and wrong, time passing, computer seats), a table that works ahead and one that
never does reach the same states, record the same moves, sound the same cues and show every seat
the same frame after every event (so nothing worked out ahead is shown early); and the events of
the one working ahead call the rules less."""

from __future__ import annotations

import random
from typing import Any

import pytest

from firmware_host.apps.computer_seats import has_ai
from firmware_host.apps.foresight import PIECES, Foresight
from firmware_host.apps.session import GameSession
from firmware_host.apps.state_answers import now
from firmware_host.apps.table_draws import table_draw
from firmware_host.screens import layout, messages, render
from games.core import Choice, Game, IllegalAction
from games.registry import game_ids
from tests.service.apps.test_frame_reuse import event, open_game

EVENTS = 200


class Counted:
    """A game whose `apply` calls are counted while `counting` is set (the events, not the idle time)."""

    def __init__(self, game: Game[Any, Any]) -> None:
        self._game = game
        self.counting = False
        self.applied = 0
        self.chosen = 0  # the seats' choices asked

    def apply(self, state: Any, seat: int, action: Any) -> Any:
        """The game's apply, counted."""
        self.applied += self.counting
        return self._game.apply(state, seat, action)

    def choices(self, state: Any, seat: int) -> Any:
        """The game's choices for a seat, counted."""
        self.chosen += self.counting
        return self._game.choices(state, seat)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)


def idle(s: GameSession, settling: Any = None) -> None:
    """What the loop does while no event is queued (`settling`: while a settle window runs)."""
    while s.prepare(settling):
        pass


def settles_after_idle(s: GameSession, rng: random.Random) -> None:
    """`s.on_sensed` preceded by the idle time of its settle window, as the runtime gives it: the
    layout about to settle, at times first another one (a piece laid and lifted in the window)."""
    settle = s.on_sensed

    def on_sensed(sensed: Any) -> Any:
        counting, s.game.counting = s.game.counting, False  # type: ignore[attr-defined]  # idle time
        before, read = s.table.sensed, s.table.read()
        if rng.random() < 0.3:  # a piece laid on a zone, lifted before the window ended
            zone, uid = rng.choice(sorted(s.zones)), s.registry.uid(rng.choice(s.game.pieces())) or ""
            idle(s, {**sensed, zone: frozenset({*sensed.get(zone, ()), uid})})
        idle(s, sensed)
        # the table still reads what last settled: a press in the window acts on that, not on this
        assert s.table.sensed is before and s.table.read() == read
        s.game.counting = counting  # type: ignore[attr-defined]
        return settle(sensed)

    s.on_sensed = on_sensed  # type: ignore[method-assign]


def seen(s: GameSession) -> list[Any]:
    """What every seat shows."""
    return [s.frames.seat_frame(x) for x, t in enumerate(s.seats) if t is not None]


@pytest.mark.parametrize(("game_id", "seed", "computer"),
                         [(g, seed, seed == 2 and has_ai(g)) for g in game_ids() for seed in (1, 2)])
def test_working_ahead_changes_nothing_but_the_work(game_id: str, seed: int, computer: bool) -> None:
    ahead, clock_a = open_game(game_id, seed, computer)
    never, clock_n = open_game(game_id, seed, computer)
    for s in (ahead, never):  # seed 2: a real table's draws, those the table senses left to its hands
        s.auto_chance = seed == 1
    never.foresight.prepare = lambda laid=None: False  # type: ignore[method-assign]  # the idle time's other work only
    counted = {id(s): Counted(s.game) for s in (ahead, never)}
    for s in (ahead, never):
        s.game = counted[id(s)]  # type: ignore[assignment]
    rng_a, rng_n = random.Random(seed), random.Random(seed)
    for s in (ahead, never):
        settles_after_idle(s, random.Random(seed))
    sensed_a: dict[str, frozenset[str]] = {}
    sensed_n: dict[str, frozenset[str]] = {}
    for n in range(EVENTS):
        idle(ahead)
        idle(never)
        assert seen(ahead) == seen(never), (game_id, n)  # nothing worked ahead shows before its move
        for s in (ahead, never):
            counted[id(s)].counting = True
        going = event(ahead, clock_a, rng_a, sensed_a)
        assert event(never, clock_n, rng_n, sensed_n) == going
        shown = seen(ahead), seen(never)  # the event's frames: part of its work
        for s in (ahead, never):
            counted[id(s)].counting = False
        assert ahead.state == never.state and ahead.moves == never.moves, (game_id, n)
        for key, value in ahead.foresight.answers(ahead.state).items():  # what a new state's memo starts with
            assert value == now(never, key), (game_id, n, key)
        assert ahead.take_cues() == never.take_cues(), (game_id, n)
        assert shown[0] == shown[1], (game_id, n)
        if not going:
            break
    # the presses took what was worked out ahead: the moves and the new states' menus
    assert counted[id(ahead)].applied < counted[id(never)].applied, (game_id, counted[id(ahead)].applied)
    assert counted[id(ahead)].chosen < counted[id(never)].chosen, (game_id, counted[id(ahead)].chosen)


def test_a_step_is_taken_only_for_its_own_state_seat_and_action_and_a_refusal_is_raised_again() -> None:
    s, _ = open_game("spywhere", 1, False)
    idle(s)
    seat = next(x for x in range(len(s.seats)) if s.menus.cursor_entry(x) is not None)
    entry = s.menus.cursor_entry(seat)
    assert isinstance(entry, Choice)
    state, action = s.state, dict(entry.action)
    assert s.foresight.step(state, seat, action) is s.foresight.step(state, seat, action)  # the one kept
    assert s.foresight.step(state, seat, action) == s.game.apply(state, seat, action)
    others = [dict(a) for a in s.game.legal_actions(state, seat) if a != action]
    if others:  # another action of the seat: the rules' own answer
        assert s.foresight.step(state, seat, others[0]) == s.game.apply(state, seat, others[0])
    assert s.foresight.screen(object(), seat, True) is None  # another state: nothing kept for it
    bad = {"type": "no such action"}
    s.foresight._keep_step(state, seat, bad)  # refused ahead (a choice the state moved away from)
    with pytest.raises(IllegalAction):
        s.foresight.step(state, seat, bad)
    assert not s.apply(seat, bad)  # the press is refused the usual way: its reason on the seat's screen
    assert s.ui[seat].notices


def test_the_idle_work_ends_even_when_more_is_pointed_at_than_is_kept() -> None:
    s, _ = open_game("spywhere", 1, False)
    f = Foresight(s)
    pieces = 0
    while f.prepare():
        pieces += 1
        assert pieces <= PIECES
    assert not f.prepare()  # done for this state and these cursors: nothing more until they change


def test_what_was_worked_out_is_dropped_once_the_game_moves_on() -> None:
    s, _ = open_game("spywhere", 1, False)
    idle(s)
    old = [kept[0] for tried in s.foresight._steps.values() for kept in tried]
    assert any(state is s.state for state in old)  # the chains start from the state on the table
    seat = next(x for x in range(len(s.seats)) if s.menus.cursor_entry(x) is not None)
    assert s.on_button(s.seats[seat] or 0, "ok", "press") is None
    assert not any(state is s.state for state in old)  # the move was made
    idle(s)
    kept = [k[0] for k in (*(k for tried in s.foresight._steps.values() for k in tried), *s.foresight._screens.values())]
    assert not any(state is before for state in kept for before in old)  # no old state held any more


def test_a_rules_bug_met_ahead_leaves_the_idle_time_quiet_and_the_press_meets_it_as_before() -> None:
    s, _ = open_game("spywhere", 1, False)
    seat = next(x for x in range(len(s.seats)) if s.menus.cursor_entry(x) is not None)

    class Broken(Counted):
        def apply(self, state: Any, seat: int, action: Any) -> Any:
            raise RuntimeError("a rules bug")

    s.game = Broken(s.game)  # type: ignore[assignment]
    assert s.foresight.prepare() is False  # nothing raised in the idle time, nothing more to do
    assert s.foresight.prepare() is False
    entry = s.menus.cursor_entry(seat)
    with pytest.raises(RuntimeError, match="a rules bug"):  # the press goes the usual way
        s.apply(seat, entry.action)  # type: ignore[union-attr]


def test_the_screens_a_move_leads_to_have_their_pictures_parts_drawn_ahead() -> None:
    s, clock = open_game("spywhere", 1, False)
    rng, sensed = random.Random(1), {}
    idle(s)
    while not s.foresight._screens:  # the first move deals a round: more draws than are followed
        assert event(s, clock, rng, sensed)
        idle(s)
    kept = list(s.foresight._screens.items())
    made = render._row_layer.cache_info().misses, render._title_bar.cache_info().misses
    for (_, seat, _), (_, _, screen) in kept:
        render.warm(screen, s.lang, s.size(seat))  # what the idle time drew: found, nothing drawn again
    assert (render._row_layer.cache_info().misses, render._title_bar.cache_info().misses) == made


def test_the_messages_a_move_gives_are_laid_out_and_drawn_ahead() -> None:
    """Each message a move would give a seat (alone, and with the others it gets, with and without
    those it has not read yet) is laid out over the screen it leads to and its rows drawn: the
    frame that shows it finds them."""
    s, clock = open_game("spywhere", 1, False)
    rng, sensed = random.Random(1), {}
    said: list[tuple[Any, Any]] = []
    while not said:  # a move under a cursor whose step says something, its screens kept
        assert event(s, clock, rng, sensed)
        idle(s)
        said = [(step.state, e) for kept in s.foresight._steps.values() for _, _, step in kept
                if step is not None and not table_draw(s, step.state, len(s.moves) + 1)
                for e in step.effects if e.text.fr]
    made = messages.status_windows_cached.cache_info().misses, render._row_layer.cache_info().misses
    checked = 0
    for state, effect in said:
        for seat in s.humans():
            kept = s.foresight._screens.get((id(state), seat, f"pad.{seat}" in s.logical_zones()))
            if kept is None or (effect.audience is not None and seat not in effect.audience):
                continue
            messages.warm_status(kept[2], s.lang, s.size(seat), effect.text)
            render.warm_message(effect.text, s.lang, s.size(seat))
            checked += 1
    assert checked
    assert (messages.status_windows_cached.cache_info().misses, render._row_layer.cache_info().misses) == made


@pytest.mark.parametrize("game_id", ["droles-de-zebres", "zop", "operation-zebre", "mata-hari", "spywhere"])
def test_the_frames_a_move_leads_to_are_drawn_ahead(game_id: str) -> None:
    """After the idle time, a move made by a press or with the pieces often finds a seat's new
    frame laid out and drawn already (its cursor on its first entry, the message the move gives
    it): the picture the table sends it then is the one kept."""
    s, clock = open_game(game_id, 1, False)
    rng, sensed = random.Random(4), {}
    shown = found = 0
    for _ in range(3 * EVENTS):
        idle(s)
        state = s.state
        if not event(s, clock, rng, sensed):
            break
        if s.state is state:
            continue
        for seat in s.humans():
            made = render._render_cached.cache_info().misses, layout._plan_at_rest.cache_info().misses
            frame, size = s.frames.seat_frame(seat), s.size(seat)
            render.frame_picture(frame, s.lang, size, render.frame_layout(frame, s.lang, size)[1])
            found += (render._render_cached.cache_info().misses, layout._plan_at_rest.cache_info().misses) == made
            shown += 1
        render._render_cached.cache_clear()  # a picture found after the next move was drawn in the idle time
        layout._plan_at_rest.cache_clear()
    assert shown >= 50
    assert found >= 5, (found, shown)
