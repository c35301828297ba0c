"""The shell game wired to the engine contract: the Game subclass delegating to its modules."""

from __future__ import annotations

from collections.abc import Iterable

from games.shell_game import rules, scoring, table, views
from games.shell_game.pieces import GAME_ID, PEA, piece_label
from games.shell_game.state import ROUNDS, ShellState
from games.shell_game.texts import LABELS

from games.core import Action, Choice, Game, GameConfig, Layout, Option, Outcome, Rejection, Screen, Step, Text, tr


class ShellGame(Game[ShellState, views.ShellView]):
    """Two seats take turns hiding the pea under one of three cups; the other names a cup."""

    id = GAME_ID
    name = tr("Bonneteau", "Shell game")
    min_players = 2
    max_players = 2
    options = (Option("rounds", LABELS("rounds"), ROUNDS, tuple(Text(str(n), str(n)) for n in ROUNDS)),)

    # -- set-up and turns ----------------------------------------------------------------------
    def initial_state(self, config: GameConfig) -> ShellState:
        """Seat 0 hides first; `rounds` rounds (option)."""
        config = self.validate_config(config)
        return rules.initial_state(int(config.option("rounds", ROUNDS[0])))

    def to_act(self, state: ShellState) -> frozenset[int]:
        """The hider, then the guesser."""
        return rules.to_act(state)

    def legal_actions(self, state: ShellState, seat: int) -> list[Action]:
        """Each cup to hide under, or to name."""
        return rules.legal_actions(state, seat)

    def check(self, state: ShellState, seat: int, action: Action) -> Rejection | None:
        """None when legal, else the reason."""
        return rules.check(state, seat, action)

    def transition(self, state: ShellState, seat: int, action: Action) -> Step[ShellState]:
        """Apply a checked action."""
        return rules.transition(state, seat, action)

    # -- views -----------------------------------------------------------------------------------
    def view(self, state: ShellState, seat: int | None) -> views.ShellView:
        """Everything `seat` may know."""
        return views.view(state, seat)

    def screen(self, view: views.ShellView, seat: int | None, *, pad_sensed: bool = True) -> Screen:
        """The seat's screen from its view."""
        return views.screen(view, seat)

    # -- the table -------------------------------------------------------------------------------
    def expected_layout(self, state: ShellState) -> Layout:
        """The pea under its cup while hidden."""
        return table.expected_layout(state)

    def footprint(self, state: ShellState, seat: int, action: Action) -> Layout:
        """The table right after the player's gesture."""
        return table.footprint(state, seat, action)

    def choices(self, state: ShellState, seat: int) -> list[Choice]:
        """The guesser's menu."""
        return table.choices(state, seat)

    def describe_action(self, state: ShellState, seat: int, action: Action) -> Text:
        """A short label for an action."""
        return table.describe_action(state, seat, action)

    def explain(self, state: ShellState, seat: int, zone: str, piece: str) -> Rejection | None:
        """Why a piece laid is not a move."""
        return table.explain(state, seat, zone, piece)

    def explain_removal(self, state: ShellState, seat: int, zone: str, piece: str) -> Rejection | None:
        """Why the pea may not be lifted now."""
        return table.explain_removal(state, seat, zone, piece)

    def highlights(self, state: ShellState) -> dict[str, str]:
        """The cups."""
        return table.highlights(state)

    def pieces(self) -> list[str]:
        """The pea."""
        return [PEA]

    def piece_label(self, piece: str) -> Text:
        """"le pois" / "the pea"."""
        return piece_label(piece)

    # -- the end ---------------------------------------------------------------------------------
    def outcome(self, state: ShellState) -> Outcome | None:
        """Points per seat once every round is played."""
        return scoring.outcome(state)

    # -- for tests -------------------------------------------------------------------------------
    def hidden_variants(self, state: ShellState, seat: int) -> Iterable[ShellState]:
        """The pea under each other cup, for the seat that did not hide it."""
        return views.hidden_variants(state, seat)


GAME = ShellGame()
