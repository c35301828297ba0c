"""`zebra-table rules`: JSON actions in, state JSON out; illegal action exits 3 with its index."""

import io
import json

import pytest

import games.registry as registry
from firmware_host.commands.main import build_parser
from firmware_host.commands.rules import EXIT_ILLEGAL, run


@pytest.fixture(autouse=True)
def toy_games(monkeypatch):
    monkeypatch.setattr(registry, "GAMES", {"toy": "tests.kits.toygame:GAME", "toyboard": "tests.kits.toyboard:GAME"})
    registry.get_game.cache_clear()
    yield
    registry.get_game.cache_clear()


def rules(tmp_path, lines, *extra):
    path = tmp_path / "actions.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    args = build_parser().parse_args(["rules", "toy", "--players", "2", "--seed", "3",
                                      "--actions", str(path), *extra])
    out = io.StringIO()
    code = run(args, out)
    return code, json.loads(out.getvalue())


def test_actions_applied_and_chance_sampled_from_seed(tmp_path):
    code, doc = rules(tmp_path, [{"seat": 0, "action": {"type": "take", "n": 2}}], "--legal")
    assert code == 0 and doc["game"] == "toy" and doc["to_act"] == [1]
    assert doc["outcome"] is None and doc["moves"] == 3  # two chance deals + one take
    assert doc["views"]["public"]["pile"] == 5
    assert doc["views"]["0"]["secret"] in (1, 2, 3) and doc["views"]["public"]["secret"] is None
    assert doc["legal"] == {"1": [{"type": "take", "n": 1}, {"type": "take", "n": 2}]}
    _, again = rules(tmp_path, [{"seat": 0, "action": {"type": "take", "n": 2}}])
    assert again["views"] == doc["views"]  # same seed, same deals


def test_forced_chance_and_outcome(tmp_path):
    lines = [{"seat": "chance", "action": {"type": "deal", "value": 3}},
             {"seat": "chance", "action": {"type": "deal", "value": 1}}]
    lines += [{"seat": s % 2, "action": {"type": "take", "n": n}} for s, n in enumerate([2, 2, 2, 1])]
    code, doc = rules(tmp_path, lines)
    assert code == 0 and doc["outcome"] == {"scores": [0.0, 1.0], "winners": [1], "details": {}}


def test_illegal_action_exits_3_with_index(tmp_path):
    code, doc = rules(tmp_path, [{"seat": 0, "action": {"type": "take", "n": 2}},
                                 {"seat": 0, "action": {"type": "take", "n": 1}}])
    assert code == EXIT_ILLEGAL
    assert doc == {"error": {"code": "not_your_turn", "message": "It is not your turn.", "index": 1}}


def test_bad_line_and_bad_option(tmp_path):
    path = tmp_path / "a.jsonl"
    path.write_text("{not json\n")
    out = io.StringIO()
    assert run(build_parser().parse_args(["rules", "toy", "--players", "2", "--actions", str(path)]), out) == 2
    assert json.loads(out.getvalue())["error"]["code"] == "bad_line"
    out = io.StringIO()
    args = build_parser().parse_args(["rules", "toy", "--players", "9", "--random-playout"])
    assert run(args, out) == 2 and "players" in json.loads(out.getvalue())["error"]["message"]


def test_random_playout(tmp_path):
    out = io.StringIO()
    assert run(build_parser().parse_args(["rules", "toyboard", "--players", "2", "--random-playout"]), out) == 0
    doc = json.loads(out.getvalue())
    assert doc["outcome"]["winners"] == [0, 1] and doc["to_act"] == []
