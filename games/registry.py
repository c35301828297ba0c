"""The games the table knows, found by their folders and imported lazily.

A game is a package `games/<folder>/` holding an `info.toml`: its id, names and player counts,
and its place in the menu. The registry reads those files only, so the menu lists every game
without importing any; a game's rules are imported when it is first used (`get_game`). A folder
whose `info.toml` is wrong is left out of the menu, and `problems()` says why.
"""

from __future__ import annotations

import importlib
import importlib.util
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import games
from games.core import Game, Text, UnknownGame, is_int

MANIFEST = "info.toml"
MAX_PLAYERS = 64  # far above any table: a bigger count is a typo
KEYS = frozenset({"id", "name", "players", "menu_order", "tests"})


@dataclass(frozen=True)
class GameInfo:
    """What the menu shows of a game before it is loaded."""

    id: str
    name: Text
    min_players: int
    max_players: int
    menu_order: int = field(default=0, compare=False)
    folder: Path | None = field(default=None, compare=False)
    tests: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)


class ManifestError(ValueError):
    """An `info.toml` that does not describe a game."""


def _text(value: object, where: str) -> Text:
    if not isinstance(value, dict) or set(value) != {"fr", "en"} \
            or not all(isinstance(v, str) and v.strip() for v in value.values()):
        raise ManifestError(f'{where}: expected {{ fr = "…", en = "…" }}, both non-empty')
    return Text(value["fr"], value["en"])


def _count(value: object, where: str) -> int:
    if not is_int(value) or not 1 <= value <= MAX_PLAYERS:
        raise ManifestError(f"{where}: expected an integer 1..{MAX_PLAYERS}, got {value!r}")
    return value


def read_manifest(folder: Path) -> GameInfo:
    """The GameInfo of one game folder; raises ManifestError naming the file and the key."""
    path = folder / MANIFEST
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ManifestError(f"{path}: {exc}") from None
    unknown = sorted(set(raw) - KEYS)
    if unknown:
        raise ManifestError(f"{path}: unknown key {unknown[0]!r} (known: {', '.join(sorted(KEYS))})")
    for key in ("id", "name", "players", "menu_order"):
        if key not in raw:
            raise ManifestError(f"{path}: missing key {key!r}")
    gid = raw["id"]
    if gid != folder.name.replace("_", "-"):
        raise ManifestError(f"{path}: id {gid!r} must be the folder's name with '-' for '_' "
                            f"({folder.name.replace('_', '-')!r})")
    players = raw["players"]
    if not isinstance(players, dict) or set(players) != {"min", "max"}:
        raise ManifestError(f"{path}: players: expected {{ min = N, max = M }}")
    low, high = _count(players["min"], f"{path}: players.min"), _count(players["max"], f"{path}: players.max")
    if low > high:
        raise ManifestError(f"{path}: players: min {low} is above max {high}")
    order = raw["menu_order"]
    if not is_int(order) or not 0 <= order <= 10_000:
        raise ManifestError(f"{path}: menu_order: expected an integer 0..10000, got {order!r}")
    tests = raw.get("tests", {})
    if not isinstance(tests, dict):
        raise ManifestError(f"{path}: tests: expected a table")
    return GameInfo(gid, _text(raw["name"], f"{path}: name"), low, high, order, folder, tests)


def discover(paths: Iterable[str]) -> tuple[dict[str, GameInfo], dict[str, str]]:
    """Every game folder under `paths` (a package's search path): games in menu order, and the
    folders left out with the reason."""
    found: list[GameInfo] = []
    problems: dict[str, str] = {}
    for base in paths:
        root = Path(base)
        if not root.is_dir():
            continue
        for folder in sorted(p for p in root.iterdir() if (p / MANIFEST).is_file()):
            if not folder.name.isidentifier():
                problems[str(folder)] = f"{folder}: not a Python package name"
                continue
            try:
                info = read_manifest(folder)
            except ManifestError as exc:
                problems[str(folder)] = str(exc)
                continue
            if any(other.id == info.id for other in found):
                problems[str(folder)] = f"{folder / MANIFEST}: id {info.id!r} is already taken"
                continue
            found.append(info)
    found.sort(key=lambda info: (info.menu_order, info.id))
    return {info.id: info for info in found}, problems


def _targets(infos: Mapping[str, GameInfo]) -> dict[str, str]:
    return {gid: f"games.{gid.replace('-', '_')}:GAME" for gid in infos}


INFO: dict[str, GameInfo]
PROBLEMS: dict[str, str]
INFO, PROBLEMS = discover(games.__path__)
# game id -> "module:attribute" of its Game instance (tests add games of their own here)
GAMES: dict[str, str] = _targets(INFO)


def rediscover() -> None:
    """Look for game folders again (after `games.__path__` changed); forgets loaded games."""
    global INFO, PROBLEMS, GAMES
    INFO, PROBLEMS = discover(games.__path__)
    GAMES = _targets(INFO)
    get_game.cache_clear()


def problems() -> dict[str, str]:
    """Game folders left out of the menu, each with what is wrong in its `info.toml`."""
    return dict(PROBLEMS)


def game_ids() -> list[str]:
    """Every registered game id, in menu order."""
    return list(GAMES)


def game_folder(game_id: str) -> Path:
    """The folder of a game found by its `info.toml`; raises UnknownGame."""
    info = INFO.get(game_id)
    if info is None or info.folder is None:
        raise UnknownGame(f"unknown game folder {game_id!r}; known: {', '.join(INFO)}")
    return info.folder


def available_ids() -> list[str]:
    """Registered game ids whose module is installed (found without importing it)."""
    out = []
    for gid in GAMES:
        try:
            found = importlib.util.find_spec(GAMES[gid].split(":")[0]) is not None
        except (ImportError, ValueError):
            found = False
        if found:
            out.append(gid)
    return out


def _unknown(game_id: str) -> UnknownGame:
    why = [reason for folder, reason in PROBLEMS.items() if Path(folder).name == game_id.replace("-", "_")]
    return UnknownGame(f"unknown game {game_id!r}; known: {', '.join(GAMES)}" + "".join(f"; {w}" for w in why))


def game_info(game_id: str) -> GameInfo:
    """A game's name and player counts: from its `info.toml` without importing it (a game
    registered without one, a test game, is imported to learn them). Raises UnknownGame."""
    if game_id not in GAMES:
        raise _unknown(game_id)
    info = INFO.get(game_id)
    if info is not None:
        return info
    game = get_game(game_id)
    return GameInfo(game.id, game.name, game.min_players, game.max_players)


@cache
def get_game(game_id: str) -> Game[Any, Any]:
    """The Game for `game_id`; raises UnknownGame."""
    try:
        target = GAMES[game_id]
    except KeyError:
        raise _unknown(game_id) from None
    module_name, attr = target.split(":")
    game = getattr(importlib.import_module(module_name), attr)
    if not isinstance(game, Game):
        raise TypeError(f"{target} is not a Game")
    return game
