"""Undo by agreement: the last move taken back when every other human player accepts (the rules of
it, and the conversation it makes on the seats of a GameSession).

The journal keeps everything: an undo is one more entry, `{"type": "_undo", "to": N}` (N: how
many moves stay), so a replay shows the move, the undo and what followed. `effective_moves` folds
those entries into the moves the game state is made of.

A move is never taken back past a point where a chance outcome was drawn (a card dealt, a shuffle)
or where hidden information was shown to someone: the table cannot make a player forget. Moves of
seats played by the computer are skipped: in a game against the computer, undo takes back the
human's move and the computer's replies. Taking the moves back is the session's (its state).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from firmware_host.apps.entries import Entry
from games.core import CHANCE, Action, Game, GameConfig, IllegalAction, Screen, Text, essential, to_json, tr

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


def target(game: Game[Any, Any], config: GameConfig, moves: Sequence[tuple[int, Action]], computer: frozenset[int]
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


def reveals(game: Game[Any, Any], state: Any, seat: int, action: Action, players: int) -> bool:
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


# ---------------------------------------------------------------------------------------------
# The conversation at the table: ask, agree or refuse.

Notify = Callable[[frozenset[int], Text], None]


def player(seat: int) -> Text:
    """A game seat as the screens name it ("J1", "P1")."""
    return tr(f"J{seat + 1}", f"P{seat + 1}")


class Undo:
    """The undo asked at a game, if any, and the conversation about it."""

    def __init__(self) -> None:
        self.request: UndoRequest | None = None  # an undo waiting for the others' agreement
        # the author of the last human move, asked for every seat's menu at every change: worked
        # out once for (the moves, how many, the last of them, the computer seats: the author,
        # where that move is, the move); the moves compared are held, so no other takes their id
        self._author: tuple[object, int, object, frozenset[int], int | None, int | None, object] | None = None

    def may_ask(self, seat: int, seated: bool, moves: Sequence[tuple[int, Action]], computer: frozenset[int]) -> bool:
        """The author of the last human move may ask to take it back (the rest is checked when asked)."""
        if seat in computer or not seated:
            return False
        return self.author(moves, computer) == seat

    def author(self, moves: Sequence[tuple[int, Action]], computer: frozenset[int]) -> int | None:
        """The seat of the last human move (None: no human moved yet)."""
        tail = moves[-1] if moves else None
        known = self._author
        if known is not None and known[0] is moves and known[1] == len(moves) and known[2] is tail \
                and known[3] == computer and (known[5] is None or moves[known[5]] is known[6]):
            return known[4]
        last = last_human_move(moves, computer)
        who = None if last is None else moves[last][0]
        self._author = (moves, len(moves), tail, computer, who, last, None if last is None else moves[last])
        return who

    def ask(self, seat: int, game: Game[Any, Any], config: GameConfig, moves: Sequence[tuple[int, Action]],
            computer: frozenset[int], others: set[int]) -> Text | None:
        """`seat` asks: why not (None: the request is put to `others`, the other human players)."""
        cut, why = target(game, config, moves, computer)
        if cut is None:
            return why or tr("Impossible.", "Not possible.")
        before = game.initial_state(config)
        for who, act in moves[:cut]:
            before = game.apply(before, who, act).state
        what = game.describe_action(before, moves[cut][0], moves[cut][1])
        self.request = UndoRequest(seat, cut, others, what)
        return None

    def answer(self, seat: int, entry: Entry, notify: Notify) -> UndoRequest | None:
        """A seat's answer; the request once every other player agreed (to take back now)."""
        req = self.request
        if req is None:
            return None
        if entry is Entry.UNDO_CANCEL and seat == req.by:
            self.request = None
        elif entry is Entry.UNDO_NO and seat in req.waiting:
            self.request = None
            name = player(seat)
            notify(frozenset({req.by}), tr(f"{name.fr} refuse l'annulation.", f"{name.en} refuses the undo."))
        elif entry is Entry.UNDO_YES and seat in req.waiting:
            req.waiting.discard(seat)
            if not req.waiting:
                return self.agreed()
        return None

    def agreed(self) -> UndoRequest:
        """The request, done with (every other player agreed, or nobody had to)."""
        req, self.request = self.request, None
        assert req is not None
        return req

    def void(self, notify: Notify) -> None:
        """The game moved on: the undo asked is dropped (its author is told)."""
        if self.request is not None:
            notify(frozenset({self.request.by}), tr("Annulation abandonnée : la partie a continué.",
                                                    "Undo dropped: the game went on."))
            self.request = None

    def involves(self, seat: int) -> bool:
        """True while `seat` asked, or is asked."""
        return self.request is not None and (seat in self.request.waiting or seat == self.request.by)

    def screen(self, seat: int) -> Screen:
        """The screen of the asker (waiting) or of a player asked (Accepter ?)."""
        req = self.request
        assert req is not None
        if seat == req.by:
            fr = " ".join(player(x).fr for x in sorted(req.waiting))
            en = " ".join(player(x).en for x in sorted(req.waiting))
            return Screen(tr("Annulation demandée", "Undo asked"),
                          (essential(req.what), essential(tr(f"Attente : {fr}", f"Waiting: {en}"))), icon="wait")
        name = player(req.by)  # not the move itself: it may be a secret of the asker's
        return Screen(tr(f"{name.fr} veut annuler", f"{name.en} wants to undo"),
                      (essential(tr("son dernier coup.", "their last move.")), essential(tr("Accepter ?", "Accept?"))),
                      icon="warn")
