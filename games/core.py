"""The engine contract every game implements: pure rules, immutable state, effects as data.

A game never does I/O, reads a clock or draws random numbers. Randomness is an explicit chance
action chosen by the runtime (sampled in simulation, sensed on the table). Replay of a game is a
fold of `apply` over its (seat, action) list from `initial_state(config)`.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import json
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from operator import is_
from typing import Any, Final, Generic, TypeGuard, TypeVar

# what a game shows is the contract's too: games and the service name it from here
from games.shown import Choice as Choice
from games.shown import Line as Line
from games.shown import Screen as Screen
from games.shown import Text as Text
from games.shown import essential as essential
from games.shown import is_essential as is_essential
from games.shown import tr as tr

JSON = Any  # a value json.dumps accepts: dict/list/str/int/float/bool/None
Action = Mapping[str, JSON]  # always a JSON object with a "type" key, e.g. {"type": "place", ...}
Layout = Mapping[str, frozenset[str]]  # logical zone -> piece ids expected there

CHANCE: Final = -1  # pseudo-seat that acts for random events (shuffles, draws)

S = TypeVar("S")  # a game's state type (an immutable value)
V = TypeVar("V")  # a game's view type (frozen dataclasses: what one seat may know)


@dataclass(frozen=True)
class Rejection:
    """Why an action is refused: a stable code for tests and logs, a message for the screen."""

    code: str
    message: Text


class Mistake(enum.Enum):
    """What a gesture the table refuses was, as the player who made it reads it."""

    NOT_YOURS = "not_yours"  # a piece of another seat
    WRONG_SQUARE = "wrong_square"  # a piece the seat may play, where none of its moves puts it
    OCCUPIED = "occupied"  # on a zone that holds another piece
    OUT_OF_TURN = "out_of_turn"  # by a seat the game is not waiting for
    COMPUTER_MOVE = "computer_move"  # the computer's move carried out wrongly
    COMPUTER_TO_PLAY = "computer_to_play"  # a piece moved while only the computer is to play
    OVER_LIMIT = "over_limit"  # beyond a limit of the rules (a team's readers, a hand's size)
    LIFTED = "lifted"  # a piece that must stay was taken away
    RULE = "rule"  # another rule of the game: its own reason


class IllegalAction(ValueError):
    """An action that the rules refuse in this state; the state is left unchanged."""

    def __init__(self, rejection: Rejection, seat: int | None = None, action: Action | None = None):
        self.rejection = rejection
        self.code = rejection.code
        self.seat = seat
        self.action = action
        super().__init__(f"{rejection.code}: {rejection.message.en}")


class UnknownGame(ValueError):
    """A game id that the registry does not know."""


class BadConfig(ValueError):
    """A game configuration (player count, option) that the game refuses."""


# ---------------------------------------------------------------------------------------------
# Effects: data describing what the table must show or do after an action.


@dataclass(frozen=True)
class Effect:
    """Something to show or do after an action, for an audience.

    kind: stable id ("message", "reveal", "flip", "return", "sound", ...).
    audience: the seats who may see it; None = every seat. An effect is never shown elsewhere.
    text: what the screens of the audience show.
    data: machine-readable details (zones, pieces) for LEDs, logs and tests.
    """

    kind: str
    text: Text
    audience: frozenset[int] | None = None
    data: Mapping[str, JSON] = field(default_factory=dict)


@dataclass(frozen=True)
class Countdown(Effect):
    """A timer the runtime runs; on expiry it applies `on_expire` for `seat` (e.g. a 10 s window)."""

    seconds: float = 10.0
    seat: int = CHANCE
    on_expire: Action = field(default_factory=dict)


@dataclass(frozen=True)
class Step(Generic[S]):
    """The result of `apply`: the new state and the effects to show."""

    state: S
    effects: tuple[Effect, ...] = ()


@dataclass(frozen=True)
class Outcome:
    """Final scores (one per seat) and the winning seats (several on a shared win)."""

    scores: tuple[float, ...]
    winners: tuple[int, ...]
    details: Mapping[str, JSON] = field(default_factory=dict)

    def to_json(self) -> dict[str, JSON]:
        """The outcome as printed by `zebra-table rules`."""
        return {"scores": list(self.scores), "winners": list(self.winners), "details": to_json(self.details)}


@dataclass(frozen=True)
class Option:
    """A game option chosen in the menu: key, allowed values (first = default), labels."""

    key: str
    label: Text
    choices: tuple[JSON, ...]
    choice_labels: tuple[Text, ...] = ()
    offered: bool = True  # False: never in the set-up menu; the table sets it (a game across tables)

    @property
    def default(self) -> JSON:
        """The value used when the option is not given."""
        return self.choices[0]


@dataclass(frozen=True)
class GameConfig:
    """How a game is started: player count, options. The seed is the runtime's, for chance."""

    players: int
    options: Mapping[str, JSON] = field(default_factory=dict)
    seed: int = 0

    def option(self, key: str, default: JSON = None) -> JSON:
        """One option's value, or `default`."""
        return self.options.get(key, default)


# ---------------------------------------------------------------------------------------------


class Game(ABC, Generic[S, V]):
    """One game's rules over its state type S and view type V. Stateless: every method is a pure
    function of its arguments.

    Seats in a game are 0-based player indices; the runtime maps them to physical seats.
    Logical zones: board squares "A1".."F5", centre slots "centre.1".., a player's pad "pad.<seat>".
    """

    id: str = ""
    name: Text = Text("", "")
    min_players: int = 2
    max_players: int = 2
    options: tuple[Option, ...] = ()

    # -- set-up --------------------------------------------------------------------------------
    @abstractmethod
    def initial_state(self, config: GameConfig) -> S:
        """The state before the first action; raises BadConfig for an unsupported config."""

    def warm(self) -> None:
        """Read now what the game reads once per process when first asked (its data files), so no
        table event waits for it: the table calls this while idle, once a game is on. Nothing by default."""

    def validate_config(self, config: GameConfig) -> GameConfig:
        """Check the player count and options; fill option defaults. Raises BadConfig."""
        if not self.min_players <= config.players <= self.max_players:
            raise BadConfig(f"{self.id}: {config.players} players, expected {self.min_players}–{self.max_players}")
        known = {o.key: o for o in self.options}
        opts = dict(config.options)
        for key, value in opts.items():
            if key not in known:
                raise BadConfig(f"{self.id}: unknown option {key!r} (known: {', '.join(known) or 'none'})")
            if value not in known[key].choices:
                raise BadConfig(f"{self.id}: option {key}={value!r} not in {list(known[key].choices)}")
        for key, opt in known.items():
            opts.setdefault(key, opt.default)
        return dataclasses.replace(config, options=opts)

    # -- turn structure ------------------------------------------------------------------------
    @abstractmethod
    def to_act(self, state: S) -> frozenset[int]:
        """Seats that may act now (several = simultaneous choices; CHANCE = a random event)."""

    def waiting_for(self, state: S) -> frozenset[int]:
        """The seats the game waits for, as everyone at the table may know it: what public pages,
        other seats and the your-turn cue are told (default: `to_act`). A game whose optional moves
        hang on a secret (a card held, a statement being composed) leaves those out."""
        return self.to_act(state)

    @abstractmethod
    def legal_actions(self, state: S, seat: int) -> list[Action]:
        """Every action `seat` may take now (empty if it may not act)."""

    def random_legal_action(self, state: S, seat: int, rng: random.Random) -> Action | None:
        """The uniform random playouts' move, `rng.choice(legal_actions)` (None: no action); a game
        may draw the same action from the same random numbers without making the list."""
        legal = self.legal_actions(state, seat)
        return rng.choice(legal) if legal else None

    def chance_outcomes(self, state: S) -> list[tuple[Action, float]]:
        """The possible chance actions and their probabilities when CHANCE is to act."""
        return []

    def check(self, state: S, seat: int, action: Action) -> Rejection | None:
        """None if `action` is legal for `seat`, else the reason. Games refine the reasons."""
        if seat not in self.to_act(state):
            return Rejection("not_your_turn", tr("Ce n'est pas votre tour.", "It is not your turn."))
        if seat == CHANCE:
            if any(a == action for a, _ in self.chance_outcomes(state)):
                return None
            return Rejection("bad_chance", tr("Tirage impossible.", "Impossible chance outcome."))
        if action in self.legal_actions(state, seat):
            return None
        return Rejection("illegal", tr("Coup interdit.", "Illegal move."))

    def apply(self, state: S, seat: int, action: Action) -> Step[S]:
        """Apply a legal action; raises IllegalAction (state untouched) otherwise."""
        rejection = self.check(state, seat, action)
        if rejection is not None:
            raise IllegalAction(rejection, seat, action)
        return self.transition(state, seat, action)

    @abstractmethod
    def transition(self, state: S, seat: int, action: Action) -> Step[S]:
        """Apply an action already checked legal. Must not mutate `state`."""

    # -- what each seat may know ---------------------------------------------------------------
    @abstractmethod
    def view(self, state: S, seat: int | None) -> V:
        """Everything `seat` may know (None = the public view), as a typed, JSON-encodable value."""

    @abstractmethod
    def screen(self, view: V, seat: int | None, *, pad_sensed: bool = True) -> Screen:
        """The screen of `seat`, computed from its view only.

        `pad_sensed` False: the table senses no pad for this seat (a player on a phone), its cards
        are chosen in its menu, so the screen says to choose them there, never to lay them on a pad.
        """

    def screen_key(self, state: S, seat: int, *, pad_sensed: bool = True) -> Hashable | None:
        """What `screen(view(state, seat), seat, pad_sensed=)` reads, taken only from what `seat` may
        know: two states with equal keys give the seat equal screens, so the table makes the screen
        once for both. None (the default): no key, the screen is made afresh at every state.

        A key equal over `hidden_variants` (the seat's secrets only) and read cheaply from the state,
        without the view: a seat whose screen shows nothing new costs neither `view` nor `screen`.
        """
        return None

    def choices(self, state: S, seat: int) -> list[Choice]:
        """The seat's button menu: legal actions made with buttons (not by moving pieces).

        Default: every legal action that does not change the expected layout, labelled by
        `describe_action`. Games override to order or group them.
        """
        if seat not in self.to_act(state):
            return []
        before = normalise_layout(self.expected_layout(state))
        out = []
        for action in self.legal_actions(state, seat):
            after = normalise_layout(self.footprint(state, seat, action))
            if after == before:
                out.append(Choice(self.describe_action(state, seat, action), action))
        return out

    def describe_action(self, state: S, seat: int, action: Action) -> Text:
        """A short label for an action (menu entry, log). Games override with real words."""
        text = json.dumps(dict(action), ensure_ascii=False, sort_keys=True)
        return Text(text, text)

    # -- the physical table --------------------------------------------------------------------
    def expected_layout(self, state: S) -> Layout:
        """Which piece ids should lie on which logical zones now (zones not listed: empty)."""
        return {}

    def footprint(self, state: S, seat: int, action: Action) -> Layout:
        """The layout right after the player's own gesture for `action`, before its effects.

        Reconciliation matches a sensed layout against this. Default: the layout after applying.
        Games whose actions have side effects on other pieces (a lion scaring gazelles) return the
        layout with only the player's own move, so the effects become guidance afterwards.
        """
        return self.expected_layout(self.transition(state, seat, action).state)

    def explain(self, state: S, seat: int, zone: str, piece: str) -> Rejection | None:
        """Why `seat` may not put `piece` on `zone` now (shown on that seat's screen), or None.

        Called when a sensed piece matches no legal action; None gives a generic message.
        """
        return None

    def explain_removal(self, state: S, seat: int, zone: str, piece: str) -> Rejection | None:
        """Why `seat` may not take `piece` off `zone` now (shown on that seat's screen), or None.

        Called when a piece the game expects on a zone was lifted and no legal action matches.
        """
        return None

    def effect(self, state: S, zone: str, piece: str, lifted: bool) -> Rejection | None:
        """Why the game itself took `piece` off `zone` (`lifted`) or wants it laid there: an effect of
        a move (a gazelle fleeing a lion), a card dealt, a computer's move, in the game's words; None
        when it did not. Asked only of a zone nobody touched since the table last matched the game:
        the reason goes with the instruction as guidance, never as a mistake."""
        return None

    def owner(self, state: S, piece: str) -> int | None:
        """The seat a piece belongs to whatever its zone (a colour's animals), or None."""
        return None

    # rejection codes (of `explain`) whose mistake the table cannot see on the zones: "over a limit"
    mistakes: Mapping[str, Mistake] = {}
    # rejection codes (of `explain`) that say why the game itself wants a piece moved (a card played
    # goes to its line): shown as guidance, not as a mistake
    guidance: frozenset[str] = frozenset()

    def stands_for(self, state: S, zone: str, wanted: str, laid: str) -> bool:
        """True when `laid`, lying on `zone` where the game wants `wanted`, may be read as it: two
        copies of one card that nobody can tell apart, swapped where no seat can tell either (the
        table then reads each tag as the other). Default: never."""
        return False

    def highlights(self, state: S) -> Mapping[str, str]:
        """Zones to light and their colour name ("green", "blue"...) as a hint (legal squares)."""
        return {}

    def pieces(self) -> list[str]:
        """Every physical piece id of this game that carries a tag ("<game>/<set>/<kind>/<n>").

        The simulator enrols one tag per id; `zebra-table tags enrol` walks this list.
        """
        return []

    def piece_label(self, piece: str) -> Text:
        """A short name for a piece id of this game, for instructions ("le lion vert")."""
        return Text(piece, piece)

    # -- the end -------------------------------------------------------------------------------
    @abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """Scores and winners once the game is over, None while playing."""

    # -- for tests ------------------------------------------------------------------------------
    def hidden_variants(self, state: S, seat: int) -> Iterable[S]:
        """States that differ from `state` only in what `seat` may not know.

        Used by the hidden-information property test: `seat`'s view and screen must be equal in
        all of them. Games with secrets must override this.
        """
        return ()


# ---------------------------------------------------------------------------------------------
# Helpers shared by games, the runtime and the tests.

COLUMNS: Final = "ABCDEF"
ROWS: Final = 5
SQUARES: Final = tuple(f"{c}{r}" for r in range(1, ROWS + 1) for c in COLUMNS)  # A1..F5


def pad(seat: int) -> str:
    """The logical zone of a game seat's card pad ("pad.0"); the runtime maps it to a table seat."""
    return f"pad.{seat}"


def centre(slot: int) -> str:
    """The logical zone of a centre slot, 1-based ("centre.1")."""
    return f"centre.{slot}"


def is_int(value: object) -> TypeGuard[int]:
    """An int that is not a bool: JSON's true is no seat, square index or count."""
    return isinstance(value, int) and not isinstance(value, bool)


def normalise_layout(layout: Layout) -> dict[str, frozenset[str]]:
    """A layout without empty zones, with frozenset values, for comparison."""
    return {zone: frozenset(pieces) for zone, pieces in layout.items() if pieces}


_PLAIN = frozenset({str, int, float, bool, type(None)})


def to_json(value: Any) -> JSON:
    """A JSON-encodable copy of a state, view or effect (dataclasses, tuples, sets, enums)."""
    # exact types first: an action (every move the journal commits) is a dict of plain values;
    # subclasses (a str-valued enum, a dict subclass) take the general path below
    kind = type(value)
    if kind in _PLAIN:
        return value
    if kind is dict:
        return {str(k): to_json(v) for k, v in value.items()}
    if kind is list or kind is tuple:
        return [to_json(v) for v in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out = {f.name: to_json(getattr(value, f.name)) for f in dataclasses.fields(value)}
        return out
    if isinstance(value, Text):
        return {"fr": value.fr, "en": value.en}
    if isinstance(value, enum.Enum):
        return to_json(value.value)
    if isinstance(value, Mapping):
        return {str(k): to_json(v) for k, v in value.items()}
    if isinstance(value, (frozenset, set)):
        items = [to_json(v) for v in value]
        try:
            return sorted(items)
        except TypeError:
            return sorted(items, key=lambda v: json.dumps(v, sort_keys=True))
    if isinstance(value, (list, tuple)):
        return [to_json(v) for v in value]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    raise TypeError(f"not JSON-encodable: {type(value).__name__}")


def action(type_: str, **fields: JSON) -> dict[str, JSON]:
    """Build an action dict: action("place", piece="lion", square="C3")."""
    return {"type": type_, **fields}


def replay(game: Game[S, Any], config: GameConfig, moves: Sequence[tuple[int, Action]]) -> S:
    """The state reached by applying `moves` from the initial state (raises IllegalAction)."""
    state = game.initial_state(game.validate_config(config))
    for seat, act in moves:
        state = game.apply(state, seat, act).state
    return state


_R = TypeVar("_R")


def last_state(fn: Callable[..., _R]) -> Callable[..., _R]:
    """`fn` remembering its result for the last arguments, compared by identity: the table asks for
    every seat's view of one state in a row, and what all seats share is worked out once (states
    and game data are immutable: the same objects always give the same answer)."""
    memo: tuple[tuple[Any, ...], Any] | None = None

    @functools.wraps(fn)
    def wrapper(*args: Any) -> _R:
        nonlocal memo
        last = memo  # one read: another thread may replace it, never half-way
        if last is not None and len(last[0]) == len(args) and all(map(is_, last[0], args)):  # no generator to close
            return last[1]  # type: ignore[no-any-return]
        value = fn(*args)
        memo = (args, value)
        return value

    return wrapper


_T = TypeVar("_T")
_FIELDS: dict[type, frozenset[str] | None] = {}  # dataclass -> its field names, None: use replace


def evolve(obj: _T, **changes: Any) -> _T:
    """`dataclasses.replace` for the views made for every seat at every state: the fields copied in
    one dict update, not passed one by one through a frozen `__init__` (half of a view's cost).
    A class with a `__post_init__`, a field left out of `__init__` or slots goes through `replace`."""
    cls = type(obj)
    try:
        names = _FIELDS[cls]
    except KeyError:
        fields = dataclasses.fields(cls)  # type: ignore[arg-type]
        plain = not hasattr(cls, "__post_init__") and all(f.init for f in fields) and hasattr(obj, "__dict__")
        names = _FIELDS[cls] = frozenset(f.name for f in fields) if plain else None
    old = getattr(obj, "__dict__", None)
    if names is None or old is None or len(old) != len(names):  # something besides fields: no shortcut
        return dataclasses.replace(obj, **changes)  # type: ignore[type-var]
    if not changes.keys() <= names:
        raise TypeError(f"{cls.__name__} has no field {sorted(changes.keys() - names)}")
    new = object.__new__(cls)
    new.__dict__.update(old)
    new.__dict__.update(changes)
    return new
