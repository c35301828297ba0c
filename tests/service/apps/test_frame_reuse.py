"""A seat's frame is built again only when something it shows changed: over seeded random games of
every game (buttons, pieces laid right and wrong, time passing, a language switch, computer
seats), the frame each seat gets is, at every event, the one a full build gives."""

from __future__ import annotations

import random
from concurrent.futures import Future

import pytest

from firmware_host.apps import reconcile
from firmware_host.apps.app import LeaveGame
from firmware_host.apps.computer import CHOOSE, InlineThinker
from firmware_host.apps.computer_seats import REQUIRED_OPTIONS, Thinking, has_ai
from firmware_host.apps.session import GameSession
from firmware_host.storage.config import load_config
from firmware_host.storage.tags import sim_registry
from games.core import CHANCE, GameConfig
from games.registry import game_ids, get_game

EVENTS = 300
BUTTONS = ("left", "right", "ok", "ok", "ok")


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def open_game(game_id: str, seed: int, computer: bool) -> tuple[GameSession, Clock]:
    """A session of `game_id` on the default table's seats, one of them quarter-turned."""
    game = get_game(game_id)
    config = load_config(None)
    players = min(game.max_players, max(game.min_players, 2 + seed % 3))
    seats = tuple(s.id for s in config.seats[:players])
    clock = Clock()
    options = REQUIRED_OPTIONS.get(game_id, {}) if computer else {}  # what a computer needs (ZOP: the deck tracked)
    s = GameSession(game, game.validate_config(GameConfig(players, dict(options), seed)), seats,
                    sim_registry(game.pieces()), set(config.zones), clock, auto_chance=True)
    s.sizes = {sid: (64, 128) if sid == seats[-1] else (128, 64) for sid in seats}
    if computer:
        s.set_computers({players - 1: "easy"}, hints=True)
        s.computers.thinker = InlineThinker(iterations=8)
    s.begin({})
    return s, clock


def lay(s: GameSession, sensed: dict[str, frozenset[str]], zone: str | None, piece: str, place: bool) -> None:
    """A piece laid on or lifted off a physical zone, the table settled."""
    uid = s.registry.uid(piece)
    if zone is None or uid is None:
        return
    now = set(sensed.get(zone, frozenset()))
    (now.add if place else now.discard)(uid)
    sensed[zone] = frozenset(now)
    s.on_sensed(dict(sensed))


def move(s: GameSession, rng: random.Random, sensed: dict[str, frozenset[str]]) -> None:
    """A legal move of a human to act laid as its footprint says (its first piece only, at times)."""
    acting = sorted(x for x in s.game.to_act(s.state) if x != CHANCE and x not in s.computers.seats)
    if not acting:
        return
    seat = rng.choice(acting)
    zones = s.logical_zones()
    now = reconcile.restrict(s.layout(), zones)
    feet = [reconcile.restrict(s.game.footprint(s.state, seat, a), zones)
            for a in s.game.legal_actions(s.state, seat)[:30]]
    feet = [f for f in feet if f != now]
    if not feet:
        return
    fixes = reconcile.fixes(rng.choice(feet), now)
    for fix in fixes[:1] if rng.random() < 0.2 else fixes:
        lay(s, sensed, s.to_physical(fix.zone), fix.piece, fix.kind == "place")


def event(s: GameSession, clock: Clock, rng: random.Random, sensed: dict[str, frozenset[str]]) -> bool:
    """One random table event; False once the game is left."""
    r = rng.random()
    humans = [x for x, t in enumerate(s.seats) if t is not None]
    if r < 0.45:
        kind = "long" if rng.random() < 0.1 else "press"
        done = s.on_button(s.seats[rng.choice(humans)] or 0, rng.choice(BUTTONS), kind)  # type: ignore[arg-type]
        return not isinstance(done, LeaveGame)
    if r < 0.6 and s.instruction is not None:
        fix = s.instruction.fix
        lay(s, sensed, s.to_physical(fix.zone), fix.piece, fix.kind == "place")
    elif r < 0.8:
        move(s, rng, sensed)
    elif r < 0.86:  # a piece of the game where it does not belong
        lay(s, sensed, rng.choice(sorted(s.zones)), rng.choice(s.game.pieces()), rng.random() < 0.7)
    elif r < 0.98:
        clock.t += rng.choice((0.1, 0.5, 1.0, 2.5, 4.0))
        s.on_time()
    else:
        s.lang = "en" if s.lang == "fr" else "fr"
    return True


def games() -> list[tuple[str, int, bool]]:
    return [(g, seed, seed == 2 and has_ai(g)) for g in game_ids() for seed in (1, 2, 3)]


@pytest.mark.parametrize(("game_id", "seed", "computer"), games())
def test_every_frame_is_the_one_a_full_build_gives(game_id: str, seed: int, computer: bool) -> None:
    s, clock = open_game(game_id, seed, computer)
    rng = random.Random(seed)
    sensed: dict[str, frozenset[str]] = {}
    seats = [x for x, t in enumerate(s.seats) if t is not None]
    reused = 0
    for n in range(EVENTS):
        made = {x: s.frames._made.get(x) for x in seats}
        for x in seats:
            kept = s.frames.seat_frame(x)
            reused += made[x] is not None and kept is made[x][1]  # type: ignore[index]
            assert kept == s.frames.build(x), (game_id, n, x)
        if not event(s, clock, rng, sensed):
            break
    assert reused > 0  # the frames were reused, not built at every pass


def test_a_frame_is_built_again_when_its_seat_cursor_moves() -> None:
    s, _ = open_game(game_ids()[0], 1, False)
    x = next(x for x in range(len(s.seats)) if len(s.menu(x)) > 1)
    first = s.frames.seat_frame(x)
    assert s.frames.seat_frame(x) is first
    s.ui[x].cursor += 1
    assert s.frames.seat_frame(x).cursor == first.cursor + 1


def test_a_frame_is_built_again_when_a_computer_starts_and_stops_thinking() -> None:
    game_id = next(g for g in game_ids() if has_ai(g))
    s, _ = open_game(game_id, 2, True)
    human = 0
    idle = s.frames.seat_frame(human)
    s.computers.thinking = Thinking(len(s.seats) - 1, CHOOSE, s.state, Future(), 0.0)
    thinking = s.frames.seat_frame(human)
    assert thinking == s.frames.build(human) != idle
    s.computers.thinking = None
    assert s.frames.seat_frame(human) == s.frames.build(human) == idle
