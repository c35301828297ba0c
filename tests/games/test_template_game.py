"""docs/adding-a-game.md cannot drift: its copy commands (step 1) make a new game of the template
(tests/games/template/) in a scratch tree, the registry finds it there as if it lay in games/,
its fingerprints are pinned (step 7) into a scratch copy of the pins, and the guide's proving
commands (step 8) pass on it: every test about every game, and a random game by `zebra-table rules`."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "adding-a-game.md"
TEMPLATE = Path(__file__).with_name("template")
PINS = Path(__file__).with_name("fingerprints.json")
NEW_ID = "my-game"
# the child processes search the scratch tree's games/ too (tests/kits/extra_games.py)
WITH_EXTRA = "import sys; from tests.kits import extra_games; extra_games.from_env(); "


def steps(name: str) -> list[str]:
    """The shell lines of the guide's block marked `<!-- steps: name -->`."""
    found = re.search(rf"<!-- steps: {name} -->\s*```sh\n(.*?)```", GUIDE.read_text(encoding="utf-8"), re.S)
    assert found, f"docs/adding-a-game.md has no block marked <!-- steps: {name} -->"
    return [line for line in found.group(1).splitlines() if line.strip()]


def made_from_the_guide(tree: Path) -> None:
    """Step 1 run in a scratch tree holding the template where the repository has it."""
    shutil.copytree(TEMPLATE, tree / "tests" / "games" / "template",
                    ignore=shutil.ignore_patterns("__pycache__"))
    (tree / "games").mkdir()
    (tree / "docs" / "games").mkdir(parents=True)
    script = "set -eu\n" + "\n".join(steps("copy")) + "\n"
    run = subprocess.run(["bash", "-c", script], cwd=tree, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr


def child(args: list[str], env: dict[str, str], timeout: int) -> subprocess.CompletedProcess[str]:
    """A Python child of the repository that also finds the scratch tree's games."""
    return subprocess.run([sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=timeout)


Scratch = tuple[Path, dict[str, str]]  # the scratch tree, the environment of its children


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Scratch:
    tree = tmp_path_factory.mktemp("repo")
    made_from_the_guide(tree)
    pins = tree / "fingerprints.json"
    shutil.copy(PINS, pins)
    env = {**os.environ, "EXTRA_GAMES": str(tree / "games"), "GAME_FINGERPRINTS": str(pins)}
    return tree, env


def test_the_copy_is_the_new_game_and_nothing_of_the_template_remains(scratch: Scratch) -> None:
    tree, _ = scratch
    folder = tree / "games" / "my_game"
    assert (folder / "info.toml").is_file() and (tree / "docs" / "games" / f"{NEW_ID}.md").is_file()
    for path in [*folder.rglob("*.py"), folder / "info.toml", tree / "docs" / "games" / f"{NEW_ID}.md"]:
        text = path.read_text(encoding="utf-8")
        assert "shell_game" not in text and "shell-game" not in text, path


def test_pinning_adds_the_new_games_fingerprints_and_keeps_the_others(scratch: Scratch) -> None:
    tree, env = scratch
    code = WITH_EXTRA + ("from tests.games import test_every_game as t; "
                         "sys.exit(t.main(['--write-fingerprints', sys.argv[1]]))")
    run = child(["-c", code, NEW_ID], env, 300)
    assert run.returncode == 0, run.stdout + run.stderr
    pinned = json.loads((tree / "fingerprints.json").read_text(encoding="utf-8"))
    assert pinned.pop(NEW_ID) and pinned == json.loads(PINS.read_text(encoding="utf-8"))


def test_the_guides_proof_passes_on_the_new_game(scratch: Scratch) -> None:
    _, env = scratch
    [test_line] = steps("prove")
    assert test_line.startswith("./dev test ") and f"-k {NEW_ID}" in test_line
    run = child(["-m", "pytest", "-p", "tests.kits.extra_games", "-p", "no:cacheprovider", "-o", "addopts=",
                 *test_line.split()[2:]], env, 1200)
    tail = run.stdout[-3000:] + run.stderr[-2000:]
    assert run.returncode == 0, tail
    passed = int(re.search(r"(\d+) passed", run.stdout).group(1))  # type: ignore[union-attr]
    assert passed >= 24, tail  # the suites ran on the game: not a selection of nothing


def test_the_rules_command_plays_the_new_game(scratch: Scratch) -> None:
    _, env = scratch
    line = next(x for x in GUIDE.read_text(encoding="utf-8").splitlines() if x.startswith("./dev rules my-game"))
    code = WITH_EXTRA + "from firmware_host.commands.main import main; sys.exit(main(sys.argv[1:]))"
    run = child(["-c", code, *line.split()[1:]], env, 120)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout.strip().splitlines()[-1])["outcome"]["winners"]
