"""The schema of `zebra-table script` events (docs/scripts.md), checked before anything happens:
a refused line changes nothing on the table and nothing in the journal."""

from __future__ import annotations

from typing import Any

from firmware_host.storage.inputs import InputError, boolean, choice, integer, number, obj, string

BUTTONS = ("left", "right", "ok")
MAX_ADVANCE = 600.0  # seconds one line may let pass (it is stepped every 0.25 s)
MAX_COUNT = 1000  # frames one reader fault line may affect
MAX_GARBAGE = 4096  # bytes of line noise in one line
MAX_EXTRA = 12  # players without a seat
MAX_COMPUTERS = 6  # computer players in one game
KEYS = {
    "place": ("place", "piece", "tag", "settle"), "remove": ("remove", "piece", "tag", "settle"),
    "press": ("press", "button"), "long": ("long", "button"), "advance": ("advance",),
    "start": ("start",), "resume": ("resume", "seat"), "reader": ("reader", "kinds", "count", "size"),
    "screen": ("screen", "fail"), "png": ("png", "path"), "comment": ("comment",),
}


def check_event(value: Any, seat_ids: tuple[int, ...], where: str = "event") -> dict[str, Any]:
    """The event if well-formed; InputError naming the key and the problem otherwise."""
    ev = obj(value, where)
    kinds = [k for k in KEYS if k in ev]
    if len(kinds) != 1:
        raise InputError(where, f"unknown event: expected exactly one of {', '.join(KEYS)}")
    kind = kinds[0]
    obj(ev, where, KEYS[kind])

    def seat(key: str) -> None:
        if integer(ev[key], f"{where}.{key}", -2**63, 2**63) not in seat_ids:
            raise InputError(f"{where}.{key}", f"no seat {ev[key]} on this table "
                                               f"(seats {', '.join(map(str, seat_ids))})")

    if kind in ("place", "remove"):
        string(ev[kind], f"{where}.{kind}", 32)
        for key in ("piece", "tag"):
            if key in ev:
                string(ev[key], f"{where}.{key}", 100)
        if "settle" in ev:
            boolean(ev["settle"], f"{where}.settle")
    elif kind in ("press", "long"):
        seat(kind)
        if "button" in ev:
            choice(ev["button"], f"{where}.button", BUTTONS)
    elif kind == "advance":
        number(ev["advance"], f"{where}.advance", 0.0, MAX_ADVANCE)
    elif kind == "start":
        check_start(ev["start"], seat_ids, f"{where}.start")
    elif kind == "resume":
        boolean(ev["resume"], f"{where}.resume")
        if ev.get("seat") is not None:
            seat("seat")
    elif kind == "reader":
        string(ev["reader"], f"{where}.reader", 20)
        if "kinds" in ev:
            kinds_list = ev["kinds"]
            if not isinstance(kinds_list, list) or len(kinds_list) > 8:
                raise InputError(f"{where}.kinds", "expected a list of at most 8 frame types")
            for i, k in enumerate(kinds_list):
                string(k, f"{where}.kinds[{i}]", 8)
        if "count" in ev:
            integer(ev["count"], f"{where}.count", 1, MAX_COUNT)
        if "size" in ev:
            integer(ev["size"], f"{where}.size", 1, MAX_GARBAGE)
    elif kind == "screen":
        seat("screen")
        if "fail" in ev:
            boolean(ev["fail"], f"{where}.fail")
    elif kind == "png":
        seat("png")
        string(ev.get("path"), f"{where}.path", 1000)
    elif kind == "comment":
        string(ev["comment"], f"{where}.comment", 10_000)
    return ev


def check_start(value: Any, seat_ids: tuple[int, ...], where: str) -> dict[str, Any]:
    """A start spec: a game id, distinct seats of this table, an options object, extra players."""
    spec = obj(value, where, ("game", "seats", "options", "extra", "computers", "hints"))
    string(spec.get("game"), f"{where}.game", 40)
    seats = spec.get("seats")
    if not isinstance(seats, list) or not seats:
        raise InputError(f"{where}.seats", "expected a list of table seats")
    for i, s in enumerate(seats):
        integer(s, f"{where}.seats[{i}]", 1, 8)
        if s not in seat_ids:
            raise InputError(f"{where}.seats[{i}]", f"no seat {s} on this table")
    if len(set(seats)) != len(seats):
        raise InputError(f"{where}.seats", f"a seat is given twice: {seats}")
    options = obj(spec.get("options", {}), f"{where}.options")
    for key, value in options.items():
        if isinstance(value, (dict, list)) or (isinstance(value, str) and len(value) > 100):
            raise InputError(f"{where}.options.{key}", "expected a number, a string or true/false")
    integer(spec.get("extra", 0), f"{where}.extra", 0, MAX_EXTRA)
    if "computers" in spec:
        check_computers(spec["computers"], spec["game"], seats, seat_ids, f"{where}.computers")
    if "hints" in spec:
        boolean(spec["hints"], f"{where}.hints")
    return spec


def check_computers(items: Any, game_id: str, seats: list[int], seat_ids: tuple[int, ...], where: str) -> None:
    """Computer players: each a level ("strong") or {"level": "strong", "seat": N} (a free table seat
    whose screen shows it)."""
    from games.ai import has_ai, levels  # lazily: only a start with computers needs them

    if not isinstance(items, list) or not items or len(items) > MAX_COMPUTERS:
        raise InputError(where, f"expected a list of 1 to {MAX_COMPUTERS} computer players")
    if not has_ai(game_id):
        raise InputError(where, f"{game_id} has no computer player")
    known = levels(game_id)
    taken = set(seats)
    for i, item in enumerate(items):
        at = f"{where}[{i}]"
        if isinstance(item, dict):
            obj(item, at, ("level", "seat"))
            level = item.get("level")
            if "seat" in item:
                seat = integer(item["seat"], f"{at}.seat", 1, 8)
                if seat not in seat_ids or seat in taken:
                    raise InputError(f"{at}.seat", f"seat {seat} is not a free seat of this table")
                taken.add(seat)
        else:
            level = item
        string(level, f"{at}.level" if isinstance(item, dict) else at, 20)
        if level not in known:
            raise InputError(at, f"unknown level {level!r} (levels: {', '.join(known)})")
