"""Shared helpers of the Opération Zèbre tests (imported by the other test_operation_zebre_* files)."""

from __future__ import annotations

import copy
import random
from typing import Any

from games.core import Effect, Game, GameConfig
from games.operation_zebre import GAME, OperationZebre
from games.operation_zebre.pieces import DATA_DIR, GameData, parse_library, parse_tables, parse_variants, read_toml
from games.operation_zebre.state import OZState
from games.operation_zebre.views import OZView

FRANCE = "sample/1"  # recto: France (the rulebook example, with the table's own text)


def unknown_deck_game(box: int = 3) -> OperationZebre:
    """The game with `box` extra tagged cards whose text the table does not know."""
    raw = copy.deepcopy(read_toml(DATA_DIR / "documents.toml"))
    raw["decks"]["box"] = box
    protocols, missions = parse_variants(read_toml(DATA_DIR / "variants.toml"))
    data = GameData(parse_library(raw), parse_tables(read_toml(DATA_DIR / "tables.toml")), protocols, missions)
    return OperationZebre(data)


def start(players: int = 2, game: Game = GAME, **options: Any) -> OZState:
    """A new game's state."""
    return game.initial_state(game.validate_config(GameConfig(players, options)))


class Table:
    """A game driven action by action, keeping every effect (for readable tests)."""

    def __init__(self, players: int = 2, game: Game = GAME, **options: Any):
        self.game = game
        self.state = start(players, game, **options)
        self.effects: list[Effect] = []

    def do(self, seat: int, type: str, **fields: Any) -> tuple[Effect, ...]:
        """Apply one action; returns its effects."""
        step = self.game.apply(self.state, seat, {"type": type, **fields})
        self.state = step.state
        self.effects.extend(step.effects)
        return step.effects

    def known(self, seat: int, card: str, side: str = "recto", hide: tuple[int, ...] = ()) -> None:
        """Lay a card, choose its side, censor lines, confirm."""
        self.do(seat, "lay", card=card)
        self.do(seat, "side", side=side)
        for line in hide:
            self.do(seat, "censor", line=line)
        self.do(seat, "confirm")

    def by_sum(self, seat: int, value: int) -> None:
        """Play without a known document: enter the visible sum with the buttons."""
        self.do(seat, "no_card")
        self.do(seat, "enter_sum", value=value)

    def view(self, seat: int | None) -> OZView:
        """A seat's view now."""
        return self.game.view(self.state, seat)


def sensible_policy(game: Game, state: Any, seat: int, legal: list[dict], rng: random.Random) -> dict:
    """A playout policy that behaves like a group (low sums, usually right answers), so playouts
    reach interceptions, round ends, wins and missions instead of losing at the first entry."""
    kinds = {a["type"] for a in legal}
    if "enter_sum" in kinds:
        return rng.choice([a for a in legal if a["type"] == "enter_sum" and a["value"] <= 4])
    if "censor" in kinds or "confirm" in kinds:
        own = game.view(state, seat).own
        if own.sum > 4 or rng.random() < 0.2:
            lines = [a for a in legal if a["type"] == "censor"]
            if lines and rng.random() < 0.9:
                hideable = [a for a in lines if not own.lines[a["line"]].hidden] or lines
                return rng.choice(hideable)
        pick = [a for a in legal if a["type"] in ("confirm", "mission")]
        if pick:
            return rng.choice(pick)
    if "side" in kinds:
        return rng.choice([a for a in legal if a["type"] == "side"])
    if "lay" in kinds or "no_card" in kinds:
        starts = [a for a in legal if a["type"] in ("lay", "no_card")]
        return rng.choice(starts)
    if "guess" in kinds and rng.random() < 0.8:
        hints = [a for a in legal if a["type"] == "hint"]
        if hints and rng.random() < 0.3:
            return rng.choice(hints)
        return {"type": "guess", "correct": rng.random() < 0.85}
    return rng.choice(legal)

