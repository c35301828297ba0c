"""Every mistake at the table is named for what it is, on the screen of the seat that made it.

An oracle: seeded games of every game of the registry are played through the table's session
(sensed tags, the computer's inline thinking, chance drawn by the table), alone against the
computer and between humans. Before each move a mistake is made on the table, built so that its
class is known by construction:
- the right piece on a wrong zone (empty: WRONG_SQUARE, holding a piece: OCCUPIED), by a human to act;
- a piece of the computer's seat laid by the human to act (NOT_YOURS);
- a piece laid by a human the game is not waiting for, on its pad or (its own) on the board (OUT_OF_TURN);
- a piece laid while only the computer is to play (COMPUTER_TO_PLAY);
- the computer's move laid on another zone than the one it chose, or another piece laid meanwhile
  (COMPUTER_MOVE);
- a piece lifted that no move of the seat lifts (LIFTED);
- a card laid on the pad of a human to act that the rules refuse for a limit (the class the game
  gives that rule, OVER_LIMIT); a piece a human to act may lay nowhere now, laid on its pad or
  the board, that the rules refuse for another reason (RULE);
- a piece of another game: no mistake of this game, the table names it as a stranger and lights
  its zone red;
- the first part of a legal move of several pieces (a lift before a swap): never a mistake, the
  table says nothing and waits; part of the computer's move laid as told: no mistake either, the
  rest is asked.
The table's reason (its class and the seats it goes to) must match, the mover's screen must show
it, and once the mistake is undone the table is back where it was. Every class a game's mistakes
can be of is made (the game's info.toml says which cannot and why: `[tests.mistakes_not_made]`): the games are spread over seeds,
solo and between humans, the computer plays a move all make at once as soon as it may, and a set-up
the random draws miss is steered (`STEER` in tests/kits/mistake_oracle.py).
"""

from __future__ import annotations

import collections
import itertools
import random
import time

import pytest

from firmware_host.apps.session import GameSession
from games import ai
from games.core import Mistake
from games.registry import available_ids
from tests.kits.every_game import mistakes_not_made
from tests.kits.mistake_oracle import (
    HALF,
    STRANGER,
    Mistaken,
    Oracle,
    computer_move_mistakes,
    new_session,
    physical,
    play_one,
)

MISTAKES = 1000  # mistakes made per game
PER_SEED = 150  # at most, in one seeded game: several games, solo and between humans, share them
BUDGET = 12.0  # seconds of CPU per game, at most (the machine may be shared: not wall time)
def check(s: GameSession, made: Mistaken, what: str) -> None:
    """Make the mistake on the table, read the table's reason, undo it."""
    kind, seats, table = made
    state, moves, sensed = s.state, len(s.moves), dict(s.sensed)
    s.sense(physical(s, table))
    assert s.state is state and len(s.moves) == moves, f"{what}: a mistake was taken as a move"
    reason = s.reason
    if kind == HALF:
        assert s.instruction is None and reason is None, f"{what}: part of a legal move called {reason}"
    elif kind == STRANGER:  # ignored by this game (its notice is the strangers' own), the zone lit red
        assert s.instruction is None and reason is None, f"{what}: another game's piece called {reason}"
        assert len(s.strangers) == 1 and s.leds().get(s.strangers[0].zone) == "red", f"{what}: {s.strangers}"
    else:
        assert reason is not None, f"{what}: no reason given for {kind}"
        assert reason.mistake == kind and reason.seats & seats, (
            f"{what}: {kind} by {sorted(seats)} read as {reason.mistake} for {sorted(reason.seats)}: {reason.text.fr}")
        for seat in reason.seats & seats:
            frame = s.seat_frame(seat)
            shown = frame.banner.fr if frame.banner is not None else ""
            assert reason.text.fr in shown, f"{what}: seat {seat} shows {shown!r}, not {reason.text.fr!r}"
    s.sense(sensed)
    assert s.state is state and s.instruction is None, f"{what}: the table is not back where it was"


def mistakes_made(seen: collections.Counter[object]) -> int:
    """The mistakes made so far (another game's pieces are not this game's mistakes)."""
    return sum(n for kind, n in seen.items() if kind != STRANGER)


def check_game(game_id: str) -> collections.Counter[object]:
    """Play seeded games until MISTAKES mistakes were made; how many of each class."""
    seen: collections.Counter[object] = collections.Counter()
    start = time.process_time()
    solo_too = ai.has_ai(game_id)
    for seed in itertools.count():
        solo = solo_too and seed % 2 == 0
        s = new_session(game_id, seed, solo)
        rng = random.Random(seed)
        cap = min(MISTAKES, mistakes_made(seen) + PER_SEED)
        for _ in range(3000):
            if s.over or mistakes_made(seen) >= cap:
                break
            if s.instruction is None and s.synced:
                choices = Oracle(s, rng).candidates()
                if choices:
                    made = rng.choice(choices)
                    check(s, made, f"{game_id} seed {seed} move {len(s.moves)} {made[0]}")
                    seen[made[0]] += 1
            before = dict(s.table.matched or {})
            moves, state0 = len(s.moves), s.state
            if not play_one(s, rng):
                break
            if s.computers.seats and s.moves[moves:] and s.instruction is not None \
                    and s.moves[moves][0] in s.computers.seats:
                seat, action = s.moves[moves]
                gesture = {z: ps for z, ps in s.game.footprint(state0, seat, action).items()
                           if z in s.logical_zones() and ps}
                made2 = computer_move_mistakes(s, rng, before, gesture)
                if made2 is not None:
                    kind, seats, table = made2
                    state = s.state
                    s.sense(physical(s, table))
                    reason = s.reason
                    assert s.state is state
                    if kind == HALF:  # the computer's move partly laid: the rest is asked, nothing is wrong
                        assert (reason is None or reason.mistake is None) and s.instruction is not None, (
                            f"{game_id} seed {seed}: the computer's move partly laid read as {reason}")
                    else:
                        assert reason is not None and reason.mistake == kind and reason.seats & seats, (
                            f"{game_id} seed {seed}: the computer's move laid wrongly read as {reason}")
                    seen[kind] += 1
                    s.sense(physical(s, before))
        if mistakes_made(seen) >= MISTAKES:
            break
        assert time.process_time() - start < BUDGET, f"{game_id}: {dict(seen)} after {BUDGET} s of CPU"
    return seen


@pytest.mark.parametrize("game_id", sorted(available_ids()))
def test_every_mistake_is_named_for_what_it_is_on_the_screen_of_who_made_it(game_id: str) -> None:
    seen = check_game(game_id)
    assert mistakes_made(seen) >= MISTAKES, seen
    reached = {k for k in seen if isinstance(k, Mistake)}
    cannot = mistakes_not_made(game_id)  # the game's info.toml: the classes it cannot have, and why
    if cannot is None:  # a game that does not say: every mistake made was named right, whatever its class
        assert reached, f"{game_id}: no mistake made; {dict(seen)}"
    else:
        assert reached == set(Mistake) - cannot.keys(), (
            f"{game_id}: {sorted(k.value for k in reached)} reached; {dict(seen)}")
    print(game_id, {str(k): n for k, n in seen.items()})



def test_nobody_is_told_to_play_while_the_computers_move_waits_to_be_laid() -> None:
    """Drôles de Zèbres against the computer: the game moved on with the computer's move, the table
    not yet: the human's title asks for that move, never "à vous", until it is laid."""
    rng = random.Random(3)
    s = new_session("droles-de-zebres", 0, True)
    checked = 0
    for _ in range(400):
        if s.over or checked >= 5:
            break
        moves = len(s.moves)
        play_one(s, rng)
        if s.instruction is not None and any(x in s.computers.seats for x, _ in s.moves[moves:]):
            title = s.seat_frame(0).screen.title
            assert title.fr == "Coup de J2 à poser" and s.seat_frame(0).screen.icon == "wait", title
            s.sense(physical(s, s.expected()))
            assert s.instruction is None and not s.seat_frame(0).screen.title.fr.startswith("Coup de")
            checked += 1
    assert checked >= 5
