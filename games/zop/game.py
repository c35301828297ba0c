"""ZOP wired to the engine contract: the Game subclass delegating to the rule, view and table modules."""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator
from dataclasses import replace

from games.core import Action, Choice, Game, GameConfig, Layout, Option, Outcome, Rejection, Screen, Step, Text, tr
from games.zop import rules, rules_supply, rules_transition, table, views
from games.zop.pieces import Deck, load_deck, piece_label
from games.zop.state import MODES, OVER, SENSED, TRACKED, Side, ZopState, other, with_side


class Zop(Game):
    """ZOP: two-player duel of hidden simultaneous card plays, best of three rounds."""

    id = "zop"
    name = tr("ZOP", "ZOP")
    min_players = 2
    max_players = 2
    options = (
        Option("deck", tr("Cartes suivies", "Cards tracked"), MODES,
               (tr("Posées seulement", "Laid cards only"), tr("Paquets complets", "Whole decks"))),
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
        """The first turn of the manche in the chosen mode (option deck = sensed | tracked)."""
        config = self.validate_config(config)
        return rules_transition.initial_state(self.deck, str(config.option("deck", SENSED)))

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

    def transition(self, state: ZopState, seat: int, action: Action) -> Step:
        """Apply a checked action."""
        return rules_transition.apply_action(self.deck, state, seat, action)

    # -- views -----------------------------------------------------------------------------------
    def view(self, state: ZopState, seat: int | None) -> views.ZopView:
        """Everything `seat` may know."""
        return views.view(self.deck, state, seat)

    def screen(self, view: views.ZopView, seat: int | None) -> Screen:
        """The seat's screen from its view."""
        return views.screen(self.deck, view, seat)

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
        return table.describe(self.deck, state, seat, action)

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
        if state.phase != OVER:
            return None
        won = [0.0, 0.0]
        for r in state.results:
            if r.winner is not None:
                won[r.winner] += 1
        champion = state.results[-1].winner
        assert champion is not None
        rounds = [{"label": r.label, "points": list(r.points), "winner": r.winner, "played": list(r.played)}
                  for r in state.results]
        return Outcome((won[0], won[1]), (champion,), {"rounds": rounds})

    # -- for tests -------------------------------------------------------------------------------
    def hidden_variants(self, state: ZopState, seat: int) -> Iterable[ZopState]:
        """States differing only in the opponent's secret cards (laid card, hand, piles)."""
        opp = other(seat)
        want = rules_supply.required(self.deck, state, opp)
        for variant in self._variants(state, opp):
            if variant != state and rules_supply.required(self.deck, variant, opp) == want:
                yield variant

    def _variants(self, state: ZopState, opp: int) -> Iterator[ZopState]:
        side = state.sides[opp]
        if state.mode == SENSED:
            for i in range(len(side.laid)):
                trial = with_side(state, opp, replace(side, laid=side.laid[:i] + side.laid[i + 1:]))
                for alt in rules_supply.layable(self.deck, trial, opp)[:6]:
                    yield with_side(state, opp, replace(side, laid=side.laid[:i] + (alt,) + side.laid[i + 1:]))
            return
        if state.mode != TRACKED:
            return
        secret = [c for c in side.hand if c not in state.exposed]
        for i, card in enumerate(side.laid):
            if card in state.exposed:
                continue
            for alt in secret:
                if alt not in side.laid:
                    yield with_side(state, opp, replace(side, laid=side.laid[:i] + (alt,) + side.laid[i + 1:]))
        for k in range(3):
            yield with_side(state, opp, _redeal(side, set(state.exposed), random.Random(k)))


def _redeal(side: Side, exposed: set[str], rng: random.Random) -> Side:
    """The same side with its unexposed cards shuffled across hand, piles and discard."""
    slots = [("hand", i) for i in range(len(side.hand))] + [("pile", i) for i in range(len(side.pile))] \
        + [("discard", i) for i in range(len(side.discard))] + [("shuffled", i) for i in range(len(side.shuffled))]
    cards: dict[str, list[str]] = {"hand": list(side.hand), "pile": list(side.pile),
                                   "discard": list(side.discard), "shuffled": list(side.shuffled)}
    free = [(z, i) for z, i in slots if cards[z][i] not in exposed]
    pool = [cards[z][i] for z, i in free]
    rng.shuffle(pool)
    laid_at = [side.hand.index(c) for c in side.laid]
    for (z, i), card in zip(free, pool):
        cards[z][i] = card
    hand = tuple(cards["hand"])
    return replace(side, hand=hand, pile=tuple(cards["pile"]), discard=tuple(cards["discard"]),
                   shuffled=tuple(sorted(cards["shuffled"])), laid=tuple(hand[i] for i in laid_at))

