"""The layers import in one direction only: games/ imports neither drivers/ nor firmware_host/,
and drivers/ imports neither firmware_host/ nor games/ (docs/architecture.md)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FORBIDDEN = {"games": ("drivers", "firmware_host"), "drivers": ("firmware_host", "games")}


def imported(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import statement, at any depth (lazy imports too)."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module))
    return found


def offences(layer: str) -> list[str]:
    """`file:line: module` for each import of a layer this layer must not use."""
    bad: list[str] = []
    for path in sorted((ROOT / layer).rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for line, module in imported(tree):
            if module.split(".")[0] in FORBIDDEN[layer]:
                bad.append(f"{path.relative_to(ROOT)}:{line}: imports {module}")
    return bad


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_layer_imports_only_downwards(layer: str) -> None:
    bad = offences(layer)
    assert not bad, f"{layer}/ must not import {' or '.join(FORBIDDEN[layer])}:\n" + "\n".join(bad)


def test_the_check_sees_an_offending_import(tmp_path: Path) -> None:
    tree = ast.parse("import os\n\ndef f():\n    from firmware_host.loop.table import Table\n    import drivers.pins\n")
    assert imported(tree) == [(1, "os"), (4, "firmware_host.loop.table"), (5, "drivers.pins")]


def test_relative_imports_stay_inside_their_package() -> None:
    # the check above reads absolute imports only: a relative one must stay inside its layer
    for layer in FORBIDDEN:
        for path in (ROOT / layer).rglob("*.py"):
            depth = len(path.relative_to(ROOT / layer).parts)  # package levels below the layer
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ImportFrom) and node.level:
                    where = f"{path.relative_to(ROOT)}:{node.lineno}"
                    assert node.level <= depth, f"{where}: relative import leaves {layer}/"


# what the command modules may share: helpers, and the validation of script lines
SHARED_COMMAND_MODULES = ("firmware_host.commands.common", "firmware_host.commands.script_events")


def test_no_command_module_imports_another() -> None:
    # commands share helpers through commands/common.py; main.py is the dispatcher
    commands = ROOT / "firmware_host" / "commands"
    bad = []
    for path in sorted(commands.glob("*.py")):
        if path.name in ("main.py", "common.py", "__init__.py"):
            continue
        for line, module in imported(ast.parse(path.read_text(encoding="utf-8"))):
            if module.startswith("firmware_host.commands") and module not in SHARED_COMMAND_MODULES:
                bad.append(f"{path.relative_to(ROOT)}:{line}: imports {module}")
    assert not bad, "\n".join(bad)
