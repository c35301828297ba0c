"""What each web page may see: the one place where table data becomes page data.

- spectator (`watch_payload`): the public view `game.view(state, None)`, whose turn, the move
  count, final scores and the zones' LEDs (lit on the table top for everyone to see). Never a
  screen, never a sensed tag, never an action.
- a seat (`seat_payload`): the above, plus that seat's own screen (its picture, and the frame's text:
  title, lines, menu and cursor) and its own view `game.view(state, seat)`; in the simulator also
  its own pad and the pieces in its hands.
- every view sent also goes as its readable summary (`summary.py`), made from that very view.
- the owner's virtual table (`table_payload`, simulator only): everything the table senses and
  shows, as the person who is every player at once.
- replays (`replay_payload`): the same shapes, built from a journaled state instead of the live one.
"""

from __future__ import annotations

import base64
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from firmware_host.apps.phones import is_phone_seat
from firmware_host.screens.frames import Frame
from firmware_host.screens.render import render_frame
from firmware_host.web.set_names import set_name
from firmware_host.web.summary import summarize
from games.core import CHANCE, Game, to_json

if TYPE_CHECKING:
    from PIL.Image import Image

    from firmware_host.storage.tags import TagRegistry
    from firmware_host.web.hub import TableSnap


class Memo:
    """Results kept by the identity of immutable inputs (a game state, a picture), a few at a time.

    Many snapshots share a state (a cursor moved, a banner ended): its views are built once.
    """

    def __init__(self, size: int = 64):
        self.size = size
        self._items: OrderedDict[tuple[Any, ...], tuple[tuple[Any, ...], Any]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, objs: tuple[Any, ...], key: Hashable, make: Callable[[], Any]) -> Any:
        """make()'s result for these very objects and this key, computed once."""
        k = (tuple(id(o) for o in objs), key)
        with self._lock:
            hit = self._items.get(k)
            if hit is not None and all(a is b for a, b in zip(hit[0], objs)):
                self._items.move_to_end(k)
                return hit[1]
        value = make()
        with self._lock:
            self._items[k] = (objs, value)  # the objects are kept: their ids cannot be reused meanwhile
            while len(self._items) > self.size:
                self._items.popitem(last=False)
        return value


NO_MEMO = Memo(0)


def strings(value: Any) -> Iterable[str]:
    """Every string inside a JSON value (keys excluded)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for v in value.values():
            yield from strings(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from strings(v)


def piece_ids(game: Game[Any, Any], value: Any) -> set[str]:
    """The game's piece ids mentioned in a JSON value."""
    prefix = game.id + "/"
    return {s for s in strings(value) if s.startswith(prefix)}


def labels(game: Game[Any, Any] | None, pieces: Iterable[str], lang: str) -> dict[str, str]:
    """Piece id -> its name on the table ("le lion blanc"), for the pieces a page already has."""
    if game is None:
        return {}
    out = {}
    for p in sorted(set(pieces)):
        try:
            out[p] = game.piece_label(p).get(lang)
        except Exception:  # a stranger's id: show it as it is
            out[p] = p
    return out


def screen_json(image: Image | None) -> dict[str, Any] | None:
    """A 1-bit picture as width, height and its packed rows (1 = lit pixel), base64."""
    if image is None:
        return None
    if image.mode != "1":
        image = image.convert("1")
    return {"w": image.width, "h": image.height, "bits": base64.b64encode(image.tobytes()).decode("ascii")}


def public_game(game: Game[Any, Any], state: Any, seats: tuple[int | None, ...], moves: int) -> dict[str, Any]:
    """The public part of a game: id, name, table seats, whose turn (`waiting_for`), moves, final scores,
    public view."""
    outcome = game.outcome(state)
    to_act = sorted(t for s in game.waiting_for(state) if s != CHANCE and 0 <= s < len(seats)
                    and (t := seats[s]) is not None)
    return {
        "id": game.id, "name": to_json(game.name), "seats": list(seats), "to_act": to_act, "moves": moves,
        "phones": [s for s in seats if is_phone_seat(s)],  # seats played on a phone, not at the table
        # scores and winners only: details are the game's own business, its views say what is public
        "outcome": None if outcome is None else {"scores": list(outcome.scores), "winners": list(outcome.winners)},
        "public": to_json(game.view(state, None)),
    }


def _common(snap: TableSnap, lang: str, memo: Memo) -> dict[str, Any]:
    out: dict[str, Any] = {"seq": snap.seq, "app": snap.app, "reader": snap.reader, "leds": dict(snap.leds),
                           "menu_game": snap.menu_game, "game": None, "labels": {}}
    if snap.game is not None:
        game_, state = snap.game, snap.state

        def make() -> tuple[dict[str, Any], dict[str, str]]:
            part = public_game(game_, state, snap.seats, snap.moves)
            names = labels(game_, piece_ids(game_, part), lang)
            return {**part, "summary": summarize(game_.id, part["public"], snap.seats, names, lang)}, names

        out["game"], out["labels"] = memo.get((game_, state), ("public", snap.seats, snap.moves, lang), make)
    return out


def _screen(image: Image | None, memo: Memo) -> dict[str, Any] | None:
    return None if image is None else memo.get((image,), "screen", lambda: screen_json(image))


def watch_payload(snap: TableSnap, lang: str, memo: Memo = NO_MEMO) -> dict[str, Any]:
    """What a spectator's page gets."""
    return {"kind": "watch", **_common(snap, lang, memo)}


def game_seat(snap: TableSnap, seat: int) -> int | None:
    """The game seat playing at table seat `seat`, or None."""
    return snap.seats.index(seat) if snap.game is not None and seat in snap.seats else None


def seat_payload(snap: TableSnap, seat: int, lang: str, hands: Mapping[str, Any] | None = None,
                 memo: Memo = NO_MEMO) -> dict[str, Any]:
    """What seat `seat`'s phone gets: the public part, its own picture and its own view.

    `hands` (simulator only): the pieces on the seat's own pad and those in its hands.
    """
    frame = snap.frames.get(seat)
    out = {"kind": "seat", "seat": seat, **_common(snap, lang, memo), "screen": _screen(snap.images.get(seat), memo),
           "frame": None if frame is None else memo.get((frame,), ("text", lang), lambda: frame.text(lang)),
           "private": None, "mine": None, "refused": snap.refused.get(seat, 0)}
    gseat = game_seat(snap, seat)
    if gseat is not None and snap.game is not None:
        game_, state = snap.game, snap.state

        def make() -> tuple[Any, dict[str, str], dict[str, Any]]:
            private = to_json(game_.view(state, gseat))
            own = labels(game_, piece_ids(game_, private), lang)
            return private, own, summarize(game_.id, private, snap.seats, own, lang, mine=True)

        private, own, mine = memo.get((game_, state), ("seat", gseat, snap.seats, lang), make)
        out["private"] = private
        out["mine"] = mine
        out["labels"] = {**out["labels"], **own}
    if hands is not None:
        out.update(hands)
        if snap.game is not None:
            out["labels"] = {**out["labels"], **labels(snap.game, piece_ids(snap.game, dict(hands)), lang)}
    return out


def table_payload(snap: TableSnap, lang: str, registry: TagRegistry, trays: Mapping[str, Any],
                  memo: Memo = NO_MEMO) -> dict[str, Any]:
    """The owner's virtual table (simulator): every screen, every sensed tag, the trays."""
    out = {"kind": "table", **_common(snap, lang, memo)}
    phones = [s for s in snap.seats if s is not None and s not in snap.seat_ids]  # phone seats in the game
    out["screens"] = {str(s): _screen(snap.images.get(s), memo) for s in (*snap.seat_ids, *phones)}

    def make() -> tuple[dict[str, list[str]], dict[str, str]]:
        zones = {z: sorted(registry.piece(u) or u for u in uids) for z, uids in snap.sensed.items()}
        if snap.game is None:
            return zones, {}
        mentioned = {p for ps in zones.values() for p in ps} | piece_ids(snap.game, dict(trays))
        return zones, labels(snap.game, mentioned, lang)

    sensed = tuple(sorted(snap.sensed.items()))
    out["zones"], more = memo.get((snap.game, snap.state, trays), ("table", sensed, lang), make)
    out["trays"] = dict(trays)
    out["sets"] = {s: set_name(s, lang) for s in trays.get("box") or {}}  # the box's headings
    out["labels"] = {**out["labels"], **more}
    return out


def replay_payload(game: Game[Any, Any], state: Any, seats: tuple[int | None, ...], moves: int, seat: int | None,
                   lang: str, effects: Iterable[Any] = (), who: int | None = None) -> dict[str, Any]:
    """One step of a journaled game as the spectator (`seat` None) or game seat `seat` saw it."""
    public = public_game(game, state, seats, moves)
    names = labels(game, piece_ids(game, public), lang)
    public["summary"] = summarize(game.id, public["public"], seats, names, lang)
    shown = [e.text.get(lang) for e in effects
             if (e.audience is None or (seat is not None and seat in e.audience)) and (e.text.fr or e.text.en)]
    out: dict[str, Any] = {"kind": "replay", "app": "game", "game": public, "leds": {}, "effects": shown,
                           "who": None if who is None or who == CHANCE else seats[who] if who < len(seats) else None,
                           "labels": names, "seat": None, "screen": None, "private": None, "mine": None}
    if seat is not None:
        view = game.view(state, seat)
        out["seat"] = seats[seat]
        out["private"] = to_json(view)
        # a phone seat's pad is sensed by no table: its screen said to choose its cards in its menu
        screen = game.screen(view, seat, pad_sensed=not is_phone_seat(seats[seat]))
        out["screen"] = screen_json(render_frame(Frame(screen), lang))
        own = labels(game, piece_ids(game, out["private"]), lang)
        out["mine"] = summarize(game.id, out["private"], seats, own, lang, mine=True)
        out["labels"] = {**out["labels"], **own}
    return out


def transcript_payload(entry: Mapping[str, Any], seat: int | None, screen: Mapping[str, Any] | None,
                       lang: str) -> dict[str, Any]:
    """One line of a `zebra-table script` transcript: its public part, and table seat `seat`'s screen.

    The transcript's event and the other seats' screens never leave: a line's event may be a card
    laid on a pad.
    """
    from firmware_host.screens.render import render
    from games.core import Screen, Text
    from games.registry import get_game

    out: dict[str, Any] = {"kind": "replay", "app": str(entry.get("app", "")), "game": None,
                           "leds": {str(k): str(v) for k, v in dict(entry.get("leds") or {}).items()},
                           "effects": [], "who": None, "labels": {}, "seat": seat, "screen": None, "private": None}
    gid = entry.get("game")
    if isinstance(gid, str):
        try:
            game: Game[Any, Any] | None = get_game(gid)
        except ValueError:
            game = None
        public = entry.get("public")
        out["game"] = {"id": gid, "name": to_json(game.name) if game else {"fr": gid, "en": gid},
                       "seats": list(entry.get("seats") or []), "to_act": list(entry.get("to_act") or []),
                       "moves": entry.get("moves", 0), "outcome": _scores(entry.get("outcome")),
                       "public": public}
        out["labels"] = labels(game, piece_ids(game, public), lang) if game else {}
        seats = [s if type(s) is int else None for s in out["game"]["seats"]]
        out["game"]["summary"] = summarize(gid, public, seats, out["labels"], lang)
    if seat is not None and isinstance(screen, Mapping):
        def t(value: Any) -> Text:
            return Text(str(value), str(value))

        big = screen.get("big")
        bar = screen.get("bar")
        picture = render(Screen(t(screen.get("title", "")), tuple(t(x) for x in screen.get("lines", ())),
                                None if big is None else str(big),
                                bar if isinstance(bar, (int, float)) and 0 <= bar <= 1 else None),
                         lang, menu=[str(m) for m in screen.get("menu", ())],
                         cursor=screen.get("cursor", 0) if type(screen.get("cursor", 0)) is int else 0,
                         banner=None if screen.get("banner") is None else str(screen["banner"]))
        out["screen"] = screen_json(picture)
    return out


def _scores(outcome: Any) -> dict[str, Any] | None:
    if not isinstance(outcome, Mapping):
        return None
    return {"scores": list(outcome.get("scores") or []), "winners": list(outcome.get("winners") or [])}
