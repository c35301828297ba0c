"""Relais: a game of the remote-play tests with several players and nothing hidden. In turn each
player adds 1 or 2 to a shared count with the buttons; whoever reaches the goal wins."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from games.core import Action, Effect, Game, GameConfig, Outcome, Screen, Step, Text, tr

GOAL = 12


@dataclass(frozen=True)
class RelayState:
    """The count, whose turn it is, the winner once there is one."""

    players: int
    count: int = 0
    turn: int = 0
    winner: int | None = None


class Relay(Game[RelayState, dict[str, Any]]):
    """Several players, one count, every move with the buttons."""

    id = "relay"
    name = tr("Relais", "Relay")
    min_players, max_players = 2, 4

    def initial_state(self, config: GameConfig) -> RelayState:
        """The count at 0, the first player to act."""
        return RelayState(self.validate_config(config).players)

    def to_act(self, state: RelayState) -> frozenset[int]:
        """The player whose turn it is, until someone won."""
        return frozenset() if state.winner is not None else frozenset({state.turn})

    def legal_actions(self, state: RelayState, seat: int) -> list[Action]:
        """Add 1 or 2, without passing the goal."""
        if seat not in self.to_act(state):
            return []
        return [{"type": "add", "n": n} for n in (1, 2) if state.count + n <= GOAL]

    def transition(self, state: RelayState, seat: int, action: Action) -> Step[RelayState]:
        """The count grows; the goal reached wins."""
        count = state.count + int(action["n"])
        if count == GOAL:
            return Step(replace(state, count=count, winner=seat),
                        (Effect("won", tr(f"J{seat + 1} gagne", f"P{seat + 1} wins"), None),))
        return Step(replace(state, count=count, turn=(seat + 1) % state.players))

    def describe_action(self, state: RelayState, seat: int, action: Action) -> Text:
        """"+1", "+2"."""
        return tr(f"+{action['n']}", f"+{action['n']}")

    def view(self, state: RelayState, seat: int | None) -> dict[str, Any]:
        """Everything: nothing is hidden."""
        return {"count": state.count, "turn": state.turn, "winner": state.winner}

    def screen(self, view: dict[str, Any], seat: int | None, *, pad_sensed: bool = True) -> Screen:
        """The count and whose turn it is."""
        return Screen(tr("Relais", "Relay"), (tr(f"Total {view['count']}", f"Total {view['count']}"),
                                              tr(f"À J{view['turn'] + 1}", f"P{view['turn'] + 1} to play")))

    def outcome(self, state: RelayState) -> Outcome | None:
        """The winner scores 1."""
        if state.winner is None:
            return None
        return Outcome(tuple(1.0 if s == state.winner else 0.0 for s in range(state.players)), (state.winner,))


GAME = Relay()
