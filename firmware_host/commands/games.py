"""`zebra-table games list|show|replay`: the journaled games, whole or as one seat saw them."""

from __future__ import annotations

import argparse
import functools
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from firmware_host.apps.undo import effective_moves, is_undo
from firmware_host.commands.common import default_config_path, seconds, whole_number
from firmware_host.screens.frames import Frame
from firmware_host.storage.config import ConfigError, load_config
from firmware_host.storage.journal import GameRecord, Journal, seat_name
from firmware_host.storage.journal_errors import JournalError
from games.core import CHANCE, replay, to_json
from games.registry import get_game


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
    ls.add_argument("--limit", type=whole_number(0), default=None, help="only the newest N games")
    ls.set_defaults(func=run_list)
    show = gsub.add_parser("show", parents=[common], help="a game's JSON record")
    show.add_argument("id", type=whole_number(1))
    show.add_argument("--seat", type=player_number, help="only what this player (1 = J1, as on the screens) could see")
    show.set_defaults(func=run_show)
    rep = gsub.add_parser("replay", parents=[common], help="step through a game's screens")
    rep.add_argument("id", type=whole_number(1))
    rep.add_argument("--seat", type=player_number, help="only this player's screen (1 = J1, as on the screens)")
    rep.add_argument("--all-seats", action="store_true",
                     help="every player's screen, secrets included, even for a game not finished (default: "
                          "every player's for a finished game, else the public screen only)")
    rep.add_argument("--delay", type=seconds(60), default=0.0, help="seconds between steps (0: all at once)")
    rep.add_argument("--from", dest="first", type=whole_number(0), default=0, metavar="STEP",
                     help="the first step shown (default 0, the set-up)")
    rep.add_argument("--steps", type=whole_number(1, MAX_STEPS), default=DEFAULT_STEPS,
                     help=f"steps shown at most (default {DEFAULT_STEPS}, up to {MAX_STEPS:,})")
    rep.add_argument("--lang", choices=("fr", "en"), default="fr")
    rep.set_defaults(func=run_replay)


def player_number(text: str) -> int:
    """A player as the screens number them (J1 = 1) → the game seat (0)."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: a player number, 1 for J1") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"{n}: players are numbered from 1 (J1), as on the screens")
    return n - 1


def player(seat: int, lang: str = "fr") -> str:
    """A game seat as the screens name it: "J1" (French), "P1" (English), "chance"."""
    return "chance" if seat == CHANCE else f"{'P' if lang == 'en' else 'J'}{seat + 1}"


def _journal(args: argparse.Namespace) -> Journal:
    """The journal to read: an existing file only (a mistyped path creates nothing)."""
    path = args.journal
    if path is None:
        path = load_config(args.config or default_config_path()).journal
    if not Path(path).is_file():
        raise JournalError(f"no journal at {path}: check the path (these commands never create one)")
    # read-only: listing games during a game never takes a write lock nor changes a byte
    return Journal(path, read_only=True)


def quiet_pipe(run: Callable[..., int]) -> Callable[..., int]:
    """A command whose reader may stop early (`| head`): a closed pipe ends it quietly."""
    @functools.wraps(run)
    def wrapper(*args: Any, **kw: Any) -> int:
        try:
            return run(*args, **kw)
        except BrokenPipeError:
            # Python would report the pipe again when it flushes stdout at exit
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return 0
    return wrapper


PUBLIC_ONLY = {
    "fr": "(partie non terminée ({status}) : l'écran public seulement ; --seat N : l'écran d'un joueur ; "
          "--all-seats : tous, secrets compris)",
    "en": "(game not finished ({status}): the public screen only; --seat N: one player's screen; "
          "--all-seats: every player's, secrets included)",
}
MAX_ALTERNATIVES = 200  # moves compared to tell whether one is public; more: said as "…"
# a replay prints a few lines per step and per seat: a long game (undos, a game left running)
# would print thousands; these many are shown unless asked otherwise
DEFAULT_STEPS = 200
MAX_STEPS = 100_000
BEFORE_CUT = {"fr": "(étapes 0 à {last} non montrées ; --from 0 pour les voir)",
              "en": "(steps 0 to {last} not shown; --from 0 to see them)"}
AFTER_CUT = {"fr": "(étapes {first} à {last} non montrées : {steps} au plus (--steps) ; "
                   "--from {first} pour la suite)",
             "en": "(steps {first} to {last} not shown: {steps} at most (--steps); --from {first} for the rest)"}
PAST_END = {"fr": "partie {gid} : étapes 0 à {last}, --from {first} est au-delà",
            "en": "game {gid}: steps 0 to {last}, --from {first} is past its end"}


def public_move(game: Any, state: Any, who: int, act: Any) -> bool:
    """True when anyone could tell this move from every other the mover had: the public view
    after it differs from the public view after each of them (a card laid face down does not)."""
    others = [a for a, _ in game.chance_outcomes(state)] if who == CHANCE else game.legal_actions(state, who)
    if len(others) > MAX_ALTERNATIVES:
        return False
    after = game.view(game.apply(state, who, act).state, None)
    for other in others:
        if other == act:
            continue
        try:
            if game.view(game.apply(state, who, other).state, None) == after:
                return False
        except ValueError:  # an outcome the rules refuse here: not an alternative
            continue
    return True


def steps(rec: GameRecord, seat: int | None) -> list[dict[str, Any]]:
    """Each step of a game: who acted, the action (if `seat` may know it) and `seat`'s view."""
    game = get_game(rec.game)
    cfg = game.validate_config(rec.config)
    state = game.initial_state(cfg)
    out = [{"index": None, "view": to_json(game.view(state, seat))}]
    for i, (who, act) in enumerate(rec.moves):
        if is_undo(act):  # the players agreed to take moves back: the game stands as before them
            state = replay(game, cfg, effective_moves(rec.moves[:i + 1]))
            out.append({"index": i, "seat": seat_name(who), "player": player(who), "undo": act.get("to"),
                        "view": to_json(game.view(state, seat))})
            continue
        step = game.apply(state, who, act)
        state = step.state
        entry: dict[str, Any] = {"index": i, "seat": seat_name(who), "player": player(who)}
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
        raise JournalError(f"game {rec.id} has players J1 to J{rec.config.players} (--seat 1 to {rec.config.players})")
    doc: dict[str, Any] = {"id": rec.id, "game": rec.game, "players": rec.config.players,
                           "options": dict(rec.config.options), "table_seats": list(rec.seats),
                           "status": rec.status, "started": rec.started, "ended": rec.ended,
                           "outcome": rec.outcome, "seat": seat, "steps": steps(rec, seat)}
    if seat is None:
        doc["seed"] = rec.config.seed
        doc["moves"] = [{"seat": seat_name(s), "player": player(s), "action": a} for s, a in rec.moves]
    return doc


@quiet_pipe
def run_list(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Print one line per journaled game, newest first, streamed: memory does not grow with games."""
    out = out or sys.stdout
    try:
        journal = _journal(args)
    except (JournalError, ConfigError) as exc:
        print(exc, file=sys.stderr)
        return 1
    try:
        listed = 0
        for g in journal.summaries(limit=args.limit):
            when = time.strftime("%Y-%m-%d %H:%M", time.localtime(g.started))
            winners = "" if g.winners is None else f" winners {g.winners}"
            print(f"{g.id:5d}  {when}  {g.game:17s} {g.players}p  {g.status:9s} {g.moves:4d} moves{winners}",
                  file=out)
            listed += 1
        if not listed:
            print(f"no game in {journal.path} yet", file=out)
    except JournalError as exc:
        print(f"{exc} (the table sets a damaged journal aside at its next start)", file=sys.stderr)
        return 1
    finally:
        journal.close()
    return 0


@quiet_pipe
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


@quiet_pipe
def run_replay(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Print every seat's screen (or one seat's) after each step, `--steps` of them from `--from`."""
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
    # a game not finished may still be played at the table: by default its replay shows what every
    # player may see, never one player's cards to whoever reads the terminal
    public = args.seat is None and not args.all_seats and rec.status != "finished"
    seats: list[int | None] = [args.seat] if args.seat is not None else \
        [None] if public else list(range(rec.config.players))
    last, first = len(rec.moves), args.first
    if first > last:
        print(PAST_END[args.lang].format(gid=args.id, last=last, first=first), file=sys.stderr)
        return 1
    end = min(last, first + args.steps - 1)  # the last step shown
    if public:
        print(PUBLIC_ONLY[args.lang].format(status=rec.status), file=out)
    if first:
        print(BEFORE_CUT[args.lang].format(last=first - 1), file=out)
    for i, (who, act) in enumerate([(None, None), *rec.moves[:end]]):
        head = f"--- step {i}/{len(rec.moves)}"
        try:
            if who is not None and act is not None and is_undo(act):
                state = replay(game, game.validate_config(rec.config), effective_moves(rec.moves[:i]))
                back = "annule, retour au coup" if args.lang == "fr" else "undo, back to move"
                head += f": {player(who, args.lang)} {back} {act.get('to')}"
            elif who is not None and act is not None and i < first:  # played through, not shown
                state = game.apply(state, who, act).state
            elif who is not None and act is not None:
                # the move, in the table's words, unless the replayed seat could not know it
                known = who == args.seat if args.seat is not None else \
                    not public or public_move(game, state, who, act)
                what = game.describe_action(state, who, act).get(args.lang) if known else "…"
                head += f": {player(who, args.lang)} {what}"
                state = game.apply(state, who, act).state
        except ValueError as exc:
            print(f"game {args.id}, move {i - 1}: {exc}", file=sys.stderr)
            return 1
        if i < first:
            continue
        print(head, file=out)
        for s in seats:
            frame = Frame(game.screen(game.view(state, s), s)).text(args.lang)
            name = "public" if s is None else player(s, args.lang)
            print(f"  [{name}] {frame['title']}: " + " | ".join(frame["lines"]),
                  file=out)
        if args.delay:
            time.sleep(args.delay)
    if end < last:
        print(AFTER_CUT[args.lang].format(first=end + 1, last=last, steps=args.steps), file=out)
    return 0
