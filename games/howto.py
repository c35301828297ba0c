""""Comment jouer" / "How to play": a few screens per game on how a turn goes on this table.

Each game keeps its pages in `<game package>/data/howto.toml` ([[page]] title, lines); this module
turns them into screens, every line marked essential (never cut: the renderer wraps it).
"""

from __future__ import annotations

import tomllib
from functools import lru_cache
from importlib.resources import files
from typing import Any

from games.core import Game, Screen, Text, essential


class HowToError(ValueError):
    """A how-to file that cannot be read as pages."""


def _text(value: object, where: str) -> Text:
    if not isinstance(value, dict) or not isinstance(value.get("fr"), str) or not isinstance(value.get("en"), str):
        raise HowToError(f"{where}: expected {{ fr = \"…\", en = \"…\" }}")
    return Text(value["fr"], value["en"])


@lru_cache(maxsize=8)
def _load(package: str) -> tuple[tuple[Text, tuple[Text, ...]], ...]:
    try:
        resource = files(package).joinpath("data/howto.toml")
    except (TypeError, ModuleNotFoundError):  # a game defined outside a package (tests) has none
        return ()
    try:
        raw = tomllib.loads(resource.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return ()
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise HowToError(f"{resource}: {exc}") from None
    pages = []
    for i, page in enumerate(raw.get("page", [])):
        where = f"{resource}: page {i + 1}"
        lines = page.get("lines") if isinstance(page, dict) else None
        if not isinstance(lines, list):
            raise HowToError(f"{where}: expected lines = [ … ]")
        pages.append((_text(page.get("title"), f"{where} title"),
                      tuple(_text(x, f"{where} line {j + 1}") for j, x in enumerate(lines))))
    return tuple(pages)


def pages(game: Game[Any, Any]) -> tuple[Screen, ...]:
    """The game's how-to screens, titled "Comment jouer 2/7 · <page title>"; () if it has none."""
    raw = _load(type(game).__module__.rsplit(".", 1)[0])
    n = len(raw)
    return tuple(Screen(Text(f"{i}/{n} {title.fr}", f"{i}/{n} {title.en}"), tuple(essential(t) for t in lines),
                        )
                 for i, (title, lines) in enumerate(raw, start=1))
