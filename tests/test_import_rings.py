"""No import ring anywhere in the table's packages: module A importing B while B (or a module B
imports, and so on) imports A. Every import counts: at module level, inside functions (lazy), and
under `if TYPE_CHECKING:` (a type-only import back to a caller is still a ring: the callee should
name what it needs with a Protocol of its own)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("drivers", "firmware_host", "games")
# rings still in the code, each to be broken by its own change (the QR drawing below both the
# renderer and the web pages; the simulated I2C bus apart from the screens): the test fails when one
# is gone too, so that this list only ever shrinks
KNOWN: list[list[str]] = []


def modules(root: Path, packages: tuple[str, ...] = PACKAGES) -> dict[str, Path]:
    """Dotted module name -> file, for every .py file of the packages."""
    out: dict[str, Path] = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(parts)] = path
    return out


def imports_of(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The modules of `known` that module `name` imports, wherever the import statement is."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from the package, up level - 1
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:  # `from pkg import module` imports the module
                sub = f"{base}.{alias.name}"
                found.add(sub if sub in known else base)
    return {m for m in found if m in known and m != name}


def graph(root: Path, packages: tuple[str, ...] = PACKAGES) -> dict[str, set[str]]:
    """Module -> the modules it imports (inside the packages only)."""
    known = modules(root, packages)
    return {name: imports_of(name, path, known) for name, path in known.items()}


def rings(edges: dict[str, set[str]]) -> list[list[str]]:
    """One cycle (first module repeated at the end) per group of modules that import each other."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def connect(v: str) -> None:  # Tarjan's strongly connected components
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for v in sorted(edges):
        if v not in index:
            connect(v)
    return [cycle_in(group, edges) for group in sorted(groups)]


def cycle_in(group: list[str], edges: dict[str, set[str]]) -> list[str]:
    """A shortest cycle through the group's first module."""
    start, members = group[0], set(group)
    paths = {start: [start]}
    queue = [start]
    while queue:
        v = queue.pop(0)
        for w in sorted(edges[v] & members):
            if w == start:
                return [*paths[v], start]
            if w not in paths:
                paths[w] = [*paths[v], w]
                queue.append(w)
    raise AssertionError(f"no cycle in {group}")


def test_no_import_ring() -> None:
    found = rings(graph(ROOT))
    new = [cycle for cycle in found if cycle not in KNOWN]
    assert not new, "import rings:\n" + "\n".join(" -> ".join(cycle) for cycle in new)
    gone = [cycle for cycle in KNOWN if cycle not in found]
    assert not gone, "no longer a ring, take it out of KNOWN:\n" + "\n".join(" -> ".join(c) for c in gone)


@pytest.mark.parametrize("where", ["top", "lazy", "type_checking", "relative"])
def test_the_check_names_a_ring(tmp_path: Path, where: str) -> None:
    pkg = tmp_path / "firmware_host" / "apps"
    pkg.mkdir(parents=True)
    (tmp_path / "firmware_host" / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("")
    (pkg / "session.py").write_text("from firmware_host.apps import seat_ui\n")
    back = {
        "top": "import firmware_host.apps.session\n",
        "lazy": "def f():\n    from firmware_host.apps.session import GameSession\n",
        "type_checking": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                         "    from firmware_host.apps.session import GameSession\n",
        "relative": "from .session import GameSession\n",
    }[where]
    (pkg / "seat_ui.py").write_text(back)
    (pkg / "menu.py").write_text("from firmware_host.apps import seat_ui\n")  # no ring through it
    assert rings(graph(tmp_path, ("firmware_host",))) == [
        ["firmware_host.apps.seat_ui", "firmware_host.apps.session", "firmware_host.apps.seat_ui"]]
