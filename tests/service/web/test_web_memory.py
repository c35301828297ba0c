"""The server's memory under uploads: `zebra-table sim` in its own process, with an owner's token,
takes 20 refused uploads (no token, too large by its length, too large as it streams in) and 20
accepted transcripts; its resident memory (/proc/PID/status VmRSS) stays within a bound."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from firmware_host.storage.config import sim_config_text
from firmware_host.web.server import MAX_UPLOAD

pytestmark = pytest.mark.slow  # forty uploads of megabytes to a table process: tens of seconds

OWNER = "owner-secret-token-memory-1234"
REFUSED_SIZE = 15 * 1024 * 1024
GROWTH_MB = 40


def rss_mb(pid: int, field: str = "VmRSS") -> float:
    """A process's resident memory (or its peak, VmHWM), in MB, from /proc."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    raise AssertionError(f"no {field} in /proc/{pid}/status")


def transcript(n: int, lines: int) -> bytes:
    """A transcript of `lines` lines, each like a `zebra-table script` line with a screen (~1.5 KB)."""
    out = []
    for i in range(lines):
        out.append(json.dumps({
            "i": i, "event": {"press": [1, "ok"]}, "t": i * 0.5, "app": "game", "reader": "ready",
            "leds": {"seat1.pad": "blue"}, "game": "zop", "seats": [1, 2], "to_act": [1, 2], "moves": i,
            "outcome": None, "upload": n,
            "public": {"round_no": 1, "sides": [{"points": i % 7, "laid_count": 1, "cards_left": 20}] * 2},
            "screens": {"1": {"title": f"Manche {i}", "lines": ["Posez une carte"] * 4, "menu": ["a", "b"] * 8},
                        "2": {"title": f"Manche {i}", "lines": ["Attendez"] * 4, "menu": ["c", "d"] * 8}},
        }))
    return ("\n".join(out) + "\n").encode()


async def _stream(size: int) -> AsyncIterator[bytes]:
    chunk = b"x" * (256 * 1024)
    for _ in range(size // len(chunk)):
        yield chunk


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="no /proc here: memory cannot be read")
def test_the_servers_memory_stays_bounded_after_refused_and_accepted_uploads(tmp_path: Any) -> None:
    import aiohttp

    cfg = tmp_path / "table.toml"
    cfg.write_text(sim_config_text().replace('token = ""', f'token = "{OWNER}"', 1)
                   + f'\n[paths]\ndata_dir = "{tmp_path / "data"}"\n')
    proc = subprocess.Popen([sys.executable, "-m", "firmware_host.commands.main", "sim", "--config", str(cfg),
                             "--web-port", "0", "--seed", "1", "--no-journal"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    refused_big = b"{" * REFUSED_SIZE
    accepted = [transcript(n, 2800) for n in range(21)]  # ~2 MB each, like a long game's transcript
    assert 1.5 * 2**20 < len(accepted[0]) < MAX_UPLOAD

    async def upload(http: Any, base: str, body: Any, token: bool) -> int:
        url = base + "/api/transcript" + (f"?t={OWNER}" if token else "")
        try:
            async with http.post(url, data=body) as r:
                await r.read()
                return int(r.status)
        except (aiohttp.ClientOSError, aiohttp.ServerDisconnectedError):
            return 0  # the server closed the connection on a refused body: refused too

    async def main(base: str) -> tuple[float, float, list[int]]:
        statuses = []
        async with aiohttp.ClientSession() as http:
            # warm up: the code of both paths loaded, one transcript kept
            assert await upload(http, base, accepted[20], True) == 200
            assert await upload(http, base, b"x" * 1024, False) == 403
            await asyncio.sleep(0.5)
            before = rss_mb(proc.pid)
            for i in range(20):
                if i % 3 == 0:
                    statuses.append(await upload(http, base, refused_big, False))  # no token
                elif i % 3 == 1:
                    statuses.append(await upload(http, base, refused_big, True))  # too large by its length
                else:
                    statuses.append(await upload(http, base, _stream(REFUSED_SIZE), True))  # too large, streamed
            for body in accepted[:20]:
                assert await upload(http, base, body, True) == 200
            await asyncio.sleep(0.5)
            return before, rss_mb(proc.pid), statuses

    try:
        url = None
        deadline = time.monotonic() + 60
        while url is None and time.monotonic() < deadline:
            line = proc.stdout.readline()  # type: ignore[union-attr]
            if "http://127.0.0.1:" in line:
                url = "http://" + line.split("http://", 1)[1].split()[0].split("/?")[0]
        assert url, "no address printed"
        before, after, statuses = asyncio.run(main(url))
        peak = rss_mb(proc.pid, "VmHWM")
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=30)
    assert all(s in (403, 413, 0) for s in statuses), statuses
    assert statuses.count(403) >= 5 and statuses.count(413) >= 5, statuses
    assert after - before < GROWTH_MB, f"RSS {before:.0f} -> {after:.0f} MB (peak {peak:.0f} MB)"
    assert "Traceback" not in err, err[-2000:]
    print(f"server RSS {before:.0f} MB -> {after:.0f} MB after 20 refused and 20 accepted uploads, peak {peak:.0f} MB")
