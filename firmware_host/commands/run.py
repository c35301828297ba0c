"""`zebra-table run`: the table service on its hardware (or the simulated one if the config says so)."""

from __future__ import annotations

import argparse
import logging
import signal
import sys
import time
from typing import Any
from urllib.parse import urlsplit

from firmware_host.apps.session import GameSession
from firmware_host.commands.common import (
    default_config_path,
    load_registry,
    open_journal,
    open_journal_or_raise,
    stop_on,
)
from firmware_host.loop.affinity import pin_table
from firmware_host.loop.events import Stop
from firmware_host.loop.gpio_backend import NO_GPIO_BACKEND, explain, missing_backend
from firmware_host.loop.notify import Notifier
from firmware_host.storage.config import ConfigError, TableConfig, load_config
from firmware_host.storage.journal_lock import JournalInUse, lock_journal
from firmware_host.storage.settings import settings_path
from firmware_host.storage.tags import TagError, TagRegistry
from firmware_host.venue import attach as attach_venue

log = logging.getLogger(__name__)


def add_parser(sub: Any) -> None:
    """Register the `run` sub-command."""
    p = sub.add_parser("run", help="run the table service")
    p.add_argument("--config", help="table config (default: $ZEBRA_TABLE_CONFIG or /etc/zebra-table/table.toml)")
    p.set_defaults(func=run)


def watchdog_feeder(runtime: Any, notifier: Notifier) -> Any:
    """The loop's idle hook for the systemd watchdog: a ping only while the loop makes progress.

    A hung loop never calls it; a loop whose every pass fails (even the menu) calls it but is
    not healthy, so systemd restarts the service in both cases.
    """
    def feed() -> None:
        if runtime.healthy:
            notifier.ping()
    return feed


def loggable_url(url: str) -> str:
    """The URL without what only its owner may know (a ?t= token, a user:password@): logs are read by many."""
    parts = urlsplit(url)
    return parts._replace(netloc=parts.netloc.rpartition("@")[2], query="", fragment="").geturl()


def status_line(table: Any) -> str:
    """The systemd STATUS= text: current game and reader state."""
    app = table.runtime.app
    what = f"playing {app.game.id} ({len(app.moves)} moves)" if isinstance(app, GameSession) else "menu"
    return f"{what}; reader {table.runtime.reader_state}"


def log_games_left_out() -> int:
    """Log each game folder whose info.toml keeps it out of the menu; how many there are."""
    from games.registry import problems

    for reason in problems().values():
        log.error("a game is left out of the menu: %s", reason)
    return len(problems())


def run(args: argparse.Namespace) -> int:
    """Entry point of `zebra-table run`."""
    path = args.config or default_config_path()
    try:
        config = load_config(path)
        registry = load_registry(config)
    except (ConfigError, TagError) as exc:
        print(exc, file=sys.stderr)
        return 2
    logging.getLogger().setLevel(min(logging.getLogger().level, logging.INFO))
    log_games_left_out()
    try:
        lock = lock_journal(config.journal)  # before the journal is opened (or a damaged one moved)
    except JournalInUse as exc:
        print(exc, file=sys.stderr)
        return 4
    try:
        return _serve(config, registry)
    finally:
        lock.release()


def _serve(config: TableConfig, registry: TagRegistry) -> int:
    """The service itself, once the journal is this process's."""
    from firmware_host.loop.table import TableSetupError, open_table

    journal, notice = open_journal(config.journal)
    opener = None
    if journal is None:  # busy (or not there yet): the runtime retries every few seconds
        opener = lambda: open_journal_or_raise(config.journal)  # noqa: E731
    try:
        table = open_table(config, registry, journal=journal, startup_notice=notice, journal_opener=opener,
                           settings=settings_path(config.data_dir))
    except (TableSetupError, ImportError) as exc:  # gpiozero's BadPinFactory is an ImportError
        if journal is not None:
            journal.close()
        if missing_backend(exc):
            print(explain(config.path), file=sys.stderr)
            return NO_GPIO_BACKEND  # the unit's RestartPreventExitStatus=: a restart cannot fix it
        if not isinstance(exc, TableSetupError):
            raise
        print(exc, file=sys.stderr)
        return 3
    web = None
    if config.web.enabled:
        from firmware_host.web.server import WebError  # aiohttp only when the pages are on
        from firmware_host.web.service import start_web

        try:
            web = start_web(table, registry, journal_path=config.journal if journal is not None else None)
            log.info("web pages at %s", loggable_url(web.url))
        except WebError as exc:  # one line naming the key; the table itself runs on without its pages
            log.error("%s", exc)
    notifier = Notifier()
    venue = attach_venue(config, journal)  # None unless [venue]: then games go to the venue's broker

    def stop(signum: int, frame: Any) -> None:
        table.runtime.post(Stop())

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    stop_on(("SIGHUP",), stop)  # started by hand in a terminal that then closes (systemd gives it none)
    started = time.monotonic()
    ready = False
    feed = watchdog_feeder(table.runtime, notifier)

    def idle() -> None:
        nonlocal ready
        table.poll()
        feed()
        if not ready and (table.runtime.reader_state == "ready" or time.monotonic() - started > 10):
            ready = True  # screens opened at start; the reader is up or known absent
            notifier.ready(status_line(table))
        notifier.set_status(status_line(table))

    log.info("table service started with %s (%d seats, %d tags)", config.path, len(config.seats), len(registry))
    try:
        pin_table(config.pin_cpu)
        table.start()
        table.runtime.run(on_idle=idle, max_wait=0.5)
    finally:
        notifier.stopping()
        if venue is not None:
            venue.close()
        if web is not None:
            web.stop()
        table.close()
        table.runtime.keeper.close()  # records the clean stop: the next start skips the check
    return 0
