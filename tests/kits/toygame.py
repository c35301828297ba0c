"""A tiny game used to test the engine contract itself: each seat holds a secret number drawn by
chance; seats in turn take 1 or 2 stones from a pile; whoever takes the last stone adds their
secret to their score."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from games.core import CHANCE, Effect, Game, GameConfig, Outcome, Rejection, Screen, Step, tr


@dataclass(frozen=True)
class ToyState:
    players: int
    pile: int
    secrets: tuple[int | None, ...]
    turn: int = 0
    winner: int | None = None


class Toy(Game):
    id = "toy"
    name = tr("Jouet", "Toy")
    min_players, max_players = 2, 3

    def initial_state(self, config: GameConfig) -> ToyState:
        return ToyState(config.players, 7, (None,) * config.players)

    def to_act(self, state: ToyState) -> frozenset[int]:
        if state.winner is not None:
            return frozenset()
        if None in state.secrets:
            return frozenset({CHANCE})
        return frozenset({state.turn})

    def chance_outcomes(self, state: ToyState):
        return [({"type": "deal", "value": v}, 1 / 3) for v in (1, 2, 3)]

    def legal_actions(self, state: ToyState, seat: int):
        if seat not in self.to_act(state) or seat == CHANCE:
            return []
        return [{"type": "take", "n": n} for n in (1, 2) if n <= state.pile]

    def check(self, state: ToyState, seat: int, action) -> Rejection | None:
        if action.get("type") == "take" and seat == state.turn and action.get("n", 0) > state.pile:
            return Rejection("pile_too_small", tr("Pas assez de pierres.", "Not enough stones."))
        return super().check(state, seat, action)

    def transition(self, state: ToyState, seat: int, action) -> Step:
        if seat == CHANCE:
            i = state.secrets.index(None)
            secrets = state.secrets[:i] + (action["value"],) + state.secrets[i + 1 :]
            return Step(replace(state, secrets=secrets))
        pile = state.pile - action["n"]
        if pile == 0:
            return Step(replace(state, pile=0, winner=seat),
                        (Effect("message", tr("Gagné !", "Won!"), frozenset({seat})),))
        return Step(replace(state, pile=pile, turn=(seat + 1) % state.players))

    def view(self, state: ToyState, seat: int | None) -> dict[str, Any]:
        return {"pile": state.pile, "turn": state.turn,
                "secret": None if seat is None else state.secrets[seat]}

    def screen(self, view: dict[str, Any], seat: int | None, *, pad_sensed: bool = True) -> Screen:
        return Screen(tr("Jouet", "Toy"), (tr(f"Pile {view['pile']}", f"Pile {view['pile']}"),),
                      big=None if view["secret"] is None else str(view["secret"]))

    def expected_layout(self, state: ToyState):
        return {}

    def outcome(self, state: ToyState) -> Outcome | None:
        if state.winner is None:
            return None
        scores = tuple(float(state.secrets[s] or 0) if s == state.winner else 0.0
                       for s in range(state.players))
        return Outcome(scores, (state.winner,))

    def hidden_variants(self, state: ToyState, seat: int):
        for s in range(state.players):
            if s != seat and state.secrets[s] is not None:
                for v in (1, 2, 3):
                    yield replace(state, secrets=state.secrets[:s] + (v,) + state.secrets[s + 1:])


GAME = Toy()
