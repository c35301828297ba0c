"""What the game menu shows: each table seat's screen at each step, and a phone seat's page (the
menu's entries and what a press does: firmware_host/apps/menu.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from firmware_host.apps.app import Unfinished
from firmware_host.remote.code import LENGTH as CODE_LENGTH
from firmware_host.screens.frames import Frame
from games import howto
from games.core import Game, Screen, Text, tr
from games.registry import game_info


class Menu(Protocol):
    """What the screens read of the menu (firmware_host/apps/menu.py's MenuApp)."""

    @property
    def seat_ids(self) -> tuple[int, ...]: ...
    @property
    def step(self) -> str: ...
    @property
    def host(self) -> int | None: ...
    @property
    def cursor(self) -> int: ...
    @property
    def joined(self) -> list[int]: ...
    @property
    def message(self) -> Text | None: ...
    @property
    def unfinished(self) -> Unfinished | None: ...
    @property
    def phone_link(self) -> Callable[[int], str] | None: ...
    @property
    def qr_seat(self) -> int | None: ...
    @property
    def howto(self) -> int | None: ...
    @property
    def code(self) -> str: ...
    @property
    def game(self) -> Game[Any, Any] | None: ...
    def entries(self) -> list[tuple[Text, Any]]: ...
    def phones(self) -> tuple[int, ...]: ...


def menu_frame(menu: Menu, seat: int) -> Frame:
    """Table seat `seat`'s screen in the menu's current step (a phone seat's page too)."""
    if seat not in menu.seat_ids:
        return phone_frame(menu, seat)
    if menu.step == "phones" and menu.phone_link is not None:
        shown = menu.qr_seat if seat == menu.host and menu.qr_seat is not None else seat
        qr_lines = (tr("Téléphone :", "Phone:"), tr("◀ ▶ siège", "◀ ▶ seat"), tr("OK : retour", "OK: back")) \
            if seat == menu.host else (tr("Votre", "Your"), tr("téléphone :", "phone:"), tr("scannez", "scan it"))
        return Frame(Screen(tr(f"Siège {shown}", f"Seat {shown}"), qr_lines), qr=menu.phone_link(shown))
    if menu.step == "abandon" and menu.unfinished is not None:
        name = game_info(menu.unfinished.game_id).name
        question = Screen(tr("Abandonner la partie ?", "Abandon the game?"),
                          (name, tr("Elle sera perdue.", "It will be lost.")), icon="warn")
        if seat != menu.host:
            return Frame(Screen(question.title, (tr(f"Le siège {menu.host} choisit…",
                                                    f"Seat {menu.host} is choosing…"),)))
        return Frame(question, tuple(label for label, _ in menu.entries()), min(menu.cursor, 1))
    game = menu.game if menu.step not in ("home", "code") else None
    title = game.name if game is not None else tr("Choix du jeu", "Choose a game")
    if menu.step == "code":
        typed = (menu.code + "_" * CODE_LENGTH)[:CODE_LENGTH]
        title = tr(f"Code : {typed[:4]}-{typed[4:]}", f"Code: {typed[:4]}-{typed[4:]}")
    if menu.host is None and menu.unfinished is not None:
        name = game_info(menu.unfinished.game_id).name
        return Frame(Screen(tr("Partie interrompue", "Unfinished game"),
                            (name, tr("Appuyez sur un bouton :", "Press any button:"),
                             tr("reprendre ou abandonner", "resume or abandon")), icon="warn"))
    if menu.host is None:
        return Frame(Screen(tr("zebra-table", "zebra-table"),
                            (tr("Appuyez sur un bouton", "Press any button"),
                             tr("pour choisir un jeu", "to choose a game")), icon="turn"))
    if seat == menu.host and menu.howto is not None and menu.game is not None and howto.pages(menu.game):
        pages = howto.pages(menu.game)
        return Frame(pages[min(menu.howto, len(pages) - 1)])
    if seat == menu.host:
        entries = menu.entries()
        lines: tuple[Text, ...] = ()
        if menu.step == "setup":
            lines = (tr(f"Sièges : {seats_text(menu.joined)}", f"Seats: {seats_text(menu.joined)}"),)
        return Frame(Screen(title, lines), tuple(label for label, _ in entries),
                     min(menu.cursor, len(entries) - 1), menu.message)
    if menu.step == "setup":
        joined = seat in menu.joined
        line = tr("Vous jouez. OK : quitter", "You play. OK: leave") if joined else \
            tr("OK pour rejoindre", "OK to join")
        return Frame(Screen(title, (line, tr(f"Sièges : {seats_text(menu.joined)}",
                                             f"Seats: {seats_text(menu.joined)}")), icon="ok" if joined else None))
    return Frame(Screen(title, (tr(f"Le siège {menu.host} choisit…", f"Seat {menu.host} is choosing…"),)))


def phone_frame(menu: Menu, seat: int) -> Frame:
    """A phone seat's page: whether it plays the game being set up (the menu is the table's)."""
    title = tr(f"Téléphone {seat}", f"Phone {seat}")
    if menu.game is not None and menu.step != "home":
        if seat in menu.phones():
            return Frame(Screen(title, (tr("Vous jouez sur ce téléphone.", "You play on this phone."),
                                        tr(f"Le siège {menu.host} lance la partie.",
                                           f"Seat {menu.host} starts the game."), menu.game.name), icon="ok"))
        return Frame(Screen(title, (tr("Ce téléphone ne joue pas.", "This phone does not play."),
                                    tr(f"Le siège {menu.host} choisit les téléphones.",
                                       f"Seat {menu.host} chooses the phones."))))
    return Frame(Screen(title, (tr("Le menu est à la table.", "The menu is at the table."),
                                tr("Votre partie s'affichera ici.", "Your game will show here."))))


def seats_text(ids: list[int]) -> str:
    """The seats that joined, as the menu lists them ("—": none yet)."""
    return ", ".join(str(i) for i in ids) or "—"
