"""ZOP wired to the engine contract: the Game subclass delegating to the rule, view and table modules."""

from __future__ import annotations

from collections.abc import Iterable

from games.core import Action, Choice, Game, GameConfig, Layout, Option, Outcome, Rejection, Screen, Step, Text, tr
from games.zop import rules, rules_apart_moves, rules_transition, scoring, table, views
from games.zop.pieces import GAME_ID, Deck, load_deck, piece_label
from games.zop.state import MODES, ONE_TABLE, SENSED, TABLES, TWO_TABLES, ZopState


class Zop(Game[ZopState, views.ZopView]):
    """ZOP: two-player duel of hidden simultaneous card plays, best of three rounds."""

    id = GAME_ID
    name = tr("ZOP", "ZOP")
    min_players = 2
    max_players = 2
    options = (
        Option("deck", tr("Cartes suivies", "Cards tracked"), MODES,
               (tr("Posées seulement", "Laid cards only"), tr("Paquets complets", "Whole decks"))),
        # set by a game across tables (firmware_host/remote), never chosen in the menu
        Option("tables", tr("Tables", "Tables"), TABLES, (tr("Une", "One"), tr("Deux", "Two")), offered=False),
    )

    def __init__(self, deck: Deck | None = None):
        self._deck = deck

    @property
    def deck(self) -> Deck:
        """The deck definition (read from data/decks.toml on first use)."""
        if self._deck is None:
            self._deck = load_deck()
        return self._deck

    # -- set-up and turns ----------------------------------------------------------------------
    def initial_state(self, config: GameConfig) -> ZopState:
        """The first turn of the manche in the chosen mode (option deck = sensed | tracked), at one
        table or two (option tables)."""
        config = self.validate_config(config)
        apart = config.option("tables", ONE_TABLE) == TWO_TABLES
        return rules_transition.initial_state(self.deck, str(config.option("deck", SENSED)), apart)

    def to_act(self, state: ZopState) -> frozenset[int]:
        """Both seats during the hidden commit; CHANCE for draws; the taker in an exchange."""
        return rules.to_act(self.deck, state)

    def legal_actions(self, state: ZopState, seat: int) -> list[Action]:
        """Every action the seat may take now."""
        return rules.legal_actions(self.deck, state, seat)

    def chance_outcomes(self, state: ZopState) -> list[tuple[Action, float]]:
        """Draws from a shuffled pile, blind takes: each card equally likely."""
        return rules.chance_outcomes(self.deck, state)

    def check(self, state: ZopState, seat: int, action: Action) -> Rejection | None:
        """None when legal, else a precise reason."""
        return rules.check(self.deck, state, seat, action)

    def transition(self, state: ZopState, seat: int, action: Action) -> Step[ZopState]:
        """Apply a checked action."""
        kind = action["type"]
        if state.apart and state.exchange is not None and kind in ("pick", "hand_over", "give", "exchange_skip"):
            return rules_apart_moves.transition(self.deck, state, seat, action)
        return rules_transition.transition(self.deck, state, seat, action)

    # -- views -----------------------------------------------------------------------------------
    def view(self, state: ZopState, seat: int | None) -> views.ZopView:
        """Everything `seat` may know."""
        return views.view(self.deck, state, seat)

    def screen(self, view: views.ZopView, seat: int | None, *, pad_sensed: bool = True) -> Screen:
        """The seat's screen from its view."""
        return views.screen(self.deck, view, seat, pad_sensed=pad_sensed)

    # -- the table -------------------------------------------------------------------------------
    def expected_layout(self, state: ZopState) -> Layout:
        """Cards face down on the pads."""
        return table.expected_layout(state)

    def footprint(self, state: ZopState, seat: int, action: Action) -> Layout:
        """The pads right after the player's gesture."""
        return table.footprint(state, seat, action)

    def choices(self, state: ZopState, seat: int) -> list[Choice]:
        """The seat's button menu."""
        return table.choices(self.deck, state, seat)

    def describe_action(self, state: ZopState, seat: int, action: Action) -> Text:
        """A short label for an action."""
        return table.describe_action(self.deck, state, seat, action)

    guidance = frozenset({"to_line"})

    def explain(self, state: ZopState, seat: int, zone: str, piece: str) -> Rejection | None:
        """Why a card on the seat's pad is not a move."""
        return table.explain(self.deck, state, seat, zone, piece)

    def highlights(self, state: ZopState) -> dict[str, str]:
        """Pads still waiting for a card."""
        return table.highlights(self.deck, state)

    def pieces(self) -> list[str]:
        """Every card of both decks."""
        return table.pieces(self.deck)

    def piece_label(self, piece: str) -> Text:
        """"l'Attaque 4 claire"; the id itself for anything else."""
        return piece_label(self.deck, piece) if self.deck.is_card(piece) else Text(piece, piece)

    # -- the end ---------------------------------------------------------------------------------
    def outcome(self, state: ZopState) -> Outcome | None:
        """Rounds won per seat and the match winner, once the match is decided."""
        return scoring.outcome(state)

    # -- for tests -------------------------------------------------------------------------------
    def hidden_variants(self, state: ZopState, seat: int) -> Iterable[ZopState]:
        """States differing only in the opponent's secret cards (laid card, hand, piles)."""
        return views.hidden_variants(self.deck, state, seat)


GAME = Zop()
