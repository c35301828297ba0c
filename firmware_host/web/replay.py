"""Replays for the pages: a journaled game or a `zebra-table script` transcript, step by step.

A journaled game is replayed from its config and actions (games are pure), and each step is shown
through `redact.replay_payload`: as the spectator saw it, or as one seat saw it, the same
redaction as `zebra-table games show --seat`. A transcript already holds what the table showed;
`redact.transcript_payload` keeps the public part, and one seat's screen when asked. A transcript
is kept as the lines it came in (compact bytes, parsed again for the step shown), within a budget
of bytes: an upload never stays in memory as a tree of Python objects.
Runs in the web server's worker threads: the journal is opened read-only, per request.
"""

from __future__ import annotations

import secrets
import sqlite3
import threading
from array import array
from bisect import bisect_right
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from firmware_host.storage.inputs import InputError, json_text
from firmware_host.storage.journal import Journal
from firmware_host.storage.journal_errors import JournalError
from firmware_host.storage.journal_rows import GameRecord
from firmware_host.web import redact
from games.core import Effect, IllegalAction
from games.registry import get_game

# one replay step: the state, its effects, the acting seat
_Step = tuple[Any, tuple[Effect, ...], int | None]
CACHED = 4  # replays kept in memory (a long game is a few hundred immutable states)
MAX_LINES = 100_000
LINE_DEPTH = 32  # nesting of one transcript line (a game's public view is a few levels deep)
KEPT_BYTES = 16 * 1024 * 1024  # transcripts kept for stepping, all together (the newest always)


class ReplayError(ValueError):
    """A replay that cannot be shown: no journal, unknown game, bad transcript line, bad seat."""


@dataclass(frozen=True)
class Transcript:
    """An uploaded transcript: its lines as sent, and for each seat the lines printing its screen."""

    lines: tuple[bytes, ...]
    screens: dict[int, array[int]]
    size: int

    def entry(self, index: int) -> dict[str, Any]:
        """Line `index`, parsed (it was checked when loaded)."""
        value = json_text(self.lines[index].decode("utf-8"), f"line {index + 1}", LINE_DEPTH)
        if not isinstance(value, dict):
            raise ReplayError(f"line {index + 1}: not a transcript line of zebra-table script")
        return value


class JournalReader(Journal):
    """The journal opened read-only: the web side never writes, and never waits on a write lock."""

    def __init__(self, path: str | Path):
        if not Path(path).exists():
            raise JournalError(f"no journal at {path}")
        super().__init__(path, read_only=True)


class Replays:
    """Journaled games and uploaded transcripts, stepped through one step per request."""

    def __init__(self, journal_path: str | None, lang: str):
        self.journal_path = journal_path
        self.lang = lang
        self._lock = threading.Lock()
        self._games: OrderedDict[tuple[int, int], tuple[GameRecord, list[_Step]]] = OrderedDict()
        self._transcripts: OrderedDict[str, Transcript] = OrderedDict()

    # -- journal ----------------------------------------------------------------------------------
    def _reader(self) -> JournalReader:
        if not self.journal_path:
            raise ReplayError("this table keeps no journal (zebra-table sim --journal FILE keeps one)")
        try:
            return JournalReader(self.journal_path)
        except (JournalError, sqlite3.Error) as exc:
            raise ReplayError(f"cannot read the journal: {exc}") from None

    def games(self) -> list[dict[str, Any]]:
        """Every journaled game, newest first: id, game, name, seats, status, moves, start time."""
        reader = self._reader()
        try:
            out = []
            for rec in reader.games():
                try:
                    name = get_game(rec.game).name
                except ValueError:
                    continue  # a game this version does not know
                out.append({"id": rec.id, "game": rec.game, "name": {"fr": name.fr, "en": name.en},
                            "seats": list(rec.seats), "status": rec.status, "moves": len(rec.moves),
                            "started": rec.started})
            return out
        except (JournalError, sqlite3.Error) as exc:
            raise ReplayError(f"cannot read the journal: {exc}") from None
        finally:
            reader.close()

    def _journal_steps(self, game_id: int) -> tuple[GameRecord, list[tuple[Any, tuple[Effect, ...], int | None]]]:
        reader = self._reader()
        try:
            rec = reader.record(game_id)
        except (JournalError, sqlite3.Error) as exc:
            raise ReplayError(str(exc)) from None
        finally:
            reader.close()
        key = (game_id, len(rec.moves))
        with self._lock:
            if key in self._games:
                self._games.move_to_end(key)
                return self._games[key]
        game = get_game(rec.game)
        state = game.initial_state(game.validate_config(rec.config))
        steps: list[tuple[Any, tuple[Effect, ...], int | None]] = [(state, (), None)]
        try:
            for who, act in rec.moves:
                step = game.apply(state, who, act)
                state = step.state
                steps.append((state, step.effects, who))
        except IllegalAction as exc:
            raise ReplayError(f"game {game_id} does not replay at move {len(steps)}: {exc}") from None
        with self._lock:
            self._games[key] = (rec, steps)
            while len(self._games) > CACHED:
                self._games.popitem(last=False)
        return rec, steps

    def step(self, replay_id: str, seat: int | None, index: int) -> dict[str, Any]:
        """Step `index` of a replay as the spectator (`seat` None) or table seat `seat` saw it."""
        if replay_id.startswith("t-"):
            return self._transcript_step(replay_id, seat, index)
        if not replay_id.isdigit():
            raise ReplayError(f"no replay {replay_id!r}")
        rec, steps = self._journal_steps(int(replay_id))
        game = get_game(rec.game)
        gseat = None
        if seat is not None:
            if seat not in rec.seats:
                raise ReplayError(f"seat {seat} did not play game {rec.id} "
                                  f"(seats {', '.join(str(s) for s in rec.seats if s is not None)})")
            gseat = rec.seats.index(seat)
        if not 0 <= index < len(steps):
            raise ReplayError(f"game {rec.id} has steps 0 to {len(steps) - 1}")
        state, effects, who = steps[index]
        payload = redact.replay_payload(game, state, rec.seats, index, gseat, self.lang, effects, who)
        return {"id": replay_id, "count": len(steps), "step": index, "seats": [s for s in rec.seats if s is not None],
                "payload": payload}

    # -- transcripts ------------------------------------------------------------------------------
    def load_transcript(self, data: bytes | bytearray) -> dict[str, Any]:
        """Keep an uploaded transcript (UTF-8 JSON lines) for stepping; its id, step count and seats."""
        lines: list[bytes] = []
        screens: dict[int, array[int]] = {}
        for n, raw in enumerate(bytes(data).split(b"\n"), 1):
            if not raw.strip():
                continue
            if len(lines) >= MAX_LINES:
                raise ReplayError(f"more than {MAX_LINES} lines: not a transcript this table can show")
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                bad = raw[exc.start:exc.start + 1].hex()
                raise ReplayError(f"line {n}: not UTF-8 text (byte {exc.start + 1}: {bad})") from None
            try:
                entry = json_text(text, f"line {n}", LINE_DEPTH)
            except InputError as exc:
                raise ReplayError(f"line {n}: not JSON ({exc.problem})") from None
            if not isinstance(entry, dict) or not isinstance(entry.get("screens", {}), dict):
                raise ReplayError(f"line {n}: not a transcript line of zebra-table script")
            for key in entry.get("screens", {}):
                if str(key).isdigit() and len(str(key)) < 3:
                    screens.setdefault(int(key), array("I")).append(len(lines))
            lines.append(raw)
        if not lines:
            raise ReplayError("the transcript is empty")
        kept = Transcript(tuple(lines), screens, sum(map(len, lines)))
        del lines
        replay_id = "t-" + secrets.token_hex(8)
        with self._lock:
            self._transcripts[replay_id] = kept
            while len(self._transcripts) > CACHED or (
                    len(self._transcripts) > 1 and sum(t.size for t in self._transcripts.values()) > KEPT_BYTES):
                self._transcripts.popitem(last=False)
        return {"id": replay_id, "count": len(kept.lines), "seats": sorted(screens)}

    def _transcript_step(self, replay_id: str, seat: int | None, index: int) -> dict[str, Any]:
        with self._lock:
            kept = self._transcripts.get(replay_id)
        if kept is None:
            raise ReplayError("this transcript is no longer kept: load it again")
        if not 0 <= index < len(kept.lines):
            raise ReplayError(f"the transcript has steps 0 to {len(kept.lines) - 1}")
        # a seat's screen is the last one printed up to this line (--changed-only prints changes)
        screen = None
        shown = kept.screens.get(seat) if seat is not None else None
        if shown:
            at = bisect_right(shown, index)
            if at:
                screen = kept.entry(shown[at - 1])["screens"][str(seat)]
        payload = redact.transcript_payload(kept.entry(index), seat, screen, self.lang)
        return {"id": replay_id, "count": len(kept.lines), "step": index, "seats": sorted(kept.screens),
                "payload": payload}
