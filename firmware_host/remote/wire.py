"""The remote game's topics and messages (version 3), signed with the game's key, checked on arrival.

    zebra-table/remote/<room>/host          the hosting table's messages
    zebra-table/remote/<room>/join          the joining table's messages
    zebra-table/remote/<room>/<side>/status retained: online, or offline (last will / stop)

Every message is a JSON object {"v", "kind", "seq", "ack", ...}, sealed with the game's key
(seal.py: {"v", "box"}, the box its enciphered JSON) and signed as the venue's messages are
(firmware_host/venue/signing.py: HMAC-SHA256 over topic and payload). `seq` numbers a side's
reliable messages from 1 (a ping is 0): the receiver takes each once, in order, and says in `ack`
the highest it took with every lower one; the sender sends again whatever is not acknowledged.
`run` names the sender's link (the microsecond it was made: a table that restarts has a later one),
`seen` the other side's run that `ack` is about, `base` the highest seq the sender knows taken:
a receiver that meets a later run of the other side takes its messages from `base` on.

    game    host → join   the game, its options and seed, the game seats played at the joining
                          table, the moves so far and their views' digests: first at seq 1 (its
                          parts from seq 1), then again whenever either table restarted (the
                          joining table catches up from it)
    move    host → join   move n of the joining table's game as the host tells it: who acted, the
                          action (with "hidden": true, a stand-in for one the joining seats may not
                          know: a card laid face down), the digests of the joining seats' views after it
    rewrite host → join   the moves from index `from` on, as the rules now show them (at a reveal: the
                          stand-ins still on the pad become the cards revealed), and the views' digests;
                          `fresh`: the moves from that index on are new (announced as moves are)
    move    join → host   a move laid at the joining table, made after the host's first n moves (ZOP:
                          a card laid or taken back as its placeholder, opened at the reveal; `r`:
                          the refusals it had received since the host's whole game last came, `g`:
                          the host's run that game came from; a move laid on one the host refused
                          is refused)
    refused host → join   the joining table's move made after n moves was not taken (the host's
                          own move came first): the joining table goes back to the host's moves
    leave   either        player `by` asks to quit the game: the other table's players are asked
    stay    either        the request to quit of player `by` is over, the game goes on (`seat`
                          said no, or `by` withdrew it)
    left    either        the game was left at that table (its players all agreed, or it was
                          alone: the other table was away)
    part    either        part `i` of `n` of a message too large for one (parts.py): its seq is
                          `of` + `i`; the whole's kind, size and SHA-256, a slice of its JSON in base64
    ping    either        seq 0: presence and acknowledgement only
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from firmware_host.remote import parts, seal
from firmware_host.remote.seal import unseal
from firmware_host.venue import signing
from firmware_host.venue.inbound import BadMessage, check_depth, checked_body, decode
from firmware_host.venue.public import dumps
from games.core import CHANCE

VERSION = 3
ROOT = "zebra-table/remote"
SIDES = ("host", "join")
RELIABLE = ("game", "move", "rewrite", "refused", "leave", "stay", "left")
KINDS = (*RELIABLE, "part", "ping")
MAX_SEQ = 100_000  # a game's messages (the longest games: about 450 moves)
MAX_PLAYERS = 32
MAX_SEED = 2**63
MAX_RUN = 2**53  # a run is the microsecond its link was made
STAMPS = frozenset({"seq", "ack", "run", "seen", "base"})  # a sending's own fields (each part has its own)


@dataclass(frozen=True)
class Message:
    """A checked message: its kind, sequence number, acknowledgement and fields."""

    kind: str
    seq: int
    ack: int
    data: dict[str, Any]
    run: int = 1  # the sender's run: a table that restarts starts a later one
    seen: int = 0  # the run of this side's that `ack` is about (0: none heard yet)
    base: int = 0  # the sender's highest seq the other side took, as far as it knows


def topic(room: str, side: str) -> str:
    """The topic a side publishes its messages on."""
    return f"{ROOT}/{room}/{side}"


def status_topic(room: str, side: str) -> str:
    """The retained presence topic of a side."""
    return f"{ROOT}/{room}/{side}/status"


def other(side: str) -> str:
    """The other side."""
    return "join" if side == "host" else "host"


def encode(key: bytes, topic_: str, fields: dict[str, Any]) -> bytes:
    """A sealed, signed message: {"v", "box": the message's JSON enciphered (seal.py), "sig"}."""
    return signing.sign(key, topic_, dumps({"v": VERSION, "box": seal.seal(key, dumps({"v": VERSION, **fields}))}))


def _open(topic_: str, payload: bytes, key: bytes) -> dict[str, Any]:
    """The message inside a payload: size, signature and nesting checked, then unsealed and checked again."""
    outer = decode(topic_, checked_body(topic_, _side(topic_), payload, key))
    box = outer.get("box")
    body = unseal(key, box) if isinstance(box, str) and set(outer) == {"v", "box"} else None
    if body is None:
        raise BadMessage(f"{topic_}: not a sealed message")
    return decode(topic_, checked_body(topic_, _side(topic_), body, None))


def status(key: bytes, room: str, side: str, state: str) -> bytes:
    """A side's presence: "online" or "offline"."""
    where = status_topic(room, side)
    return encode(key, where, {"kind": "status", "side": side, "state": state})


# -- reading --------------------------------------------------------------------------------------
def parse(topic_: str, payload: bytes, key: bytes) -> Message:
    """Check a received message (size, signature, nesting, then every field); BadMessage says why."""
    return _checked(topic_, _open(topic_, payload, key))


def whole(topic_: str, body: bytes, last: Message) -> Message:
    """The message put together from parts (its JSON `body`, the stamps of its `last` part), checked
    as any message is; BadMessage says why."""
    if len(body) > parts.MAX_WHOLE:
        raise BadMessage(f"{topic_}: a message of {len(body)} bytes put together, at most {parts.MAX_WHOLE}")
    check_depth(topic_, body)
    data = decode(topic_, body)
    if data.get("kind") not in RELIABLE or set(data) & STAMPS:
        raise BadMessage(f"{topic_}: a message in parts is a {_short(data.get('kind'))} with "
                         f"{_short(sorted(set(data) & STAMPS))}")
    stamps = {"seq": last.seq, "ack": last.ack, "run": last.run, "seen": last.seen, "base": last.base}
    return _checked(topic_, {**data, **stamps})


def _checked(topic_: str, data: dict[str, Any]) -> Message:
    """A message's fields checked, after its seal and signature."""
    if data.get("v") != VERSION:
        raise BadMessage(f"{topic_}: version {_short(data.get('v'))}, this table reads {VERSION}")
    kind = data.get("kind")
    if kind not in KINDS:
        raise BadMessage(f"{topic_}: kind {_short(kind)}")
    seq = _int(topic_, data, "seq", 0, MAX_SEQ)
    ack = _int(topic_, data, "ack", 0, MAX_SEQ)
    run = _int(topic_, data, "run", 1, MAX_RUN)
    seen = _int(topic_, data, "seen", 0, MAX_RUN)
    base = _int(topic_, data, "base", 0, MAX_SEQ)
    if (seq == 0) != (kind == "ping"):
        raise BadMessage(f"{topic_}: a {kind} has seq {seq}")
    if kind != "ping" and base >= seq:
        raise BadMessage(f"{topic_}: seq {seq} is not past its base {base}")
    if kind == "game":
        _game(topic_, data)
    elif kind == "move":
        _int(topic_, data, "n", 0, MAX_SEQ)
        _int(topic_, data, "seat", CHANCE, MAX_PLAYERS - 1)
        if data.get("action") is not None:
            _action(topic_, data["action"])
        if "hidden" in data and not isinstance(data["hidden"], bool):
            raise BadMessage(f"{topic_}: hidden = {_short(data['hidden'])}, expected true or false")
        if "views" in data:
            _views(topic_, data["views"])
        if "r" in data:
            _int(topic_, data, "r", 0, MAX_SEQ)
        if "g" in data:
            _int(topic_, data, "g", 0, MAX_RUN)
    elif kind == "rewrite":
        _int(topic_, data, "from", 0, MAX_SEQ)
        _moves(topic_, data.get("moves"), MAX_PLAYERS)
        _views(topic_, data.get("views"))
        if "fresh" in data:
            _int(topic_, data, "fresh", 0, MAX_SEQ)
    elif kind == "refused":
        _int(topic_, data, "n", 0, MAX_SEQ)
    elif kind == "part":
        _part(topic_, data, seq)
    elif kind in ("leave", "stay"):
        _int(topic_, data, "by", 0, MAX_PLAYERS - 1)
        if kind == "stay":
            _int(topic_, data, "seat", 0, MAX_PLAYERS - 1)
    return Message(kind, seq, ack, data, run, seen, base)


def parse_status(topic_: str, payload: bytes, key: bytes) -> str:
    """A presence message's state ("online" or "offline"); BadMessage otherwise."""
    data = _open(topic_, payload, key)
    state = data.get("state")
    if data.get("v") != VERSION or data.get("kind") != "status" or state not in ("online", "offline"):
        raise BadMessage(f"{topic_}: not a presence message")
    return str(state)


def _side(topic_: str) -> str:
    """The side a topic is of, as a reason names it."""
    parts = topic_.split("/")
    return parts[3] if len(parts) > 3 and parts[3] in SIDES else "unknown"


def _game(topic_: str, data: dict[str, Any]) -> None:
    game = data.get("game")
    if not isinstance(game, str) or not 1 <= len(game) <= 64:
        raise BadMessage(f"{topic_}: game {_short(game)}")
    players = _int(topic_, data, "players", 1, MAX_PLAYERS)
    _int(topic_, data, "seed", 0, MAX_SEED)
    options = data.get("options")
    if not isinstance(options, dict) or not all(isinstance(k, str) and _scalar(v) for k, v in options.items()):
        raise BadMessage(f"{topic_}: options {_short(options)}")
    remote = data.get("remote")
    if not isinstance(remote, list) or not remote or len(set(map(repr, remote))) != len(remote) \
            or not all(_is_int(s, 0, players - 1) for s in remote):
        raise BadMessage(f"{topic_}: remote seats {_short(remote)} for {players} players")
    _moves(topic_, data.get("moves"), players)
    _views(topic_, data.get("views"))


def _part(topic_: str, data: dict[str, Any], seq: int) -> None:
    of = _int(topic_, data, "of", 1, MAX_SEQ)
    n = _int(topic_, data, "n", 2, parts.MAX_PARTS)
    i = _int(topic_, data, "i", 0, n - 1)
    if seq != of + i:
        raise BadMessage(f"{topic_}: part {i} of the message at seq {of} has seq {seq}")
    _int(topic_, data, "size", 1, min(n * parts.PART_BYTES, parts.MAX_WHOLE))
    if not _is_digest(data.get("digest")):
        raise BadMessage(f"{topic_}: digest {_short(data.get('digest'))}")
    if data.get("whole") not in RELIABLE:
        raise BadMessage(f"{topic_}: a part of a {_short(data.get('whole'))}")
    chunk = data.get("chunk")
    if not isinstance(chunk, str) or not 1 <= len(chunk) <= parts.MAX_CHUNK:
        raise BadMessage(f"{topic_}: chunk {_short(chunk)}, expected base64 of at most {parts.MAX_CHUNK} characters")


def _moves(topic_: str, moves: Any, players: int) -> None:
    if not isinstance(moves, list) or len(moves) > MAX_SEQ or not all(
            isinstance(m, list) and len(m) == 2 and _is_int(m[0], CHANCE, players - 1) and _is_action(m[1])
            for m in moves):
        raise BadMessage(f"{topic_}: moves {_short(moves)}")


def _is_action(action: Any) -> bool:
    return isinstance(action, dict) and isinstance(action.get("type"), str)


def _action(topic_: str, action: Any) -> None:
    if not _is_action(action):
        raise BadMessage(f"{topic_}: action {_short(action)}")


def _views(topic_: str, views: Any) -> None:
    if not isinstance(views, dict) or not all(
            isinstance(k, str) and k.isdigit() and len(k) <= 2 and _is_digest(v) for k, v in views.items()):
        raise BadMessage(f"{topic_}: views {_short(views)}")


def _is_digest(value: Any) -> bool:
    return isinstance(value, str) and len(value) == 64 and all(c in "0123456789abcdef" for c in value)


def _scalar(value: Any) -> bool:
    return value is None or isinstance(value, (str, bool)) or _is_int(value, -MAX_SEED, MAX_SEED)


def _int(topic_: str, data: dict[str, Any], key: str, low: int, high: int) -> int:
    value: Any = data.get(key)
    if not _is_int(value, low, high):
        raise BadMessage(f"{topic_}: {key} = {_short(value)}, expected an integer from {low} to {high}")
    return int(value)


def _is_int(value: Any, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _short(value: Any) -> str:
    try:
        text = repr(value)
    except ValueError:  # an integer of more digits than Python converts to text
        return "a huge integer"
    return text if len(text) <= 80 else text[:77] + "..."
