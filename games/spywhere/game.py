"""Spywhere on the engine contract: wires set-up, turns, views, scoring and the table flow."""

from __future__ import annotations

import dataclasses
from collections.abc import Hashable, Iterator, Mapping

from games.core import (
    Action,
    BadConfig,
    Choice,
    Game,
    GameConfig,
    Layout,
    Option,
    Outcome,
    Rejection,
    Screen,
    Step,
    Text,
    tr,
)
from games.spywhere import pieces, rules, rules_setup, scoring, table, views
from games.spywhere.state import SpyState
from games.texts import seat_label

_SET = pieces.card_set()


class Spywhere(Game[SpyState, views.SpyView]):
    """Hidden nationalities, a shared centre, triples taken as clues, secret identifications."""

    id = pieces.GAME_ID
    name = tr("Spywhere", "Spywhere")
    min_players = 2
    max_players = 6
    options = (
        Option("removed_nationality", tr("Nationalité retirée (≤4 j.)", "Removed nationality (≤4 p.)"),
               (rules_setup.CHOOSE, *_SET.ids), (tr("Au choix", "Choose"), *(n.name for n in _SET.nationalities))),
        Option("retriple", tr("Brelan remélangé", "Re-triple rule"), ("off", "on"),
               (tr("Non", "No"), tr("Oui", "Yes"))),
        Option("first_player", tr("Premier joueur", "First player"), (0, 1, 2, 3, 4, 5),
               tuple(seat_label(i) for i in range(6))),
        # 2 players, « Aucune tentative d'identification … avant le 5e tour de jeu »: both readings
        Option("identify_from", tr("Identif. à 2 dès", "2-p. identify from"),
               (pieces.IDENTIFY_FROM_ROUND, pieces.IDENTIFY_FROM_TURN),
               (tr("5e manche", "round 5"), tr("5e tour joué", "5th turn played"))),
    )

    # -- set-up ----------------------------------------------------------------------------------
    def validate_config(self, config: GameConfig) -> GameConfig:
        """Check players and options; numeric strings are accepted for the first player."""
        opts = dict(config.options)
        first = opts.get("first_player")
        if isinstance(first, str) and first.isdigit():
            opts["first_player"] = int(first)
        config = super().validate_config(dataclasses.replace(config, options=opts))
        if config.option("first_player") >= config.players:
            raise BadConfig(f"spywhere: first_player={config.option('first_player')} but only {config.players} players")
        if config.players > pieces.REMOVE_AT_MOST and config.option("removed_nationality") != rules_setup.CHOOSE:
            raise BadConfig(f"spywhere: a nationality is removed only with {pieces.REMOVE_AT_MOST} players or fewer")
        return config

    def initial_state(self, config: GameConfig) -> SpyState:
        """The state before the deals (every deal is a chance action)."""
        return rules_setup.initial_state(self.validate_config(config))

    # -- turn structure --------------------------------------------------------------------------
    def to_act(self, state: SpyState) -> frozenset[int]:
        """CHANCE for deals, draws and refills; the active player; everyone unfinished at the end."""
        return rules.to_act(state)

    def legal_actions(self, state: SpyState, seat: int) -> list[Action]:
        """Every action `seat` may take now (none for CHANCE: see chance_outcomes)."""
        return rules.legal_actions(state, seat)

    def chance_outcomes(self, state: SpyState) -> list[tuple[Action, float]]:
        """Deals, draws and refills: each remaining card (and empty slot) equally likely."""
        return rules.chance_outcomes(state)

    def check(self, state: SpyState, seat: int, action: Action) -> Rejection | None:
        """None if legal, else a precise rejection (never naming a secret nationality)."""
        return rules.check(state, seat, action)

    def transition(self, state: SpyState, seat: int, action: Action) -> Step[SpyState]:
        """Apply a checked action."""
        return rules.transition(state, seat, action)

    # -- views -----------------------------------------------------------------------------------
    def view(self, state: SpyState, seat: int | None) -> views.SpyView:
        """Public info plus the seat's own passports, hand and identifications."""
        return views.view(state, seat)

    def screen(self, view: views.SpyView, seat: int | None, *, pad_sensed: bool = True) -> Screen:
        """The seat's screen, from its view only."""
        return views.screen(view, seat, pad_sensed=pad_sensed)

    def screen_key(self, state: SpyState, seat: int, *, pad_sensed: bool = True) -> Hashable | None:
        """What the seat's screen reads, from its own cards and identifications and the public table."""
        return views.screen_key(state, seat, pad_sensed)

    def choices(self, state: SpyState, seat: int) -> list[Choice]:
        """Button menu: take or leave a triple, identify or end the turn, last identifications."""
        return table.choices(state, seat)

    def describe_action(self, state: SpyState, seat: int, action: Action) -> Text:
        """A short label; never crashes on a malformed action."""
        return table.describe_action(state, seat, action)

    # -- the physical table ----------------------------------------------------------------------
    def expected_layout(self, state: SpyState) -> Layout:
        """Centre cards on centre.1..5; pads empty between scans."""
        return table.expected_layout(state)

    def footprint(self, state: SpyState, seat: int, action: Action) -> Layout:
        """The layout just after the gesture: a card on a pad or a slot, a slot swapped, 3 lifted."""
        return table.footprint(state, seat, action)

    def explain(self, state: SpyState, seat: int, zone: str, piece: str) -> Rejection | None:
        """Why a card laid on a centre slot is refused (e.g. not in the swapper's hand)."""
        return table.explain(state, seat, zone, piece)

    def explain_removal(self, state: SpyState, seat: int, zone: str, piece: str) -> Rejection | None:
        """Why lifting a centre card is refused (a triple of the player's own nationality)."""
        return table.explain_removal(state, seat, zone, piece)

    def effect(self, state: SpyState, zone: str, piece: str, lifted: bool) -> Rejection | None:
        """A centre card drawn from the pile, a computer's swap, a triple taken or shuffled back."""
        return table.effect(state, zone, piece, lifted)

    def highlights(self, state: SpyState) -> Mapping[str, str]:
        """Public LED hints: pads to scan on, centre slots to fill or to swap with, triples."""
        return table.highlights(state)

    def pieces(self) -> list[str]:
        """108 nationality cards, 6 passports, 36 identification cards."""
        return pieces.all_pieces()

    def piece_label(self, piece: str) -> Text:
        """A short name: la carte Italie n°7, le passeport France, l'identification rouge Espagne."""
        return pieces.label(piece)

    # -- the end ---------------------------------------------------------------------------------
    def outcome(self, state: SpyState) -> Outcome | None:
        """Scores once every last identification is made."""
        return scoring.outcome(state)

    # -- for tests -------------------------------------------------------------------------------
    def hidden_variants(self, state: SpyState, seat: int) -> Iterator[SpyState]:
        """Other seats' passports permuted, their hand cards swapped with the pile, their guesses changed."""
        return views.hidden_variants(state, seat)


GAME = Spywhere()
