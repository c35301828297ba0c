"""`zebra-table rules`: play a game's pure rules from JSON action lines, print the state as JSON."""

from __future__ import annotations

import argparse
import json
import random
import sys
from typing import Any, TextIO

from firmware_host.storage import inputs
from games.core import CHANCE, BadConfig, Game, GameConfig, IllegalAction, UnknownGame, to_json
from games.playout import random_playout, sample_chance
from games.registry import game_ids, get_game

EXIT_ILLEGAL = 3
EXIT_USAGE = 2


def add_parser(sub: Any) -> None:
    """Register the `rules` sub-command."""
    p = sub.add_parser("rules", help="apply JSON actions to a game's rules and print the state")
    p.add_argument("game", help="game id: " + ", ".join(game_ids()))
    p.add_argument("--players", type=int, required=True)
    p.add_argument("--seed", type=int, default=0, help="seed for chance events (shuffles, draws)")
    p.add_argument("--option", action="append", default=[], metavar="K=V", help="game option")
    src = p.add_mutually_exclusive_group()
    src.add_argument("--actions", metavar="FILE", help='JSON lines {"seat": N, "action": {...}}; - = stdin')
    src.add_argument("--random-playout", action="store_true", help="play a seeded random game to the end")
    p.add_argument("--legal", action="store_true",
                   help="also print the legal actions of the state reached (alone: of the initial state)")
    p.add_argument("--computer", action="append", default=[], metavar="SEAT=LEVEL",
                   help="seat played by the computer at LEVEL (e.g. 1=strong); repeatable")
    p.set_defaults(func=run)


def parse_options(items: list[str]) -> dict[str, Any]:
    """K=V pairs; V is JSON when it parses (numbers, true), else a string."""
    out: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise BadConfig(f"--option {item!r}: expected KEY=VALUE")
        try:
            out[key] = inputs.json_text(value, f"--option {key}")
        except inputs.InputError:
            out[key] = value
    return out


def action_line(line: str | inputs.InputError, where: str, players: int) -> tuple[int, dict[str, Any]]:
    """One `{"seat": N | "chance", "action": {...}}` line, strictly checked (a seat is an integer)."""
    if isinstance(line, inputs.InputError):
        raise line
    item = inputs.obj(inputs.json_text(line, where), where, ("seat", "action"))
    for key in ("seat", "action"):
        if key not in item:
            line_no = where.rpartition(":")[2]
            raise inputs.InputError(where, f"line {line_no}: missing key {key!r} "
                                    '(each line: {"seat": N or "chance", "action": {...}})')
    seat = CHANCE if item["seat"] == "chance" else inputs.integer(item["seat"], f"{where}.seat", 0, players - 1)
    return seat, inputs.obj(item["action"], f"{where}.action")


def parse_computers(game: Game[Any, Any], players: int, items: list[str]) -> dict[int, str]:
    """SEAT=LEVEL pairs of --computer; raises BadConfig naming the faulty item."""
    from games.ai import has_ai, levels  # lazily: only this option needs the computer players

    out: dict[int, str] = {}
    for item in items:
        seat, sep, level = item.partition("=")
        if not has_ai(game.id):
            raise BadConfig(f"--computer {item!r}: {game.id} has no computer player")
        if not sep or not seat.isdigit() or not 0 <= int(seat) < players:
            raise BadConfig(f"--computer {item!r}: expected SEAT=LEVEL with SEAT 0..{players - 1}")
        if level not in levels(game.id):
            raise BadConfig(f"--computer {item!r}: level must be one of {', '.join(levels(game.id))}")
        out[int(seat)] = level
    return out


class ComputerError(ValueError):
    """A computer seat could not decide (e.g. ZOP in physical play, see docs/games/zop.md)."""


def _computer_move(game: Game[Any, Any], state: Any, computers: dict[int, str], seed: int, moves: int
                   ) -> tuple[int, Any] | None:
    """The move of a computer seat that has a decision now (from its view only), or None."""
    from games.ai import choose, needs_decision

    for seat in sorted(game.to_act(state)):
        if seat in computers:
            view = game.view(state, seat)
            if needs_decision(game.id, view, seat):
                try:
                    return seat, choose(game.id, view, seat, computers[seat], random.Random(seed * 1_000_003 + moves))
                except ValueError as exc:
                    raise ComputerError(f"seat {seat} (computer): {exc}") from exc
    return None


def _playout_with_computers(game: Game[Any, Any], config: GameConfig, computers: dict[int, str]) -> tuple[Any, int]:
    """A seeded game to the end: computer seats choose first when they have a decision, the
    others at random (chance sampled); returns the final state and the number of moves."""
    rng = random.Random(config.seed)
    state = game.initial_state(config)
    moves = 0
    while game.outcome(state) is None:
        move = _computer_move(game, state, computers, config.seed, moves)
        others = sorted(s for s in game.to_act(state) if s not in computers)
        if move is None and not others:  # only computers, none with a real choice (ZOP's round end)
            from games.ai import choose
            seat = min(game.to_act(state))
            move = (seat, choose(game.id, game.view(state, seat), seat, computers[seat], random.Random(moves)))
        if move is None:
            seat = rng.choice(others)
            act = sample_chance(game, state, rng) if seat == CHANCE else rng.choice(game.legal_actions(state, seat))
            move = (seat, act)
        state = game.apply(state, *move).state
        moves += 1
    return state, moves


def _error(code: str, message: str, index: int | None, out: TextIO) -> None:
    json.dump({"error": {"code": code, "message": message, "index": index}}, out, ensure_ascii=False)
    out.write("\n")


def result(game: Game[Any, Any], config: GameConfig, state: Any, moves: int, legal: bool) -> dict[str, Any]:
    """The printed document: game, to_act, outcome, every seat's view (and legal actions)."""
    outcome = game.outcome(state)
    seats = sorted(game.to_act(state))
    doc: dict[str, Any] = {
        "game": game.id, "players": config.players, "seed": config.seed, "options": dict(config.options),
        "moves": moves, "to_act": ["chance" if s == CHANCE else s for s in seats],
        "outcome": None if outcome is None else outcome.to_json(),
        "views": {"public": to_json(game.view(state, None)),
                  **{str(s): to_json(game.view(state, s)) for s in range(config.players)}},
    }
    if legal:
        doc["legal"] = {("chance" if s == CHANCE else str(s)):
                        ([to_json(a) for a, _ in game.chance_outcomes(state)] if s == CHANCE
                         else [to_json(a) for a in game.legal_actions(state, s)]) for s in seats}
    return doc


def run(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Entry point of `zebra-table rules`."""
    out = out or sys.stdout
    try:
        game = get_game(args.game)
        config = game.validate_config(GameConfig(args.players, parse_options(args.option), args.seed))
        computers = parse_computers(game, config.players, getattr(args, "computer", []))
    except (UnknownGame, BadConfig, ImportError) as exc:
        _error("bad_config", str(exc), None, out)
        return EXIT_USAGE
    if not args.actions and not args.random_playout:
        if not args.legal:
            _error("usage", "give --actions FILE, --random-playout, or --legal (the initial state's actions)",
                   None, out)
            return EXIT_USAGE
        state = game.initial_state(config)  # --legal alone: what may be played first
        json.dump(result(game, config, state, 0, True), out, ensure_ascii=False)
        out.write("\n")
        return 0
    if args.random_playout and computers:
        try:
            state, moves = _playout_with_computers(game, config, computers)
        except ComputerError as exc:
            _error("computer", str(exc), None, out)
            return EXIT_ILLEGAL
        json.dump(result(game, config, state, moves, args.legal), out, ensure_ascii=False)
        out.write("\n")
        return 0
    if args.random_playout:
        played = random_playout(game, config, args.seed)
        json.dump(result(game, config, played.state, len(played.moves), args.legal), out, ensure_ascii=False)
        out.write("\n")
        return 0
    try:
        return _play_file(game, config, args, computers, out)
    except ComputerError as exc:
        _error("computer", str(exc), None, out)
        return EXIT_ILLEGAL


def _play_file(game: Game[Any, Any], config: GameConfig, args: argparse.Namespace, computers: dict[int, str],
               out: TextIO) -> int:
    """The --actions mode: apply the file's lines (computers and chance filling the gaps)."""
    rng = random.Random(args.seed)
    state = game.initial_state(config)
    moves = 0
    try:
        stream = sys.stdin.buffer if args.actions == "-" else open(args.actions, "rb")  # noqa: SIM115 (closed below)
    except OSError as exc:
        _error("bad_file", f"{args.actions}: {exc.strerror}", None, out)
        return EXIT_USAGE
    name = "<stdin>" if args.actions == "-" else args.actions
    with stream:
        numbered = ((n, t) for n, t in inputs.lines(stream, name) if not isinstance(t, str) or t.strip())
        for index, (number, line) in enumerate(numbered):
            try:
                seat, act = action_line(line, f"{name}:{number}", config.players)
            except inputs.InputError as exc:
                _error("bad_line", str(exc), index, out)
                return EXIT_USAGE
            if seat in computers:
                _error("computer_seat", f"line {index + 1}: seat {seat} is played by the computer", index, out)
                return EXIT_USAGE
            if seat != CHANCE:
                while True:
                    if CHANCE in game.to_act(state):  # chance events the file leaves to the seed
                        state = game.apply(state, CHANCE, sample_chance(game, state, rng)).state
                    elif seat not in game.to_act(state) and computers and (
                            move := _computer_move(game, state, computers, config.seed, moves)):
                        state = game.apply(state, *move).state  # the line waits for a computer's move
                    else:
                        break
                    moves += 1
            try:
                state = game.apply(state, seat, act).state
                moves += 1
            except IllegalAction as exc:
                _error(exc.code, exc.rejection.message.get("en"), index, out)
                return EXIT_ILLEGAL
            except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
                # an action whose fields the rules could not even read: refused like an illegal one
                _error("bad_action", f"line {index + 1}: malformed action ({type(exc).__name__}: {exc})", index, out)
                return EXIT_ILLEGAL
    while game.outcome(state) is None:
        if CHANCE in game.to_act(state):
            state = game.apply(state, CHANCE, sample_chance(game, state, rng)).state
        elif computers and (move := _computer_move(game, state, computers, config.seed, moves)) is not None:
            state = game.apply(state, *move).state
        else:
            break
        moves += 1
    json.dump(result(game, config, state, moves, args.legal), out, ensure_ascii=False)
    out.write("\n")
    return 0
