"""`zebra-table venue`: subscribe to the venue's broker, keep the results, show the live tables.

    zebra-table venue --host BROKER [--port N] [--db FILE] [--keys FILE]   listen (until Ctrl-C, or --for S)
    zebra-table venue --db FILE --show                         print the tables and results once
    zebra-table venue --db FILE --csv games.csv [--results-csv results.csv]

Exit status: 0 after a stop asked for (Ctrl-C, SIGTERM, --for), 2 for bad flags or key file,
1 when the writer stopped on its own (the results database failing): nothing more was stored.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
import threading
import time
from typing import TYPE_CHECKING, Any, TextIO

from firmware_host.venue.settings import TABLE_NAME, VenueConfig, parse_venue

if TYPE_CHECKING:
    from firmware_host.venue.results import VenueDB

log = logging.getLogger(__name__)

PASSWORD_ENV = "ZEBRA_VENUE_PASSWORD"


def add_parser(sub: Any) -> None:
    """Register the `venue` sub-command."""
    p = sub.add_parser("venue", help="the venue: every table's games from the MQTT broker, results, CSV",
                       description="Subscribe to the venue's broker, keep every table's games in a results "
                                   "database (SQLite), show the live tables and the results per game.")
    p.add_argument("--host", default="127.0.0.1", help="broker host (default 127.0.0.1)")
    p.add_argument("--port", type=int, help="broker port (default 1883, 8883 with --tls)")
    p.add_argument("--username", help="the venue's account on the broker")
    p.add_argument("--password-file", help=f"file holding the password (or ${PASSWORD_ENV})")
    p.add_argument("--tls", action="store_true", help="connect with TLS")
    p.add_argument("--ca-file", help="with --tls: the CA of the broker's certificate")
    p.add_argument("--client-id", default="zebra-table-venue",
                   help="MQTT client id; the broker keeps this session's messages while away")
    p.add_argument("--reconnect-max", type=float, default=10.0,
                   help="longest wait between two connection attempts, seconds (default 10)")
    p.add_argument("--keys", help="TOML file: table name = the key it signs with (docs/venue.md)")
    p.add_argument("--signed-only", action="store_true",
                   help="with --keys: refuse the messages of tables without a key there")
    p.add_argument("--db", help="results database (default: $XDG_DATA_HOME/zebra-table/venue.sqlite)")
    p.add_argument("--lang", choices=("fr", "en"), default="fr", help="language of the view (default fr)")
    p.add_argument("--for", dest="duration", type=float, help="listen this many seconds, then stop")
    p.add_argument("--show", action="store_true", help="print the tables and results from the database and exit")
    p.add_argument("--csv", help="export every game as CSV to this file (- = stdout) and exit")
    p.add_argument("--results-csv", help="export the results table as CSV to this file and exit")
    p.set_defaults(func=run)


def run(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Entry point of `zebra-table venue`."""
    from firmware_host.venue.results import default_path
    from firmware_host.venue.view import render

    out = out or sys.stdout
    db_path = args.db or default_path()
    if args.show or args.csv or args.results_csv:
        if not os.path.exists(db_path):
            print(f"{db_path}: no results database yet (run `zebra-table venue` first)", file=sys.stderr)
            return 2
        db = _open_db(db_path)
        if db is None:
            return 2
        try:
            if args.csv:
                n = _export(db.export_games, args.csv, out)
                print(f"{n} game(s) written to {args.csv}", file=sys.stderr)
            if args.results_csv:
                n = _export(db.export_results, args.results_csv, out)
                print(f"{n} result row(s) written to {args.results_csv}", file=sys.stderr)
            if args.show:
                out.write(render(db, args.lang))
        finally:
            db.close()
        return 0
    settings = _settings(args)
    keys = _keys(args)
    if settings is None or keys is None:
        return 2
    checked = _open_db(db_path)  # a file that is not a results database: said now, in one line
    if checked is None:
        return 2
    checked.close()
    return listen(settings, db_path, args.client_id, args.lang, args.duration, out, keys, args.signed_only)


def _open_db(path: str) -> VenueDB | None:
    """The results database at `path`; None after saying in one line why it cannot be used."""
    import sqlite3

    from firmware_host.venue.results import VenueDB

    try:
        return VenueDB(path)
    except (sqlite3.Error, OSError) as exc:
        print(f"--db: {path}: not a usable results database ({exc})", file=sys.stderr)
        return None


def _export(fn: Any, path: str, out: TextIO) -> int:
    if path == "-":
        return int(fn(out))
    with open(path, "w", encoding="utf-8", newline="") as f:
        return int(fn(f))


def _settings(args: argparse.Namespace) -> VenueConfig | None:
    """The broker settings from the flags, checked like the table's [venue] section."""
    password = os.environ.get(PASSWORD_ENV)
    if args.password_file:
        try:
            with open(args.password_file, encoding="utf-8") as f:
                password = f.read().strip()
        except OSError as exc:
            print(f"--password-file: {args.password_file}: {exc.strerror}", file=sys.stderr)
            return None
    if not TABLE_NAME.fullmatch(args.client_id):
        print(f"--client-id: {args.client_id!r}: 1 to 23 letters, digits, - or _", file=sys.stderr)
        return None
    raw: dict[str, Any] = {"table": args.client_id, "host": args.host, "tls": args.tls,
                           "reconnect_max": args.reconnect_max}
    for key, value in (("port", args.port), ("username", args.username), ("password", password),
                       ("ca_file", args.ca_file)):
        if value is not None:
            raw[key] = value
    problems: list[str] = []
    flag = {"table": "--client-id", "ca_file": "--ca-file", "password": "--password-file",
            "reconnect_max": "--reconnect-max"}
    settings = parse_venue(raw, lambda key, msg: problems.append(
        f"{flag.get(key[6:], '--' + key[6:])}: {msg}"))
    for p in problems:
        print(p, file=sys.stderr)
    return settings if not problems else None


def _keys(args: argparse.Namespace) -> dict[str, bytes] | None:
    """The tables' keys from --keys ({} without it); None after saying what is wrong."""
    if args.signed_only and not args.keys:
        print("--signed-only: needs --keys (the tables' keys)", file=sys.stderr)
        return None
    if not args.keys:
        return {}
    from firmware_host.venue import keyring

    keys, problems = keyring.load(args.keys)
    for p in problems:
        print(f"--keys: {p}", file=sys.stderr)
    return None if problems else keys


def _warn_at_start(settings: VenueConfig, keys: dict[str, bytes], signed_only: bool) -> None:
    """What leaves the results open to forgery, said before listening."""
    from firmware_host.venue import mqtt

    if not keys:
        log.warning("venue: no table keys (--keys): every table's messages are taken unsigned, "
                    "so anyone who can publish on the broker can forge results")
    elif not signed_only:
        log.warning("venue: tables without a key in the key file are taken unsigned (%d table(s) with a key; "
                    "--signed-only refuses the others)", len(keys))
    if mqtt.anonymous_accepted(settings):
        log.warning("venue: the broker %s accepts anonymous clients: unless its ACL keeps them from writing "
                    "zebra-table/#, anyone on its network can publish a table's messages (set allow_anonymous "
                    "false; table keys refuse forged ones)", settings.where)


def listen(settings: VenueConfig, db_path: str, client_id: str, lang: str, duration: float | None,
           out: TextIO, keys: dict[str, bytes] | None = None, signed_only: bool = False) -> int:
    """Subscribe and keep the database until Ctrl-C, SIGTERM or `duration` seconds; 1 if the writer stopped."""
    from firmware_host.venue.inbound import Event
    from firmware_host.venue.listener import Listener
    from firmware_host.venue.results import VenueDB
    from firmware_host.venue.view import game_name, render

    logging.getLogger().setLevel(min(logging.getLogger().level, logging.INFO))
    keys = keys or {}
    _warn_at_start(settings, keys, signed_only)
    stop = threading.Event()
    live = out.isatty()

    def on_event(ev: Event, new: bool) -> None:
        # a plain output (a log, a pipe) gets one line per change of a table or game
        if live or not new:
            return
        d = ev.data
        if ev.kind == "status":
            line = f"{ev.table} {d['state']}" + (f" ({d['reason']})" if d.get("reason") else "")
        elif ev.kind == "started":
            line = f"{ev.table} started {game_name(d['game'], lang)} {ev.game_id}"
        elif ev.kind == "finished":
            line = f"{ev.table} {d['status']} {game_name(d['game'], lang)} {ev.game_id} after {d['moves']} moves"
        else:
            return
        print(line, file=out, flush=True)

    listener = Listener(settings, db_path, client_id, on_event, keys.get, signed_only)
    previous = {sig: signal.signal(sig, lambda *_: stop.set()) for sig in (signal.SIGINT, signal.SIGTERM)}
    listener.start()
    view = VenueDB(db_path)  # the writer thread has its own connection
    deadline = None if duration is None else time.monotonic() + duration
    try:
        while not stop.is_set() and not listener.stopped.is_set():
            if live:
                out.write("\x1b[H\x1b[2J" + f"zebra-table venue — {settings.where}\n\n" + render(view, lang))
                out.flush()
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                break
            stop.wait(1.0 if left is None else min(1.0, left))
    finally:
        listener.close()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        s = listener.stats
        out.write(render(view, lang))
        out.write(f"{s.received} messages, {s.stored} stored, {s.duplicates} copies dropped, "
                  f"{s.quarantined} set aside\n")
        out.flush()
        view.close()
    if listener.failure is not None:
        print(f"venue: the writer stopped ({listener.failure}): nothing more was stored; the broker keeps "
              "what was not acknowledged", file=sys.stderr)
        return 1
    return 0
