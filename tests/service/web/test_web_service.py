"""The web pages as part of the service: the [web] config section, `zebra-table sim` and `run`
serving them, a busy port said in one line, transcripts replayed with the spectator's redaction."""

from __future__ import annotations

import asyncio
import io
import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from firmware_host.commands.main import build_parser
from firmware_host.commands.script import run as run_script
from firmware_host.loop.simulator import SimTable
from firmware_host.storage.config import ConfigError, parse_config, sim_config_text
from firmware_host.web.server import WebError
from firmware_host.web.service import start_web
from tests.kits.webkit import LiveTable, fast_config


def problems(web: str) -> str:
    without = re.sub(r"\n\[web\]\n(.*\n)*?\n", "\n", sim_config_text())
    try:
        parse_config(without + "\n[web]\n" + web + "\n")
    except ConfigError as exc:
        return str(exc)
    return ""


def test_web_section_is_validated_naming_each_key() -> None:
    assert problems('enabled = true\nport = 8081\nhost = "127.0.0.1"') == ""
    assert "web.enabled" in problems("enabled = 1")
    assert "web.port" in problems("port = true") and "web.port" in problems("port = 8080.0")
    assert "web.port" in problems("port = 70000")
    assert "web.token" in problems('token = "short"')
    assert "web.token" in problems('token = "has spaces in it but long"')
    assert "web.token" in problems('host = "0.0.0.0"')  # the network without a token
    assert problems('host = "0.0.0.0"\ntoken = "a-long-enough-secret-token"') == ""
    assert "web.url" in problems('url = "table.local"')
    assert "web.colour" in problems('colour = "red"')
    assert "web.host" in problems('host = "bad host!"')
    web = parse_config(sim_config_text()).web
    assert (web.enabled, web.host, web.port, web.token) == (False, "127.0.0.1", 8080, "")


def busy_port() -> tuple[socket.socket, int]:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen()
    return sock, sock.getsockname()[1]


def test_a_busy_port_is_one_line_naming_the_port_and_the_key(tmp_path: Path) -> None:
    sock, port = busy_port()
    sim = SimTable(fast_config())
    # the default journal, in a data folder of the test's own; twice: the first start creates it,
    # the second finds what the first left (it must have closed it cleanly on its way out)
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data")}
    try:
        with pytest.raises(WebError) as info:
            start_web(sim.table, sim.registry, port=port)
        text = str(info.value)
        assert f"port {port}" in text and "web.port" in text and "\n" not in text
        procs = [subprocess.run([sys.executable, "-m", "firmware_host.commands.main", "sim", "--web-port", str(port)],
                                capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL, env=env)
                 for _ in range(2)]
    finally:
        sim.close()
        sock.close()
    assert (tmp_path / "data" / "zebra-table" / "journal.sqlite").is_file()
    for proc in procs:
        assert proc.returncode == 3, proc.stderr
        lines = proc.stderr.strip().splitlines()
        assert len(lines) == 1 and f"port {port}" in lines[0] and "web.port" in lines[0] and "--web-port" in lines[0]


def _get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def test_sim_prints_the_virtual_tables_address_and_serves_it() -> None:
    proc = subprocess.Popen([sys.executable, "-m", "firmware_host.commands.main", "sim", "--web-port", "0", "--seed", "1"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        url = None
        deadline = time.monotonic() + 30
        while url is None and time.monotonic() < deadline:
            line = proc.stdout.readline()
            if "http://127.0.0.1:" in line:
                url = line.split("http://", 1)[1].split()[0]
        assert url, "no address printed"
        status, body = _get("http://" + url)
        assert status == 200 and "table.js" in body
        proc.stdin.write("quit\n")
        proc.stdin.flush()
        assert proc.wait(timeout=20) == 0
    finally:
        if proc.poll() is None:
            proc.kill()


def test_run_serves_the_pages_when_enabled_and_runs_on_when_the_port_is_busy(tmp_path: Any) -> None:
    def start(port: int) -> subprocess.Popen[str]:  # two tables: a journal each
        cfg = tmp_path / f"table{port}.toml"
        cfg.write_text(sim_config_text().replace("enabled = false ", "enabled = true ").replace(
            "port = 8080", f"port = {port}") + f'\n[paths]\ndata_dir = "{tmp_path / f"data{port}"}"\n')
        return subprocess.Popen([sys.executable, "-m", "firmware_host.commands.main", "run", "--config", str(cfg)],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    sock, port = busy_port()
    free = socket.socket()
    free.bind(("127.0.0.1", 0))
    free_port = free.getsockname()[1]
    free.close()
    proc = start(free_port)
    blocked = start(port)
    try:
        deadline = time.monotonic() + 30
        status = 0
        while time.monotonic() < deadline:
            try:
                status, body = _get(f"http://127.0.0.1:{free_port}/watch")
                break
            except OSError:
                time.sleep(0.2)
        assert status == 200 and "watch.js" in body
        time.sleep(1.0)
        assert blocked.poll() is None, "a busy web port stopped the table"
    finally:
        for p in (proc, blocked):
            p.terminate()
        outs = [p.communicate(timeout=20) for p in (proc, blocked)]
        sock.close()
    assert proc.returncode == 0 and blocked.returncode == 0
    errors = [line for line in outs[1][1].splitlines() if "web" in line]
    assert len(errors) == 1 and f"port {port}" in errors[0] and "web.port" in errors[0], outs[1][1]
    assert "Traceback" not in outs[1][1]


def test_a_transcript_is_replayed_with_the_spectators_redaction(tmp_path: Any) -> None:
    import aiohttp

    script = tmp_path / "game.jsonl"
    events = [{"start": {"game": "zop", "seats": [1, 2]}},
              {"place": "seat1.pad", "piece": "zop/light/attack/3"},
              {"place": "seat2.pad", "piece": "zop/dark/defence/2"}]
    script.write_text("".join(json.dumps(e) + "\n" for e in events))
    out = io.StringIO()
    run_script(build_parser().parse_args(["script", str(script)]), out)
    transcript = out.getvalue()
    live = LiveTable(tmp_path)

    async def main() -> None:
        async with aiohttp.ClientSession() as http:
            async with http.post(live.base + "/api/transcript", data=transcript) as r:
                doc = await r.json()
                assert r.status == 200 and doc["count"] == 3 and 1 in doc["seats"]
            async with http.get(f"{live.base}/api/replay/{doc['id']}?step=1") as r:
                step = await r.json()
                text = json.dumps(step)
                # the card laid face down on seat 1's pad is in the transcript's event, never in the replay
                assert "attack/3" not in text and step["payload"]["screen"] is None
                assert step["payload"]["game"]["id"] == "zop" and step["payload"]["game"]["moves"] == 1
            async with http.get(f"{live.base}/api/replay/{doc['id']}?step=1&seat=1") as r:
                step = await r.json()
                assert step["payload"]["screen"]["w"] == 128 and step["payload"]["seat"] == 1
            async with http.post(live.base + "/api/transcript", data="{not json\n") as r:
                assert r.status == 400 and "line 1" in (await r.json())["error"]
            async with http.get(f"{live.base}/api/replay/t-unknown?step=0") as r:
                assert r.status == 404 and "load it again" in (await r.json())["error"]
            async with http.get(f"{live.base}/api/replay/999?step=0") as r:
                assert r.status == 404 and "no game 999" in (await r.json())["error"]

    try:
        asyncio.run(main())
    finally:
        live.close()
