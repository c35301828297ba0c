"""Screens, menus, LEDs and sounds over seeded table sessions stay exactly what they were: every
game through the menu and to its end (or a quit), computer players and hints, undo, the quit
question, how-to pages, strangers, the reader lost, a resume and an abandon from the journal, and
the table test. The events are in golden/scenarios.json, the digests of what the table showed in
golden/digests.json (`python -m tests.service.test_table_golden` writes them again)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tests.kits.golden_table import digest, load, replay

HERE = Path(__file__).parent / "golden"
SCENARIOS = load(HERE / "scenarios.json")


def pinned() -> dict[str, dict[str, object]]:
    """The digests pinned in golden/digests.json."""
    return dict(json.loads((HERE / "digests.json").read_text(encoding="utf-8")))


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_the_table_shows_what_it_showed(name: str, tmp_path: Path) -> None:
    lines = replay(SCENARIOS[name], tmp_path / "journal.sqlite")
    want = pinned()[name]
    if digest(lines) != want["sha256"]:
        (tmp_path / "record.txt").write_text("\n".join(lines), encoding="utf-8")
        pytest.fail(f"{name}: the table showed something else ({len(lines)} lines, {want['lines']} pinned); "
                    f"record in {tmp_path / 'record.txt'}")


def test_every_game_is_in_the_scenarios() -> None:
    from games.registry import game_ids

    played = {e[1] for phases in SCENARIOS.values() for phase in phases for e in phase if e[0] == "press"}
    assert played  # the menu is driven with the buttons
    text = json.dumps(SCENARIOS)
    assert all(name in SCENARIOS or f'"{name}"' in text for name in game_ids())


if __name__ == "__main__":  # pin the current record (after checking that a change is wanted)
    import tempfile

    out = {}
    for name, phases in sorted(SCENARIOS.items()):
        with tempfile.TemporaryDirectory() as folder:
            lines = replay(phases, Path(folder) / "journal.sqlite")
        out[name] = {"sha256": digest(lines), "lines": len(lines)}
        if len(sys.argv) > 1:  # a folder: the records too, to compare two versions line by line
            Path(sys.argv[1], f"{name}.txt").write_text("\n".join(lines), encoding="utf-8")
    (HERE / "digests.json").write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
