"""ZOP's tree search (games.zop.ai_tree): it counts every iteration, grows a turn at a time, finds
the card that pays, lets each seat choose without the other's card, and tries a card seen rarely."""

from __future__ import annotations

import random

import pytest

from games.ai import Budget
from games.core import GameConfig
from games.zop import GAME, ai, ai_tree
from games.zop.ai_model import RoundModel, from_state, uniform_picker
from games.zop.ai_sample import knowledge, sample_state
from games.zop.state import COMMIT, TRACKED
from tests.kits.gamekit import states_along

TRACKED_CFG = GameConfig(players=2, options={"deck": TRACKED})


class Recorded(RoundModel):
    """A round model that remembers the first card each seat laid (the root's choices)."""

    __slots__ = ("first",)

    def lay(self, seat: int, card: str) -> None:
        if not hasattr(self, "first"):
            self.first: dict[int, str] = {}
        self.first.setdefault(seat, card)
        super().lay(seat, card)


def _decision():
    state = next(s for s in states_along(GAME, TRACKED_CFG, 4)
                 if s.phase == COMMIT and not s.sides[0].laid and s.turn > 2)
    view = GAME.view(state, 0)
    k = knowledge(GAME.deck, view, 0)
    cards = sorted({a["card"] for a in GAME.legal_actions(state, 0) if a["type"] == "commit"})

    def root(r: random.Random) -> Recorded:
        base = from_state(GAME.deck, sample_state(GAME.deck, view, 0, r, k), r)
        model = Recorded(base.deck, base.tracked, base.sides, base.turn)
        theirs = model.sides[1]
        theirs.hand.extend(theirs.laid)
        theirs.laid = []
        return model

    return cards, root


def _search(root, cards, reward, iterations: int, seed: int = 0, first_opponent=None):
    rng = random.Random(seed)
    pick = uniform_picker(rng)
    return ai_tree.search(root, 0, cards, reward, pick, pick, Budget(iterations).start(), rng,
                          first_opponent=first_opponent)


def _nodes(monkeypatch) -> list:
    made = []
    real = ai_tree.TurnNode.__init__

    def counted(node):
        made.append(node)
        real(node)

    monkeypatch.setattr(ai_tree.TurnNode, "__init__", counted)
    return made


def test_every_iteration_is_counted_and_the_tree_grows_a_turn_at_a_time(monkeypatch):
    cards, root = _decision()
    made = _nodes(monkeypatch)
    stats = _search(root, cards, lambda m, s: 0.5 + 0.5 * (m.margin(s) > 0), 300)
    assert sum(s.visits for s in stats) == 300
    assert {s.card for s in stats} == set(cards)
    assert len(made) <= 301  # the root, then at most one new turn an iteration
    depth, node = 0, made[0]
    while node.children:
        node = max(node.children.values(), key=lambda n: sum(a[0] for a in n.arms[0].values()))
        depth += 1
    assert depth >= 2  # later turns are searched, not only played at random


def test_the_card_that_pays_is_found_and_most_visited():
    cards, root = _decision()
    target = cards[-1]
    stats = _search(root, cards, lambda m, s: 1.0 if m.first.get(s) == target else 0.0, 400)
    assert stats[0].card == target and stats[0].mean == 1.0
    assert stats[0].visits >= 0.7 * 400


def test_each_seat_chooses_its_card_without_the_other_s():
    """Matching pennies on the root's cards: the opponent wins when its card's rank matches mine.
    Had the opponent seen the card laid (a sequential tree), it would match it and hold the deciding
    seat near 0; choosing blind, it cannot, and every card of the deciding seat keeps a fair share."""
    cards, root = _decision()
    order = {c: i for i, c in enumerate(sorted(GAME.deck.all_ids()))}

    def reward(m, s):
        return 0.0 if order[m.first[0]] % 2 == order[m.first[1]] % 2 else 1.0

    stats = _search(root, cards, reward, 600)
    root_mean = sum(s.mean * s.visits for s in stats) / 600
    assert 0.3 <= root_mean <= 0.7


def test_a_card_seen_rarely_is_tried_and_counted_only_when_held():
    arms: dict[str, list[float]] = {}
    rng = random.Random(1)
    seen = []
    for i in range(40):
        options = ["a", "b"] + (["rare"] if i % 10 == 9 else [])
        card = ai_tree._select(arms, options, 0.7, rng)
        arms[card][0] += 1
        arms[card][1] += 1.0 if card == "rare" else 0.2
        seen.append(card)
    assert seen[:2] in (["a", "b"], ["b", "a"]) and seen[9] == "rare"  # untried cards first
    assert arms["rare"][2] == 4 and arms["a"][2] + arms["b"][2] == 79  # availability: counted when held only
    assert seen[19] == seen[29] == seen[39] == "rare"  # its mean earns it each time it is held


def test_both_searches_visit_their_whole_budget_and_lay_legal_cards():
    state = next(s for s in states_along(GAME, TRACKED_CFG, 5) if s.phase == COMMIT and s.turn > 3)
    view = GAME.view(state, 1)
    ranked = ai.rank(view, 1, "strong", random.Random(2), Budget(90))
    assert sum(r.playouts for r in ranked) == 90 and GAME.check(state, 1, ranked[0].action) is None
    for search in ai.SEARCHES:
        act = ai.choose_with(view, 1, search, random.Random(2), Budget(90))
        assert GAME.check(state, 1, act) is None
    assert ai.choose_with(view, 1, ai.STRONG_SEARCH, random.Random(2), Budget(90)) == ranked[0].action
    with pytest.raises(ValueError, match="unknown search 'uct'"):
        ai.choose_with(view, 1, "uct", random.Random(2))


def test_the_tree_decides_the_same_whatever_the_opponent_s_hidden_cards():
    """The tree reads the seat's view only: states that differ in the opponent's hidden cards give
    the same view, hence the same card (the strong level's property, for the other search)."""
    checked = 0
    for seed in (6, 7):
        decisions = [(s, seat) for s in states_along(GAME, TRACKED_CFG, seed) if s.phase == COMMIT
                     for seat in (0, 1) if ai.needs_decision(GAME.view(s, seat), seat)]
        for state, seat in decisions[::6]:
            view = GAME.view(state, seat)
            act = ai.choose_with(view, seat, "tree", random.Random(seed), Budget(6))
            for twin in list(GAME.hidden_variants(state, seat))[:2]:
                twin_view = GAME.view(twin, seat)
                assert ai.choose_with(twin_view, seat, "tree", random.Random(seed), Budget(6)) == act
                assert GAME.check(twin, seat, act) is None
                checked += 1
    assert checked >= 20

def test_a_model_of_the_opponent_lays_its_card_of_this_turn_when_given(monkeypatch):
    cards, root = _decision()
    made = _nodes(monkeypatch)
    asked = []

    def lowest(model, seat, choices):
        asked.append(seat)
        return min(choices)

    stats = _search(root, cards, lambda m, s: 0.5 + 0.5 * (m.margin(s) > 0), 120, first_opponent=lowest)
    assert sum(s.visits for s in stats) == 120
    assert len(asked) >= 120 and set(asked) == {1}
    assert not made[0].arms[1] and made[0].arms[0]  # this turn: the model, not statistics
    assert any(child.arms[1] for child in made[0].children.values())  # later turns: its statistics
