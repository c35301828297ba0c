"""The `zebra-table` command: one sub-command per module, imported only when used."""

from __future__ import annotations

import argparse
import importlib
import logging
import sys

# sub-command modules; each has add_parser(subparsers) and sets `func`
COMMANDS = [
    "firmware_host.commands.sim",
    "firmware_host.commands.script",
    "firmware_host.commands.rules",
    "firmware_host.commands.run",
    "firmware_host.commands.config",
    "firmware_host.commands.tags",
    "firmware_host.commands.check",
    "firmware_host.commands.games",
    "firmware_host.venue.command",
]


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every available sub-command."""
    parser = argparse.ArgumentParser(prog="zebra-table", description="The smart game table.")
    parser.add_argument("-v", "--verbose", action="store_true", help="log debug messages")
    sub = parser.add_subparsers(dest="command", required=True)
    for name in COMMANDS:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name == name:
                continue  # a command not built yet is simply not offered
            raise
        module.add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.WARNING,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
