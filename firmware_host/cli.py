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


def command_name(module: str) -> str:
    """The sub-command a module registers: firmware_host.cli_games -> games."""
    return module.rsplit(".", 1)[-1].removeprefix("cli_")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The argument parser with every available sub-command (or just `only`, by its name)."""
    parser = argparse.ArgumentParser(prog="zebra-table", description="The smart game table.")
    parser.add_argument("-v", "--verbose", action="store_true", help="log debug messages")
    sub = parser.add_subparsers(dest="command", required=True)
    for name in COMMANDS:
        if only is not None and command_name(name) != only:
            continue
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
    words = [a for a in (sys.argv[1:] if argv is None else argv) if not a.startswith("-")]
    # import only the command asked for: `games list` need not load the runtime, the drivers...
    known = {command_name(name) for name in COMMANDS}
    args = build_parser(words[0] if words and words[0] in known else None).parse_args(argv)
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.WARNING,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
