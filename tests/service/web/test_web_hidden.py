"""Whole games of the secret games (every registered game with secrets, its first `table_runs`)
played on the simulated table while WebSocket clients record every message the spectator's page
and each seat's phone page get (readable summaries included): no message ever holds a piece that
another seat knows and the page's own seat (or the public) does not. Plus: a wrong or missing
token gets a 403 and nothing else."""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

import pytest

from firmware_host.web import redact
from firmware_host.web.service import start_web
from games.core import to_json
from tests.kits.every_game import has_secrets, ids, table_runs
from tests.kits.faultkit import purposeful
from tests.kits.tabledriver import Driver
from tests.kits.webkit import LiveTable, Recorder

CASES = [(gid, list(run.seats), run.seed) for gid in ids() if has_secrets(gid) for run in table_runs(gid)[:1]]


def _states(session: Any) -> list[Any]:
    game = session.game
    state = game.initial_state(session.config)
    out = [state]
    for seat, act in session.moves:
        state = game.apply(state, seat, act).state
        out.append(state)
    return out


def _leaks(recorder: Recorder, session: Any, states: list[Any], gseat: int | None) -> tuple[int, list[str]]:
    """(messages checked, secrets found in them) for a page of game seat `gseat` (None: spectator)."""
    game = session.game
    players = len(session.seats)
    merged: dict[str, Any] = {}
    checked, found = 0, []
    cache: dict[int, set[str]] = {}
    for raw, msg in zip(recorder.raw, recorder.messages):
        if msg["kind"] == "hello":
            continue
        merged.update(msg)
        part = merged.get("game")
        if not part or part["id"] != game.id:
            continue
        n = part["moves"]
        if n not in cache:
            state = states[n]
            views = [redact.piece_ids(game, to_json(game.view(state, s))) for s in range(players)]
            public = redact.piece_ids(game, to_json(game.view(state, None)))
            others = [v for s, v in enumerate(views) if s != gseat]
            known = public | (views[gseat] if gseat is not None else set())
            cache[n] = set().union(*others) - known
        checked += 1
        # a whole piece id: ".../france/1" is not in ".../france/13"
        found += [f"message {checked} (move {n}): {p}" for p in cache[n]
                  if re.search(rf"(?<![\w/-]){re.escape(p)}(?![\w/-])", raw)]
        # the readable summaries travel in these very messages: searched with the rest
        assert part.get("summary", {}).get("players"), "a game message without its summary"
        if gseat is not None:
            assert merged.get("mine") is not None, "a seat's game message without its own summary"
        if gseat is None:
            assert not {"screen", "screens", "zones", "trays", "private", "tray", "pad"} & set(msg), msg.keys()
        else:
            assert "screens" not in msg and "zones" not in msg and "trays" not in msg
    return checked, found


@pytest.mark.parametrize("gid,seats,seed", CASES, ids=[c[0] for c in CASES])
def test_no_page_ever_gets_another_seats_secret(gid: str, seats: list[int], seed: int) -> None:
    driver = Driver(seed=seed)
    web = start_web(driver.sim.table, driver.sim.registry, port=0)
    base = f"ws://127.0.0.1:{web.server.port}/ws"
    pages = {None: Recorder(base + "?role=watch")}
    for seat in seats:
        pages[seat] = Recorder(f"{base}?role=seat&seat={seat}&t={web.server.access.seats[seat]}")
    try:
        driver.start(gid, seats, {})
        counts: set[int] = set()  # the move counts every page was shown

        def caught_up() -> None:
            # a page is sent the newest state only: without waiting, a loaded machine folds
            # several moves into one message and the pages are checked on fewer states
            moves = len(driver.session.moves)
            counts.add(moves)
            for rec in pages.values():
                rec.wait_for(lambda m: (m.get("game") or {}).get("moves") == moves)

        driver.play(purposeful, max_steps=4000, each=caught_up)
        session = driver.session
        assert session.over
        caught_up()  # every page saw the end
    finally:
        for rec in pages.values():
            rec.close()
        web.stop()
        driver.close()
    states = _states(session)
    for seat, rec in pages.items():
        gseat = None if seat is None else session.seats.index(seat)
        checked, leaks = _leaks(rec, session, states, gseat)
        assert checked >= len(counts) > 2, f"page of seat {seat}: {checked} game messages, {len(counts)} states"
        assert not leaks, f"page of seat {seat} got secrets: {leaks[:5]}"


def test_wrong_or_missing_token_gets_403_and_nothing_else(tmp_path: Any) -> None:
    import aiohttp

    live = LiveTable(tmp_path, token="owner-secret-token-1234")
    seat_token = live.web.server.access.seats[1]
    key = live.web.server.access.table
    refused = [
        "/", "/?t=wrong-owner-token-0000", "/seat/1", "/seat/1?t=" + live.web.server.access.seats[2],
        "/seat/1?t=AAAAAAAAAAAAAAAA", "/S/1/BBBBBBBBBBBBBBBB", "/seat/9?t=" + seat_token,
        "/ws?role=table", "/ws?role=table&t=nope", "/ws?role=seat&seat=1", "/ws?role=seat&seat=2&t=" + seat_token,
        "/api/access?role=seat&seat=1&t=x", "/api/links", "/api/replay/1?seat=1", "/links", "/links?t=x",
        "/api/links?t=owner-secret-token-1234", "/api/links?k=" + key, "/ws?role=table&t=owner-secret-token-1234",
    ]
    allowed = ["/?t=owner-secret-token-1234", "/seat/1?t=" + seat_token, "/seat/1?t=" + seat_token.lower(),
               "/watch", "/replay", f"/api/links?t=owner-secret-token-1234&k={key}", "/links?t=owner-secret-token-1234"]

    async def main() -> None:
        async with aiohttp.ClientSession() as http:
            for path in refused:
                async with http.get(live.base + path, allow_redirects=True) as r:
                    body = await r.text()
                    assert r.status == 403, (path, r.status)
                    assert "seq" not in body and "public" not in body and "Traceback" not in body, path
                    assert len(body) < 2000, path
            for path in allowed:
                async with http.get(live.base + path) as r:
                    assert r.status == 200, (path, r.status)
            async with http.get(live.base + "/seat/1?t=AAAAAAAAAAAAAAAA") as r:
                assert "Scannez à nouveau le code QR" in await r.text()
            async with http.ws_connect(f"{live.base}/ws?role=seat&seat=1&t={seat_token}") as ws:
                hello = json.loads((await ws.receive(timeout=20)).data)
                assert hello["kind"] == "hello" and hello["seat"] == 1 and "links" not in hello
                await ws.send_json({"do": "button", "seat": 2, "button": "ok", "down": True})
                assert "seat 1's buttons" in await _error(ws)
                await ws.send_json({"do": "place", "zone": "seat2.pad", "piece": "zop/light/attack/1"})
                assert "may not touch" in await _error(ws)
                await ws.send_json({"do": "button", "seat": True, "button": "ok", "down": True})
                assert "whole number" in await _error(ws)
                await ws.send_str("not json")
                assert (await _error(ws))

    try:
        asyncio.run(main())
    finally:
        live.close()


async def _error(ws: Any) -> str:
    while True:
        msg = json.loads((await ws.receive(timeout=20)).data)
        if msg["kind"] == "error":
            return msg["message"]
