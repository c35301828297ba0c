"""The move under a seat's cursor, worked out while the player looks at it: the game's answer to
that choice, the chance draws the table makes after it, every seat's game screen of where they
lead, the game's other answers about that state (`state_answers`) and the messages the steps give
the seats (laid out over those screens), ready when OK comes.

A player walks the menu to an entry and reads it before pressing OK; the table is idle meanwhile
(seconds, against the fraction of a millisecond the rules and the screens take). The rules are pure
functions of the state, and the table's draws depend on the seed and the move number alone
(`table_draws.py`), so what is worked out ahead is exactly what the event itself would work
out: the press then takes it instead of working it out again. Another choice, another state, a
different draw simply find nothing here and go the usual way. Nothing worked out ahead is shown,
logged or recorded before the move is really made, so no seat learns anything early: a seat's
screen of a state not reached is never sent; the parts of its picture drawn ahead (its title bar,
its lines' rows, a message's rows and its parts) wait in the screens' caches, which are keyed by
the very texts they show and so hand them only to a frame that shows those texts.

The same goes for a move laid with the pieces: while the reader's settle window runs, the table
knows the layout about to settle, and the one move it would be read as (`TableReading.laid`) is
worked out first, its draws and screens with it.
"""

from __future__ import annotations

import logging
from typing import Any, Protocol

from firmware_host.apps.entries import Entry, TableChoice
from firmware_host.apps.seat_ui import SeatUI, joined, message_parts, read_together, shown_part
from firmware_host.apps.state_answers import TABLE_KEYS, answer
from firmware_host.apps.table_draws import table_draw
from firmware_host.screens import messages, render
from firmware_host.screens.frames import Frame
from games.core import CHANCE, Action, Effect, Game, GameConfig, IllegalAction, Screen, Step, Text

log = logging.getLogger(__name__)

KEPT = 64  # steps and screens kept (every seat's cursor, a chain of draws each): some KB
TRIED = 3  # actions kept for one state and seat (the one laid, the one under the cursor)
CHAIN = 8  # draws followed after one choice at most (a game's chains are one or two long)
PIECES = 400  # pieces of work at most for one state and one set of cursors (then it waits for a change)


class Ahead(Protocol):
    """What the foresight reads of the game in progress (the session)."""

    game: Game[Any, Any]
    config: GameConfig
    state: Any
    moves: list[tuple[int, Action]]
    ui: list[SeatUI]
    auto_chance: bool
    lang: str
    remote: Any
    seats: tuple[int | None, ...]
    menus: Any  # SessionMenu: the entry under a seat's cursor
    computers: Any  # ComputerSeats: which seats the computer plays

    @property
    def over(self) -> bool: ...
    def logical_zones(self) -> set[str]: ...
    def to_act(self) -> frozenset[int]: ...
    def expected(self) -> dict[str, Any]: ...
    def size(self, seat: int) -> tuple[int, int]: ...
    def humans(self) -> list[int]: ...


class Foresight:
    """Steps and game screens worked out ahead, each kept with the state it starts from (compared
    by identity: states are immutable, and a kept state's id is never another's)."""

    def __init__(self, play: Ahead) -> None:
        self.play = play
        # (id(state), seat) -> [(state, action, step)]: the game's answers to a few actions
        self._steps: dict[tuple[int, int], list[tuple[Any, Action, Step[Any] | None]]] = {}  # None: refused
        # (id(state), seat, pad sensed) -> (state, screen key, screen): a seat's game screen
        self._screens: dict[tuple[int, int, bool], tuple[Any, Any, Screen]] = {}
        self._drawn: set[tuple[int, int, bool]] = set()  # the screens kept whose pictures' parts are drawn
        self._told: set[tuple[int, Text, int]] = set()  # the messages laid out and drawn ahead, by seat
        self._framed: set[tuple[int, int, Text | None]] = set()  # the frames drawn ahead: seat, message
        # id(state) -> (state, zones, {memo key: value}): the game's answers the events ask (state_answers)
        self._answers: dict[int, tuple[Any, set[str], dict[tuple[Any, ...], Any]]] = {}
        # (state, (move laid, cursors)) last worked on, and the pieces of work done for them
        self._for: tuple[Any, tuple[Any, ...]] | None = None
        self._pieces = 0

    # -- the event's side ---------------------------------------------------------------------
    def step(self, state: Any, seat: int, action: Action) -> Step[Any]:
        """`game.apply(state, seat, action)`, taken from what was worked out ahead when it was."""
        for kept in self._steps.get((id(state), seat), ()):
            if kept[0] is state and kept[2] is not None and kept[1] == action:
                return kept[2]
        return self.play.game.apply(state, seat, action)  # a refusal raised here, with its reason

    def screen(self, state: Any, seat: int, sensed: bool) -> tuple[Any, Screen] | None:
        """(screen key, screen) of `seat`'s game screen in `state`, if worked out ahead."""
        kept = self._screens.get((id(state), seat, sensed))
        return None if kept is None or kept[0] is not state else (kept[1], kept[2])

    def answers(self, state: Any) -> dict[tuple[Any, ...], Any]:
        """The game's answers about `state` worked out ahead (`state_answers`), as a new dict."""
        kept = self._answers.get(id(state))
        if kept is None or kept[0] is not state or kept[1] is not self.play.logical_zones():
            return {}
        return dict(kept[2])

    # -- idle time ------------------------------------------------------------------------------
    def prepare(self, laid: tuple[int, Action] | None = None) -> bool:
        """Work out one more piece of what is about to be played: `laid`, the move the pieces
        still settling show (seat, action), first, then what the seats' cursors point at; False
        once all is done."""
        s = self.play
        if s.remote is not None or s.over:  # another table's moves and draws come through the link
            return False
        cursors = tuple(self._cursor_action(seat) for seat in range(len(s.seats)))
        work = (laid, cursors)
        if self._for is None or self._for[0] is not s.state:  # the game moved on: what was kept leads nowhere now
            self._steps.clear()
            self._screens.clear()
            self._drawn.clear()
            self._told.clear()
            self._framed.clear()
            self._answers.clear()
        if self._for is None or self._for[0] is not s.state or self._for[1] != work:
            self._for, self._pieces = (s.state, work), 0
        if self._pieces >= PIECES:  # all done, or more than is kept: the next change starts afresh
            return False
        try:
            if laid is not None and self._ahead(*laid):
                self._pieces += 1
                return True
            for seat, action in enumerate(cursors):
                if action is not None and self._ahead(seat, action):
                    self._pieces += 1
                    return True
        except Exception:  # a rules bug: the press meets it the usual way, said once, not here
            log.debug("working out %s's next move ahead failed", s.game.id, exc_info=True)
        self._pieces = PIECES
        return False

    def _cursor_action(self, seat: int) -> Action | None:
        """The game action OK would apply for `seat` now (None: none, or a computer's seat)."""
        s = self.play
        if s.seats[seat] is None or seat in s.computers.seats:
            return None
        entry = s.menus.cursor_entry(seat)
        if isinstance(entry, TableChoice):  # "Oui" to an irrevocable choice applies the one asked
            asked = s.ui[seat].confirming
            return dict(asked.action) if entry.entry is Entry.CONFIRM and asked is not None else None
        if entry is None or entry.confirm is not None:
            return None
        return dict(entry.action)

    def _ahead(self, seat: int, action: Action) -> bool:
        """One piece of the chain `action` starts (its step, a draw after it, a seat's screen at
        its end); False when the whole chain is worked out already."""
        s = self.play
        state, actor, moves = s.state, seat, len(s.moves)
        said: list[Effect] = []  # the messages the chain's steps give the seats
        made: list[tuple[int, Action]] = []  # the chain's moves
        for _ in range(CHAIN + 1):
            kept = next((k for k in self._steps.get((id(state), actor), ()) if k[0] is state and k[1] == action), None)
            if kept is None:
                self._keep_step(state, actor, action)
                return True
            step = kept[2]
            if step is None:  # refused: nothing follows
                return False
            said += [e for e in step.effects if e.text.fr or e.text.en]
            made.append((actor, action))
            state, moves = step.state, moves + 1
            draw = table_draw(self.play, state, moves)  # the very draw the table will make
            if draw is None:
                return (self._screens_of(state) or self._answers_of(state) or self._pictures_of(state)
                        or self._messages_of(state, said) or self._frames_of(state, said, made))
            actor, action = CHANCE, draw
        return False

    def _keep_step(self, state: Any, seat: int, action: Action) -> None:
        try:
            step: Step[Any] | None = self.play.game.apply(state, seat, action)
        except IllegalAction:
            step = None  # kept as refused: the press is refused the usual way, with its message
        tried = [k for k in self._steps.get((id(state), seat), ()) if k[0] is state][1 - TRIED:]
        _put(self._steps, (id(state), seat), [*tried, (state, action, step)])

    def _screens_of(self, state: Any) -> bool:
        """One seat's game screen of `state` worked out (as SeatFrames.game_screen makes it); False
        once every human seat's is."""
        s = self.play
        for seat, sensed in self._humans():
            kept = self._screens.get((id(state), seat, sensed))
            if kept is not None and kept[0] is state:
                continue
            game = s.game
            key = game.screen_key(state, seat, pad_sensed=sensed)
            _put(self._screens, (id(state), seat, sensed),
                 (state, key, game.screen(game.view(state, seat), seat, pad_sensed=sensed)))
            return True
        return False

    def _humans(self) -> list[tuple[int, bool]]:
        """The human seats, each with whether the table senses its pad."""
        zones = self.play.logical_zones()
        return [(x, f"pad.{x}" in zones) for x in self.play.humans()]

    def _answers_of(self, state: Any) -> bool:
        """One of the game's answers about `state` the events ask; False once all are known."""
        s = self.play
        zones = s.logical_zones()
        kept = self._answers.get(id(state))
        if kept is None or kept[0] is not state or kept[1] is not zones:
            kept = (state, zones, {})
            _put(self._answers, id(state), kept)
        values = kept[2]
        for key in (*TABLE_KEYS, *(("choices", seat) for seat, _ in self._humans())):
            if key not in values:
                values[key] = answer(s.game, state, zones, key)
                return True
        return False

    def _pictures_of(self, state: Any) -> bool:
        """The parts of one kept screen's picture of `state` that do not depend on its menu
        (`render.warm`); False once every human seat's are drawn."""
        s = self.play
        for seat, sensed in self._humans():
            kept = self._screens.get((id(state), seat, sensed))
            if kept is None or kept[0] is not state or (id(state), seat, sensed) in self._drawn:
                continue
            self._drawn.add((id(state), seat, sensed))
            render.warm(kept[2], s.lang, s.size(seat))  # kept by what they show: drawn only if shown
            return True
        return False

    def _messages_of(self, state: Any, said: list[Effect]) -> bool:
        """One message a human seat may read once at `state`, laid out over its screen there and
        its rows drawn (`render.warm_message`): each the steps there give it, and all of them
        together, with the messages it has not read yet or without them; False once every
        one's are."""
        s = self.play
        for seat, sensed in self._humans():
            kept = self._screens.get((id(state), seat, sensed))
            for message in self._messages(seat, said):
                if (id(state), message, seat) in self._told:
                    continue
                self._told.add((id(state), message, seat))
                # kept by what they show, as the pictures' parts: used only by a frame showing them
                render.warm_message(message, s.lang, s.size(seat))
                if kept is not None and kept[0] is state:
                    messages.warm_status(kept[2], s.lang, s.size(seat), message)
                return True
        return False

    def _messages(self, seat: int, said: list[Effect]) -> list[Text]:
        """The messages `seat` may read once the steps that gave `said` are made: each alone, and
        all together, with the messages it has not read yet or without them."""
        texts = [e.text for e in said if e.audience is None or seat in e.audience]
        notices = self.play.ui[seat].notices
        out = dict.fromkeys(texts)
        for before in ((), notices[0].parts if notices else ()):
            parts = before
            for text in texts:
                parts = joined(parts, text)
            if parts:
                out[read_together(parts)] = None
        return list(out)

    def _frames_of(self, state: Any, said: list[Effect], made: list[tuple[int, Action]]) -> bool:
        """One human seat's frame at `state` as it shows right after the chain `made` when nothing
        else comes in the way (its cursor on the first entry, no instruction or question: its game
        screen, its menu there, the message the chain gives it if any), laid out and drawn into the
        screens' caches; False once every one's is."""
        s = self.play
        kept_answers = self._answers.get(id(state))
        if kept_answers is None or kept_answers[0] is not state:
            return False
        answers = kept_answers[2]
        over = answers.get(("outcome",)) is not None
        after = [*s.moves, *made]  # the moves made once the chain is (the undo entry's author)
        for seat, sensed in self._humans():
            kept = self._screens.get((id(state), seat, sensed))
            choices = answers.get(("choices", seat))
            if kept is None or kept[0] is not state or choices is None:
                continue
            menu = tuple([c.label for c in s.menus.game_entries(seat, None if over else choices, after)])
            size = s.size(seat)
            # an ended game's final screen says all: no message on it
            messages: list[Text | None] = [] if over else [*self._messages(seat, said)]
            for message in messages or [None]:
                if (id(state), seat, message) in self._framed:
                    continue
                self._framed.add((id(state), seat, message))
                banner = status = None
                if message is not None:  # its first part, above the menu or covering the screen
                    parts, cover = message_parts(kept[2], menu, size, s.lang, message)
                    part = shown_part(parts, 0, message, s.lang)
                    banner, status = (part, None) if cover else (None, part)
                frame = Frame(kept[2], menu, banner=banner, status=status)
                render.frame_picture(frame, s.lang, size, render.frame_layout(frame, s.lang, size)[1])
                return True
        return False


def _put(kept: dict[Any, Any], key: Any, value: Any) -> None:
    """`kept[key] = value`, the oldest entry dropped past KEPT."""
    kept.pop(key, None)
    if len(kept) >= KEPT:
        kept.pop(next(iter(kept)))
    kept[key] = value

