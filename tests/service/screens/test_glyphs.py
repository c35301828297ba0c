"""Every character a text of the table can produce is drawn by the screens' font: by the font's own
glyph, a glyph drawn for the table, or a look-alike; never by the "?" of a missing glyph.

The characters come from everywhere a screen's words come from: every string literal of the games
and of the table's software (docstrings aside: nobody reads them on a screen), every data file of
the games (how-to pages, rules' texts), and what the games build at run time (names, how-to pages,
every piece's label)."""

from __future__ import annotations

import ast
import unicodedata
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path

from firmware_host.screens import fonts
from firmware_host.screens.layout import body_face
from games import howto
from games.registry import available_ids, get_game

ROOT = Path(__file__).resolve().parents[3]
SOURCES = ("games", "firmware_host")
DATA = ("*.toml", "*.json")


def _literals(path: Path) -> Iterator[str]:
    """A module's string constants, f-string parts included, docstrings left out."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    docs: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                docs.add(id(first.value))
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            yield node.value


def _runtime_texts() -> Iterator[str]:
    """What the games build: names, how-to pages, piece labels."""
    for game_id in available_ids():
        game = get_game(game_id)
        yield game.name.fr
        yield game.name.en
        for page in howto.pages(game):
            for text in (page.title, *page.lines):
                yield text.fr
                yield text.en
        for piece in game.pieces():
            label = game.piece_label(piece)
            yield label.fr
            yield label.en


@lru_cache(maxsize=1)
def table_characters() -> dict[str, str]:
    """Every character beyond ASCII a text of the table may hold -> one place it comes from."""
    found: dict[str, str] = {}

    def add(text: str, where: str) -> None:
        for ch in text:
            # control characters and noncharacters are never shown (the font probe uses U+FFFF)
            if ord(ch) > 126 and unicodedata.category(ch) not in ("Cc", "Cn"):
                found.setdefault(ch, where)

    for top in SOURCES:
        for path in sorted((ROOT / top).rglob("*.py")):
            for literal in _literals(path):
                add(literal, str(path.relative_to(ROOT)))
        for pattern in DATA:
            for path in sorted((ROOT / top).rglob(pattern)):
                add(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))
    for text in _runtime_texts():
        add(text, "a game's run-time text")
    return found


def drawn(ch: str) -> bool:
    """True when the screens draw `ch` as something other than the missing glyph's "?"."""
    face = body_face()
    return fonts.strip_rows(face, ch).rows != fonts.strip_rows(face, "?").rows


def test_the_collection_reaches_every_kind_of_source() -> None:
    chars = table_characters()
    # an accent of the texts, the marks of two games' screens, the menu's arrows
    for ch in "é☠★◀":
        assert ch in chars, ch
    assert any(where.endswith("howto.toml") for where in chars.values())
    assert len(chars) > 30


def test_every_character_of_the_table_is_drawn() -> None:
    # the characters are gathered when the test runs, not when it is collected: every process
    # collecting the suite (each xdist worker, a child run) would read every source again
    missing = [f"{ch!r} ({unicodedata.name(ch, '?')}) from {where}"
               for ch, where in sorted(table_characters().items()) if not drawn(ch)]
    assert not missing, "shown as '?' on the screens: " + "; ".join(missing)


def test_the_check_sees_a_missing_glyph() -> None:
    assert not drawn("\u2603")  # a snowman: neither in the font nor drawn for it
    assert drawn("A") and drawn("é")
