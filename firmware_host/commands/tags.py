"""`zebra-table tags list|enrol|check`: the tag registry, and enrolling a game's pieces on a pad."""

from __future__ import annotations

import argparse
import queue
import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TextIO

from firmware_host.commands.common import default_config_path, load_registry
from firmware_host.loop.events import ReaderStatus, Snapshot, TagChange
from firmware_host.screens.frames import Frame
from firmware_host.storage.config import ConfigError, TableConfig, load_config
from firmware_host.storage.tags import TagError, TagRegistry
from games.core import Screen, Text, UnknownGame, tr
from games.registry import get_game

if TYPE_CHECKING:
    from firmware_host.loop.table import Table

EVENT_WAIT = 0.2


def add_parser(sub: Any) -> None:
    """Register the `tags` sub-command."""
    p = sub.add_parser("tags", help="the tag registry: list, enrol a game's pieces, identify tags")
    p.add_argument("--config", help="table config (default: $ZEBRA_TABLE_CONFIG or /etc/zebra-table/table.toml)")
    tsub = p.add_subparsers(dest="tags_command", required=True)
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--config", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    ls = tsub.add_parser("list", parents=[common], help="enrolled tags (and what a game still lacks)")
    ls.add_argument("--game", help="only this game's pieces, with the missing ones")
    ls.set_defaults(func=run_list)
    en = tsub.add_parser("enrol", parents=[common], help="enrol a game's pieces one by one on a seat pad")
    en.add_argument("--game", required=True)
    en.add_argument("--seat", type=int, default=1, help="the seat whose pad and screen are used")
    en.add_argument("--all", action="store_true", help="also re-enrol pieces that already have a tag")
    en.set_defaults(func=run_enrol)
    ck = tsub.add_parser("check", parents=[common], help="scan tags anywhere on the table and print their identity")
    ck.add_argument("--count", type=int, default=0, help="stop after this many tags (0: until Ctrl-C)")
    ck.set_defaults(func=run_check)


def _config(args: argparse.Namespace) -> TableConfig:
    return load_config(args.config or default_config_path())


SIMULATED = ("the simulated table gives every piece of every game a tag of its own "
             "(nothing to enrol; {file} is not read)")


def _refuse_simulated(config: TableConfig, what: str) -> int | None:
    """Exit code 2 with the reason when `config` is the simulated table, where no tag can be laid."""
    if not config.simulated:
        return None
    print(f"tags {what}: nobody can lay a tag on the simulated table, so this would wait forever; "
          f"{SIMULATED.format(file=config.tags_file)}: `zebra-table tags list` shows them. "
          f"To {what} a real table's tags, give its config: --config PATH.", file=sys.stderr)
    return 2


def run_list(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Print the registry (optionally one game's pieces, missing ones marked)."""
    out = out or sys.stdout
    try:
        config = _config(args)
        reg = load_registry(config)  # the simulated table's generated one, else the enrolled file
        wanted = get_game(args.game).pieces() if args.game else None
    except (ConfigError, TagError, UnknownGame) as exc:
        print(exc, file=sys.stderr)
        return 1
    where = f": {SIMULATED.format(file=config.tags_file)}" if config.simulated else f" in {config.tags_file}"
    if wanted is None:
        for uid, piece in reg:
            print(f"{uid:20s} {piece}", file=out)
        print(f"{len(reg)} tags{where}", file=out)
        return 0
    missing = 0
    for piece in wanted:
        found = reg.uid(piece)
        missing += found is None
        print(f"{found or '(missing)':20s} {piece}", file=out)
    done = f"have a tag{where}" if config.simulated else "enrolled"
    print(f"{len(wanted) - missing}/{len(wanted)} pieces of {args.game} {done}", file=out)
    return 0


class Enrolment:
    """Walks a game's pieces: ask for each on a pad, enrol the tag laid there, save each time."""

    def __init__(self, table: Table, registry: TagRegistry, game_id: str, seat: int,
                 out: TextIO, redo: bool = False, log: Callable[[str], None] | None = None):
        self.table = table
        self.registry = registry
        self.game = get_game(game_id)
        self.seat = seat
        self.pad = f"seat{seat}.pad"
        self.out = out
        self.pieces = [p for p in self.game.pieces() if redo or registry.uid(p) is None]
        self.on_pad: set[str] = set()
        self.enrolled = 0

    def say(self, title: Text, *lines: Text) -> None:
        """Show on the seat's screen and print on the terminal."""
        self.table.outputs.show(self.seat, Frame(Screen(title, tuple(lines))))
        print(" ".join(t.fr for t in (title, *lines)), file=self.out, flush=True)

    def _next_event(self, timeout: float) -> object | None:
        try:
            event: object = self.table.runtime.queue.get(timeout=timeout)
            return event
        except queue.Empty:
            return None

    def _pad_changes(self, timeout: float) -> bool:
        """Update what lies on the pad from reader events; True if something changed."""
        ev = self._next_event(timeout)
        if isinstance(ev, TagChange) and ev.zone == self.pad:
            (self.on_pad.add if ev.present else self.on_pad.discard)(ev.uid)
            return True
        if isinstance(ev, Snapshot):
            self.on_pad = set(ev.zones.get(self.pad, ()))
            return True
        if isinstance(ev, ReaderStatus) and ev.state != "ready":
            print(f"reader {ev.state}: {ev.reason}", file=self.out)
        return False

    def run(self, stop: Callable[[], bool] = lambda: False, timeout: float = 3600) -> int:
        """Enrol until every piece is done, `stop()` or the timeout; returns how many were enrolled."""
        deadline = time.monotonic() + timeout
        for piece in self.pieces:
            label = self.game.piece_label(piece)
            self.say(tr("Enrôlement", "Enrolment"), tr(f"Posez {label.fr}", f"Put {label.en}"),
                     tr("sur votre plateau", "on your pad"), Text(piece, piece))
            while True:
                if stop() or time.monotonic() > deadline:
                    return self.enrolled
                if not self._pad_changes(EVENT_WAIT) or len(self.on_pad) != 1:
                    continue
                uid = next(iter(self.on_pad))
                owner = self.registry.piece(uid)
                if owner is not None and owner != piece:
                    self.say(tr("Déjà enrôlée", "Already enrolled"), Text(owner, owner),
                             tr("Retirez-la", "Take it off"))
                else:
                    self.registry.add(uid, piece)
                    self.registry.save()
                    self.enrolled += 1
                    self.say(tr("Enrôlée", "Enrolled"), Text(f"{piece} = {uid}", f"{piece} = {uid}"),
                             tr("Retirez-la", "Take it off"))
                while self.on_pad and not stop() and time.monotonic() < deadline:
                    self._pad_changes(EVENT_WAIT)
                if owner is None or owner == piece:
                    break
        self.say(tr("Enrôlement fini", "Enrolment done"),
                 Text(f"{self.enrolled} étiquettes", f"{self.enrolled} tags"))
        return self.enrolled


def _open_table(config: TableConfig, registry: TagRegistry) -> Table:
    from firmware_host.loop.table import open_table

    table = open_table(config, registry)
    table.start()
    return table


def run_enrol(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Entry point of `tags enrol`."""
    out = out or sys.stdout
    try:
        config = _config(args)
        config.seat(args.seat)
        registry = TagRegistry.load(config.tags_file)
        get_game(args.game)
    except (ConfigError, TagError, UnknownGame) as exc:
        print(exc, file=sys.stderr)
        return 1
    except KeyError:
        print(f"no seat {args.seat} in the config", file=sys.stderr)
        return 1
    refused = _refuse_simulated(config, "enrol")
    if refused is not None:
        return refused
    try:
        table = _open_table(config, registry)
    except RuntimeError as exc:  # TableSetupError: no GPIO, no serial...
        print(exc, file=sys.stderr)
        return 3
    try:
        done = Enrolment(table, registry, args.game, args.seat, out, redo=args.all).run()
    except KeyboardInterrupt:
        done = -1
    finally:
        table.close()
    print(f"registry saved to {config.tags_file}", file=out)
    return 0 if done >= 0 else 130


def run_check(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Print the identity of every tag laid anywhere on the table."""
    out = out or sys.stdout
    try:
        config = _config(args)
        registry = TagRegistry.load(config.tags_file)
    except (ConfigError, TagError) as exc:
        print(exc, file=sys.stderr)
        return 1
    refused = _refuse_simulated(config, "check")
    if refused is not None:
        return refused
    try:
        table = _open_table(config, registry)
    except RuntimeError as exc:  # TableSetupError: no GPIO, no serial...
        print(exc, file=sys.stderr)
        return 3
    seen = 0
    print("Lay tags anywhere on the table (Ctrl-C to stop)…", file=out, flush=True)
    try:
        while not args.count or seen < args.count:
            try:
                ev = table.runtime.queue.get(timeout=1.0)
            except queue.Empty:
                continue
            if isinstance(ev, TagChange) and ev.present:
                seen += 1
                print(f"{ev.zone:10s} {ev.uid:20s} {registry.piece(ev.uid) or 'UNKNOWN'}", file=out, flush=True)
    except KeyboardInterrupt:
        pass  # Ctrl-C is how the operator ends the listing
    finally:
        table.close()
    return 0
