"""Who acts, what is legal, why anything else is refused, and what an action does."""

from __future__ import annotations

from dataclasses import replace

from games.shell_game.state import CUPS, GUESS, HIDE, OVER, Round, ShellState
from games.shell_game.texts import MESSAGES, REFUSALS

from games.core import Action, Effect, Rejection, Step, action, is_int
from games.texts import seat_label


def initial_state(rounds: int) -> ShellState:
    """Seat 0 hides first."""
    return ShellState(rounds)


def to_act(state: ShellState) -> frozenset[int]:
    """The hider, then the guesser; nobody once the rounds are played."""
    if state.phase == OVER:
        return frozenset()
    return frozenset({state.hider if state.phase == HIDE else state.guesser})


def legal_actions(state: ShellState, seat: int) -> list[Action]:
    """Hide under, or guess, each of the three cups."""
    if seat not in to_act(state):
        return []
    return [action(state.phase, cup=cup) for cup in CUPS]


def check(state: ShellState, seat: int, act: Action) -> Rejection | None:
    """None when legal, else the reason."""
    if not is_int(seat) or seat not in to_act(state):
        return REFUSALS("not_your_turn") if state.phase != OVER else REFUSALS("wrong_phase:over")
    kind = act.get("type")
    if kind not in (HIDE, GUESS) or set(act) != {"type", "cup"}:
        return REFUSALS("bad_action")
    if kind != state.phase:
        return REFUSALS(f"wrong_phase:{state.phase}")
    if not is_int(act["cup"]) or act["cup"] not in CUPS:
        return REFUSALS("bad_cup")
    return None


def transition(state: ShellState, seat: int, act: Action) -> Step[ShellState]:
    """Hide the pea, or lift the named cup and score the round."""
    if act["type"] == HIDE:
        # only the hider's own screen says where: the message names no cup
        return Step(replace(state, phase=GUESS, cup=act["cup"]),
                    (Effect("message", MESSAGES("hidden", seat=seat_label(seat))),))
    assert state.cup is not None
    played = (*state.played, Round(state.hider, state.cup, act["cup"]))
    text = MESSAGES("found", seat=seat_label(seat)) if played[-1].found else MESSAGES("missed", cup=state.cup)
    phase = OVER if len(played) >= state.rounds else HIDE
    return Step(ShellState(state.rounds, phase, None, played), (Effect("reveal", text, None, {"cup": state.cup}),))
