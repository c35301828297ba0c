"""A GameSession's seats: what each one's buttons do and what its screen shows (the game's screen
under banners, questions and the seat's menu), and the table's LEDs."""

from __future__ import annotations

from typing import TYPE_CHECKING

from games import howto
from games.core import Choice, Screen, Text, tr

from firmware_host.apps import computer_seats, undo
from firmware_host.screens import layout
from firmware_host.screens.frames import Frame, blank_frame

if TYPE_CHECKING:
    from firmware_host.apps.session import GameSession


def on_button(session: GameSession, seat: int, button: str, kind: str) -> None:
    """A game seat's button event: move the cursor, choose, or quit (long press on OK)."""
    if seat in session.computer and not (kind == "long" and button == "ok"):
        return  # a computer's seat: its buttons only quit the game (a long press), like any seat's
    if kind == "long" and button == "ok":
        session.quit_prompt[seat] = not session.quit_prompt[seat]
        session.cursor[seat] = 0
        session.page[seat] = 0
        return
    if kind != "press":
        return
    if session.howto[seat] is not None:  # reading how to play: ◀ ▶ turn the pages, OK goes back
        pages = howto.pages(session.game)
        if button == "ok" or not pages:
            session.howto[seat] = None
        else:
            at = session.howto[seat] or 0
            session.howto[seat] = (at + (1 if button == "right" else -1)) % len(pages)
        return
    if session.notices[seat]:
        session.notices[seat].popleft()
        # with a menu the message sits above it (Frame.status): the menu was in view, so the
        # press also acts; without one (or under an instruction) the press only clears it
        covered = session.instruction is not None and seat in session.instruction[1]
        if covered or not menu(session, seat):
            return
    if button in ("left", "right"):
        # ◀ ▶ walk the menu entries, then the pages the lines overflow onto
        p = layout.plan(*session._layout_args(seat))
        step = -1 if button == "left" else 1
        session.cursor[seat], session.page[seat] = layout.navigate(p, session.cursor[seat], step)
        return
    entries = menu(session, seat)
    if button == "ok" and session.page[seat]:
        session.page[seat] = 0  # OK on an extra page goes back to the menu: it never chooses unseen
        return
    if entries and button == "ok":
        choose(session, seat, entries[min(session.cursor[seat], len(entries) - 1)])


def choose(session: GameSession, seat: int, choice: Choice) -> None:
    """A seat chose a menu entry: act on it (a table entry, a question, or the game's action)."""
    kind = choice.action.get("type")
    if kind in ("_undo_ask", "_undo_yes", "_undo_no", "_undo_cancel"):
        undo.choose(session, seat, kind)
        return
    if kind == computer_seats.HINT:
        computer_seats.ask_hint(session, seat)
        return
    if kind in ("_cancel", "_confirm"):
        asked, session.confirming[seat] = session.confirming[seat], None
        if kind == "_confirm" and asked is not None and session.apply(seat, asked.action):
            session.reconcile()
        return
    if choice.confirm is not None:
        session.confirming[seat] = choice
        session.cursor[seat] = 0  # "Non" first: a slip of the finger changes nothing
        session.page[seat] = 0
        return
    if kind == "_resume":
        session.quit_prompt[seat] = False
    elif kind == "_howto":
        session.quit_prompt[seat] = False
        session.howto[seat] = 0
    elif kind == "_quit":
        session.wants_quit = True
        computer_seats.cancel(session)
    elif session.apply(seat, choice.action):
        session.reconcile()


def menu(session: GameSession, seat: int) -> list[Choice]:
    """The seat's current button menu."""
    if session.undo is not None and seat in session.undo.waiting and session.confirming[seat] is None:
        return [Choice(tr("Non", "No"), {"type": "_undo_no"}), Choice(tr("Oui", "Yes"), {"type": "_undo_yes"})]
    if session.undo is not None and seat == session.undo.by and not session.quit_prompt[seat]:
        return [Choice(tr("Retirer la demande", "Withdraw the request"), {"type": "_undo_cancel"})]
    if session.confirming[seat] is not None:
        return [Choice(tr("Non", "No"), {"type": "_cancel"}), Choice(tr("Oui", "Yes"), {"type": "_confirm"})]
    if session.quit_prompt[seat]:
        out = [Choice(tr("Continuer la partie", "Keep playing"), {"type": "_resume"}),
               Choice(tr("Quitter la partie", "Quit the game"), {"type": "_quit"})]
        if howto.pages(session.game):
            out.append(Choice(tr("Comment jouer", "How to play"), {"type": "_howto"}))
        return out
    if seat in session.computer:  # its choices would name its secret cards: nothing to press
        return []
    if session.over:
        return [Choice(tr("Retour au menu", "Back to menu"), {"type": "_quit"})]
    choices = session._of_state(("choices", seat), lambda: session.game.choices(session.state, seat))
    if undo.may_ask(session, seat):
        choices = [*choices, Choice(tr("Annuler le dernier coup", "Undo last move"), {"type": "_undo_ask"})]
    hint = computer_seats.hint_choice(session, seat)
    if hint is not None:
        choices = [*choices, hint]
    return choices  # type: ignore[no-any-return]


def frame(session: GameSession, seat: int) -> Frame:
    """Game seat `seat`'s whole screen."""
    if seat in session.computer:  # the public screen: its own view names its secret cards
        screen = session._of_state(("computer-screen", seat), lambda: computer_seats.screen(session, seat))
    else:
        screen = session._of_state(("screen", seat), lambda: session.game.screen(
            session.game.view(session.state, seat), seat))
    for t in session.timers:
        cd = t.countdown
        if cd.audience is None or seat in cd.audience:
            left = max(0.0, t.deadline - session.clock()) / max(cd.seconds, 1e-9)
            screen = Screen(screen.title, screen.lines, screen.big, left, screen.icon)
    banner = status = None
    reason = why(session, seat)
    if session.instruction is not None and seat in session.instruction[1]:
        banner = session.instruction[2]
        if reason is not None:  # the why, for this mistake only
            banner = tr(f"{banner.fr}. {reason.fr}", f"{banner.en}. {reason.en}")
    elif reason is not None:  # its mistake, on another's pad
        banner = reason
    elif (hint := computer_seats.hint_text(session, seat)) is not None:  # what this seat just asked
        status = hint
    elif session.notices[seat]:
        status = session.notices[seat][0].text
    else:  # what the computer is doing
        status = computer_seats.thinking_text(session)
    # a question is the screen itself, so its Yes/No menu stays visible under it
    confirming = session.confirming[seat]
    question = tr("Quitter la partie ?", "Quit the game?") if session.quit_prompt[seat] else \
        confirming.confirm if confirming is not None else None
    reading = session.howto[seat]
    if reading is not None and howto.pages(session.game):
        pages = howto.pages(session.game)
        return Frame(pages[min(reading, len(pages) - 1)], (), 0, banner)  # an instruction still shows over it
    if question is not None:
        screen, banner = Screen(question, (), icon="warn"), None
    elif session.undo is not None and (seat in session.undo.waiting or seat == session.undo.by):
        screen = undo.screen(session, seat)
    labels = tuple(c.label for c in menu(session, seat))
    page = session.page[seat] if question is None else 0
    if status is not None and not labels:  # nothing to press under it: the message covers
        banner, status = status, None
    return Frame(screen, labels, min(session.cursor[seat], max(0, len(labels) - 1)), banner, page=page,
                 status=status)


def why(session: GameSession, seat: int) -> Text | None:
    """Why the last gesture was refused, for `seat` (None: not its business).

    The game explains a refusal to the seat to act; when that seat is a computer player, the
    hands that made the gesture were a human's: they read whose turn it is."""
    if session.reason is None or seat in session.computer:
        return None  # a computer seat's screen shows the instruction alone: its reason is secret
    if session.reason[0] == seat:
        return session.reason[1]
    if session.reason[0] in session.computer and seat not in session.computer:
        name = computer_seats.computer_name(session.reason[0])
        return tr(f"C'est à {name.fr} de jouer.", f"It is {name.en}'s turn.")
    return None


def idle_frame(session: GameSession) -> Frame:
    """What a seat not in this game shows."""
    return blank_frame(tr("zebra-table", "zebra-table"), tr("Partie en cours :", "Game in progress:"),
                       session.game.name)


def leds(session: GameSession) -> dict[str, str]:
    """Physical zone -> colour: the zone to fix, else the game's hints."""
    # a zone holding another game's piece (or an unknown tag) is not free: red, take it away
    odd = {s.zone: "red" for s in session.strangers}
    if session.instruction is not None:
        fix = session.instruction[0]
        return {**odd, session.to_physical(fix.zone) or "": "red" if fix.kind == "remove" else "green"}
    lit = {session.to_physical(z): c for z, c in session._of_state(("highlights",), lambda: session.game.highlights(
        session.state)).items()}
    return {**{z: c for z, c in lit.items() if z is not None}, **odd}
