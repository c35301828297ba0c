"""What anyone watching a table may know of its game: the one redaction used for everything the
table sends out of the room.

Built only from `game.view(state, None)` (the public view), the screen the game draws from that
view, and the outcome once the game is over (every screen shows the final scores). Never from an
action's fields, the seed or a seat's view: an action may carry a secret card, the seed decides
every future draw. The hidden-information property test (tests/service/venue/test_venue_hidden.py) checks that
this part is the same in every state that differs only in what some seat may not know.
"""

from __future__ import annotations

import dataclasses
import enum
import json
from collections.abc import Mapping
from typing import Any

from games.core import JSON, Game, Screen, Text, to_json


def public_part(game: Game[Any, Any], state: Any) -> dict[str, Any]:
    """The public view, the public screen and (once over) the scores and winners of `state`.

    The view is left as the game's value; `dumps` encodes it (as `games.core.to_json` would).
    """
    view = game.view(state, None)
    outcome = game.outcome(state)
    return {
        "view": view,
        "screen": screen_json(game.screen(view, None)),
        "outcome": None if outcome is None else {"scores": list(outcome.scores), "winners": list(outcome.winners)},
    }


def screen_json(screen: Screen) -> dict[str, JSON]:
    """A screen as JSON text lines (both languages): what a spectator's screen would show."""
    return {"title": _text(screen.title), "lines": [_text(line) for line in screen.lines], "big": screen.big,
            "icon": screen.icon}


def _text(text: Text) -> dict[str, str]:
    return {"fr": text.fr, "en": text.en}


# -- encoding ------------------------------------------------------------------------------------
# The same JSON as `json.dumps(to_json(value))`, but the C encoder walks the value and only
# dataclasses, sets and enums come back to Python: about 5x less CPU per move on the table.
_FIELDS: dict[type, tuple[str, ...]] = {}


def _default(value: Any) -> Any:
    cls = type(value)
    names = _FIELDS.get(cls)
    if names is None and dataclasses.is_dataclass(value) and not isinstance(value, type):
        names = _FIELDS[cls] = tuple(f.name for f in dataclasses.fields(value))
    if names:
        return {name: getattr(value, name) for name in names}
    if isinstance(value, (frozenset, set)):
        return to_json(value)  # sorted, as to_json orders them
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, Mapping):
        return {str(k): v for k, v in value.items()}
    raise TypeError(f"not JSON-encodable: {cls.__name__}")


_ENCODER = json.JSONEncoder(default=_default, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                            allow_nan=False)


def dumps(value: Any) -> bytes:
    """Compact UTF-8 JSON of a message (views inside included), keys sorted."""
    try:
        text = _ENCODER.encode(value)
    except TypeError:  # a dict with keys JSON cannot hold (a tuple): the general path
        text = json.dumps(to_json(value), sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                          allow_nan=False)
    return text.encode()
