"""A computer player's table seat has a screen everyone reads: it must show only what every seat
may know. Property, over seeded solo games driven through the table's session (sensed layouts,
pieces laid as told and now and then where they should not be, the computer's inline thinking,
its announcements, chance drawn by the table): the pictures of each computer's table seat, the
one shown and those of the messages it has queued, are the same whatever the hidden part is.

How "whatever the hidden part" is made: before each event (a human's move, the computer's move,
pieces laid, time passing) the session is cloned; each clone gets another hidden world:
- the state replaced by each hidden variant of what the human may not know (the computers' cards,
  passports, guesses, the pile; every variant the game lists, 64 at most, ~20 in practice), the
  event then played in it;
- another seed for the table's chance draws (the computer draws another card);
- another legal move of the seat that moves (a computer's secret guess, a card laid face down).
A clone whose world every seat knows as the real one (the public view is equal, and some seat's
whole view is: what all know, that seat knows) must show the very same pixels on every computer
seat; one the human cannot tell from the real one, the same pixels on the human's screen too.
Each clone starts from the real session's messages, so by induction over the events every
message a computer seat shows is public. Screens are compared as frames first: equal frames draw
equal pixels, and only frames that differ are drawn and their pixels compared. 1,000 events per
game, 500 for Spywhere, whose events cost ten times the others': with 1,000, Spywhere's part took
about 3 minutes of CPU alone on the machine of 2026-11-28, most of it the table's own check of each
computer move's words (firmware_host/apps/announce.py), run again in every world.
"""

from __future__ import annotations

import collections
import copy
import dataclasses
import functools
import itertools
import random
from collections.abc import Callable
from typing import Any

import pytest

from firmware_host.apps import computer_seats, reconcile
from firmware_host.apps.computer import InlineThinker
from firmware_host.apps.session import GameSession
from firmware_host.apps.state_memo import StateMemo
from firmware_host.screens.frames import Frame
from firmware_host.screens.render import render_frame
from firmware_host.storage.config import load_config
from firmware_host.storage.tags import sim_registry, sim_uid
from games import ai
from games.core import CHANCE, GameConfig, normalise_layout
from games.registry import available_ids, get_game

pytestmark = pytest.mark.slow  # 1,000 events a game, each in some twenty worlds: the longest file

STATES = 1000  # checked states per game (events of the real session)
# Spywhere's events cost ten times the others' (three computers, each move's words checked in
# every variant of every world): half as many keep its part near the others' in CPU time
FEWER_STATES = {"spywhere": 500}
VARIANTS = 64  # hidden worlds tried per event: all of them (the games have at most ~25 per state)
ALTERNATIVES = 2  # other moves of the moving seat tried per event
RESEEDS = 1  # other chance draws tried per event
MISTAKES = 0.3  # share of events that lay a piece at random (the screens then say why)
# players: one human at table seat 1, computers at the next table seats
PLAYERS = {"droles-de-zebres": 2, "zop": 2, "spywhere": 4}
LEVELS = ("easy", "greedy")  # real searches on a small budget: the leak is in the table, not the AI


class Clock:
    """The table's clock, moved by the test."""

    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def new_session(game_id: str, seed: int, clock: Clock) -> GameSession:
    """A solo game as the table starts it: one human, computers at the other table seats."""
    game = get_game(game_id)
    players = PLAYERS[game_id]
    options = dict(computer_seats.REQUIRED_OPTIONS.get(game_id, {}))
    config = GameConfig(players, options, seed)
    zones = set(load_config(None).zones)
    s = GameSession(game, config, tuple(range(1, players + 1)), sim_registry(game.pieces()), zones, clock,
                    auto_chance=True)
    s.set_computers({c: LEVELS[c % len(LEVELS)] for c in range(1, players)}, hints=False)
    s.computers.thinker = InlineThinker(iterations=6)
    return s


ATOMS = (type(None), str, int, float, bool, bytes, frozenset, type)


FROZEN: set[type] = set(ATOMS)  # the types found frozen so far (looked up without a call)


def frozen_type(cls: type) -> bool:
    """True for a type whose values nothing can change (shared by the clones, never copied): the
    immutable builtins and frozen dataclasses (states, layouts, texts, frames)."""
    params = getattr(cls, "__dataclass_params__", None)
    if issubclass(cls, ATOMS) or (params is not None and params.frozen):
        FROZEN.add(cls)
    return cls in FROZEN


OBJECT_HOOKS = ("__new__", "__reduce_ex__", "__reduce__", "__getstate__")  # what a plain class inherits


@functools.cache
def plain_slots(cls: type) -> tuple[str, ...] | None:
    """The slots of a class whose instances a deep copy rebuilds from their `__dict__` and slots
    alone (no copy or pickle hooks of their own), copied here the way `copy.deepcopy` would; None
    for any other class."""
    if (any(getattr(cls, hook) is not getattr(object, hook) for hook in OBJECT_HOOKS)
            or hasattr(cls, "__deepcopy__") or hasattr(cls, "__setstate__")):
        return None
    slots = [vars(c).get("__slots__", ()) for c in cls.__mro__[:-1]]
    return tuple(n for names in slots for n in ((names,) if isinstance(names, str) else names)
                 if n not in ("__dict__", "__weakref__"))


def deep(value: Any, memo: dict[int, Any]) -> Any:
    """A deep copy of `value` sharing what `memo` holds and every frozen value (`copy.deepcopy`
    with those shared, for what the session holds: containers and plain objects; any other
    object goes to `copy.deepcopy` with the same memo)."""
    cls: type = type(value)
    if cls in FROZEN or frozen_type(cls):
        return value
    found = memo.get(id(value), memo)
    if found is not memo:
        return found
    out: Any
    if cls is tuple:
        items = [v if type(v) in FROZEN else deep(v, memo) for v in value]
        out = value if all(a is b for a, b in zip(items, value)) else tuple(items)
        # a tuple holding itself through a mutable item was made meanwhile
        out = memo.get(id(value), out)
    elif cls is list:
        out = memo[id(value)] = []
        out.extend(v if type(v) in FROZEN else deep(v, memo) for v in value)
    elif cls is dict:
        out = memo[id(value)] = {}
        for k, v in value.items():
            out[k if type(k) in FROZEN else deep(k, memo)] = v if type(v) in FROZEN else deep(v, memo)
    elif cls is set:
        out = memo[id(value)] = {deep(v, memo) for v in value}
    elif cls is collections.deque:
        out = memo[id(value)] = collections.deque((), value.maxlen)
        out.extend(deep(v, memo) for v in value)
    elif (slots := plain_slots(cls)) is not None:
        out = memo[id(value)] = object.__new__(cls)  # what `cls.__new__` is
        if hasattr(value, "__dict__"):
            out.__dict__.update({k: v if type(v) in FROZEN else deep(v, memo) for k, v in vars(value).items()})
        for name in slots:
            if hasattr(value, name):
                setattr(out, name, deep(getattr(value, name), memo))
    else:
        return copy.deepcopy(value, memo)
    memo[id(value)] = out
    keep = memo.setdefault(id(memo), [])  # the originals copied stay alive: no id is taken again meanwhile
    keep.append(value)
    return out


def template(s: GameSession) -> dict[int, Any]:
    """What every deep copy of `s` shares with it besides its frozen values: the game, the clock,
    the thinker, the sensed table and the zones (replaced by the session, never changed in place)."""
    keep = (s.game, s.registry, s.clock, s.computers.thinker, s.state, s._memo, s.computers.thinking, s.table._layout,
            s.zones, s.config, s.table.sensed, s.table.matched, s._logical_zones)
    return {id(x): x for x in keep}


def clone(s: GameSession, base: dict[int, Any] | None = None) -> GameSession:
    """An independent copy of the session (notices, timers, sensed table, cursors), same game;
    `base`: `template(s)`, worked out once for many copies."""
    memo = dict(template(s) if base is None else base)
    # the lists of moves made are only ever added to: new lists of the same entries
    memo[id(s.moves)], memo[id(s.history)] = list(s.moves), list(s.history)
    twin: GameSession = deep(s, memo)
    # what the game answered for this state still holds (a twin given another state drops it)
    twin._memo = StateMemo()
    twin.table.forget()
    twin._memo.state, twin._memo.values = s._memo.state, dict(s._memo.values)
    return twin


def physical(s: GameSession, logical: dict[str, Any]) -> dict[str, frozenset[str]]:
    """The tags lying on the table for a layout of this game's zones."""
    out: dict[str, frozenset[str]] = {}
    for zone, pieces in logical.items():
        where = s.to_physical(zone)
        if where is not None and where in s.zones and pieces:
            out[where] = frozenset(sim_uid(p) for p in pieces)
    return out


def frames(s: GameSession, seats: list[int]) -> list[tuple[Frame, tuple[int, int]]]:
    """What the seats show now, then with each message they have queued (the screen shows the
    first one; the others come in turn), with each screen's size."""
    queues = [ui.notices for ui in s.ui]
    for ui, q in zip(s.ui, queues):
        ui.notices = collections.deque(copy.copy(n) for n in q)
    try:
        out: list[tuple[Frame, tuple[int, int]]] = []
        for _ in range(1 + max(len(s.ui[c].notices) for c in seats)):
            out.extend((s.seat_frame(c), s.size(c)) for c in seats)
            for c in seats:
                if s.ui[c].notices:
                    s.ui[c].notices.popleft()
        return out
    finally:
        for ui, q in zip(s.ui, queues):
            ui.notices = q


def same_pixels(a: list[tuple[Frame, tuple[int, int]]], b: list[tuple[Frame, tuple[int, int]]], lang: str) -> bool:
    """True when both lists of screens draw the same pixels (equal frames draw equal pixels: only
    frames that differ are drawn)."""
    return a == b or (len(a) == len(b) and all(
        fa == fb or render_frame(fa, lang, sa).tobytes() == render_frame(fb, lang, sb).tobytes()
        for (fa, sa), (fb, sb) in zip(a, b)))


def said(s: GameSession, seats: list[int]) -> list[list[str]]:
    """What the seats show and have queued, as text (for a failure's message)."""
    return [[f.banner.fr if (f := s.seat_frame(c)).banner else "", *(n.text.fr for n in s.ui[c].notices)]
            for c in seats]


Event = tuple[str, int, Any]  # (kind, seat, action or layout)


def run(s: GameSession, event: Event) -> bool:
    """Carry out one event on a game in progress; False if that game refuses it."""
    kind, seat, what = event
    if kind == "lay":  # pieces laid (or lifted) as the sensed table now shows
        s.sense(what)
    elif kind == "choose":  # a menu choice (or a move no piece shows)
        if s.game.check(s.state, seat, what) is not None or not s.apply(seat, what):
            return False
        s.reconcile()
    elif kind == "computer":
        if s.game.check(s.state, seat, what) is not None:
            return False
        s.computers.decide(seat, what)
    elif kind == "time":  # the clock was moved by `what` seconds for every world
        s.expire()
    while s.computers.work():  # the loop's idle passes: a computer's move said in words, in order
        pass
    return True


def human_event(s: GameSession, rng: random.Random) -> Event | None:
    """A random legal move of the human: pieces laid for one that shows on the table, else a choice."""
    if 0 not in s.humans_to_act():
        return None
    zones = s.logical_zones()
    now = reconcile.restrict(normalise_layout(s.game.expected_layout(s.state)), zones)
    action = rng.choice(s.game.legal_actions(s.state, 0))
    foot = reconcile.restrict(normalise_layout(s.game.footprint(s.state, 0, action)), zones)
    if foot != now:
        return ("lay", 0, physical(s, foot))
    return ("choose", 0, action)


def mistake(s: GameSession, rng: random.Random) -> Event:
    """A piece of the game laid on a zone at random (moved there if it lay elsewhere): any piece,
    or one the game places (a computer's card, kept in the table, included)."""
    placed = sorted(p for ps in normalise_layout(s.game.expected_layout(s.state)).values() for p in ps)
    uid = sim_uid(rng.choice(placed if placed and rng.random() < 0.5 else sorted(s.game.pieces())))
    sensed = {zone: uids - {uid} for zone, uids in s.sensed.items()}
    zone = rng.choice(sorted(s.zones))
    sensed[zone] = sensed.get(zone, frozenset()) | {uid}
    return ("lay", -1, {z: u for z, u in sensed.items() if u})


def next_event(s: GameSession, rng: random.Random) -> Event:
    """What happens next at the table: now and then a piece laid where it should not be."""
    if rng.random() < MISTAKES:
        return mistake(s, rng)
    if s.instruction is not None:  # a human carries out what the screens say
        return ("lay", -1, physical(s, s.expected()))
    due = s.computers._due()
    if due is not None:
        s.computers.start()
        thinking = s.computers.thinking
        assert thinking is not None and thinking.future.done()
        answer = thinking.future.result()
        s.computers.thinking = None
        return ("computer", due, answer)
    event = human_event(s, rng)
    return event if event is not None else ("time", -1, 5.0)


def worlds(s: GameSession, event: Event) -> list[tuple[GameSession, Event]]:
    """Copies of the game in progress before `event`, each with another hidden part, and their event."""
    game, state = s.game, s.state
    base = template(s)
    out = []
    for variant in itertools.islice(game.hidden_variants(state, 0), VARIANTS):
        twin = clone(s, base)
        twin.state = variant
        out.append((twin, event))
    for n in range(1, RESEEDS + 1):  # chance draws otherwise: another card for the computer
        twin = clone(s, base)
        twin.config = dataclasses.replace(s.config, seed=s.config.seed + 7919 * n)
        out.append((twin, event))
    kind, seat, what = event
    if kind in ("computer", "choose") and seat != CHANCE:
        others = [a for a in game.legal_actions(state, seat) if a != what]
        for action in random.Random(str(what)).sample(others, min(ALTERNATIVES, len(others))):
            out.append((clone(s, base), (kind, seat, action)))
    return out


def common_knowledge_equal(game: Any, players: int, real: Callable[[int | None], Any], b: Any) -> bool:
    """True when what every seat knows is the same in both states (`real`: the views of the real
    one): the public view is, and some seat knows both as the same (what all know, that seat knows)."""
    return real(None) == game.view(b, None) and any(real(x) == game.view(b, x) for x in range(players))


def check_game(game_id: str) -> tuple[int, int]:
    """Play seeded games until the game's STATES events were checked; (events, clones compared)."""
    game = get_game(game_id)
    states = FEWER_STATES.get(game_id, STATES)
    events = compared = 0
    for seed in itertools.count():
        clock = Clock()
        s = new_session(game_id, seed, clock)
        rng = random.Random(seed)
        event: Event = ("lay", -1, {})  # the game starts on an empty table: the deal
        while not s.over and events < states:
            twins = worlds(s, event)
            now = clock.t + (event[2] if event[0] == "time" else 0.0)
            clock.t = now
            assert run(s, event), event
            clock.t = now + 1.0
            s.expire()
            events += 1
            computers = [c for c in sorted(s.computers.seats) if s.seats[c] is not None]
            seen, human_seen = frames(s, computers), frames(s, [0])
            real = functools.cache(functools.partial(game.view, s.state))
            for twin, twin_event in twins:
                clock.t = now
                if not run(twin, twin_event):
                    continue
                clock.t = now + 1.0
                twin.expire()
                if twin.state is not s.state and not common_knowledge_equal(game, s.config.players, real, twin.state):
                    continue  # a world the seats can tell apart: its screens may differ
                compared += 1
                if not same_pixels(frames(twin, computers), seen, s.lang):
                    raise AssertionError(
                        f"{game_id} seed {seed} event {events} {event[0]}: a computer seat's screen differs in a "
                        f"world the table cannot tell apart: {said(twin, computers)} / {said(s, computers)}")
                # the human's own screen, in a world where it knows the same: the computers' secrets
                # never reach it either (a reason given or not, a move named or not)
                if (twin.state is s.state or game.view(twin.state, 0) == real(0)) \
                        and not same_pixels(frames(twin, [0]), human_seen, s.lang):
                    raise AssertionError(
                        f"{game_id} seed {seed} event {events} {event[0]}: the human's screen differs in a world "
                        f"it cannot tell apart: {said(twin, [0])} / {said(s, [0])}")
            if not s.over:
                event = next_event(s, rng)
        if events >= states:
            return events, compared
    raise AssertionError("unreachable")


@pytest.mark.parametrize("game_id", [g for g in sorted(available_ids()) if ai.has_ai(g)])
def test_a_computer_seat_screen_shows_only_what_every_seat_may_know(game_id: str) -> None:
    events, compared = check_game(game_id)
    states = FEWER_STATES.get(game_id, STATES)
    assert events >= states and compared >= states, (events, compared)

