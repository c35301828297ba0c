"""`zebra-table run`: the table service on its hardware (or the simulated one if the config says so)."""

from __future__ import annotations

import argparse
import logging
import signal
import sys
import time
from typing import Any

from firmware_host.cli_config import default_config_path
from firmware_host.config import ConfigError, TableConfig, load_config
from firmware_host.journal import Journal, JournalError
from firmware_host.settings import settings_path
from firmware_host.notify import Notifier
from firmware_host.runtime import Stop
from firmware_host.session import GameSession
from games.core import Text, tr

from firmware_host.tags import TagError, TagRegistry, all_game_pieces, sim_registry

log = logging.getLogger(__name__)


def add_parser(sub: Any) -> None:
    """Register the `run` sub-command."""
    p = sub.add_parser("run", help="run the table service")
    p.add_argument("--config", help="table config (default: $ZEBRA_TABLE_CONFIG or /etc/zebra-table/table.toml)")
    p.set_defaults(func=run)


def load_registry(config: TableConfig) -> TagRegistry:
    """The config's tag registry; the simulated table gets one tag per piece of every game."""
    if config.simulated:
        return sim_registry(all_game_pieces())
    return TagRegistry.load(config.tags_file)


def open_journal(path: str) -> tuple[Journal | None, Text | None]:
    """The journal, and what the screens must say if it was set aside or cannot be used at all."""
    try:
        journal, aside = Journal.open_or_set_aside(path)
    except (JournalError, OSError) as exc:
        log.error("no journal, games will not be kept: %s", exc)
        return None, tr("Journal indisponible : parties non gardées", "No journal: games are not kept")
    if aside:
        log.error("journal: %s", aside)
        return journal, tr("Journal illisible, mis de côté ; nouveau journal",
                           "Unreadable journal set aside; new journal started")
    return journal, None


def status_line(table: Any) -> str:
    """The systemd STATUS= text: current game and reader state."""
    app = table.runtime.app
    what = f"playing {app.game.id} ({len(app.moves)} moves)" if isinstance(app, GameSession) else "menu"
    return f"{what}; reader {table.runtime.reader_state}"


def run(args: argparse.Namespace) -> int:
    """Entry point of `zebra-table run`."""
    from firmware_host.table import TableSetupError, open_table

    path = args.config or default_config_path()
    try:
        config = load_config(path)
        registry = load_registry(config)
    except (ConfigError, TagError) as exc:
        print(exc, file=sys.stderr)
        return 2
    logging.getLogger().setLevel(min(logging.getLogger().level, logging.INFO))
    journal, notice = open_journal(config.journal)
    try:
        table = open_table(config, registry, journal=journal, startup_notice=notice,
                           settings=settings_path(config.data_dir))
    except TableSetupError as exc:
        print(exc, file=sys.stderr)
        if journal is not None:
            journal.close()
        return 3
    notifier = Notifier()

    def stop(signum: int, frame: Any) -> None:
        table.runtime.post(Stop())

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    started = time.monotonic()
    ready = False

    def idle() -> None:
        nonlocal ready
        table.poll()
        notifier.ping()
        if not ready and (table.runtime.reader_state == "ready" or time.monotonic() - started > 10):
            ready = True  # screens opened at start; the reader is up or known absent
            notifier.ready(status_line(table))
        notifier.set_status(status_line(table))

    log.info("table service started with %s (%d seats, %d tags)", config.path, len(config.seats), len(registry))
    try:
        table.start()
        table.runtime.run(on_idle=idle, max_wait=0.5)
    finally:
        notifier.stopping()
        table.close()
        if journal is not None:
            journal.close()
    return 0
