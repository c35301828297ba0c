"""Operation: Mata Hari on the engine contract: the Game subclass wiring rules, views and table."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping

from games.core import Action, Choice, Game, GameConfig, Layout, Outcome, Rejection, Screen, Step, Text, tr
from games.mata_hari import (
    pieces,
    rules,
    rules_actions,
    rules_statements,
    rules_transition,
    scoring,
    table,
    views,
    views_hidden,
)
from games.mata_hari.state import MHState


class MataHari(Game[MHState, views.MHView]):
    """Operation: Mata Hari: trading and bluffing card game for 3 to 7 spies."""

    id = pieces.GAME_ID
    name = tr("Opération Mata Hari", "Operation: Mata Hari")
    min_players = 3
    max_players = 7

    # -- set-up --------------------------------------------------------------------------------
    def initial_state(self, config: GameConfig) -> MHState:
        """Every card of the player count in the pile, covers at the centre, chance to deal."""
        config = self.validate_config(config)
        return rules_transition.initial_state(config.players)

    def warm(self) -> None:
        """The statements' words (data/statements.toml): read by the first statement composed."""
        rules_statements.language()

    # -- turn structure ------------------------------------------------------------------------
    def to_act(self, state: MHState) -> frozenset[int]:
        """Seats with a legal action now (several during counter-offers), CHANCE to deal/draw."""
        return rules_actions.to_act(state)

    def waiting_for(self, state: MHState) -> frozenset[int]:
        """Who is to act as the table may say it: not who could claim the visionary win, nor who is
        composing a statement."""
        return rules_actions.waiting_for(state)

    def legal_actions(self, state: MHState, seat: int) -> list[Action]:
        """Every legal action of `seat` (chance outcomes: see chance_outcomes)."""
        return rules_actions.legal_actions(state, seat)

    def chance_outcomes(self, state: MHState) -> list[tuple[Action, float]]:
        """Cards that may be dealt or drawn now, with their probabilities."""
        return rules_transition.chance_outcomes(state)

    def check(self, state: MHState, seat: int, action: Action) -> Rejection | None:
        """None if legal, else the precise reason."""
        return rules.check(state, seat, action)

    def transition(self, state: MHState, seat: int, action: Action) -> Step[MHState]:
        """Apply a checked action."""
        return rules_transition.transition(state, seat, action)

    # -- what each seat may know ---------------------------------------------------------------
    def view(self, state: MHState, seat: int | None) -> views.MHView:
        """What `seat` may know (None: public)."""
        return views.view(state, seat)

    def screen(self, view: views.MHView, seat: int | None, *, pad_sensed: bool = True) -> Screen:
        """The seat's screen from its view."""
        return views.screen(view, seat, pad_sensed=pad_sensed)

    def screen_key(self, state: MHState, seat: int, *, pad_sensed: bool = True) -> Hashable | None:
        """What the seat's screen reads, from its own holdings and the turn's public course."""
        return views.screen_key(state, seat, pad_sensed)

    # -- the physical table --------------------------------------------------------------------
    def expected_layout(self, state: MHState) -> Layout:
        """Cover stock and pads."""
        return table.expected_layout(state)

    def footprint(self, state: MHState, seat: int, action: Action) -> Layout:
        """The layout right after the player's gesture."""
        return table.footprint(state, seat, action)

    def choices(self, state: MHState, seat: int) -> list[Choice]:
        """The seat's button menu."""
        return table.choices(state, seat)

    def describe_action(self, state: MHState, seat: int, action: Action) -> Text:
        """A short label for an action."""
        return table.describe_action(state, seat, action)

    def explain(self, state: MHState, seat: int, zone: str, piece: str) -> Rejection | None:
        """Why a card laid on the seat's pad is refused (shown to that seat only)."""
        return table.explain(state, seat, zone, piece)

    def effect(self, state: MHState, zone: str, piece: str, lifted: bool) -> Rejection | None:
        """A card dealt or drawn for a seat, or the Cover cards' stock laid out in the centre."""
        return table.effect(state, zone, piece, lifted)

    def stands_for(self, state: MHState, zone: str, wanted: str, laid: str) -> bool:
        """Two partners of one kind are the same card: one held by the pad's owner (or still in
        the pile) may be laid for the other."""
        return table.stands_for(state, zone, wanted, laid)

    def highlights(self, state: MHState) -> Mapping[str, str]:
        """Zones to light as hints."""
        return table.highlights(state)

    def pieces(self) -> list[str]:
        """Every tagged card of the box."""
        return pieces.all_pieces()

    def piece_label(self, piece: str) -> Text:
        """A short name for a card."""
        return pieces.label(piece)

    # -- the end -------------------------------------------------------------------------------
    def outcome(self, state: MHState) -> Outcome | None:
        """Scores and winners at the end."""
        return scoring.outcome(state)

    # -- for tests -----------------------------------------------------------------------------
    def hidden_variants(self, state: MHState, seat: int) -> Iterable[MHState]:
        """States differing only in what `seat` may not know."""
        return views_hidden.hidden_variants(state, seat)


GAME = MataHari()
