"""Opération Zèbre on the engine contract: the Game subclass wiring data, rules, views, table."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping

from games.core import (
    Action,
    BadConfig,
    Choice,
    Game,
    GameConfig,
    Layout,
    Mistake,
    Option,
    Outcome,
    Rejection,
    Screen,
    Step,
    Text,
    evolve,
    tr,
)
from games.operation_zebre import pieces, rules, scoring, table, views, views_screen
from games.operation_zebre.pieces import DIFFICULTIES, GameData, default_data
from games.operation_zebre.rules_variants import (
    RANDOM,
    VariantError,
    contradictions,
    draw_candidates,
    mission_slots,
    option_values,
    parse_value,
    split,
)
from games.operation_zebre.state import COMPETITIVE, COOP, SETUP, OZState, Track

COOP_PLAYERS = (2, 8)
COMPETITIVE_PLAYERS = (6, 12)
COOP_ONLY = {"echecs": 4, "boxes_removed": 0, "protocol": "none", "missions": "none"}


def _options(data: GameData) -> tuple[Option, ...]:
    protos, proto_labels = option_values(data, "protocol")
    missions, mission_labels = option_values(data, "missions")
    return (
        Option("mode", tr("Mode", "Mode"), (COOP, COMPETITIVE), (tr("Coopératif", "Cooperative"),
                                                                  tr("Compétitif", "Competitive"))),
        Option("difficulty", tr("Face", "Side"), DIFFICULTIES, (tr("Novice", "Novice"), tr("Avancé", "Advanced"))),
        Option("hints", tr("Indices", "Hints"), ("on", "off"), (tr("Oui", "Yes"), tr("Non", "No"))),
        Option("echecs", tr("Cartes ÉCHEC", "ÉCHEC cards"), (4, 3, 2, 1, 0)),
        Option("boxes_removed", tr("Cases retirées", "Boxes removed"), (0, 5, 10, 15)),
        # one or several cards joined with "+" ("p1+p3"); contradictory sets are refused
        Option("protocol", tr("Protocole", "Protocol"), protos, proto_labels),
        Option("missions", tr("Missions", "Missions"), missions, mission_labels),
    )


class OperationZebre(Game[OZState, views.OZView]):
    """Opération Zèbre: censored documents, shared or team suspicion tracks, interceptions."""

    id = pieces.GAME_ID
    name = tr("Opération Zèbre", "Operation Zebra")
    min_players = 2
    max_players = 12

    def __init__(self, data: GameData | None = None):
        self.data = data if data is not None else default_data()
        self.options = _options(self.data)

    # -- set-up --------------------------------------------------------------------------------
    def validate_config(self, config: GameConfig) -> GameConfig:
        """Options, then the player count of the chosen mode (coop 2–8, competitive 6–12)."""
        config = super().validate_config(self._variant_cards(config))
        mode = config.options["mode"]
        low, high = COOP_PLAYERS if mode == COOP else COMPETITIVE_PLAYERS
        if not low <= config.players <= high:
            raise BadConfig(f"{self.id}: {mode} mode is for {low}–{high} players, not {config.players}")
        if mode == COMPETITIVE:
            for key, default in COOP_ONLY.items():
                if config.options[key] != default:
                    raise BadConfig(f"{self.id}: option {key} only applies to the cooperative mode")
        return config

    def _variant_cards(self, config: GameConfig) -> GameConfig:
        """The protocol/missions options in canonical form; contradictory cards refused clearly."""
        opts = dict(config.options)
        try:
            for key in ("protocol", "missions"):
                if key in opts:
                    opts[key] = parse_value(self.data, key, opts[key])
        except VariantError as exc:
            raise BadConfig(f"{self.id}: {exc}") from exc
        proto, missions = opts.get("protocol", "none"), opts.get("missions", "none")
        if not all(isinstance(v, str) for v in (proto, missions)):
            return evolve(config, options=opts)  # the generic check names the bad value
        hints = opts.get("hints", "on") != "off"
        why = contradictions(self.data, split(proto), split(missions), hints)
        if why:
            raise BadConfig(f"{self.id}: cards that contradict each other: " + "; ".join(t.en for t in why))
        if proto == RANDOM and not draw_candidates(self.data, "protocol", (), split(missions), hints,
                                                   missions_to_draw=missions == RANDOM):
            raise BadConfig(f"{self.id}: no PROTOCOLE card can be drawn with these options")
        if missions == RANDOM and not draw_candidates(self.data, "missions", split(proto), (), hints):
            raise BadConfig(f"{self.id}: no MISSIONS card can be drawn with these options")
        return evolve(config, options=opts)

    def initial_state(self, config: GameConfig) -> OZState:
        """Tracks from the MANCHE card(s), the ÉCHEC deck, the variant cards chosen or to draw."""
        config = self.validate_config(config)
        opts = config.options
        tables = self.data.tables
        diff = opts["difficulty"]
        hints = opts["hints"] == "on"
        if opts["mode"] == COMPETITIVE:
            card = tables.compet[diff]
            track = Track(len(card.values), 0, card.values)
            return OZState(COMPETITIVE, config.players, diff, card.rounds, (track, track), hints)
        coop = tables.coop[(diff, config.players)]
        boxes = max(1, coop.boxes - opts["boxes_removed"])
        proto, missions = opts["protocol"], opts["missions"]
        cards = split(missions)
        state = OZState(
            COOP, config.players, diff, coop.rounds, (Track(boxes),), hints,
            echec_values=tables.echecs, echec_limit=min(opts["echecs"], len(tables.echecs)),
            protocols=split(proto), mission_cards=cards,
            missions_done=(False,) * len(mission_slots(self.data, cards)),
            draw_protocol=proto == RANDOM, draw_missions=missions == RANDOM,
        )
        if state.draw_protocol or state.draw_missions:
            return evolve(state, phase=SETUP)
        return state

    # -- turn structure ------------------------------------------------------------------------
    def to_act(self, state: OZState) -> frozenset[int]:
        """Chance for draws; every preparing seat; the reader and/or the other team."""
        return rules.to_act(state)

    def chance_outcomes(self, state: OZState) -> list[tuple[Action, float]]:
        """Variant cards at set-up, ÉCHEC cards after a wrong answer."""
        return rules.chance_outcomes(self.data, state)

    def legal_actions(self, state: OZState, seat: int) -> list[Action]:
        """Every action `check` accepts among the candidates of the phase."""
        return rules.legal_actions(self.data, state, seat)

    def check(self, state: OZState, seat: int, action: Action) -> Rejection | None:
        """None if legal, else a precise reason (stable code, short French/English message)."""
        return rules.check(self.data, state, seat, action)

    def transition(self, state: OZState, seat: int, action: Action) -> Step[OZState]:
        """Apply a checked action."""
        return rules.transition(self.data, state, seat, action)

    # -- what each seat may know ---------------------------------------------------------------
    def view(self, state: OZState, seat: int | None) -> views.OZView:
        """The seat's view: the public table plus its own document (and its team's secret)."""
        return views.view(self.data, state, seat)

    def screen(self, view: views.OZView, seat: int | None, *, pad_sensed: bool = True) -> Screen:
        """The seat's screen, from its view only."""
        return views_screen.screen(view, seat, pad_sensed=pad_sensed)

    def screen_key(self, state: OZState, seat: int, *, pad_sensed: bool = True) -> Hashable | None:
        """What the seat's screen reads, from its own reading, its track and the others' public readings."""
        return views_screen.screen_key(state, seat, pad_sensed)

    def hidden_variants(self, state: OZState, seat: int) -> Iterable[OZState]:
        """Other readers' documents and censoring changed; the other team's check flipped."""
        return views.hidden_variants(self.data, state, seat)

    # -- the physical table --------------------------------------------------------------------
    def pieces(self) -> list[str]:
        """One tagged card per document card of every deck."""
        return pieces.all_pieces(self.data)

    def piece_label(self, piece: str) -> Text:
        """A card's neutral name ("le dossier exemple n°3")."""
        return pieces.piece_label(piece)

    def expected_layout(self, state: OZState) -> Layout:
        """Cards on their reader's pad while documents are prepared."""
        return table.expected_layout(state)

    def footprint(self, state: OZState, seat: int, action: Action) -> Layout:
        """Laying or lifting a card; every other action is a button press."""
        return table.footprint(state, seat, action)

    def choices(self, state: OZState, seat: int) -> list[Choice]:
        """The button menu of a seat."""
        return table.choices(self.data, state, seat)

    def describe_action(self, state: OZState, seat: int, action: Action) -> Text:
        """A short label for an action."""
        return table.describe_action(self.data, state, seat, action)

    def explain(self, state: OZState, seat: int, zone: str, piece: str) -> Rejection | None:
        """Why a card laid on a pad is not a move."""
        return table.explain(self.data, state, seat, zone, piece)

    mistakes: Mapping[str, Mistake] = {"team_full": Mistake.OVER_LIMIT}
    guidance = frozenset({"document_back"})

    def highlights(self, state: OZState) -> Mapping[str, str]:
        """Pads waiting for a document, the reader's pad."""
        return table.highlights(state)

    # -- the end -------------------------------------------------------------------------------
    def outcome(self, state: OZState) -> Outcome | None:
        """Cooperative: everyone wins or loses together. Competitive: each seat scores its team's
        total; the winning team's seats win (both teams on a complete tie)."""
        return scoring.outcome(state)


GAME = OperationZebre()
