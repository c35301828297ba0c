"""The docs are maps of today's code: every path they name exists, docs/architecture.md's map names
every module of drivers/, firmware_host/ and games/, and no doc narrates how the work was done.

Paths are read from backticks (`firmware_host/loop/runtime.py`, `loop/`) and from the file maps:
fenced blocks whose every line is a path followed by its description, a folder's entries indented
under it.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ARCHITECTURE = ROOT / "docs" / "architecture.md"
# folders that are not part of the repository's content
SKIP_DIRS = {".git", ".venv", "__pycache__", ".mypy_cache", ".pytest_cache", ".ruff_cache", ".hypothesis",
             "node_modules", "build", "dist"}
# a file named by its extension is a path; `seat1.pad` or `games.core.evolve` are not
EXTENSIONS = {"py", "md", "toml", "json", "jsonl", "sh", "js", "html", "css", "txt", "png", "service",
              "rules", "gz", "pcf", "yml", "yaml", "cfg", "ini"}
# files the table writes where it runs, named by the docs but never in the repository
RUNTIME_FILES = {"settings.toml", "table.toml", "journal.sqlite", "venue.sqlite", ".venv/"}
BACKTICKS = re.compile(r"(?<!`)`([^`\n]+(?:\n[^`\n]+)?)`(?!`)")
MAP_LINE = re.compile(r"^( *)(\S+)(?: {2,}\S.*)?$")
# words that tell how the work went instead of what the product is
NARRATION = re.compile(
    r"\b(this|that|the last|the previous|an earlier|earlier|previous|later) sessions?\b|\bsessions? before\b"
    r"|\bsprints?\b|\bissue\s*#|\bissue \d+|\bbefore this (change|work|session)\b|\bthis work\b",
    re.IGNORECASE)


def docs() -> list[Path]:
    """README.md and the Markdown files of docs/ (the game pages in docs/games/ are not maps)."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def repo_paths() -> tuple[set[str], set[str]]:
    """Every file and folder of the repository as a relative path ("a/b.py", "a/"), and their names."""
    paths: set[str] = set()
    names: set[str] = set()
    for top, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d not in SKIP_DIRS and not d.endswith(".egg-info")]
        rel = Path(top).relative_to(ROOT)
        for d in dirs:
            paths.add(f"{(rel / d).as_posix()}/")
            names.add(f"{d}/")
        for f in files:
            paths.add((rel / f).as_posix())
            names.add(f)
    return paths, names


def path_of(token: str) -> str | None:
    """The repository path a backticked token names, or None when it is no path (a piece id, a
    command, an absolute or home path, a placeholder)."""
    token = token.split("::", 1)[0].rstrip(".,:;")
    if not token or any(c in token for c in " <>*{}$~…|=()\"'") or token.startswith(("/", "http", "-")):
        return None
    if token.endswith("/"):
        return token
    last = token.rsplit("/", 1)[-1]
    ext = last.rsplit(".", 1)[-1] if "." in last.strip(".") else ""
    return token if ext.lower() in EXTENSIONS else None


def map_blocks(text: str) -> Iterator[list[tuple[int, str]]]:
    """The file maps of a Markdown text: fenced blocks whose every line is a path and its
    description; yields each block's (line number, line) pairs."""
    block: list[tuple[int, str]] | None = None
    for n, line in enumerate(text.splitlines(), start=1):
        if line.startswith("```"):
            if block is None:
                block = []
                continue
            lines = [(k, row) for k, row in block if row.strip()]
            if lines and all(_map_entry(row) for _, row in lines):
                yield lines
            block = None
        elif block is not None:
            block.append((n, line))


def _map_entry(row: str) -> str | None:
    """The path token of a map line, or None when the line is not a map entry."""
    m = MAP_LINE.match(row)
    if m is None:
        return None
    token = m.group(2)
    return token if path_of(token) == token else None


def map_paths(lines: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """(line number, full path) of every entry of a map block, each under the folders it is
    indented below."""
    out: list[tuple[int, str]] = []
    stack: list[tuple[int, str]] = []  # (indent, folder path)
    for n, row in lines:
        m = MAP_LINE.match(row)
        assert m is not None
        indent, token = len(m.group(1)), m.group(2)
        while stack and stack[-1][0] >= indent:
            stack.pop()
        full = (stack[-1][1] if stack else "") + token
        out.append((n, full))
        if token.endswith("/"):
            stack.append((indent, full))
    return out


def named_paths(doc: Path) -> Iterator[tuple[int, str, bool]]:
    """(line, path, from a map) for every path a doc names."""
    text = doc.read_text(encoding="utf-8")
    prose = []  # the text outside fenced blocks, line numbers kept
    in_code = False
    for line in text.splitlines():
        fence = line.startswith("```")
        in_code = in_code != fence
        prose.append("" if in_code or fence else line)
    joined = "\n".join(prose)
    for m in BACKTICKS.finditer(joined):
        # a span may run over a line break: a path cut there (`tests/\ncrashdisk.py`) is read whole
        path = path_of(re.sub(r"\n\s*", "", m.group(1)))
        if path is not None:
            yield joined.count("\n", 0, m.start()) + 1, path, False
    for block in map_blocks(text):
        for n, path in map_paths(block):
            yield n, path, True


PLACEHOLDER = re.compile(r"(^|/)(my_game|my-game)(/|\.|$)")


def exists(path: str, doc: Path, paths: set[str], names: set[str], strict: bool) -> bool:
    """A map's path exists from the repository's root; a backticked one from the root, from the
    doc's folder, or, when it is a bare name (`journal.py`, `loop/`), anywhere."""
    path = path.removeprefix("./")
    if path in RUNTIME_FILES or path in paths:
        return True
    if PLACEHOLDER.search(path):  # the new game of docs/adding-a-game.md, made by following it
        return True
    if "/" in path.rstrip("/") and any(p.endswith("/" + path) for p in paths):
        return True  # a path inside each game's folder (`data/howto.toml`)
    if strict:
        return False
    beside = (doc.parent / path).resolve()
    if beside.exists() and beside.is_relative_to(ROOT):
        return True
    return "/" not in path.rstrip("/") and path in names


def architecture_map() -> set[str]:
    """Every path of docs/architecture.md's file maps."""
    text = ARCHITECTURE.read_text(encoding="utf-8")
    return {path for block in map_blocks(text) for _, path in map_paths(block)}


def test_the_readers_find_paths_and_only_paths() -> None:
    assert path_of("firmware_host/loop/runtime.py") == "firmware_host/loop/runtime.py"
    assert path_of("tests/drivers/reader/test_link.py::test_x") == "tests/drivers/reader/test_link.py"
    assert path_of("loop/") == "loop/" and path_of("journal.py") == "journal.py"
    for not_a_path in ("white/lion/1", "seat1.pad", "games.core.evolve", "/etc/zebra-table/table.toml",
                       "games/<game>/ai.py", "$XDG_DATA_HOME/zebra-table", "zebra-table sim", "pad.0",
                       "http://127.0.0.1:8080/", "Runtime.prepare", "rules_<part>.py"):
        assert path_of(not_a_path) is None, not_a_path
    text = "```\na/            the a folder\n  b.py        b\n  c/          c\n    d.py      d\ne.md\n```\n"
    (block,) = map_blocks(text)
    assert [p for _, p in map_paths(block)] == ["a/", "a/b.py", "a/c/", "a/c/d.py", "e.md"]
    assert list(map_blocks("```\ndrivers/  ──events──▶  games/\n   ▲   │\n```\n")) == []  # a drawing
    assert list(map_blocks("```sh\n./dev sim     # start\n```\n")) == []


def test_a_path_cut_by_a_line_break_is_read_whole(tmp_path: Path) -> None:
    doc = tmp_path / "page.md"
    doc.write_text("see `tests/\n  kits/crashdisk.py` and\n```sh\ncat `not/read.py`\n```\n`b.md`\n", encoding="utf-8")
    assert list(named_paths(doc)) == [(1, "tests/kits/crashdisk.py", False), (6, "b.md", False)]


def test_every_path_the_docs_name_exists() -> None:
    paths, names = repo_paths()
    assert "firmware_host/loop/runtime.py" in paths and "firmware_host/loop/" in paths
    missing = []
    count = 0
    for doc in docs():
        for n, path, from_map in named_paths(doc):
            count += 1
            if not exists(path, doc, paths, names, strict=from_map):
                missing.append(f"{doc.relative_to(ROOT)}:{n}: {path}")
    assert count > 100
    assert missing == [], "paths named by the docs that are not in the repository:\n" + "\n".join(missing)


def test_the_architecture_map_names_every_module() -> None:
    mapped = architecture_map()
    wanted = set()
    for layer in ("drivers", "firmware_host"):
        for path in (ROOT / layer).rglob("*.py"):
            rel = path.relative_to(ROOT).as_posix()
            if path.name != "__init__.py":
                wanted.add(rel)
            else:
                wanted.add(f"{path.parent.relative_to(ROOT).as_posix()}/")
    for path in (ROOT / "games").glob("*.py"):
        if path.name != "__init__.py":
            wanted.add(path.relative_to(ROOT).as_posix())
    for path in (ROOT / "games").glob("*/__init__.py"):
        wanted.add(f"{path.parent.relative_to(ROOT).as_posix()}/")
    for path in (ROOT / "games" / "ai").glob("*.py"):
        if path.name != "__init__.py":
            wanted.add(path.relative_to(ROOT).as_posix())
    assert {"drivers/reader/link.py", "firmware_host/web/", "games/zop/", "games/ai/search.py"} <= wanted
    unnamed = sorted(wanted - mapped)
    assert unnamed == [], "modules missing from the map in docs/architecture.md (one line each):\n" + \
        "\n".join(unnamed)


def test_no_doc_narrates_how_the_work_went() -> None:
    assert NARRATION.search("The code " + "this " + "session started from") is not None
    assert NARRATION.search("see issue #26") and NARRATION.search("before this change it was")
    assert NARRATION.search("a game session on the table; `GameSession`; an MQTT persistent session") is None
    found = []
    for doc in docs():
        for n, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), start=1):
            m = NARRATION.search(line)
            if m is not None:
                found.append(f"{doc.relative_to(ROOT)}:{n}: {m.group(0)!r}: {line.strip()}")
    assert found == [], "say what the product is, not how the work went:\n" + "\n".join(found)
