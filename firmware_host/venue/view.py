"""The venue's terminal view: the live tables, then a results table per game."""

from __future__ import annotations

import time
from typing import Any

from games.core import UnknownGame
from games.registry import get_game

from firmware_host.venue.results import GameSummary, ResultRow, TableRow, VenueDB


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
    return "\n".join(lines) + "\n"


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
            game = f"{game_name(t.game, lang)} {t.game_id}"
            if t.game_status in ("finished", "abandoned"):
                game += _t(lang, " (finie)", " (over)") if t.game_status == "finished" else \
                    _t(lang, " (abandonnée)", " (abandoned)")
        rows.append([t.name, state, _clock(t.since, now), game, str(t.moves) if t.game_id else "",
                     _screen(t.screen, lang)])
    return _grid(rows) if len(rows) > 1 else []


def _game_results(s: GameSummary, rows: list[ResultRow], lang: str) -> list[str]:
    head = f"  {game_name(s.game, lang)} — {s.finished} " + _t(lang, "finie(s)", "finished")
    if s.abandoned:
        head += f", {s.abandoned} " + _t(lang, "abandonnée(s)", "abandoned")
    if s.average_duration is not None:
        head += ", " + _t(lang, "durée moyenne", "average length") + f" {_duration(s.average_duration)}"
    if s.average_moves is not None:
        head += f", {s.average_moves:.0f} " + _t(lang, "coups en moyenne", "moves on average")
    out = [head]
    if rows:
        grid = [[_t(lang, "table", "table"), _t(lang, "place", "seat"), _t(lang, "jouées", "played"),
                 _t(lang, "gagnées", "wins"), _t(lang, "score moyen", "avg score")]]
        for r in rows:
            grid.append([r.table, r.who, str(r.played), str(r.wins), f"{r.average:.1f}"])
        out += ["  " + line for line in _grid(grid)]
    return out


def _grid(rows: list[list[str]]) -> list[str]:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return ["  " + "  ".join(cell.ljust(w) for cell, w in zip(r, widths)).rstrip() for r in rows]


def _screen(screen: dict[str, Any] | None, lang: str) -> str:
    if not screen:
        return ""
    parts = [screen.get("title", {}).get(lang, "")]
    parts += [line.get(lang, "") for line in screen.get("lines", [])[:2]]
    return " · ".join(p for p in parts if p)[:60]


def _clock(t: float | None, now: float) -> str:
    if t is None:
        return ""
    fmt = "%H:%M:%S" if now - t < 86400 else "%Y-%m-%d"
    return time.strftime(fmt, time.localtime(t))


def _duration(seconds: float) -> str:
    minutes, secs = divmod(int(round(seconds)), 60)
    return f"{minutes} min {secs:02d} s" if minutes else f"{secs} s"


def _title(lang: str, fr: str, en: str) -> str:
    return _t(lang, fr, en)


def _t(lang: str, fr: str, en: str) -> str:
    return en if lang == "en" else fr
