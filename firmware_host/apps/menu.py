"""The game menu on the seat buttons: pick a game, seats join with OK, set options, start.

The first seat to press a button becomes the host of the menu; the others see what is being
chosen and join the game with OK on their own seat.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

from firmware_host.apps.app import (
    TEST_APP,
    AbandonUnfinished,
    Button,
    JoinRemote,
    PressKind,
    QuietApp,
    Sensed,
    SetLanguage,
    StartGame,
    StartRequest,
    Transition,
    Unfinished,
)
from firmware_host.apps.computer_seats import REQUIRED_OPTIONS, has_ai, level_name
from firmware_host.apps.menu_screens import menu_frame
from firmware_host.apps.undo import player
from firmware_host.remote import crossing
from firmware_host.remote.code import ALPHABET as CODE_ALPHABET
from firmware_host.remote.code import LENGTH as CODE_LENGTH
from firmware_host.screens.frames import Frame
from firmware_host.storage.journal_texts import UNSAVED_AT_START
from games import howto
from games.core import BadConfig, Game, GameConfig, Text, tr
from games.registry import available_ids, game_info, get_game

Step = Literal["home", "setup", "abandon", "phones", "code"]
Action = Literal["resume", "abandon", "abandon_yes", "abandon_no", "howto", "language", "cpu_add", "hints",
                 "extra", "start", "back", "phones", "phone_codes", "remote", "join", "code_erase"]


@dataclass(frozen=True)
class Pick:
    """A game of the home menu (or the table test)."""

    game_id: str


@dataclass(frozen=True)
class Option:
    """A game option: OK takes its next value."""

    key: str


@dataclass(frozen=True)
class ComputerLevel:
    """The computer player at this index: OK takes it one level down (past the weakest: removed)."""

    index: int


@dataclass(frozen=True)
class Do:
    """Any other entry."""

    what: Action


@dataclass(frozen=True)
class CodeChar:
    """One character of a remote game's code."""

    char: str


MenuKey = Pick | Option | ComputerLevel | Do | CodeChar


@dataclass
class MenuApp(QuietApp):
    """Menu state machine: "home" (choose a game) -> "setup" (join, options) -> StartGame."""

    needs_reader: ClassVar[bool] = False

    seat_ids: tuple[int, ...]
    host: int | None = None
    step: Step = "home"
    cursor: int = 0
    game_id: str | None = None
    joined: list[int] = field(default_factory=list)
    options: dict[str, object] = field(default_factory=dict)
    message: Text | None = None
    unfinished: Unfinished | None = None  # the journal's unfinished game, offered on the home menu
    notice: Text | None = None  # a start-up problem every seat sees until the first press
    extra: int = 0  # players on phone seats (web pages on), else players without a seat
    phone_link: Callable[[int], str] | None = None  # a seat's phone link (web pages on), for its QR code
    phone_ids: tuple[int, ...] = ()  # the phone seats this table offers (firmware_host.apps.phones)
    qr_seat: int | None = None  # the seat whose QR code the host's screen shows (step "phones")
    qr_from: Step = "home"  # where the QR codes were asked from: OK goes back there
    language: str = "fr"  # the screens' language (a choice here is a SetLanguage transition)
    howto: int | None = None  # the "Comment jouer" page the host reads (◀ ▶ pages, OK back)
    computers: list[str] = field(default_factory=list)  # levels of the computer players added
    hints: bool | None = None  # hints allowed; None: the default (one human against the computer)
    remote_ready: bool = False  # the config names a broker for games with another table ([remote])
    remote: int = 0  # players of the game set up who sit at another table (0: none, a game at this table)
    code: str = ""  # the remote game's code typed so far (step "code")

    def games(self) -> list[str]:
        """Game ids offered (those installed: none is imported to list them), then the table test app."""
        return [*available_ids(), TEST_APP]

    @property
    def game(self) -> Game[Any, Any] | None:
        """The chosen game."""
        return get_game(self.game_id) if self.game_id else None

    # -- entries --------------------------------------------------------------------------------
    def entries(self) -> list[tuple[Text, MenuKey]]:
        """The host's menu entries as (label, key)."""
        if self.step == "abandon":  # irrevocable: asked again, "Non" first like the games' questions
            return [(tr("Non", "No"), Do("abandon_no")), (tr("Oui, abandonner", "Yes, abandon"), Do("abandon_yes"))]
        if self.step == "home":
            return self._home_entries()
        if self.step == "code":
            return [*((Text(c, c), CodeChar(c)) for c in CODE_ALPHABET),
                    (tr("Effacer", "Erase"), Do("code_erase")), (tr("Retour", "Back"), Do("back"))]
        game = self.game
        assert game is not None
        n = self._players()
        ok = game.min_players <= n <= game.max_players
        start = tr(f"Commencer ({n} joueurs)", f"Start ({n} players)") if ok else \
            tr(f"{n} joueur(s) : {game.min_players}–{game.max_players} requis",
               f"{n} player(s): {game.min_players}–{game.max_players} needed")
        out: list[tuple[Text, MenuKey]] = [(start, Do("start"))]  # first: most groups just start with the defaults
        if self.phones_on:  # players without a seat (or a screen) play on a phone
            out.append((tr(f"Téléphones : {self.extra}", f"Phone players: {self.extra}"), Do("extra")))
            if self.extra:
                out.append((tr("Codes QR des téléphones", "Phones' QR codes"), Do("phone_codes")))
        elif game.max_players > len(self.seat_ids):  # more players than seats: some sit with a mate
            out.append((tr(f"Joueurs sans siège : {self.extra}", f"Players without a seat: {self.extra}"),
                        Do("extra")))
        out += self._computer_entries(game)
        if self.remote_ready and game.id in crossing.REMOTE_GAMES and not self.computers:
            out.append((self._remote_label(), Do("remote")))
        for opt in (o for o in game.options if o.offered):
            value = self.options.get(opt.key, opt.default)
            idx = opt.choices.index(value)
            vlabel = opt.choice_labels[idx] if opt.choice_labels else Text(str(value), str(value))
            out.append((tr(f"{opt.label.fr} : {vlabel.fr}", f"{opt.label.en}: {vlabel.en}"), Option(opt.key)))
        if howto.pages(game):
            out.append((tr("Comment jouer", "How to play"), Do("howto")))
        out.append((tr("Retour", "Back"), Do("back")))
        return out

    def _home_entries(self) -> list[tuple[Text, MenuKey]]:
        out: list[tuple[Text, MenuKey]] = []
        if self.unfinished is not None:
            name = game_info(self.unfinished.game_id).name
            if self.unfinished.remote:  # its seats at the other table are never played here
                name = tr(f"{name.fr} (à distance)", f"{name.en} (remote)")
            out.append((tr(f"Reprendre : {name.fr}", f"Resume: {name.en}"), Do("resume")))
            out.append((tr(f"Abandonner : {name.fr}", f"Abandon: {name.en}"), Do("abandon")))
        for gid in self.games():
            if gid == TEST_APP:  # in both languages at once: whoever cannot read one finds the other
                out.append((tr("Langue : Français / Language", "Language: English / Langue"), Do("language")))
            label = tr("Test de la table", "Table test") if gid == TEST_APP else game_info(gid).name
            out.append((label, Pick(gid)))
        if self.phone_link is not None:
            out.append((tr("Téléphones (code QR)", "Phones (QR code)"), Do("phones")))
        if self.remote_ready:
            out.append((tr("Rejoindre une partie à distance", "Join a remote game"), Do("join")))
        return out

    def _players(self) -> int:
        """Players of the game set up: seats joined, players without a seat, computers, the other table's."""
        return len(self.joined) + self.extra + len(self.computers) + self.remote

    def _remote_label(self) -> Text:
        """"À distance : non", or the game seats played at the other table ("À distance : J3 J4"):
        the players who joined here take the first game seats, the other table's the last."""
        if not self.remote:
            return tr("À distance : non", "Remote: no")
        first = len(self.joined) + len(self.phones())
        names = [player(first + i) for i in range(self.remote)]
        return tr(f"À distance : {' '.join(n.fr for n in names)}", f"Remote: {' '.join(n.en for n in names)}")

    def _computer_entries(self, game: Game[Any, Any]) -> list[tuple[Text, MenuKey]]:
        """Add a computer player (at the strongest level), each one's level (OK: one level down;
        past the weakest: removed), hints allowed or not."""
        if not has_ai(game.id):
            return []
        out: list[tuple[Text, MenuKey]] = []
        for i, level in enumerate(self.computers):
            name = level_name(level)
            out.append((tr(f"Ordinateur {i + 1} : {name.fr}", f"Computer {i + 1}: {name.en}"), ComputerLevel(i)))
        if self._players() < game.max_players and not self.remote:
            out.append((tr("Ajouter l'ordinateur", "Add a computer player"), Do("cpu_add")))
        on = self.hints_on()
        out.append((tr(f"Conseils : {'oui' if on else 'non'}", f"Hints: {'on' if on else 'off'}"), Do("hints")))
        return out

    @property
    def phones_on(self) -> bool:
        """Players may play on phone seats (the web pages are on)."""
        return self.phone_link is not None and bool(self.phone_ids)

    def phones(self) -> tuple[int, ...]:
        """The phone seats of the game being set up."""
        return self.phone_ids[:self.extra] if self.phones_on else ()

    def hints_on(self) -> bool:
        """Hints allowed: the host's choice, else on when one human plays against the computer."""
        if self.hints is not None:
            return self.hints
        return len(self.joined) + self.extra == 1 and bool(self.computers)

    # -- input ---------------------------------------------------------------------------------
    def begin(self, sensed: Sensed) -> Transition | None:
        """The menu needs nothing of the table."""
        return None

    def on_sensed(self, sensed: Sensed) -> Transition | None:
        """The menu needs nothing of the table."""
        return None

    def on_journal_back(self, unfinished: Callable[[], Unfinished | None]) -> None:
        """The journal is back: its unfinished game is offered, if the home menu offers none yet,
        and a start-up notice saying games are not saved is no longer true."""
        if self.notice in UNSAVED_AT_START:
            self.notice = None
        if self.step == "home" and self.unfinished is None:
            self.unfinished = unfinished()

    def on_button(self, seat: int, button: Button, kind: PressKind) -> Transition | None:
        """A button event from table seat `seat`."""
        if kind != "press" or seat not in self.seat_ids:
            return None  # the menu is the table's: a phone seat waits for the game
        self.message = None
        self.notice = None
        if self.host is None:
            self.host = seat
            if button == "ok" and self.step == "home":
                return None  # the first press only takes the menu
        if self.step == "phones":
            self._phones(seat, button)
            return None
        if seat != self.host:
            if self.step == "setup" and button == "ok":
                if seat in self.joined:
                    self.joined.remove(seat)
                else:
                    self.joined.append(seat)
                    self.joined.sort()
            return None
        if self.howto is not None and self.game is not None:
            pages = howto.pages(self.game)
            if button == "ok" or not pages:
                self.howto = None
            else:
                self.howto = (self.howto + (1 if button == "right" else -1)) % len(pages)
            return None
        entries = self.entries()
        if button == "left":
            self.cursor = (self.cursor - 1) % len(entries)
        elif button == "right":
            self.cursor = (self.cursor + 1) % len(entries)
        elif button == "ok":
            return self._choose(entries[min(self.cursor, len(entries) - 1)][1])
        return None

    def _choose(self, key: MenuKey) -> Transition | None:
        match key:
            case Pick(gid):
                return self._pick(gid)
            case Option(name):
                self._next_option(name)
            case ComputerLevel(i):
                self._computer_level(i)
            case CodeChar(c):
                return self._code_char(c)
            case Do(what):
                return self._do[what](self)
        return None

    def _pick(self, gid: str) -> Transition | None:
        if gid == TEST_APP:
            return StartGame(StartRequest(TEST_APP, self.seat_ids))
        try:  # the chosen game is loaded now, and only it
            get_game(gid)
        except Exception as exc:  # a broken game must not take the menu down
            self.message = tr(f"Jeu indisponible : {exc}", f"Game unavailable: {exc}")
            return None
        self.game_id, self.step, self.cursor = gid, "setup", 0
        self.joined = [self.host] if self.host is not None else []
        self.options = {}
        self.extra = 0
        self.computers, self.hints = [], None
        return None

    def _next_option(self, name: str) -> None:
        game = self.game
        assert game is not None
        opt = next(o for o in game.options if o.key == name)
        value = self.options.get(opt.key, opt.default)
        self.options[opt.key] = opt.choices[(opt.choices.index(value) + 1) % len(opt.choices)]

    def _computer_level(self, i: int) -> None:
        from games.ai import levels

        game = self.game
        assert game is not None
        known = levels(game.id)[::-1]  # strongest first: OK steps down, past the weakest it leaves
        at = known.index(self.computers[i]) if self.computers[i] in known else -1
        if at + 1 < len(known):
            self.computers[i] = known[at + 1]
        else:  # past the weakest level: this computer player leaves
            del self.computers[i]
            self.cursor = 0

    def _resume(self) -> Transition | None:
        if self.unfinished is None:
            return None
        u = self.unfinished
        return StartGame(StartRequest(u.game_id, u.seats, resume=u.jid))

    def _abandon(self) -> Transition | None:
        if self.unfinished is not None:
            self.step, self.cursor = "abandon", 0
        return None

    def _abandon_yes(self) -> Transition | None:
        if self.unfinished is None:
            return None
        jid = self.unfinished.jid
        self.unfinished = None
        self.step, self.cursor = "home", 0
        return AbandonUnfinished(jid)

    def _abandon_no(self) -> Transition | None:
        self.step, self.cursor = "home", 0
        return None

    def _howto(self) -> Transition | None:
        self.howto = 0
        return None

    def _language(self) -> Transition | None:
        self.language = "en" if self.language == "fr" else "fr"
        return SetLanguage(self.language)

    def _cpu_add(self) -> Transition | None:
        from games.ai import levels

        game = self.game
        assert game is not None
        self.computers.append(levels(game.id)[-1])  # the strongest first: most want a real game
        self.options.update(REQUIRED_OPTIONS.get(game.id, {}))
        return None

    def _hints(self) -> Transition | None:
        self.hints = not self.hints_on()
        return None

    def _extra(self) -> Transition | None:
        game = self.game
        assert game is not None
        if self.phones_on:  # any player may take a phone seat: a table seat too many, a screen broken
            most = min(len(self.phone_ids), max(0, game.max_players - len(self.joined) - len(self.computers)))
        else:
            most = max(0, game.max_players - len(self.seat_ids))
        self.extra = (self.extra + 1) % (most + 1)
        self.cursor = min(self.cursor, len(self.entries()) - 1)
        return None

    def _start(self) -> Transition | None:
        game = self.game
        assert game is not None
        players = self._players()
        if not (game.min_players <= players <= game.max_players and (self.joined or not self.computers)):
            self.message = tr("Les autres sièges rejoignent avec OK", "Other seats join with OK")
            return None
        try:  # an option may not suit this player count (competitive needs 6)
            game.validate_config(GameConfig(players, dict(self.options)))
        except BadConfig as exc:
            self.message = tr(f"Impossible : {exc}", f"Cannot start: {exc}")
            return None
        # a player without a seat here would be a game seat without a table seat: the other table's
        if self.remote and self.extra and not self.phones_on:
            self.message = tr("À distance : pas de joueurs sans siège", "Remote: no players without a seat")
            return None
        if self.remote:  # the other table's players: game seats without a table seat here (after the phones')
            options = {**self.options, **crossing.REMOTE_OPTIONS.get(game.id, {})}
            seats = (*self.joined, *self.phones(), *(None,) * self.remote)
            return StartGame(StartRequest(game.id, seats, options, remote="host"))
        # a computer sits at a free table seat (its screen shows its moves), else at none
        free = [s for s in self.seat_ids if s not in self.joined]
        seats = (*self.joined, *(free[i] if i < len(free) else None for i in range(len(self.computers))),
                 *self.phones())
        computers = {len(self.joined) + i: level for i, level in enumerate(self.computers)}
        return StartGame(StartRequest(game.id, tuple(seats), dict(self.options),
                                      extra=0 if self.phones_on else self.extra,
                                      computers=computers, hints=self.hints_on()))

    def _back(self) -> Transition | None:
        self.step, self.cursor, self.game_id, self.joined = "home", 0, None, []
        self.computers, self.hints, self.remote, self.code = [], None, 0, ""
        return None

    def _remote(self) -> Transition | None:
        """One more player at the other table; past as many as the game takes beside this table's (or
        takes at a joining table): none."""
        game = self.game
        assert game is not None
        most = max(0, game.max_players - len(self.joined) - len(self.phones()))
        self.remote = (self.remote + 1) % (most + 1)
        return None

    def _join(self) -> Transition | None:
        self.step, self.cursor, self.code = "code", 0, ""
        return None

    def _code_erase(self) -> Transition | None:
        self.code = self.code[:-1]
        return None

    def _code_char(self, char: str) -> Transition | None:
        """One more character; the last one joins the game (the host's seat plays there)."""
        self.code += char
        if len(self.code) < CODE_LENGTH or self.host is None:
            return None
        code, host = self.code, self.host
        self._back()
        return JoinRemote(code, (host,))

    def _phones_on(self) -> Transition | None:
        self.step, self.qr_seat, self.qr_from = "phones", self.host, "home"
        return None

    def _phone_codes(self) -> Transition | None:
        if self.phones():
            self.step, self.qr_seat, self.qr_from = "phones", self.phones()[0], "setup"
        return None

    _do: ClassVar[dict[Action, Callable[[MenuApp], Transition | None]]] = {
        "resume": _resume, "abandon": _abandon, "abandon_yes": _abandon_yes, "abandon_no": _abandon_no,
        "howto": _howto, "language": _language, "cpu_add": _cpu_add, "hints": _hints, "extra": _extra,
        "start": _start, "back": _back, "phones": _phones_on, "phone_codes": _phone_codes,
        "remote": _remote, "join": _join, "code_erase": _code_erase,
    }

    def _phones(self, seat: int, button: Button) -> None:
        """The QR codes: the host's ◀ ▶ show each seat's in turn (seats without a screen; from the
        game's set-up, its phone seats), OK goes back."""
        if seat != self.host:
            return
        if button == "ok":
            self.step, self.qr_seat = self.qr_from, None
            return
        ids = list(self.phones() if self.qr_from == "setup" else self.seat_ids)
        at = ids.index(self.qr_seat) if self.qr_seat in ids else 0
        self.qr_seat = ids[(at + (1 if button == "right" else -1)) % len(ids)]

    # -- output --------------------------------------------------------------------------------
    def frame(self, seat: int) -> Frame:
        """Table seat `seat`'s screen (with the start-up notice over it, if any)."""
        frame = menu_frame(self, seat)
        if self.notice is not None:
            return Frame(frame.screen, frame.menu, frame.cursor, self.notice)
        return frame

    def leds(self) -> dict[str, str]:
        """The menu lights nothing."""
        return {}

