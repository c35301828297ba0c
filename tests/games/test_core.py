"""The engine contract and the shared game checks, exercised on a toy game."""

import collections
import dataclasses
import enum
import json
from collections.abc import Mapping
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.core import BadConfig, GameConfig, IllegalAction, Text, to_json
from games.registry import UnknownGame, get_game
from tests.kits.gamekit import check_hidden, check_illegal_leaves_state, check_playouts, states_along
from tests.kits.toygame import GAME, ToyState


def test_playouts_reach_an_outcome_and_replay():
    results = check_playouts(GAME, [GameConfig(players=2), GameConfig(players=3)], seeds=range(30))
    assert {r.outcome.winners for r in results} >= {(0,), (1,)}


def test_illegal_action_has_code_and_keeps_state():
    state = ToyState(2, 1, (1, 2))
    exc = check_illegal_leaves_state(GAME, state, 0, {"type": "take", "n": 2})
    assert exc.code == "pile_too_small"
    assert isinstance(exc, ValueError)
    assert check_illegal_leaves_state(GAME, state, 1, {"type": "take", "n": 1}).code == "not_your_turn"


def test_hidden_check_catches_a_leak():
    state = ToyState(2, 5, (1, 2))
    assert check_hidden(GAME, state, 2) > 0

    class Leaky(type(GAME)):
        def view(self, state, seat):
            return {**super().view(state, seat), "all": list(state.secrets)}

    with pytest.raises(AssertionError, match="leaks"):
        check_hidden(Leaky(), state, 2)


def test_config_validation():
    with pytest.raises(BadConfig):
        GAME.validate_config(GameConfig(players=5))
    with pytest.raises(BadConfig, match="unknown option"):
        GAME.validate_config(GameConfig(players=2, options={"nope": 1}))


def test_to_json_handles_states_and_text():
    state = states_along(GAME, GameConfig(players=2), 1)[-1]
    data = to_json(state)
    assert data["pile"] == 0 and isinstance(data["secrets"], list)
    assert to_json(Text("é", "e")) == {"fr": "é", "en": "e"}
    assert to_json(frozenset({"b", "a"})) == ["a", "b"]


def test_registry_rejects_unknown_game():
    with pytest.raises(UnknownGame):
        get_game("chess")
    with pytest.raises(IllegalAction):
        GAME.apply(replace(ToyState(2, 3, (1, 1))), 0, {"type": "jump"})


def test_evolve_is_replace_for_views_and_falls_back_otherwise():
    import dataclasses

    from games.core import evolve
    from games.registry import get_game

    checked = 0
    for game_id in ("mata-hari", "spywhere", "operation-zebre"):
        game = get_game(game_id)
        state = game.initial_state(game.validate_config(GameConfig(3)))
        public = game.view(state, None)
        for f in dataclasses.fields(public):
            other = game.view(state, 0)
            value = getattr(other, f.name)
            got, want = evolve(public, **{f.name: value}), dataclasses.replace(public, **{f.name: value})
            assert got == want and hash(got) == hash(want) and repr(got) == repr(want)
            checked += 1
        assert evolve(public) == public and evolve(public) is not public
        with pytest.raises(TypeError):
            evolve(public, no_such_field=1)
    assert checked > 30

    @dataclasses.dataclass(frozen=True)
    class Checked:
        x: int

        def __post_init__(self) -> None:
            if self.x < 0:
                raise ValueError("negative")

    with pytest.raises(ValueError):  # its __post_init__ still runs
        evolve(Checked(1), x=-1)


class _Colour(enum.StrEnum):
    RED = "red"


class _Level(enum.IntEnum):
    HIGH = 3


class _Ordered(collections.OrderedDict):  # type: ignore[type-arg]
    pass


def _reference_to_json(value):  # the general path alone, as to_json was before its fast path
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _reference_to_json(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Text):
        return {"fr": value.fr, "en": value.en}
    if isinstance(value, enum.Enum):
        return _reference_to_json(value.value)
    if isinstance(value, Mapping):
        return {str(k): _reference_to_json(v) for k, v in value.items()}
    if isinstance(value, (frozenset, set)):
        items = [_reference_to_json(v) for v in value]
        try:
            return sorted(items)
        except TypeError:
            return sorted(items, key=lambda v: json.dumps(v, sort_keys=True))
    if isinstance(value, (list, tuple)):
        return [_reference_to_json(v) for v in value]
    return value


_leaves = st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=3),
                    st.floats(allow_nan=False), st.sampled_from([_Colour.RED, _Level.HIGH, Text("é", "e")]))
_values = st.recursive(_leaves, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.lists(inner, max_size=3).map(tuple),
    st.dictionaries(st.one_of(st.text(max_size=2), st.integers()), inner, max_size=3),
    st.dictionaries(st.text(max_size=2), inner, max_size=3).map(_Ordered),
    st.frozensets(st.integers(), max_size=3)), max_leaves=12)


def _shape(value):  # the value with every type spelt out: an enum left in would show
    if isinstance(value, dict):
        return ("dict", sorted((k, _shape(v)) for k, v in value.items()))
    if isinstance(value, list):
        return ("list", [_shape(v) for v in value])
    return (type(value).__name__, repr(value))


@given(_values)
def test_to_json_fast_path_gives_what_the_general_path_gives(value):
    assert _shape(to_json(value)) == _shape(_reference_to_json(value))
