"""The author of the last human move is worked out once per change of the moves: whatever moves
are made, taken back (the list cut), or which seats the computer plays, the kept answer is the
one a scan of the moves gives."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_host.apps.undo import Undo, last_human_move
from games.core import CHANCE, Action

SEATS = st.sampled_from([CHANCE, 0, 1, 2, 3])
STEP = st.one_of(
    st.tuples(st.just("move"), SEATS),
    st.tuples(st.just("cut"), st.integers(0, 30)),
    st.tuples(st.just("computer"), st.frozensets(st.integers(0, 3), max_size=2)),
    st.tuples(st.just("ask"), st.integers(0, 3)),
    st.tuples(st.just("look"), st.none()),
)


@settings(max_examples=400, deadline=None)
@given(steps=st.lists(STEP, max_size=60))
def test_the_author_kept_is_the_one_a_scan_of_the_moves_gives(steps: list[tuple[str, object]]) -> None:
    undo = Undo()
    moves: list[tuple[int, Action]] = []
    computer: frozenset[int] = frozenset()
    for kind, arg in steps:
        if kind == "move":
            assert isinstance(arg, int)
            moves.append((arg, {"type": "x"}))
        elif kind == "cut":
            assert isinstance(arg, int)
            del moves[arg:]
        elif kind == "computer":
            assert isinstance(arg, frozenset)
            computer = arg
        if kind not in ("ask", "look"):
            continue  # several changes between two looks, as between two events
        last = last_human_move(moves, computer)
        assert undo.author(moves, computer) == (None if last is None else moves[last][0])
        if kind == "ask":
            assert isinstance(arg, int)
            want = arg not in computer and last is not None and moves[last][0] == arg
            assert undo.may_ask(arg, True, moves, computer) is want
