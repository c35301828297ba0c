"""The venue's terminal view: the live tables, then a results table per game."""

from __future__ import annotations

import math
import time
from typing import Any

from firmware_host.venue.results import GameSummary, ResultRow, TableRow, VenueDB
from games.core import UnknownGame
from games.registry import get_game


def game_name(game_id: str | None, lang: str) -> str:
    """A game's name in the language, or its id for a game this version does not know."""
    if not game_id:
        return "—"
    try:
        return get_game(game_id).name.get(lang)
    except (UnknownGame, ImportError):
        return game_id


def render(db: VenueDB, lang: str = "fr", now: float | None = None) -> str:
    """The whole view as text."""
    now = time.time() if now is None else now
    tables = db.tables()
    lines = [_title(lang, "Tables", "Tables") + f" ({len(tables)})"]
    lines += _tables(tables, lang, now) or ["  " + _t(lang, "aucune table encore", "no table yet")]
    lines.append("")
    lines.append(_title(lang, "Résultats", "Results"))
    summaries = {s.game: s for s in db.summaries()}
    results = db.results()
    if not summaries:
        lines.append("  " + _t(lang, "aucune partie encore", "no game yet"))
    for game, summary in summaries.items():
        lines += _game_results(summary, [r for r in results if r.game == game], lang)
    lines += _quarantine(db, lang)
    return "\n".join(lines) + "\n"


def _quarantine(db: VenueDB, lang: str) -> list[str]:
    count, latest = db.quarantined(3)
    if not count:
        return []
    out = ["", _t(lang, f"Messages mis de côté : {count}", f"Messages set aside: {count}")]
    out += [f"  {_clock(t, time.time())}  {_cut(topic, 60)}: {_cut(reason, 100)}" for t, topic, reason in latest]
    return out


def _tables(tables: list[TableRow], lang: str, now: float) -> list[str]:
    rows = [[_t(lang, "table", "table"), _t(lang, "état", "state"), _t(lang, "depuis", "since"),
             _t(lang, "partie", "game"), _t(lang, "coups", "moves"), _t(lang, "écran public", "public screen")]]
    for t in tables:
        state = {"online": _t(lang, "en ligne", "online"), "offline": _t(lang, "hors ligne", "offline"),
                 "unknown": "?"}.get(t.state, t.state)
        if t.state == "offline" and t.reason == "lost":
            state += _t(lang, " (perdue)", " (lost)")
        game = "—"
        if t.game_id is not None:
            game = f"{game_name(t.game, lang)} {t.game_id}"[:60]
            if t.game_status in ("finished", "abandoned"):
                game += _t(lang, " (finie)", " (over)") if t.game_status == "finished" else \
                    _t(lang, " (abandonnée)", " (abandoned)")
        rows.append([_cut(t.name, 30), _cut(state, 20), _clock(t.since, now), _cut(game, 60),
                     str(t.moves) if t.game_id else "", _screen(t.screen, lang)])
    return _grid(rows) if len(rows) > 1 else []


def _game_results(s: GameSummary, rows: list[ResultRow], lang: str) -> list[str]:
    head = f"  {_cut(game_name(s.game, lang), 40)} — {s.finished} " + _t(lang, "finie(s)", "finished")
    if s.abandoned:
        head += f", {s.abandoned} " + _t(lang, "abandonnée(s)", "abandoned")
    if s.average_duration is not None:
        head += ", " + _t(lang, "durée moyenne", "average length") + f" {_duration(s.average_duration)}"
    if isinstance(s.average_moves, (int, float)) and math.isfinite(s.average_moves):
        head += f", {s.average_moves:.0f} " + _t(lang, "coups en moyenne", "moves on average")
    out = [head]
    if rows:
        grid = [[_t(lang, "table", "table"), _t(lang, "place", "seat"), _t(lang, "jouées", "played"),
                 _t(lang, "gagnées", "wins"), _t(lang, "score moyen", "avg score")]]
        for r in rows:
            grid.append([_cut(r.table, 30), _cut(r.who, 20), str(r.played), str(r.wins), _score(r.average)])
        out += ["  " + line for line in _grid(grid)]
    return out


def _grid(rows: list[list[str]]) -> list[str]:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return ["  " + "  ".join(cell.ljust(w) for cell, w in zip(r, widths)).rstrip() for r in rows]


def _screen(screen: dict[str, Any] | None, lang: str) -> str:
    if not screen:
        return ""
    texts = [screen.get("title")]
    lines = screen.get("lines")
    if isinstance(lines, list):
        texts += lines[:2]
    parts = [text.get(lang, "") if isinstance(text, dict) else "" for text in texts]
    return " · ".join(p for p in parts if isinstance(p, str) and p)[:60]


def _clock(t: Any, now: float) -> str:
    """A stored time of day (or date); "?" for one no clock shows (1e308 from a venue of old)."""
    if t is None:
        return ""
    if isinstance(t, bool) or not isinstance(t, (int, float)):
        return "?"
    fmt = "%H:%M:%S" if abs(now - t) < 86400 else "%Y-%m-%d"
    try:
        return time.strftime(fmt, time.localtime(t))
    except (OverflowError, OSError, ValueError):
        return "?"


def _score(x: Any) -> str:
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        return "?"
    return f"{x:.1f}" if abs(x) < 1e9 else f"{x:.3g}"


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[:width - 1] + "…"


def _duration(seconds: Any) -> str:
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not 0 <= seconds < 1e9:
        return "?"
    minutes, secs = divmod(int(round(seconds)), 60)
    return f"{minutes} min {secs:02d} s" if minutes else f"{secs} s"


def _title(lang: str, fr: str, en: str) -> str:
    return _t(lang, fr, en)


def _t(lang: str, fr: str, en: str) -> str:
    return en if lang == "en" else fr
