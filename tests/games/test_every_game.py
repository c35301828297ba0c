"""Checks every registered game passes, whatever the game: the house template, the contract,
random playouts, hidden information, the documented examples, and pinned playout fingerprints.

A new game folder (found by games/registry.py through its info.toml) is tested here without a
line of test code. The fingerprints pin the rules: a hash of the actions and outcome of seeded
random playouts, per game, stored in fingerprints.json next to this file ($GAME_FINGERPRINTS
names another file). A rule change shows up as a changed fingerprint and must be acknowledged by
regenerating the pins deliberately (of every game, or of the games named):

    .venv/bin/python tests/games/test_every_game.py --write-fingerprints [GAME_ID ...]
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import importlib
import json
import os
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # run as a script to write the fingerprints
    sys.path.insert(0, str(ROOT))

from games.core import CHANCE, BadConfig, Game, GameConfig, IllegalAction, Outcome, Text, replay, to_json  # noqa: E402
from games.playout import random_playout  # noqa: E402
from games.registry import game_folder, game_ids, get_game  # noqa: E402
from games.texts import Messages, Refusals  # noqa: E402
from tests.kits.every_game import all_configs, cards_on_pads  # noqa: E402

FINGERPRINTS = Path(os.environ.get("GAME_FINGERPRINTS") or Path(__file__).with_name("fingerprints.json"))
REGENERATE = ".venv/bin/python tests/games/test_every_game.py --write-fingerprints"

# The house template (docs/adding-a-game.md): modules every game has, and the roles a module
# may split into <role>_<part>.py (the optional computer player too: ai_model.py, ai_sample.py).
REQUIRED = ("__init__", "game", "state", "rules", "views", "table", "texts", "scoring", "pieces")
ROLES = ("game", "state", "rules", "views", "table", "texts", "scoring", "pieces")
OPTIONAL = ("ai",)
SCREEN_CHARS = 63  # a refusal is shown on three lines of 21 characters
FINGERPRINT_SEEDS = (1, 2, 3)

IDS = game_ids()


def _package(game_id: str) -> str:
    return game_id.replace("-", "_")


def document(game_id: str) -> Path:
    """docs/games/<id>.md of the tree holding the game's folder (<tree>/games/<package>/)."""
    return game_folder(game_id).parents[1] / "docs" / "games" / f"{game_id}.md"


def configs(game: Game) -> list[GameConfig]:
    """Every player count the defaults allow, then each option's other values (first count allowed)."""
    return all_configs(game)


def _config_key(config: GameConfig) -> str:
    return json.dumps({"players": config.players, "options": dict(config.options)}, sort_keys=True)


def fingerprint(game: Game, config: GameConfig, seed: int) -> str:
    """A hash of the (seat, action) sequence and the outcome of one seeded random playout."""
    result = random_playout(game, config, seed)
    assert result.outcome is not None
    record = {"moves": [[seat, to_json(act)] for seat, act in result.moves], "outcome": result.outcome.to_json()}
    return hashlib.sha256(json.dumps(record, sort_keys=True, ensure_ascii=False).encode()).hexdigest()[:16]


def fingerprint_configs(game: Game) -> list[GameConfig]:
    """The configs pinned: the fewest and the most players the defaults allow."""
    counts = []
    for n in range(game.min_players, game.max_players + 1):
        try:
            counts.append(game.validate_config(GameConfig(n)))
        except BadConfig:
            continue
    return [counts[0], counts[-1]] if len(counts) > 1 else counts


def all_fingerprints(ids: list[str]) -> dict[str, dict[str, dict[str, str]]]:
    """These games' fingerprints, as stored in fingerprints.json."""
    out: dict[str, dict[str, dict[str, str]]] = {}
    for gid in ids:
        game = get_game(gid)
        out[gid] = {_config_key(c): {str(s): fingerprint(game, c, s) for s in FINGERPRINT_SEEDS}
                    for c in fingerprint_configs(game)}
    return out


def _states(game: Game, config: GameConfig, seed: int) -> Iterator[Any]:
    result = random_playout(game, config, seed)
    state = game.initial_state(config)
    yield state
    for seat, act in result.moves:
        state = game.apply(state, seat, act).state
        yield state


def _json(value: Any) -> Any:
    return json.loads(json.dumps(to_json(value), ensure_ascii=False, sort_keys=True))


def _plain_dicts(value: Any, where: str = "view") -> list[str]:
    """Places in a view holding a dict or a list instead of a typed, immutable value."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        if not type(value).__dataclass_params__.frozen:  # type: ignore[attr-defined]
            return [f"{where}: {type(value).__name__} is not frozen"]
        return [p for f in dataclasses.fields(value) for p in _plain_dicts(getattr(value, f.name), f"{where}.{f.name}")]
    if isinstance(value, (dict, list, set)):
        return [f"{where}: {type(value).__name__}"]
    if isinstance(value, (tuple, frozenset)):
        return [p for i, v in enumerate(value) for p in _plain_dicts(v, f"{where}[{i}]")]
    if value is None or isinstance(value, (str, int, float, bool, Text, enum.Enum)):
        return []
    return [f"{where}: {type(value).__name__}"]


# -- the registry and the template ---------------------------------------------------------------


@pytest.mark.parametrize("gid", IDS)
def test_id_matches_the_registry_and_the_folder(gid: str) -> None:
    game = get_game(gid)
    assert game.id == gid and game_folder(gid).name == _package(gid)
    assert type(game).__module__ == f"games.{_package(gid)}.game", "the Game subclass lives in game.py"
    assert importlib.import_module(f"games.{_package(gid)}").GAME is game
    assert game.name.fr and game.name.en and 1 <= game.min_players <= game.max_players


@pytest.mark.parametrize("gid", IDS)
def test_the_game_folder_follows_the_house_template(gid: str) -> None:
    folder = game_folder(gid)
    modules = {p.stem for p in folder.glob("*.py")}
    assert set(REQUIRED) <= modules, f"missing: {sorted(set(REQUIRED) - modules)}"
    strays = [m for m in modules if m not in REQUIRED + OPTIONAL and m.split("_")[0] not in ROLES + OPTIONAL]
    assert not strays, f"modules outside the template (docs/adding-a-game.md): {strays}"


@pytest.mark.parametrize("gid", IDS)
def test_every_text_of_the_game_is_in_its_catalogues(gid: str) -> None:
    texts = importlib.import_module(f"games.{_package(gid)}.texts")
    assert isinstance(texts.REFUSALS, Refusals)
    assert isinstance(texts.MESSAGES, Messages) and isinstance(texts.LABELS, Messages)
    assert texts.REFUSALS.codes() and texts.MESSAGES.keys() and texts.LABELS.keys()
    for key in texts.REFUSALS.keys():  # noqa: SIM118
        message = texts.REFUSALS(key).message
        for line in (message.fr, message.en):
            assert line and len(re.sub(r"\{[a-z_]+\}", "XX", line)) <= SCREEN_CHARS, (key, line)


# -- the contract over random playouts -----------------------------------------------------------


@pytest.mark.parametrize("gid", IDS)
def test_random_playouts_end_and_replay(gid: str) -> None:
    game = get_game(gid)
    for number, config in enumerate(configs(game)):
        seed = 11 + number
        result = random_playout(game, config, seed)
        assert isinstance(result.outcome, Outcome), (config, seed)
        assert len(result.outcome.scores) == config.players
        assert all(0 <= w < config.players for w in result.outcome.winners)
        assert to_json(replay(game, config, result.moves)) == to_json(result.state), (config, seed)


@pytest.mark.parametrize("gid", IDS)
def test_listed_actions_apply_and_views_are_typed(gid: str) -> None:
    game = get_game(gid)
    for config in configs(game)[:3]:
        for i, state in enumerate(_states(game, config, 5)):
            if i % 5:
                continue
            snapshot = json.dumps(to_json(state), sort_keys=True)
            for seat in game.to_act(state) - {CHANCE}:
                for act in game.legal_actions(state, seat)[:40]:
                    assert game.check(state, seat, act) is None, (seat, act)
                    game.apply(state, seat, act)
                    _json(act)
            assert json.dumps(to_json(state), sort_keys=True) == snapshot, "apply changed the state it was given"
            for seat in (None, *range(config.players)):
                view = game.view(state, seat)
                assert not _plain_dicts(view), _plain_dicts(view)
                _json(view)
                _json(game.screen(view, seat))
            _json(game.expected_layout(state))


# a line telling the player to lay a card on (or scan it at) its pad, in either language
LAY_ON_PAD = re.compile(r"\bpose[zr]\b|plateau|\bpad\b|scannez|\blay\b|\bscan\b", re.IGNORECASE)


@pytest.mark.parametrize("gid", IDS)
def test_a_seat_whose_pad_is_not_sensed_is_never_told_to_lay_a_card_on_it(gid: str) -> None:
    """A seat with no pad the table senses (a phone) chooses its cards in its menu: its screen says
    so, where a seated player's says to lay them on the pad."""
    game = get_game(gid)
    seated_told = False
    for config in configs(game)[:3]:
        for state in _states(game, config, 7):
            for seat in range(config.players):
                view = game.view(state, seat)
                phone = game.screen(view, seat, pad_sensed=False)
                words = [w for t in (phone.title, *phone.lines) for w in (t.fr, t.en)]
                assert not [w for w in words if LAY_ON_PAD.search(w)], (seat, words)
                seated = game.screen(view, seat)
                seated_told = seated_told or any(LAY_ON_PAD.search(w) for t in seated.lines for w in (t.fr, t.en))
    if cards_on_pads(gid):  # the check sees what it looks for (Drôles de Zèbres' animals go on the board)
        assert seated_told, "a seated player is told to lay a card on the pad"


@pytest.mark.parametrize("gid", IDS)
def test_an_action_refused_leaves_the_state_and_names_its_reason(gid: str) -> None:
    game = get_game(gid)
    state = game.initial_state(configs(game)[0])
    for seat in (*game.to_act(state), 0):
        for act in ({"type": "no-such-action"}, {}, {"type": 3}):
            snapshot = json.dumps(to_json(state), sort_keys=True)
            with pytest.raises(IllegalAction) as refused:
                game.apply(state, seat, act)
            assert refused.value.code and refused.value.rejection.message.fr and refused.value.rejection.message.en
            assert json.dumps(to_json(state), sort_keys=True) == snapshot


@pytest.mark.parametrize("gid", IDS)
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**31), pick=st.integers(0, 10**6), offset=st.integers(0, 50))
def test_a_seat_sees_nothing_of_what_it_may_not_know(gid: str, seed: int, pick: int, offset: int) -> None:
    """Any hidden variant of reachable states gives the seat the same view and screen."""
    game = get_game(gid)
    every = configs(game)
    config = every[pick % len(every)]
    states = list(_states(game, config, seed))
    stride = max(1, len(states) // 12)  # a dozen states spread over the game, from a drawn offset
    for i, state in enumerate(states):
        if i < offset % stride or (i - offset % stride) % stride:
            continue
        for seat in range(config.players):
            view = _json(game.view(state, seat))
            screen = _json(game.screen(game.view(state, seat), seat))
            for variant in game.hidden_variants(state, seat):
                assert _json(game.view(variant, seat)) == view, f"seat {seat}'s view leaks (state {i})"
                assert _json(game.screen(game.view(variant, seat), seat)) == screen, f"seat {seat}'s screen leaks"


@pytest.mark.parametrize("gid", IDS)
def test_a_game_with_secrets_gives_hidden_variants(gid: str) -> None:
    """A seat that sees more than the public view has secrets to hide: the game must vary them."""
    game = get_game(gid)
    config = configs(game)[0]
    private = variants = 0
    for state in _states(game, config, 7):
        public = _json(game.view(state, None))
        public.pop("seat", None)
        for seat in range(config.players):
            mine = _json(game.view(state, seat))
            mine.pop("seat", None)
            private += mine != public
            variants += sum(1 for _ in game.hidden_variants(state, seat))
    assert variants > 0 or private == 0, f"{gid}: seats see private facts but hidden_variants yields nothing"


# -- the documented examples ----------------------------------------------------------------------

EXAMPLE = re.compile(r"(?:<!-- config: (\{.*?\}) -->\s*)?```(jsonl|json)\n(.*?)```", re.S)


def doc_examples(gid: str) -> list[tuple[GameConfig | None, list[dict[str, Any]]]]:
    """The replayable blocks of docs/games/<id>.md, in order.

    Every ```jsonl block is an example, and a ```json block preceded by a config comment. A block
    with `<!-- config: {...} -->` starts a new game; one without continues the previous game of
    the document (the first one starts with the fewest players and the default options).
    """
    out: list[tuple[GameConfig | None, list[dict[str, Any]]]] = []
    for config, lang, body in EXAMPLE.findall(document(gid).read_text(encoding="utf-8")):
        if lang == "json" and not config:
            continue
        cfg = None
        if config:
            raw = json.loads(config)
            cfg = GameConfig(raw["players"], raw.get("options", {}))
        out.append((cfg, [json.loads(line) for line in body.strip().splitlines()]))
    return out


@pytest.mark.parametrize("gid", IDS)
def test_every_game_has_a_document_with_replayable_examples(gid: str) -> None:
    assert document(gid).is_file(), f"docs/games/{gid}.md is missing"
    assert doc_examples(gid), f"docs/games/{gid}.md has no ```jsonl example"


@pytest.mark.parametrize("gid", IDS)
def test_the_documented_examples_replay(gid: str) -> None:
    game = get_game(gid)
    state = None
    for number, (config, lines) in enumerate(doc_examples(gid), start=1):
        if config is not None or state is None:
            state = game.initial_state(game.validate_config(config or GameConfig(game.min_players)))
        for line in lines:
            assert set(line) == {"seat", "action"}, line
            seat = CHANCE if line["seat"] == "chance" else line["seat"]
            try:
                state = game.apply(state, seat, line["action"]).state
            except IllegalAction as exc:
                pytest.fail(f"docs/games/{gid}.md example {number}: {line} refused: {exc}")


# -- pinned fingerprints ---------------------------------------------------------------------------


@pytest.mark.parametrize("gid", IDS)
def test_seeded_playouts_match_their_pinned_fingerprints(gid: str) -> None:
    pinned = json.loads(FINGERPRINTS.read_text(encoding="utf-8")) if FINGERPRINTS.is_file() else {}
    assert gid in pinned, f"no fingerprint for {gid}: run `{REGENERATE} {gid}` and commit {FINGERPRINTS.name}"
    game = get_game(gid)
    now = {_config_key(c): {str(s): fingerprint(game, c, s) for s in FINGERPRINT_SEEDS}
           for c in fingerprint_configs(game)}
    assert now == pinned[gid], (
        f"{gid}: seeded random playouts no longer give the pinned games: a rule changed what is legal, "
        f"what chance draws or how it scores. If that change is deliberate, regenerate the pins with "
        f"`{REGENERATE}` and commit {FINGERPRINTS.name} with the rule change; otherwise fix the rules.")


def main(argv: list[str]) -> int:
    """Write the fingerprints of every registered game, or of the games named, into
    fingerprints.json (a deliberate rule change, a new game); other games' pins are kept."""
    if argv[:1] != ["--write-fingerprints"] or not set(argv[1:]) <= set(IDS):
        print(__doc__)
        unknown = sorted(set(argv[1:]) - set(IDS))
        if argv[:1] == ["--write-fingerprints"] and unknown:
            print(f"unknown game {unknown[0]!r}; known: {', '.join(IDS)}")
        return 2
    pinned = json.loads(FINGERPRINTS.read_text(encoding="utf-8")) if FINGERPRINTS.is_file() and argv[1:] else {}
    pinned.update(all_fingerprints(argv[1:] or IDS))
    FINGERPRINTS.write_text(json.dumps(pinned, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {FINGERPRINTS}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
