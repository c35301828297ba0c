"""What the tests that run every game need to know of each: the games come from the registry,
and a game's own test settings from the `[tests]` table of its info.toml (each optional, with a
default that any game passes through):

    [tests]
    screen_configs = [{ players = 3 }, { players = 6, options = { mode = "competitive" } }]
    table_runs = [{ seats = [1, 2, 3], options = {}, seed = 3 }]
    cards_on_pads = true

    [tests.mistakes_not_made]
    over_limit = "no limit of the rules is a mistake of its own"

`screen_configs`: the set-ups whose screens are sampled (elision property, golden pictures);
`table_runs`: whole games played on the simulated table (seats, options, seed);
`cards_on_pads`: a seated player's screen tells it, at some point, to lay a card on its pad (the
test that a phone seat's never does then also checks that the check can see it);
`mistakes_not_made`: the classes of mistake (games.core.Mistake) a player cannot make in the game,
each with why; the mistake oracle then makes every other class (without it, it checks the reason
of every mistake it makes, whatever its class).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from typing import Any

import games.registry as registry
from games.core import BadConfig, Game, GameConfig, Mistake, is_int
from games.registry import game_ids, get_game

TEST_KEYS = frozenset({"screen_configs", "table_runs", "cards_on_pads", "mistakes_not_made"})
MAX_PLAYERS_SAMPLED = 6  # property tests draw player counts up to this (bigger games are slow)


@dataclass(frozen=True)
class TableRun:
    """A whole game on the simulated table: the physical seats taken, the options, the seed."""

    seats: tuple[int, ...]
    options: dict[str, Any]
    seed: int


def ids() -> list[str]:
    """Every registered game, in menu order."""
    return game_ids()


def _settings(gid: str) -> dict[str, Any]:
    info = registry.INFO.get(gid)  # looked up each time: the registry may have found its games again
    raw: dict[str, Any] = dict(info.tests) if info is not None else {}
    unknown = sorted(set(raw) - TEST_KEYS)
    if unknown:
        raise ValueError(f"{gid} info.toml [tests]: unknown key {unknown[0]!r} (known: {', '.join(sorted(TEST_KEYS))})")
    return raw


def _table(value: Any, where: str, keys: set[str]) -> dict[str, Any]:
    if not isinstance(value, dict) or not set(value) <= keys:
        raise ValueError(f"{where}: expected a table with keys among {sorted(keys)}, got {value!r}")
    return value


def all_configs(game: Game[Any, Any]) -> list[GameConfig]:
    """Every player count the defaults allow, then each option's other values (first count allowed)."""
    out: list[GameConfig] = []
    for n in range(game.min_players, game.max_players + 1):
        try:
            out.append(game.validate_config(GameConfig(n)))
        except BadConfig:
            continue
    for option in game.options:
        for value in option.choices[1:]:
            for n in range(game.min_players, game.max_players + 1):
                try:
                    out.append(game.validate_config(GameConfig(n, {option.key: value})))
                except BadConfig:
                    continue
                break
    return out


def screen_configs(gid: str) -> list[GameConfig]:
    """The set-ups whose screens are sampled: the game's own list, else every config (all_configs)."""
    raw = _settings(gid).get("screen_configs")
    if raw is None:
        return all_configs(get_game(gid))
    if not isinstance(raw, list) or not raw:
        raise ValueError(f"{gid} info.toml [tests] screen_configs: expected a non-empty list")
    out = []
    for i, item in enumerate(raw):
        where = f"{gid} info.toml [tests] screen_configs[{i}]"
        item = _table(item, where, {"players", "options"})
        if not is_int(item.get("players")) or not isinstance(item.get("options", {}), dict):
            raise ValueError(f"{where}: expected {{ players = N, options = {{ … }} }}")
        out.append(GameConfig(item["players"], dict(item.get("options", {}))))
    return out


def table_runs(gid: str) -> list[TableRun]:
    """Whole games on the simulated table: the game's own list, else its fewest players, seed 3."""
    raw = _settings(gid).get("table_runs")
    if raw is None:
        return [TableRun(tuple(range(1, get_game(gid).min_players + 1)), {}, 3)]
    if not isinstance(raw, list) or not raw:
        raise ValueError(f"{gid} info.toml [tests] table_runs: expected a non-empty list")
    out = []
    for i, item in enumerate(raw):
        where = f"{gid} info.toml [tests] table_runs[{i}]"
        item = _table(item, where, {"seats", "options", "seed"})
        seats, options, seed = item.get("seats"), item.get("options", {}), item.get("seed", 3)
        if not isinstance(seats, list) or not all(is_int(s) for s in seats) or not isinstance(options, dict) \
                or not is_int(seed):
            raise ValueError(f"{where}: expected {{ seats = [1, 2], options = {{ … }}, seed = N }}")
        out.append(TableRun(tuple(seats), dict(options), seed))
    return out


def cards_on_pads(gid: str) -> bool:
    """Whether the game's seated players are told to lay cards on their pads (default: no)."""
    raw = _settings(gid).get("cards_on_pads", False)
    if not isinstance(raw, bool):
        raise ValueError(f"{gid} info.toml [tests] cards_on_pads: expected true or false, got {raw!r}")
    return raw


def mistakes_not_made(gid: str) -> dict[Mistake, str] | None:
    """The classes of mistake the game says its players cannot make, each with why (None: not said)."""
    raw = _settings(gid).get("mistakes_not_made")
    if raw is None:
        return None
    where = f"{gid} info.toml [tests.mistakes_not_made]"
    known = {m.value: m for m in Mistake}
    if not isinstance(raw, dict):
        raise ValueError(f"{where}: expected a table of class = \"why\"")
    out = {}
    for key, why in raw.items():
        if key not in known:
            raise ValueError(f"{where}: no class {key!r} (classes: {', '.join(known)})")
        if not isinstance(why, str) or not why.strip():
            raise ValueError(f"{where} {key}: expected the reason as a text, got {why!r}")
        out[known[key]] = why
    return out


def sampled_players(gid: str) -> tuple[int, int]:
    """The player counts property tests draw from: the game's fewest to its most, at most 6."""
    game = get_game(gid)
    return game.min_players, min(game.max_players, max(game.min_players, MAX_PLAYERS_SAMPLED))


@cache
def has_secrets(gid: str, seed: int = 7) -> bool:
    """Whether some seat sees more than the public view along a seeded playout (of the fewest
    players): such a game must offer hidden variants, and tests about secrets cover it."""
    from games.playout import random_playout

    game = get_game(gid)
    config = all_configs(game)[0]
    state = game.initial_state(config)
    states = [state]
    for seat, act in random_playout(game, config, seed).moves:
        state = game.apply(state, seat, act).state
        states.append(state)
    for state in states:
        public = _plain(game.view(state, None))
        for seat in range(config.players):
            if _plain(game.view(state, seat)) != public:
                return True
    return False


def _plain(view: Any) -> Any:
    from games.core import to_json

    value = json.loads(json.dumps(to_json(view), sort_keys=True, ensure_ascii=False))
    if isinstance(value, dict):
        value.pop("seat", None)
    return value
