"""The `zebra-table` command: one sub-command per module, imported only when used."""

from __future__ import annotations

import argparse
import importlib
import logging
import sys

# sub-command modules; each has add_parser(subparsers) and sets `func`
COMMANDS = [
    "firmware_host.cli_sim",
    "firmware_host.cli_script",
    "firmware_host.cli_rules",
    "firmware_host.cli_run",
    "firmware_host.cli_config",
    "firmware_host.cli_tags",
    "firmware_host.cli_check",
    "firmware_host.cli_games",
]


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The argument parser with every available sub-command, or only `command`'s when it is one
    (the table service then starts without importing the other commands' modules)."""
    parser = argparse.ArgumentParser(prog="zebra-table", description="The smart game table.")
    parser.add_argument("-v", "--verbose", action="store_true", help="log debug messages")
    sub = parser.add_subparsers(dest="command", required=True)
    only = f"firmware_host.cli_{command}"
    for name in [only] if only in COMMANDS else COMMANDS:
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
    words = sys.argv[1:] if argv is None else argv
    args = build_parser(next((w for w in words if not w.startswith("-")), None)).parse_args(argv)
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.WARNING,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
