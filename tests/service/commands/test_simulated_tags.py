"""`zebra-table tags` on the simulated table: `list` says where its tags come from, `enrol` and
`check` (which wait for a tag laid on the table, and nobody can lay one there) say so and exit."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from firmware_host.commands.main import main
from firmware_host.storage.tags import all_game_pieces

SIM_CONFIG = Path(__file__).resolve().parents[3] / "firmware_host" / "data" / "sim_table.toml"


def test_list_on_the_simulated_table_counts_its_generated_tags_and_says_why(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tags", "--config", str(SIM_CONFIG), "list"]) == 0
    last = capsys.readouterr().out.splitlines()[-1]
    assert last.startswith(f"{len(all_game_pieces())} tags: the simulated table gives every piece") and \
        "not read" in last, last
    assert main(["tags", "--config", str(SIM_CONFIG), "list", "--game", "zop"]) == 0
    out = capsys.readouterr().out
    assert "(missing)" not in out and "40/40 pieces of zop have a tag: the simulated table" in out, out


def test_list_of_a_real_table_counts_its_enrolled_tags(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "table.toml"
    tags = tmp_path / "tags.json"
    text = SIM_CONFIG.read_text().replace('port = "sim"', 'port = "/dev/ttyACM0"')
    config.write_text(f"{text}\n[paths]\ntags_file = \"{tags}\"\n")
    code = main(["tags", "--config", str(config), "list"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert out.splitlines()[-1].startswith("0 tags in "), out


@pytest.mark.parametrize("words", [("check",), ("enrol", "--game", "zop")])
def test_enrol_and_check_on_the_simulated_table_say_why_and_exit(words: tuple[str, ...]) -> None:
    proc = subprocess.run([sys.executable, "-m", "firmware_host.commands.main", "tags", "--config", str(SIM_CONFIG),
                           *words], capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 2, (proc.returncode, proc.stderr)
    assert f"tags {words[0]}: nobody can lay a tag on the simulated table" in proc.stderr
    assert "--config PATH" in proc.stderr and "Traceback" not in proc.stderr
