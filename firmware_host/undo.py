"""Undo by agreement: the last move taken back when every other human player accepts.

The journal keeps everything: an undo is one more entry, `{"type": "_undo", "to": N}` (N: how
many moves stay), so a replay shows the move, the undo and what followed. `effective_moves` folds
those entries into the moves the game state is made of.

A move is never taken back past a point where a chance outcome was drawn (a card dealt, a shuffle)
or where hidden information was shown to someone: the table cannot make a player forget. Moves of
seats played by the computer are skipped: in a game against the computer, undo takes back the
human's move and the computer's replies.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from games.core import CHANCE, Action, Game, GameConfig, IllegalAction, Text, to_json, tr

UNDO = "_undo"
VARIANTS_PER_SEAT = 6  # hidden variants tried per seat: enough to see a reveal, cheap enough


@dataclass
class UndoRequest:
    """An undo asked by `by`: the moves from index `cut` on go once `waiting` is empty."""

    by: int
    cut: int
    waiting: set[int]
    what: Text  # the move taken back, as the table names it


def is_undo(action: Action) -> bool:
    """True for a journal entry that records an undo."""
    return isinstance(action, dict) and action.get("type") == UNDO


def undo_entry(keep: int) -> dict[str, Any]:
    """The journal entry of an undo that keeps the first `keep` moves."""
    return {"type": UNDO, "to": keep}


def effective_moves(entries: Iterable[tuple[int, Action]]) -> list[tuple[int, Action]]:
    """The moves a game's state is made of: journal entries with the undone moves taken out."""
    moves: list[tuple[int, Action]] = []
    for seat, action in entries:
        if is_undo(action):
            keep = action.get("to")
            if isinstance(keep, int) and not isinstance(keep, bool) and 0 <= keep <= len(moves):
                del moves[keep:]
        else:
            moves.append((seat, action))
    return moves


def last_human_move(moves: Sequence[tuple[int, Action]], computer: frozenset[int]) -> int | None:
    """Index of the last move made by a human seat (computer replies and chance skipped)."""
    for i in range(len(moves) - 1, -1, -1):
        seat = moves[i][0]
        if seat != CHANCE and seat not in computer:
            return i
    return None


def target(game: Game, config: GameConfig, moves: Sequence[tuple[int, Action]], computer: frozenset[int]
           ) -> tuple[int | None, Text | None]:
    """(index of the move to take back, None) or (None, why it cannot be taken back)."""
    cut = last_human_move(moves, computer)
    if cut is None:
        return None, tr("Aucun coup à annuler.", "No move to take back.")
    if any(seat == CHANCE for seat, _ in moves[cut + 1:]):
        return None, tr("Impossible : une carte a été tirée depuis ce coup.",
                        "Cannot undo: a card was drawn since that move.")
    state = game.initial_state(game.validate_config(config))
    for seat, action in moves[:cut]:
        state = game.apply(state, seat, action).state
    seat, action = moves[cut]
    if reveals(game, state, seat, action, config.players):
        return None, tr("Impossible : ce coup a dévoilé une information cachée.",
                        "Cannot undo: that move showed hidden information.")
    return cut, None


def reveals(game: Game, state: Any, seat: int, action: Action, players: int) -> bool:
    """True if the move let some seat see what it could not see before.

    A "reveal" effect says so; otherwise, for each seat, the same move is made in states that
    differ only in what that seat may not know: if the seat's view afterwards differs, the move
    showed it something hidden.
    """
    step = game.apply(state, seat, action)
    if any(e.kind == "reveal" for e in step.effects):
        return True
    for watcher in range(players):
        after = to_json(game.view(step.state, watcher))
        for variant in itertools.islice(game.hidden_variants(state, watcher), VARIANTS_PER_SEAT):
            try:
                other = game.apply(variant, seat, action).state
            except (IllegalAction, ValueError, KeyError, IndexError):
                continue  # the move depends on what the watcher does not know: nothing shown by it
            if to_json(game.view(other, watcher)) != after:
                return True
    return False
