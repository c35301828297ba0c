"""A computer's move put in words a slice at a time (firmware_host/apps/announce.py): the same words
as the whole check run at once (kept here as the table ran it), a bounded number of the game's
calls per pass of the loop, and the seats' messages in the order of the moves whatever comes
meanwhile (another computer move, an undo, a quit, the end of the game)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import pytest

from firmware_host.apps import announce
from firmware_host.apps.announce import MAX_VARIANTS, STEP_UNITS, Announcements, advance, public_steps, wording
from firmware_host.apps.computer_seats import REQUIRED_OPTIONS
from firmware_host.apps.session import GameSession
from firmware_host.apps.undo import UndoRequest
from firmware_host.storage.config import load_config
from firmware_host.storage.tags import sim_registry
from games import ai
from games.core import CHANCE, Action, Game, GameConfig, IllegalAction, Text, tr
from games.playout import random_playout
from games.registry import available_ids, get_game
from games.texts import seat_label

# (game, players, human seats): the others are computers
TABLES = [("droles-de-zebres", 2, (0,)), ("zop", 2, (0,)), ("spywhere", 4, (0,)), ("spywhere", 4, (0, 2))]
SEEDS = range(4)


def old_public(game: Game[Any, Any], state: Any, seat: int, action: Action, humans: list[int]) -> bool:
    """The check as the table made it in one go (the reference the slices must agree with)."""
    seen = [game.view(game.apply(state, seat, action).state, h) for h in humans]
    for other in game.legal_actions(state, seat):
        if other == action:
            continue
        try:
            after = game.apply(state, seat, other).state
        except IllegalAction:
            continue
        if any(game.view(after, h) == v for h, v in zip(humans, seen, strict=True)):
            return False
    words = game.describe_action(state, seat, action)
    for h, view in zip(humans, seen, strict=True):
        for variant in itertools.islice(game.hidden_variants(state, h), MAX_VARIANTS):
            for other in game.legal_actions(variant, seat):
                try:
                    after = game.apply(variant, seat, other).state
                except IllegalAction:
                    continue
                if game.view(after, h) == view and game.describe_action(variant, seat, other) != words:
                    return False
    return True


def old_words(game: Game[Any, Any], state: Any, seat: int, action: Action, humans: list[int]) -> Text:
    """The announcement as the table made it in one go."""
    name = seat_label(seat)
    if old_public(game, state, seat, action, humans):
        what = game.describe_action(state, seat, action)
        return tr(f"{name.fr} : {what.fr}", f"{name.en}: {what.en}")
    return tr(f"{name.fr} a joué", f"{name.en} played")


def config(game: Game[Any, Any], players: int, seed: int) -> GameConfig:
    return game.validate_config(GameConfig(players, dict(REQUIRED_OPTIONS.get(game.id, {})), seed))


def computer_moves(game_id: str, players: int, humans: tuple[int, ...], seed: int) -> Iterator[tuple[Any, int, Action]]:
    """(state before, seat, action) of each computer move of a seeded random game."""
    game = get_game(game_id)
    play = random_playout(game, config(game, players, seed), seed)
    state = game.initial_state(play.config)
    for seat, action in play.moves:
        if seat != CHANCE and seat not in humans:
            yield state, seat, action
        state = game.apply(state, seat, action).state


def sliced(game: Game[Any, Any], state: Any, seat: int, action: Action, humans: list[int]) -> tuple[Text, int]:
    """The words from the check stepped STEP_UNITS units at a time, and the passes it took."""
    check = public_steps(game, state, seat, action, humans)
    for passes in itertools.count(1):
        answer, _ = advance(check, STEP_UNITS)
        if answer is not None:
            return wording(game, state, seat, action, answer), passes
    raise AssertionError("unreachable")


def test_every_game_with_a_computer_player_is_covered() -> None:
    assert {g for g, _, _ in TABLES} == {g for g in available_ids() if ai.has_ai(g)}


@pytest.mark.parametrize(("game_id", "players", "humans"), TABLES)
def test_the_words_are_those_of_the_check_made_at_once(game_id: str, players: int, humans: tuple[int, ...]) -> None:
    game = get_game(game_id)
    moves = told = long = 0
    for seed in SEEDS:
        for state, seat, action in computer_moves(game_id, players, humans, seed):
            got, passes = sliced(game, state, seat, action, list(humans))
            assert got == old_words(game, state, seat, action, list(humans)), (seed, seat, action)
            moves += 1
            told += "a joué" not in got.fr
            long += passes > 1
    hidden = any(any(True for _ in game.hidden_variants(s, humans[0]))
                 for s, _, _ in itertools.islice(computer_moves(game_id, players, humans, 0), 40))
    assert moves > 20 and told > 0 and long > 0, (moves, told, long)
    if hidden:  # a game with secrets says some moves only as "J2 a joué"
        assert told < moves, (moves, told)


# -- the work of one pass --------------------------------------------------------------------------


class Counting:
    """A game whose calls are counted (the variants it makes too)."""

    def __init__(self, game: Game[Any, Any]) -> None:
        self.game = game
        self.calls: dict[str, int] = dict.fromkeys(("apply", "view", "legal_actions", "describe_action",
                                                    "variant"), 0)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.game, name)

    def _count(self, name: str) -> None:
        self.calls[name] += 1

    def apply(self, *a: Any) -> Any:
        self._count("apply")
        return self.game.apply(*a)

    def view(self, *a: Any) -> Any:
        self._count("view")
        return self.game.view(*a)

    def legal_actions(self, *a: Any) -> Any:
        self._count("legal_actions")
        return self.game.legal_actions(*a)

    def describe_action(self, *a: Any) -> Any:
        self._count("describe_action")
        return self.game.describe_action(*a)

    def hidden_variants(self, *a: Any) -> Iterator[Any]:
        for v in self.game.hidden_variants(*a):
            self._count("variant")
            yield v


class Seats:
    """The game in progress as the announcements see it: its moves, its humans, the messages given."""

    def __init__(self, game: Any, humans: list[int]) -> None:
        self.game = game
        self.moves: list[tuple[int, Action]] = []
        self._humans = humans
        self.said: list[tuple[frozenset[int] | None, str]] = []

    def humans(self) -> list[int]:
        return list(self._humans)

    def notify(self, audience: frozenset[int] | None, text: Text, first: bool = False,
               public: bool = False, urgent: bool = False) -> None:
        self.said.append((audience, text.fr))


def the_largest_check() -> tuple[Any, int, Action, list[int]]:
    """The Spywhere computer move, of a few seeded games, whose check applies the most moves."""
    game = get_game("spywhere")
    best: tuple[int, Any, int, Action] | None = None
    for seed in range(2):
        for state, seat, action in computer_moves("spywhere", 4, (0, 2), seed):
            counting = Counting(game)
            old_public(counting, state, seat, action, [0, 2])  # type: ignore[arg-type]
            if best is None or counting.calls["apply"] > best[0]:
                best = (counting.calls["apply"], state, seat, action)
    assert best is not None
    return best[1], best[2], best[3], [0, 2]


def test_one_pass_of_the_loop_does_a_bounded_number_of_the_games_calls() -> None:
    state, seat, action, humans = the_largest_check()
    counting = Counting(get_game("spywhere"))
    once = Counting(get_game("spywhere"))
    old_public(once, state, seat, action, humans)  # type: ignore[arg-type]
    assert once.calls["apply"] > 20 * STEP_UNITS  # a check the table once made in one go
    seats = Seats(counting, humans)
    seats.moves.append((seat, action))
    words = Announcements(seats)
    bound = {"apply": STEP_UNITS, "view": STEP_UNITS * len(humans), "legal_actions": STEP_UNITS,
             "describe_action": 2 * STEP_UNITS + 1, "variant": STEP_UNITS}
    passes = 0
    calls = dict(counting.calls)
    words.add(state, seat, action)
    while True:
        step = {k: counting.calls[k] - calls[k] for k in calls}
        assert all(step[k] <= bound[k] for k in bound), (passes, step, bound)
        passes += 1
        calls = dict(counting.calls)
        if not words.work():
            break
    assert passes > 20 and not words.queue
    assert [t for _, t in seats.said] == [old_words(get_game("spywhere"), state, seat, action, humans).fr] * 3


# -- the order of the messages, and what is never said ----------------------------------------------


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def a_session(game_id: str, players: int, seed: int) -> GameSession:
    """A game with one human at table seat 1 and computers at the next table seats."""
    game = get_game(game_id)
    zones = set(load_config(None).zones)
    s = GameSession(game, config(game, players, seed), tuple(range(1, players + 1)), sim_registry(game.pieces()),
                    zones, Clock(), auto_chance=True)
    s.set_computers(dict.fromkeys(range(1, players), "easy"), hints=False)
    return s


def messages(s: GameSession, seat: int) -> list[str]:
    """What a seat has to read, in order."""
    return [p.fr for n in s.ui[seat].notices for p in n.parts]


def long_move(game_id: str, players: int) -> tuple[int, int]:
    """(seed, index) of a computer move of a seeded random game whose check takes several passes,
    followed by another computer move within a few moves."""
    game = get_game(game_id)
    for seed in range(10):
        play = random_playout(game, config(game, players, seed), seed)
        state = game.initial_state(play.config)
        for n, (seat, action) in enumerate(play.moves):
            later = [x for x, _ in play.moves[n + 1:n + 6]]
            if seat not in (CHANCE, 0) and any(x not in (CHANCE, 0) for x in later) \
                    and sliced(game, state, seat, action, [0])[1] > 3:
                return seed, n
            state = game.apply(state, seat, action).state
    raise AssertionError("no long check")


def replay(s: GameSession, moves: list[tuple[int, Action]], sync: bool) -> None:
    """The moves on the session, each computer move put in words as `decide` does (its chance draws
    as the seeded game drew them: the table's own are not asked for); `sync`: each said at once,
    as the table once did."""
    for seat, action in moves:
        before = s.state
        assert s.apply(seat, action)
        if seat in s.computers.seats:
            s.computers.words.add(before, seat, action, units=1 << 30 if sync else STEP_UNITS)


@pytest.mark.parametrize(("game_id", "players"), [("zop", 2), ("spywhere", 4)])
def test_the_seats_read_the_messages_in_the_order_of_the_moves(game_id: str, players: int) -> None:
    seed, n = long_move(game_id, players)
    play = random_playout(get_game(game_id), config(get_game(game_id), players, seed), seed)
    upto = n + 6
    now, then = a_session(game_id, players, seed), a_session(game_id, players, seed)
    replay(now, play.moves[:n], sync=True)
    replay(then, play.moves[:n], sync=True)
    replay(now, play.moves[n:upto], sync=True)
    replay(then, play.moves[n:upto], sync=False)
    assert then.computers.words.pending  # a second computer move came while the first was checked
    assert messages(then, 0) != messages(now, 0)
    said_first = tr("Étiquette inconnue", "Unknown tag")
    then.notify(frozenset({0}), said_first, first=True)  # about what the player just did: at once
    now.notify(frozenset({0}), said_first, first=True)
    assert messages(then, 0)[0] == "Étiquette inconnue"
    passes = 0
    while then.computers.work():
        passes += 1
    assert passes > 1
    for seat in range(players):
        assert messages(then, seat) == messages(now, seat), seat


def test_a_move_taken_back_meanwhile_is_never_said() -> None:
    seed, n = long_move("zop", 2)
    game = get_game("zop")
    play = random_playout(game, config(game, 2, seed), seed)
    s = a_session("zop", 2, seed)
    replay(s, play.moves[:n], sync=True)
    seat, action = play.moves[n]
    s.computers.decide(seat, action)
    assert s.computers.words.pending
    words = old_words(game, _state_at(game, play.moves[:n], s.config), seat, action, [0]).fr
    s.notify(frozenset({0}), tr("après", "after"))  # waits behind the words
    assert "après" not in messages(s, 0)
    s.take_back(UndoRequest(0, n, set(), tr("le coup", "the move")))
    assert not s.computers.words.pending
    said = messages(s, 0)
    assert words not in said and said.index("après") < said.index("Coup annulé : le coup"), said
    while s.computers.work():
        pass
    assert words not in messages(s, 0)


def _state_at(game: Game[Any, Any], moves: list[tuple[int, Action]], cfg: GameConfig) -> Any:
    state = game.initial_state(cfg)
    for seat, action in moves:
        state = game.apply(state, seat, action).state
    return state


def test_a_game_left_meanwhile_says_nothing_more() -> None:
    seed, n = long_move("zop", 2)
    game = get_game("zop")
    play = random_playout(game, config(game, 2, seed), seed)
    s = a_session("zop", 2, seed)
    replay(s, play.moves[:n], sync=True)
    s.computers.decide(*play.moves[n])
    s.notify(frozenset({0}), tr("après", "after"))
    before = messages(s, 0)
    s.computers.cancel()  # the long press that quits
    assert not s.computers.work() and not s.computers.words.queue
    assert messages(s, 0) == before


def test_the_move_that_ends_the_game_is_said_as_it_always_was() -> None:
    """The last move of a game stands: its words come once checked, the outcome shown meanwhile."""
    game = get_game("zop")
    for seed in range(20):
        play = random_playout(game, config(game, 2, seed), seed)
        last = max(i for i, (x, _) in enumerate(play.moves) if x == 1)
        if all(x == CHANCE for x, _ in play.moves[last + 1:]):
            break
    s = a_session("zop", 2, seed)
    replay(s, play.moves[:last], sync=True)
    seat, action = play.moves[last]
    words = old_words(game, s.state, seat, action, [0]).fr
    s.computers.decide(seat, action)
    assert s.over
    while s.computers.work():
        pass
    assert words in messages(s, 0)


def test_a_pass_finishes_the_checks_in_turn_with_what_is_left() -> None:
    """A pass whose first check ends goes on with the next one with the units left."""
    game = get_game("zop")
    moves = list(itertools.islice(computer_moves("zop", 2, (0,), 1), 30))
    units = [sliced(game, st, x, a, [0])[1] for st, x, a in moves]
    assert any(u > 1 for u in units)
    seats = Seats(game, [0])
    words = Announcements(seats)
    for state, seat, action in moves:
        seats.moves.append((seat, action))
        words.queue.append(announce.Wording(state, seat, action, len(seats.moves) - 1, seats.moves[-1],
                                            public_steps(game, state, seat, action, [0])))
    while words.work():
        pass
    assert [t for a, t in seats.said if a == frozenset({0})] == [old_words(game, st, x, a, [0]).fr
                                                                   for st, x, a in moves]


class Failing(Counting):
    """A game whose rules fail in the middle of the check (a bug)."""

    def legal_actions(self, *a: Any) -> Any:
        if self.calls["legal_actions"] >= 3:
            raise RuntimeError("a rules bug")
        return super().legal_actions(*a)


def test_a_check_that_fails_says_the_move_without_its_words_and_ends() -> None:
    state, seat, action, humans = the_largest_check()
    seats = Seats(Failing(get_game("spywhere")), humans)
    seats.moves.append((seat, action))
    words = Announcements(seats)
    words.add(state, seat, action)
    for _ in range(100):
        if not words.work():
            break
    assert not words.queue and [t for _, t in seats.said] == [f"{seat_label(seat).fr} a joué"] * 3
