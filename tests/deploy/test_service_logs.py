"""The table service's log never holds the owner's web token (the journal is readable by the adm
group and ends up in bug reports)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from firmware_host.commands.run import loggable_url
from firmware_host.storage.config import sim_config_text

TOKEN = "0wner-t0ken-abcdefghijkl"


def test_the_logged_web_address_has_no_token(tmp_path: Path) -> None:
    text = sim_config_text()
    for old, new in (("enabled = false          # `zebra-table run`", "enabled = true # `zebra-table run`"),
                     ('port = 8080              # 0', "port = 0 # 0"), ('token = ""', f'token = "{TOKEN}"')):
        assert old in text
        text = text.replace(old, new)
    config = tmp_path / "table.toml"
    config.write_text(text + f'\n[paths]\ndata_dir = "{tmp_path / "data"}"\n')
    env = {k: v for k, v in os.environ.items() if k != "NOTIFY_SOCKET"}
    proc = subprocess.Popen([sys.executable, "-m", "firmware_host.commands.main", "run", "--config", str(config)],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stderr is not None
        seen: list[str] = []
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not any("table service started" in line for line in seen):
            line = proc.stderr.readline()
            if not line:
                break
            seen.append(line)
        pages = [line for line in seen if "web pages at" in line]
        assert pages and "http://127.0.0.1:" in pages[0], seen
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=30)
        assert TOKEN not in "".join(seen) + out + err
    finally:
        if proc.poll() is None:
            proc.kill()


def test_loggable_url_drops_the_token_and_any_password() -> None:
    assert loggable_url(f"http://127.0.0.1:8080/?t={TOKEN}") == "http://127.0.0.1:8080/"
    assert loggable_url("http://owner:secret@table.local:8080/watch") == "http://table.local:8080/watch"
    assert loggable_url("http://table.local:8080/watch") == "http://table.local:8080/watch"
