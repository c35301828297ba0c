"""Computer seats of a GameSession: when to think, what to do with the decision, hints.

A computer seat is a game seat (`GameSession.levels`: seat -> level). It may sit at a free table
seat (its screen shows the public screen, "thinking…" and its moves) or at none. Its pad is
never sensed: its secret cards exist only in the table (see docs/architecture.md, *Computer
seats at the table*).

The computer is asked only with its own view (`game.view(state, seat)`), through a Thinker off the
loop. A decision that changes nothing on the sensed zones (a menu choice, a card only the table
holds) is applied at once and announced; one that moves a piece is applied too, and the table's
usual reconciliation guides a human to carry it out (the LED of the zone, "Posez … en C3" on
every seated screen) and refuses any other placement.
"""

from __future__ import annotations

import logging
from concurrent.futures import Future
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from games.core import CHANCE, Action, Choice, IllegalAction, Screen, Text, tr
from games.texts import seat_label

from firmware_host.apps.computer import CHOOSE, HINT_LEVEL, RANK, Job

if TYPE_CHECKING:
    from firmware_host.apps.session import GameSession

log = logging.getLogger(__name__)

HINT = "_hint"
# options a game needs with a computer seat: ZOP's computer holds its cards in the table only, so
# the table must track the decks (docs/games/zop.md, *Computer players*)
REQUIRED_OPTIONS: dict[str, dict[str, object]] = {"zop": {"deck": "tracked"}}
MAX_CHAIN = 500  # decisions applied in one step (an inline thinker, a computer-only stretch)


@dataclass
class Thinking:
    """A job under way: for `seat`, about `state` (a stale answer is dropped)."""

    seat: int
    kind: str
    state: Any
    future: Future[Any]
    since: float


def has_ai(game_id: str) -> bool:
    """True when the game has a computer player (its AI module is not imported to say so)."""
    from games.ai import has_ai as known

    return known(game_id)


def level_name(level: str) -> Text:
    """A level as the screens name it."""
    names = {"easy": tr("facile", "easy"), "greedy": tr("moyen", "medium"), "strong": tr("fort", "strong")}
    return names.get(level, Text(level, level))


def computer_name(seat: int) -> Text:
    """"J2 (ordinateur)"."""
    s = seat_label(seat)
    return tr(f"{s.fr} (ordinateur)", f"{s.en} (computer)")


def thinking_text(s: GameSession) -> Text | None:
    """"J2 réfléchit…" while a computer thinks, else None."""
    t = s.thinking
    if t is None or t.kind != CHOOSE:
        return None
    name = seat_label(t.seat)
    return tr(f"{name.fr} (ordinateur) réfléchit…", f"{name.en} (computer) is thinking…")


# -- deciding ------------------------------------------------------------------------------------
def step(s: GameSession) -> None:
    """Collect a finished decision (apply it), then start the next one that is due."""
    if s.thinker is None:
        return
    for _ in range(MAX_CHAIN):
        collect(s)
        if not start(s):
            return
        if s.thinking is not None and not s.thinking.future.done():
            return


def _due(s: GameSession) -> int | None:
    """The computer seat that must decide now, if any (asked with its view only)."""
    if not s.levels or s.over or s.wants_quit:
        return None
    from games.ai import needs_decision

    acting = s.to_act()
    seats = sorted(x for x in acting if x != CHANCE and x in s.levels)
    for seat in seats:
        if needs_decision(s.game.id, s.game.view(s.state, seat), seat):
            return seat
    # only computers to act and none with a real choice (a round end): the first one goes on
    if seats and CHANCE not in acting and all(x in s.levels for x in acting):
        return seats[0]
    return None


def start(s: GameSession) -> bool:
    """Start thinking for the computer seat due, if any and if the thinker is free. True if started."""
    if s.thinking is not None or s.thinker is None:
        return False
    seat = _due(s)
    if seat is None:
        return False
    job = Job(s.game.id, s.game.view(s.state, seat), seat, s.levels[seat],
              f"{s.config.seed}/{len(s.history)}/{seat}", CHOOSE)
    s.thinking = Thinking(seat, CHOOSE, s.state, _submit(s, job), s.clock())
    return True


def _submit(s: GameSession, job: Job) -> Future[Any]:
    assert s.thinker is not None
    fut = s.thinker.submit(job)
    if s.wake is not None and not fut.done():
        wake = s.wake
        fut.add_done_callback(lambda _f: wake())  # on the worker's thread: only posts an event
    return fut


def collect(s: GameSession) -> None:
    """Apply (or show, for a hint) the finished job; a stale or failed one is dropped."""
    t = s.thinking
    if t is None or not t.future.done():
        return
    s.thinking = None
    try:
        answer = t.future.result()
    except Exception as exc:  # noqa: BLE001 - the table keeps answering
        log.warning("computer seat %s could not decide: %s", t.seat, type(exc).__name__)
        s.notify(frozenset(s.humans()), tr(f"{seat_label(t.seat).fr} (ordinateur) ne peut pas jouer : {exc}",
                                           f"{seat_label(t.seat).en} (computer) cannot play: {exc}"))
        if t.kind == CHOOSE:
            s.stuck.add(t.seat)
        return
    if t.state is not s.state:  # the game moved on meanwhile (an undo, another seat): think again
        return
    if t.kind == RANK:
        _show_hint(s, t.seat, answer)
        return
    log.info("computer seat %s plays %s after %.2f s", t.seat, answer.get("type"), s.clock() - t.since)
    play(s, t.seat, answer)


def play(s: GameSession, seat: int, action: Action) -> None:
    """Apply the computer's decision, announce it, and let reconciliation guide its pieces."""
    before = s.state
    text = _announcement(s, before, seat, action)
    if not s.apply(seat, action):  # never expected: the AI only answers legal actions
        s.stuck.add(seat)
        return
    for x in s.humans():
        s.notify(frozenset({x}), text)
    s.notify(frozenset({seat}), text, public=True)  # what every human reads: its seat's screen too
    s.reconcile()


def _announcement(s: GameSession, state: Any, seat: int, action: Action) -> Text:
    """The computer's move as every human may read it: its words if public, else "J2 a joué"."""
    name = seat_label(seat)
    if _public(s, state, seat, action):
        what = s.game.describe_action(state, seat, action)
        return tr(f"{name.fr} : {what.fr}", f"{name.en}: {what.en}")
    return tr(f"{name.fr} a joué", f"{name.en} played")


def _public(s: GameSession, state: Any, seat: int, action: Action) -> bool:
    """True when every human can tell this move from every other move the seat had (it shows on
    the board or a centre slot, or nothing about it is hidden): its words then tell nobody a secret.
    A card laid face down is not public even when the human knows the hand it came from."""
    humans = s.humans()
    seen = [s.game.view(s.game.apply(state, seat, action).state, h) for h in humans]
    for other in s.game.legal_actions(state, seat):
        if other == action:
            continue
        try:
            after = s.game.apply(state, seat, other).state
        except IllegalAction:
            continue
        if any(s.game.view(after, h) == v for h, v in zip(humans, seen, strict=True)):
            return False
    return True


# -- hints ---------------------------------------------------------------------------------------
def hint_choice(s: GameSession, seat: int) -> Choice | None:
    """The "Conseil" entry of a human seat to act, when the game allows hints."""
    if not s.hints or s.thinker is None or seat in s.levels or seat not in s.humans_to_act():
        return None
    return Choice(tr("Conseil", "Hint"), {"type": HINT})


def ask_hint(s: GameSession, seat: int) -> None:
    """The strong level's suggestion for `seat`, from its view only, for its screen only."""
    if s.thinking is not None:
        s.notify(frozenset({seat}), tr("L'ordinateur réfléchit : patientez", "The computer is thinking: wait"))
        return
    from games.ai import levels

    level = HINT_LEVEL if HINT_LEVEL in levels(s.game.id) else levels(s.game.id)[-1]
    job = Job(s.game.id, s.game.view(s.state, seat), seat, level, f"{s.config.seed}/{len(s.history)}/{seat}/hint",
              RANK)
    s.thinking = Thinking(seat, RANK, s.state, _submit(s, job), s.clock())
    s.hint_shown[seat] = (s.state, tr("Conseil : je réfléchis…", "Hint: thinking…"))
    step(s)


def _show_hint(s: GameSession, seat: int, best: list[Action]) -> None:
    if not best:
        text = tr("Conseil : aucun coup", "Hint: no move")
    else:
        what = s.game.describe_action(s.state, seat, best[0])  # the seat's own move, for its eyes only
        text = tr(f"Conseil : {what.fr}", f"Hint: {what.en}")
    s.hint_shown[seat] = (s.state, text)


def hint_text(s: GameSession, seat: int) -> Text | None:
    """The hint shown on `seat`'s screen while the position it is about stands."""
    shown = s.hint_shown.get(seat)
    if shown is None or shown[0] is not s.state:
        s.hint_shown.pop(seat, None)
        return None
    return shown[1]


# -- screens -------------------------------------------------------------------------------------
def screen(s: GameSession, seat: int) -> Screen:
    """A computer seat's screen (it may sit at a table seat): the PUBLIC screen, never its view's."""
    public = s.game.screen(s.game.view(s.state, None), None)
    name = computer_name(seat)
    level = level_name(s.levels.get(seat, ""))
    title = tr(f"{name.fr} · {level.fr}", f"{name.en} · {level.en}")
    return Screen(title, public.lines, public.big, public.bar, public.icon)


def cancel(s: GameSession) -> None:
    """Stop thinking (the game is left): the answer, if it still comes, is dropped."""
    if s.thinking is not None and s.thinker is not None:
        s.thinker.cancel()
    s.thinking = None

