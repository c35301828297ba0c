"""The `zebra-table` command: one sub-command per module, imported only when used."""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import sys

# sub-command name -> its module; each module has add_parser(subparsers) and sets `func`
COMMANDS = {
    "sim": "firmware_host.commands.sim",
    "script": "firmware_host.commands.script",
    "rules": "firmware_host.commands.rules",
    "run": "firmware_host.commands.run",
    "config": "firmware_host.commands.config",
    "tags": "firmware_host.commands.tags",
    "check": "firmware_host.commands.check",
    "games": "firmware_host.commands.games",
    "venue": "firmware_host.venue.command",
}


def installed_version() -> str:
    """The version of the installed zebra-table package (its metadata), or why it is unknown."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("zebra-table")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "(not installed: no package metadata)"


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The argument parser with every available sub-command, or only `command`'s when it is one
    (the table service then starts without importing the other commands' modules)."""
    parser = argparse.ArgumentParser(prog="zebra-table", description="The smart game table.")
    parser.add_argument("-v", "--verbose", action="store_true", help="log debug messages")
    parser.add_argument("--version", action="version", version=f"%(prog)s {installed_version()}",
                        help="print the installed version and exit")
    sub = parser.add_subparsers(dest="command", required=True)
    only = COMMANDS.get(command or "")
    for name in [only] if only else COMMANDS.values():
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
    try:
        code = int(args.func(args) or 0)
        sys.stdout.flush()  # a reader gone early is met here, not by Python's flush at exit
    except BrokenPipeError:
        # the output's reader stopped reading (`| head -1`): it had what it wanted, end quietly
        _silence_stdout()
        return 0
    return code


def _silence_stdout() -> None:
    """Point stdout at /dev/null: Python flushes it again at exit and must not find the pipe."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):  # not a file (a test's capture): nothing to flush
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, fd)
    finally:
        os.close(devnull)


if __name__ == "__main__":
    sys.exit(main())
