"""A tiny board game to test the runtime's reconciliation: two seats, two tokens each, placed in
turn on an empty square of A1..C1. A token placed on B1 scares a token on A1 back to its owner.
After each placement the placer may "pass" or "ring" with the buttons (a button-only action)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from games.core import Effect, Game, GameConfig, Outcome, Rejection, Screen, Step, Text, tr

SQUARES = ("A1", "B1", "C1")


@dataclass(frozen=True)
class BoardState:
    board: tuple[tuple[str, str], ...] = ()  # (square, piece)
    turn: int = 0
    placed: int = 0
    rung: int = 0


def token(seat: int, n: int) -> str:
    return f"toyboard/{'white' if seat == 0 else 'green'}/token/{n}"


class ToyBoard(Game):
    id = "toyboard"
    name = tr("Plateau jouet", "Toy board")
    min_players = max_players = 2

    def initial_state(self, config: GameConfig) -> BoardState:
        return BoardState()

    def to_act(self, state):
        return frozenset() if state.placed >= 4 else frozenset({state.turn})

    def _free(self, state):
        taken = {sq for sq, _ in state.board}
        return [sq for sq in SQUARES if sq not in taken]

    def _reserve(self, state, seat):
        on = {p for _, p in state.board}
        return [token(seat, n) for n in (1, 2) if token(seat, n) not in on]

    def legal_actions(self, state, seat):
        if seat not in self.to_act(state):
            return []
        acts = [{"type": "place", "piece": p, "square": sq}
                for p in self._reserve(state, seat) for sq in self._free(state)]
        return acts + [{"type": "ring"}]

    def explain(self, state, seat, zone, piece):
        if zone not in SQUARES:
            return Rejection("off_row", tr("Seulement A1, B1 ou C1", "Only A1, B1 or C1"))
        return None

    def transition(self, state, seat, action):
        if action["type"] == "ring":
            return Step(replace(state, rung=state.rung + 1),
                        (Effect("ring", tr("Ding", "Ding"), frozenset({1 - seat})),))
        board = state.board + ((action["square"], action["piece"]),)
        effects = []
        if action["square"] == "B1":
            scared = [(sq, p) for sq, p in board if sq == "A1"]
            board = tuple(x for x in board if x not in scared)
            effects = [Effect("return", tr(f"{p} retourne", f"{p} goes back"), None, {"square": sq})
                       for sq, p in scared]
        return Step(replace(state, board=board, turn=1 - seat, placed=state.placed + 1), tuple(effects))

    def view(self, state, seat):
        return {"board": [list(x) for x in state.board], "turn": state.turn, "rung": state.rung}

    def screen(self, view, seat, *, pad_sensed=True):
        return Screen(tr("Jouet", "Toy"), (Text(f"tour {view['turn']}", f"turn {view['turn']}"),))

    def expected_layout(self, state):
        return {sq: frozenset({p}) for sq, p in state.board}

    def footprint(self, state, seat, action):
        if action["type"] != "place":
            return self.expected_layout(state)
        layout = dict(self.expected_layout(state))
        layout[action["square"]] = frozenset({action["piece"]})
        return layout

    def highlights(self, state):
        return {sq: "green" for sq in self._free(state)}

    def pieces(self):
        return [token(s, n) for s in (0, 1) for n in (1, 2)]

    def piece_label(self, piece):
        colour = piece.split("/")[1]
        return tr(f"le jeton {'blanc' if colour == 'white' else 'vert'}",
                  f"the {colour} token")

    def outcome(self, state):
        if state.placed < 4:
            return None
        return Outcome((0.0, 0.0), (0, 1))


GAME = ToyBoard()
