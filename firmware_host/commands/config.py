"""`zebra-table config check [PATH]` and `config example`."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from firmware_host.commands.common import DEFAULT_PATH, default_config_path
from firmware_host.storage.config import ConfigError, TableConfig, load_config
from firmware_host.storage.config_schema import example_text


def add_parser(sub: Any) -> None:
    """Register the `config` sub-command."""
    p = sub.add_parser("config", help="check a table config file, or print an example")
    csub = p.add_subparsers(dest="config_command", required=True)
    check = csub.add_parser("check", help="validate a config file and summarise it")
    check.add_argument("path", nargs="?", help=f"default: $ZEBRA_TABLE_CONFIG or {DEFAULT_PATH}")
    check.set_defaults(func=run_check)
    example = csub.add_parser("example", help="print a complete config: every key, generated from the schema")
    example.set_defaults(func=lambda args: print(example_text(), end="") or 0)


def summary(cfg: TableConfig) -> list[str]:
    """A few lines describing a valid config."""
    lines = [f"{cfg.path}: OK",
             f"  language {cfg.language}; reader {cfg.reader.port} at {cfg.reader.baudrate} baud, "
             f"settle {cfg.reader.settle} s"]
    for s in cfg.seats:
        pins = ", ".join(f"{k}=GPIO{v}" for k, v in s.buttons.items())
        if s.encoder:
            pins += f"{', ' if pins else ''}encoder a=GPIO{s.encoder.a} b=GPIO{s.encoder.b}"
        scr = f"{s.screen.driver} bus {s.screen.bus} addr {s.screen.address:#04x}" if s.screen else "no screen"
        lines.append(f"  seat {s.id}: {pins}; {scr}")
    lines.append(f"  {len(cfg.antennas)} antennas mapped; tags {cfg.tags_file}; journal {cfg.journal}")
    if cfg.venue is not None:
        v = cfg.venue
        lines.append(f"  venue: {'publishes' if v.enabled else 'off; would publish'} as {v.table} to {v.where}"
                     f"{' (TLS)' if v.tls else ''}{' as ' + v.username if v.username else ''}")
    return lines


def run_check(args: argparse.Namespace) -> int:
    """Validate and print the result; exit 1 on problems."""
    path = args.path or default_config_path()
    try:
        cfg = load_config(path)
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return 1
    print("\n".join(summary(cfg)))
    return 0
