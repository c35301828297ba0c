"""What each seat may know (the pea's cup: its hider only), its screen, and the hidden variants."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace

from games.shell_game.scoring import points
from games.shell_game.state import CUPS, GUESS, HIDE, OVER, Round, ShellState
from games.shell_game.texts import MESSAGES

from games.core import Screen
from games.texts import seat_label


@dataclass(frozen=True)
class ShellView:
    """One seat's knowledge of the game (seat None: the public view)."""

    seat: int | None
    phase: str
    hider: int
    rounds: int
    cup: int | None  # where the pea lies: the hider's view only
    played: tuple[Round, ...]
    points: tuple[int, int]


def view(state: ShellState, seat: int | None) -> ShellView:
    """Everything `seat` may know."""
    cup = state.cup if seat is not None and seat == state.hider else None
    return ShellView(seat, state.phase, state.hider, state.rounds, cup, state.played, points(state))


def screen(v: ShellView, seat: int | None) -> Screen:
    """The seat's screen: what to do now (the hider sees the pea's cup), the points."""
    title = MESSAGES("title", round=min(len(v.played) + 1, v.rounds), rounds=v.rounds)
    if v.phase == OVER:
        lines = [MESSAGES("over")]
    elif seat == v.hider and v.phase == HIDE:
        lines = [MESSAGES("hide")]
    elif seat == v.hider and v.cup is not None:
        lines = [MESSAGES("your_cup", cup=v.cup)]
    elif seat == 1 - v.hider and v.phase == GUESS:
        lines = [MESSAGES("guess")]
    else:
        lines = [MESSAGES("wait", seat=seat_label(v.hider if v.phase == HIDE else 1 - v.hider))]
    me = 0 if seat is None else seat
    lines.append(MESSAGES("scores", mine=v.points[me], theirs=v.points[1 - me]))
    acting = (v.phase == HIDE and seat == v.hider) or (v.phase == GUESS and seat == 1 - v.hider)
    return Screen(title, tuple(lines), icon="turn" if acting else "wait" if seat is not None else None)


def hidden_variants(state: ShellState, seat: int) -> Iterator[ShellState]:
    """The pea under each other cup, for the seat that did not hide it."""
    if state.cup is None or seat == state.hider:
        return
    for cup in CUPS:
        if cup != state.cup:
            yield replace(state, cup=cup)
