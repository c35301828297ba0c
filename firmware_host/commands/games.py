"""`zebra-table games list|show|replay`: the journaled games, whole or as one seat saw them."""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any, TextIO

from games.core import to_json
from games.registry import get_game

from firmware_host.commands.common import default_config_path
from firmware_host.storage.config import ConfigError, load_config
from firmware_host.screens.frames import Frame
from firmware_host.storage.journal import GameRecord, Journal, JournalError, seat_name


def add_parser(sub: Any) -> None:
    """Register the `games` sub-command."""
    p = sub.add_parser("games", help="list, show or replay the journaled games")
    p.add_argument("--journal", help="journal file (default: the config's paths.journal)")
    p.add_argument("--config", help="table config (default: $ZEBRA_TABLE_CONFIG or /etc/zebra-table/table.toml)")
    gsub = p.add_subparsers(dest="games_command", required=True)
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--journal", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    common.add_argument("--config", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    ls = gsub.add_parser("list", parents=[common], help="one line per game, newest first")
    ls.add_argument("--limit", type=int, default=None, help="only the newest N games")
    ls.set_defaults(func=run_list)
    show = gsub.add_parser("show", parents=[common], help="a game's JSON record")
    show.add_argument("id", type=int)
    show.add_argument("--seat", type=int, help="only what this game seat (0-based) could see")
    show.set_defaults(func=run_show)
    rep = gsub.add_parser("replay", parents=[common], help="step through a game's screens")
    rep.add_argument("id", type=int)
    rep.add_argument("--seat", type=int, help="only this game seat's screen")
    rep.add_argument("--delay", type=float, default=0.0, help="seconds between steps (0: all at once)")
    rep.add_argument("--lang", choices=("fr", "en"), default="fr")
    rep.set_defaults(func=run_replay)


def _journal(args: argparse.Namespace) -> Journal:
    path = args.journal
    if path is None:
        path = load_config(args.config or default_config_path()).journal
    # read-only: listing games during a game never takes a write lock nor changes a byte
    return Journal(path, read_only=True)


def steps(rec: GameRecord, seat: int | None) -> list[dict[str, Any]]:
    """Each step of a game: who acted, the action (if `seat` may know it) and `seat`'s view."""
    game = get_game(rec.game)
    cfg = game.validate_config(rec.config)
    state = game.initial_state(cfg)
    out = [{"index": None, "view": to_json(game.view(state, seat))}]
    for i, (who, act) in enumerate(rec.moves):
        step = game.apply(state, who, act)
        state = step.state
        entry: dict[str, Any] = {"index": i, "seat": seat_name(who)}
        if seat is None or who == seat:
            entry["action"] = to_json(act)
        entry["effects"] = [{"kind": e.kind, "text": e.text.fr} for e in step.effects
                            if seat is None or e.audience is None or seat in e.audience]
        entry["view"] = to_json(game.view(state, seat))
        out.append(entry)
    return out


def record_json(rec: GameRecord, seat: int | None) -> dict[str, Any]:
    """The JSON record of a game; with `seat`, no action or effect that seat could not see."""
    if seat is not None and not 0 <= seat < rec.config.players:
        raise JournalError(f"game {rec.id} has seats 0 to {rec.config.players - 1}")
    doc: dict[str, Any] = {"id": rec.id, "game": rec.game, "players": rec.config.players,
                           "options": dict(rec.config.options), "table_seats": list(rec.seats),
                           "status": rec.status, "started": rec.started, "ended": rec.ended,
                           "outcome": rec.outcome, "seat": seat, "steps": steps(rec, seat)}
    if seat is None:
        doc["seed"] = rec.config.seed
        doc["moves"] = [{"seat": seat_name(s), "action": a} for s, a in rec.moves]
    return doc


def run_list(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Print one line per journaled game, newest first, streamed: memory does not grow with games."""
    out = out or sys.stdout
    try:
        journal = _journal(args)
    except (JournalError, ConfigError) as exc:
        print(exc, file=sys.stderr)
        return 1
    try:
        for g in journal.summaries(limit=args.limit):
            when = time.strftime("%Y-%m-%d %H:%M", time.localtime(g.started))
            winners = "" if g.winners is None else f" winners {g.winners}"
            print(f"{g.id:5d}  {when}  {g.game:17s} {g.players}p  {g.status:9s} {g.moves:4d} moves{winners}",
                  file=out)
    except JournalError as exc:
        print(f"{exc} (the table sets a damaged journal aside at its next start)", file=sys.stderr)
        return 1
    finally:
        journal.close()
    return 0


def run_show(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Print a game's record as JSON."""
    out = out or sys.stdout
    try:
        doc = record_json(_journal(args).record(args.id), args.seat)
    except (ValueError, ConfigError) as exc:  # JournalError, an unknown game, a move its rules refuse
        print(f"game {args.id}: {exc}", file=sys.stderr)
        return 1
    json.dump(doc, out, ensure_ascii=False, indent=1)
    out.write("\n")
    return 0


def run_replay(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Print every seat's screen (or one seat's) after each step."""
    out = out or sys.stdout
    try:
        rec = _journal(args).record(args.id)
    except (JournalError, ConfigError) as exc:
        print(exc, file=sys.stderr)
        return 1
    try:
        game = get_game(rec.game)
        state = game.initial_state(game.validate_config(rec.config))
    except ValueError as exc:
        print(f"game {args.id}: {exc}", file=sys.stderr)
        return 1
    seats = [args.seat] if args.seat is not None else list(range(rec.config.players))
    for i, (who, act) in enumerate([(None, None), *rec.moves]):
        if who is not None and act is not None:
            try:
                state = game.apply(state, who, act).state
            except ValueError as exc:
                print(f"game {args.id}, move {i - 1}: {exc}", file=sys.stderr)
                return 1
        print(f"--- step {i}/{len(rec.moves)}" + ("" if who is None else f" (seat {seat_name(who)})"), file=out)
        for s in seats:
            frame = Frame(game.screen(game.view(state, s), s)).text(args.lang)
            print(f"  [{s}] {frame['title']}: " + " | ".join(frame["lines"]), file=out)  # type: ignore[arg-type]
        if args.delay:
            time.sleep(args.delay)
    return 0
