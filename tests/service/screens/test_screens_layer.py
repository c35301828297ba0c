"""The screens package sits below the web pages and the loop: the renderer and the QR codes it
draws import nothing of firmware_host outside firmware_host/screens, lazily or not."""

from __future__ import annotations

import ast
from pathlib import Path

SCREENS = Path(__file__).resolve().parents[3] / "firmware_host" / "screens"


def outside_imports(source: str) -> list[tuple[int, str]]:
    """(line, module) of every firmware_host import in `source` that leaves firmware_host.screens."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        found += [(node.lineno, name) for name in names
                  if name.split(".")[0] == "firmware_host" and not name.startswith("firmware_host.screens")]
    return found


def test_screens_import_nothing_above_them() -> None:
    bad = [f"{path.name}:{line}: imports {module}" for path in sorted(SCREENS.glob("*.py"))
           for line, module in outside_imports(path.read_text(encoding="utf-8"))]
    assert not bad, "\n".join(bad)


def test_the_check_sees_a_lazy_import_of_the_web_pages() -> None:
    source = "from . import fonts\n\ndef f():\n    from firmware_host.web.qr import svg\n    import firmware_host.loop\n"
    assert outside_imports(source) == [(4, "firmware_host.web.qr"), (5, "firmware_host.loop")]
