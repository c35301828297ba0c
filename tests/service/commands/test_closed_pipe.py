"""Any command's output read by a reader that stopped (`zebra-table config check FILE | head -1`)
ends quietly: no traceback, exit code 0 (the reader had what it wanted)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

SIM_CONFIG = Path(__file__).resolve().parents[3] / "firmware_host" / "data" / "sim_table.toml"


def run_into_a_closed_pipe(*words: str) -> tuple[int, str]:
    """Run the command with stdout a pipe nobody reads any more; (exit code, stderr)."""
    read, write = os.pipe()
    os.close(read)  # like `| head -1` once head has its line: every write finds the pipe closed
    try:
        proc = subprocess.run([sys.executable, "-m", "firmware_host.commands.main", *words], stdout=write,
                              stderr=subprocess.PIPE, text=True, timeout=120, check=False)
    finally:
        os.close(write)
    return proc.returncode, proc.stderr


@pytest.mark.parametrize("words", [("config", "check", str(SIM_CONFIG)), ("config", "example"),
                                   ("tags", "--config", str(SIM_CONFIG), "list")],
                         ids=["config-check", "config-example", "tags-list"])
def test_output_into_a_closed_pipe_ends_quietly(words: tuple[str, ...]) -> None:
    code, err = run_into_a_closed_pipe(*words)
    assert code == 0 and "Traceback" not in err and "BrokenPipe" not in err, err


def test_an_error_message_still_reaches_stderr() -> None:
    code, err = run_into_a_closed_pipe("config", "check", "/nonexistent/table.toml")
    assert code == 1 and "/nonexistent/table.toml" in err and "Traceback" not in err, err
