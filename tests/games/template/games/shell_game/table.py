"""The physical table: the pea under a cup (centre slots 1 to 3), the guesses on the buttons."""

from __future__ import annotations

from games.shell_game import rules
from games.shell_game.pieces import PEA, cup_of, cup_zone
from games.shell_game.state import CUPS, GUESS, HIDE, ShellState
from games.shell_game.texts import LABELS, REFUSALS

from games.core import Action, Choice, Layout, Rejection, Text, is_int


def expected_layout(state: ShellState) -> Layout:
    """The pea under its cup while hidden; nothing on the table between rounds."""
    return {cup_zone(state.cup): frozenset({PEA})} if state.cup is not None else {}


def footprint(state: ShellState, seat: int, act: Action) -> Layout:
    """Hiding puts the pea under a cup; a guess is a button press and moves nothing."""
    if act.get("type") == HIDE and is_int(act.get("cup")):
        return {cup_zone(act["cup"]): frozenset({PEA})}
    return expected_layout(state)


def choices(state: ShellState, seat: int) -> list[Choice]:
    """The guesser's menu: one entry per cup (hiding is a gesture)."""
    if state.phase != GUESS:
        return []
    return [Choice(describe_action(state, seat, a), a) for a in rules.legal_actions(state, seat)]


def describe_action(state: ShellState, seat: int, act: Action) -> Text:
    """"Gobelet 2" / "Pea under cup 2"."""
    return LABELS("guess" if act.get("type") == GUESS else "hide", cup=act.get("cup"))


def explain(state: ShellState, seat: int, zone: str, piece: str) -> Rejection | None:
    """Why a piece laid is not a move."""
    if piece != PEA:
        return REFUSALS("not_the_pea")
    if cup_of(zone) not in CUPS:
        return REFUSALS("under_a_cup")
    return rules.check(state, seat, {"type": HIDE, "cup": cup_of(zone)})


def explain_removal(state: ShellState, seat: int, zone: str, piece: str) -> Rejection | None:
    """The pea stays hidden until the guess."""
    return REFUSALS("leave_it") if piece == PEA and state.phase == GUESS else None


def highlights(state: ShellState) -> dict[str, str]:
    """Every cup, whatever the pea's: green to hide, blue to guess."""
    if state.phase not in (HIDE, GUESS):
        return {}
    return {cup_zone(c): "green" if state.phase == HIDE else "blue" for c in CUPS}
