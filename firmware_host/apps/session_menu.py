"""A game seat's buttons and the menu they walk during a game: the game's choices with the table's
own entries (undo, hint, quit, how to play), the questions they lead to (quit? take back?), and
what choosing each one does."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

from firmware_host.apps.app import Button, LeaveGame, PressKind, Transition
from firmware_host.apps.computer_seats import ComputerSeats
from firmware_host.apps.entries import Entry, MenuEntry, TableChoice
from firmware_host.apps.reconcile import Instruction
from firmware_host.apps.seat_ui import SeatUI
from firmware_host.apps.state_answers import now
from firmware_host.apps.undo import Undo, UndoRequest, player
from firmware_host.screens import layout
from firmware_host.screens.frames import Frame
from games import howto
from games.core import Action, Game, GameConfig, Screen, Text, essential, tr

T = TypeVar("T")
UNDO_ANSWERS = frozenset({Entry.UNDO_YES, Entry.UNDO_NO, Entry.UNDO_CANCEL})
# the table's entries, made once (immutable): a seat's menu is asked for at every frame built
LEAVE_ASKED = (TableChoice(tr("Non", "No"), Entry.LEAVE_NO),
               TableChoice(tr("Oui, quitter", "Yes, quit"), Entry.LEAVE_YES))
LEAVE_ASKER = (TableChoice(tr("Retirer la demande", "Withdraw the request"), Entry.LEAVE_CANCEL),)
UNDO_ASKED = (TableChoice(tr("Non", "No"), Entry.UNDO_NO), TableChoice(tr("Oui", "Yes"), Entry.UNDO_YES))
UNDO_ASKER = (TableChoice(tr("Retirer la demande", "Withdraw the request"), Entry.UNDO_CANCEL),)
CONFIRMING = (TableChoice(tr("Non", "No"), Entry.CANCEL), TableChoice(tr("Oui", "Yes"), Entry.CONFIRM))
QUITTING = (TableChoice(tr("Continuer la partie", "Keep playing"), Entry.RESUME),
            TableChoice(tr("Quitter la partie", "Quit the game"), Entry.QUIT))
QUITTING_HOWTO = (TableChoice(tr("Comment jouer", "How to play"), Entry.HOWTO),)
OVER = (TableChoice(tr("Retour au menu", "Back to menu"), Entry.QUIT),)
UNDO = TableChoice(tr("Annuler le dernier coup", "Undo last move"), Entry.UNDO)
HINT = TableChoice(tr("Conseil", "Hint"), Entry.HINT)
LEAVE_ANSWERS = frozenset({Entry.LEAVE_YES, Entry.LEAVE_NO, Entry.LEAVE_CANCEL})


class Play(Protocol):
    """What the menu needs of the game in progress (the session)."""

    game: Game[Any, Any]
    config: GameConfig
    state: Any
    seats: tuple[int | None, ...]
    moves: list[tuple[int, Action]]
    ui: list[SeatUI]
    undo: Undo
    computers: ComputerSeats
    remote: Any  # the seats played at another table, or None
    cues: list[str]
    lang: str
    clock: Callable[[], float]

    @property
    def over(self) -> bool: ...
    @property
    def instruction(self) -> Instruction | None: ...
    def of_state(self, key: tuple[Any, ...], compute: Callable[[], T]) -> T: ...
    def apply(self, seat: int, action: Action) -> bool: ...
    def reconcile(self) -> None: ...
    def notify(self, audience: frozenset[int] | None, text: Text, first: bool = False,
               public: bool = False) -> None: ...
    def take_back(self, req: UndoRequest) -> None: ...
    def logical_zones(self) -> set[str]: ...
    def seat_frame(self, seat: int) -> Frame: ...
    def size(self, seat: int) -> tuple[int, int]: ...


class SessionMenu:
    """The game seats' menus, and the request to quit the game (one press never ends a game for
    the others)."""

    def __init__(self, play: Play) -> None:
        self.play = play
        # a request to quit: (asker, the other human players still to agree)
        self.leaving: tuple[int, set[int]] | None = None

    # -- buttons ---------------------------------------------------------------------------------
    def press(self, seat: int, button: Button, kind: PressKind) -> Transition | None:
        """A game seat's button event: move the cursor, choose, or quit (long press on OK)."""
        s = self.play
        ui = s.ui[seat]
        if seat in s.computers.seats and not (kind == "long" and button == "ok"):
            return None  # a computer's seat: its buttons only quit the game (a long press), like any seat's
        if kind == "long" and button == "ok":
            ui.toggle_quit()
            return None
        if kind != "press":
            return None
        if ui.howto is not None:  # reading how to play: ◀ ▶ turn the pages, OK goes back
            ui.turn_howto(button, len(howto.pages(s.game)))
            return None
        if ui.dismiss(s.clock()):  # a message on screen: its next part, or gone
            # with a menu the message sits above it (Frame.status): the menu was in view, so the
            # press also acts; without one (or under an instruction) the press only clears it
            covered = s.instruction is not None and seat in s.instruction.audience
            if covered or not self.entries(seat):
                return None
        if button in ("left", "right"):
            # ◀ ▶ walk the menu entries, then the pages the lines overflow onto
            frame = s.seat_frame(seat)
            p = layout.plan(frame.screen, s.lang, frame.menu, frame.cursor, None, s.size(seat), frame.page, 0,
                            frame.status)
            ui.cursor, ui.page = layout.navigate(p, ui.cursor, -1 if button == "left" else 1)
            return None
        if button != "ok":
            return None
        if ui.page:
            ui.page = 0  # OK on an extra page goes back to the menu: it never chooses unseen
            return None
        entry = self.cursor_entry(seat)  # what the table works out ahead (foresight.py) is this one
        return None if entry is None else self.choose(seat, entry)

    # -- the menu --------------------------------------------------------------------------------
    def entries(self, seat: int) -> list[MenuEntry]:
        """The seat's current button menu."""
        s = self.play
        ui, req = s.ui[seat], s.undo.request
        if self.leaving is not None and seat in self.leaving[1]:
            return [*LEAVE_ASKED]
        if self.leaving is not None and seat == self.leaving[0]:
            return [*LEAVE_ASKER]
        if req is not None and seat in req.waiting and ui.confirming is None:
            return [*UNDO_ASKED]
        if req is not None and seat == req.by and not ui.quit_prompt:
            return [*UNDO_ASKER]
        if ui.confirming is not None:
            return [*CONFIRMING]
        if ui.quit_prompt:
            return [*QUITTING, *(QUITTING_HOWTO if howto.pages(s.game) else ())]
        if seat in s.computers.seats:  # its choices would name its secret cards: nothing to press
            return []
        key = ("choices", seat)
        return self.game_entries(seat, None if s.over else s.of_state(key, lambda: now(s, key)), s.moves)

    def game_entries(self, seat: int, choices: Sequence[MenuEntry] | None, moves: list[tuple[int, Action]]
                     ) -> list[MenuEntry]:
        """A seat's menu with nothing asked of it: its `choices` in the game and the table's own
        entries after them (undo, a hint), `moves` made; None: the game is over, the way back."""
        if choices is None:
            return [*OVER]
        s = self.play
        entries: list[MenuEntry] = []
        if s.remote is None and s.undo.may_ask(seat, s.seats[seat] is not None, moves, s.computers.seats):
            entries.append(UNDO)
        if s.computers.may_hint(seat):
            entries.append(HINT)
        return [*choices, *entries]

    def cursor_entry(self, seat: int) -> MenuEntry | None:
        """The entry OK would choose for `seat` now (None: OK would not choose one)."""
        ui = self.play.ui[seat]
        if ui.page or ui.howto is not None:
            return None
        entries = self.entries(seat)
        return entries[min(ui.cursor, len(entries) - 1)] if entries else None

    def choose(self, seat: int, choice: MenuEntry) -> Transition | None:
        """A seat chose a menu entry: the table's own, or the game's action (asked again first when
        it cannot be taken back)."""
        if isinstance(choice, TableChoice):
            return self._table_entry(seat, choice.entry)
        ui = self.play.ui[seat]
        if choice.confirm is not None:
            ui.confirming = choice
            ui.home()  # "Non" first: a slip of the finger changes nothing
        elif self.play.apply(seat, choice.action):
            self.play.reconcile()
        return None

    def _table_entry(self, seat: int, entry: Entry) -> Transition | None:
        """One of the table's entries chosen."""
        s = self.play
        ui = s.ui[seat]
        if entry is Entry.UNDO:
            self._ask_undo(seat)
        elif entry in UNDO_ANSWERS:
            agreed = s.undo.answer(seat, entry, s.notify)
            if agreed is not None:
                s.take_back(agreed)
        elif entry is Entry.HINT:
            s.computers.ask_hint(seat)
        elif entry in (Entry.CANCEL, Entry.CONFIRM):
            asked, ui.confirming = ui.confirming, None
            if entry is Entry.CONFIRM and asked is not None and s.apply(seat, asked.action):
                s.reconcile()
        elif entry is Entry.RESUME:
            ui.quit_prompt = False
        elif entry is Entry.HOWTO:
            ui.quit_prompt = False
            ui.howto = 0
        elif entry is Entry.QUIT:
            return self._ask_leave(seat)
        elif entry in LEAVE_ANSWERS:
            return self._answer_leave(seat, entry)
        return None

    def _others(self, seat: int) -> set[int]:
        """The other seated human players."""
        s = self.play
        return {x for x, t in enumerate(s.seats) if t is not None and x != seat and x not in s.computers.seats}

    # -- leaving the game -------------------------------------------------------------------------
    def _ask_leave(self, seat: int) -> Transition | None:
        """Leave at once alone (or once over); with other human players, they are asked first (those
        of another table too, while it is there)."""
        s = self.play
        others = self._others(seat)
        if not s.over and s.remote is not None:
            others |= s.remote.ask_leave(seat)
        if s.over or not others:
            return self.end(s)
        s.ui[seat].quit_prompt = False
        self.leaving = (seat, others)
        for x in others:
            s.ui[x].home()  # "Non" first: a slip of the finger keeps the game
        return None

    def _answer_leave(self, seat: int, entry: Entry) -> Transition | None:
        """A seat's answer to a request to quit: one "Non" keeps the game, every "Oui" ends it."""
        s = self.play
        if self.leaving is None:
            return None
        by, waiting = self.leaving
        if entry is Entry.LEAVE_CANCEL and seat == by or entry is Entry.LEAVE_NO and seat in waiting:
            if s.remote is not None:
                s.remote.kept(seat)  # the other table's players are asked no more
        if entry is Entry.LEAVE_CANCEL and seat == by:
            self.leaving = None
        elif entry is Entry.LEAVE_NO and seat in waiting:
            self.leaving = None
            name = player(seat)
            s.notify(frozenset({by}), tr(f"{name.fr} veut continuer la partie.",
                                         f"{name.en} wants to keep playing."))
        elif entry is Entry.LEAVE_YES and seat in waiting:
            waiting.discard(seat)
            if not waiting:
                self.leaving = None
                return self.end(s)
        return None

    @staticmethod
    def end(s: Play) -> Transition:
        """The game ends for every seat here: the computer stops thinking, another table is told."""
        s.computers.cancel()
        if s.remote is not None:
            s.remote.leave()
        return LeaveGame(s.game.id, len(s.moves))

    def leave_screen(self, seat: int) -> Screen | None:
        """The screen of a seat that asked to quit or is asked (None: not involved)."""
        if self.leaving is None or seat not in {self.leaving[0], *self.leaving[1]}:
            return None
        name = player(self.leaving[0])
        return Screen(tr(f"{name.fr} veut quitter", f"{name.en} wants to quit"),
                      (essential(tr("la partie. Accepter ?", "the game. Accept?")),), icon="warn")

    # -- undo ------------------------------------------------------------------------------------
    def _ask_undo(self, seat: int) -> None:
        """`seat` asks: refused with the reason on its screen, or put to the other human players."""
        s = self.play
        others = self._others(seat)
        why = s.undo.ask(seat, s.game, s.config, s.moves, s.computers.seats, others)
        if why is not None:
            s.notify(frozenset({seat}), why)
            s.cues.append("error")
            return
        for x in others:
            s.ui[x].home()  # "Non" first
        if not others:  # alone against the computer: nobody to ask
            s.take_back(s.undo.agreed())

