"""ZOP's turn flow in both table modes: draws, the hidden commit, discards, exchanges, rounds, match."""

import copy
import tomllib
from dataclasses import replace

from games.core import CHANCE, GameConfig, to_json
from games.zop import GAME, Zop
from games.zop import rules_transition as flow
from games.zop.pieces import DATA_FILE, parse_deck
from games.zop.rules_supply import refill
from games.zop.state import (
    BELLE,
    COMMIT,
    DRAW,
    EXCHANGE,
    MANCHE,
    OVER,
    REVANCHE,
    ROUND_END,
    RoundResult,
    Side,
    ZopState,
)
from games.zop.texts import ROUNDS
from tests.kits.gamekit import states_along

DECK = GAME.deck
BAD_IDEA, REINFORCE, STEP_BACK, SWAP, COUNTER, GROUND, HOURS, DODGE = range(1, 9)


def L(kind: str, n: int) -> str:
    return f"zop/light/{kind}/{n}"


def D(kind: str, n: int) -> str:
    return f"zop/dark/{kind}/{n}"


def tracked_hands(h0: tuple[str, ...], h1: tuple[str, ...], game: Zop = GAME) -> ZopState:
    """A tracked first turn with the given hands, the rest of each deck still shuffled."""
    state = game.initial_state(GameConfig(2, {"deck": "tracked"}))
    sides = tuple(Side(hand=h, shuffled=tuple(sorted(set(game.deck.ids(game.deck.sets[s])) - set(h))))
                  for s, h in enumerate((h0, h1)))
    return replace(state, sides=sides, phase=COMMIT)


def sensed_state(game: Zop = GAME) -> ZopState:
    return game.initial_state(GameConfig(2, {"deck": "sensed"}))


def play(state, *moves, game: Zop = GAME):
    """Apply (seat, action) pairs; returns the last step."""
    step = None
    for seat, action in moves:
        step = game.apply(state, seat, action)
        state = step.state
    return step


def lay(seat: int, card: str) -> tuple[int, dict]:
    return seat, {"type": "commit", "card": card}


def custom_game(edit) -> Zop:
    with open(DATA_FILE, "rb") as fh:
        data = tomllib.load(fh)
    data = copy.deepcopy(data)
    edit(data)
    return Zop(parse_deck(data))


# -- draws and the pile --------------------------------------------------------------------------

def test_tracked_round_starts_with_chance_draws_of_four_cards():
    state = GAME.initial_state(GameConfig(2, {"deck": "tracked"}))
    assert state.phase == DRAW and GAME.to_act(state) == {CHANCE}
    outcomes = GAME.chance_outcomes(state)
    assert len(outcomes) == 20 and all(abs(p - 1 / 20) < 1e-9 for _, p in outcomes)
    for _ in range(8):
        state = GAME.apply(state, CHANCE, GAME.chance_outcomes(state)[0][0]).state
    assert state.phase == COMMIT and GAME.to_act(state) == {0, 1}
    assert [len(s.hand) for s in state.sides] == [4, 4]
    assert [len(s.shuffled) for s in state.sides] == [16, 16]


def test_sensed_round_starts_with_the_commit_and_no_chance():
    state = sensed_state()
    assert state.phase == COMMIT and GAME.to_act(state) == {0, 1}
    assert GAME.chance_outcomes(state) == []
    lays = {a["card"] for a in GAME.legal_actions(state, 0) if a["type"] == "commit"}
    assert lays == set(DECK.ids("light"))


def test_unplayed_cards_go_on_the_discard_in_drawn_order():
    h0 = (L("attack", 1), L("attack", 2), L("defence", 1), L("defence", 2))
    h1 = (D("attack", 1), D("attack", 2), D("defence", 1), D("defence", 2))
    state = play(tracked_hands(h0, h1), lay(0, L("attack", 2)), lay(1, D("defence", 1))).state
    assert state.sides[0].discard == (L("attack", 1), L("defence", 1), L("defence", 2))
    assert state.sides[1].discard == (D("attack", 1), D("attack", 2), D("defence", 2))
    assert state.sides[0].line == (L("attack", 2),)


def test_the_discard_becomes_the_pile_without_shuffling():
    side = Side(discard=("a", "b", "c", "d", "e"))
    after = refill(DECK, side)
    assert after.hand == ("e", "d", "c", "b")  # the last card discarded is drawn first
    assert after.pile == ("a",) and after.discard == ()


def test_the_discard_is_taken_when_the_pile_runs_out_mid_draw():
    after = refill(DECK, Side(pile=("x", "y"), discard=("a", "b", "c")))
    assert after.hand == ("x", "y", "c", "b") and after.pile == ("a",)


def test_recycled_piles_need_no_chance():
    # after the first pass every draw is known: from the sixth turn on no CHANCE acts
    states = states_along(GAME, GameConfig(2, {"deck": "tracked"}), 5)
    chance_turns = {s.turn for s in states if s.phase == DRAW and s.round_no == 1}
    assert chance_turns == {1, 2, 3, 4, 5}


# -- the hidden commit ---------------------------------------------------------------------------

def test_both_seats_lay_secretly_then_both_cards_are_revealed_together():
    state = sensed_state()
    step = play(state, lay(0, L("attack", 4)))
    assert step.state.phase == COMMIT and step.state.turns == ()
    assert GAME.to_act(step.state) == {0, 1}  # the seat that laid may still take its card back
    step = play(step.state, lay(1, D("defence", 2)))
    record = step.state.turns[-1]
    assert record.cards == ((L("attack", 4),), (D("defence", 2),)) and record.points == (2, 0)
    assert [e.kind for e in step.effects].count("reveal") == 2
    assert step.state.sides[0].points == 2


def test_a_laid_card_can_be_taken_back_before_the_reveal():
    state = sensed_state()
    laid = play(state, lay(0, L("attack", 4))).state
    back = GAME.apply(laid, 0, {"type": "withdraw", "card": L("attack", 4)}).state
    assert back == state


def test_step_back_makes_its_player_lay_two_cards_next_turn():
    state = play(sensed_state(), lay(0, L("special", STEP_BACK)), lay(1, D("attack", 3))).state
    assert state.sides[1].points == 3  # the attack against a special scores
    view = GAME.view(state, 1)
    assert view.sides[0].to_lay == 2 and view.sides[1].to_lay == 1
    step = play(state, lay(0, L("special", REINFORCE)), lay(1, D("defence", 4)))
    assert step.state.turns[-1].turn == 1  # not revealed: the light player owes a second card
    step = play(step.state, lay(0, L("attack", 4)))
    assert step.state.turns[-1].cards[0] == (L("special", REINFORCE), L("attack", 4))
    assert step.state.turns[-1].points == (6, 0)


def test_same_turn_step_back_variant_lays_the_extra_card_right_away():
    def edit(d):
        d["special"][2]["effect"]["timing"] = "same_turn"
    game = custom_game(edit)
    state = sensed_state(game)
    state = play(state, lay(1, D("attack", 2)), lay(0, L("special", STEP_BACK)), game=game).state
    assert state.turns == () and game.legal_actions(state, 0)  # the light player lays one more
    assert game.view(state, 1).sides[0].to_lay == 1  # the opponent is not told why
    state = play(state, lay(0, L("attack", 5)), game=game).state
    assert state.turns[-1].cards[0] == (L("special", STEP_BACK), L("attack", 5))
    assert state.turns[-1].points == (5, 2)  # the attack 2 faced the Reculer; the 5 is unopposed


def test_a_pending_reinforcement_shows_on_both_screens():
    state = play(sensed_state(), lay(0, L("special", REINFORCE)), lay(1, D("defence", 1))).state
    mine = [t.fr for t in GAME.screen(GAME.view(state, 0), 0).lines]
    theirs = [t.fr for t in GAME.screen(GAME.view(state, 1), 1).lines]
    assert any("(+2)" in line and line.startswith("Posez") for line in mine)
    assert any("(+2)" in line and line.startswith("Adv") for line in theirs)


# -- blind exchange ------------------------------------------------------------------------------

def swap_turn() -> ZopState:
    h0 = (L("special", SWAP), L("attack", 1), L("attack", 2), L("defence", 1))
    h1 = (D("attack", 3), D("special", STEP_BACK), D("defence", 2), D("defence", 3))
    return play(tracked_hands(h0, h1), lay(0, L("special", SWAP)), lay(1, D("attack", 3))).state


def test_blind_exchange_comes_after_the_turn_the_opponent_plays_normally():
    state = swap_turn()
    assert state.turns[-1].points == (0, 3)
    assert state.phase == EXCHANGE and GAME.to_act(state) == {CHANCE}


def test_blind_exchange_never_takes_step_back_it_is_given_back():
    outcomes = GAME.chance_outcomes(swap_turn())
    assert sorted(a["card"] for a, _ in outcomes) == [D("defence", 2), D("defence", 3)]
    assert all(abs(p - 0.5) < 1e-9 for _, p in outcomes)


def test_blind_exchange_gives_back_a_card_of_the_takers_choice():
    state = GAME.apply(swap_turn(), CHANCE, {"type": "blind_take", "card": D("defence", 2)}).state
    assert GAME.to_act(state) == {0}
    gives = sorted(a["card"] for a in GAME.legal_actions(state, 0))
    assert gives == sorted([L("attack", 1), L("attack", 2), L("defence", 1)])  # not the card just taken
    labels = [c.label.fr for c in GAME.choices(state, 0)]
    assert "Donner Att 1" in labels
    step = GAME.apply(state, 0, {"type": "give", "card": L("attack", 1)})
    after = step.state
    assert after.sides[0].discard == (L("attack", 2), L("defence", 1), D("defence", 2))
    assert after.sides[1].discard == (D("special", STEP_BACK), D("defence", 3), L("attack", 1))
    assert after.swaps[-1].taken == D("defence", 2) and after.swaps[-1].given == L("attack", 1)
    assert set(after.exposed) == {D("defence", 2), L("attack", 1)}
    # both players saw the cards change hands; each keeps 20 cards
    assert [(s.received, s.given) for s in after.sides] == [(1, 1), (1, 1)]
    assert {e.audience for e in step.effects if e.kind == "exchange_give"} == {frozenset({0, 1})}


def test_blind_exchange_without_a_card_to_take_does_not_happen():
    h0 = (L("special", SWAP), L("attack", 1))
    h1 = (D("attack", 3), D("special", STEP_BACK))
    step = play(tracked_hands(h0, h1), lay(0, L("special", SWAP)), lay(1, D("attack", 3)))
    assert any(e.kind == "exchange_void" for e in step.effects)
    assert step.state.phase in (DRAW, COMMIT) and step.state.swaps == ()


def test_sensed_blind_exchange_is_guided_and_confirmed_with_a_button():
    state = play(sensed_state(), lay(0, L("special", SWAP)), lay(1, D("attack", 3))).state
    assert state.phase == EXCHANGE and GAME.to_act(state) == {0}
    assert [c.action["type"] for c in GAME.choices(state, 0)] == ["exchange_done", "exchange_skip"]
    taker = [t.fr for t in GAME.screen(GAME.view(state, 0), 0).lines]
    victim = [t.fr for t in GAME.screen(GAME.view(state, 1), 1).lines]
    assert "piochez une carte" in taker and "tendez votre main" in victim
    done = GAME.apply(state, 0, {"type": "exchange_done"}).state
    assert done.phase == COMMIT and [(s.received, s.given) for s in done.sides] == [(1, 1), (1, 1)]
    # after the exchange each may lay one card of the other deck
    assert any(a["card"].startswith("zop/dark/") for a in GAME.legal_actions(done, 0))
    skipped = GAME.apply(state, 0, {"type": "exchange_skip"}).state
    assert [(s.received, s.given) for s in skipped.sides] == [(0, 0), (0, 0)]


def test_at_two_tables_the_blind_exchange_opens_with_a_blind_choice_of_place():
    state = GAME.initial_state(GameConfig(2, {"deck": "sensed", "tables": "two"}))
    for seat, card in ((0, L("special", SWAP)), (1, D("special", SWAP))):  # each player's own, in turn
        after = play(state, lay(seat, card), lay(1 - seat, L("attack", 1) if seat else D("attack", 3))).state
        # the taker chooses a place in the other's hand; nobody is offered "Échange fait"
        assert after.phase == EXCHANGE and after.exchange.taker == seat and GAME.to_act(after) == {seat}
        assert [a["type"] for a in GAME.legal_actions(after, seat)] == ["pick"] * 3
        assert not any(a["type"] == "exchange_done" for s in (0, 1) for a in GAME.legal_actions(after, s))


def test_the_tables_option_is_never_in_the_set_up_menu():
    option = next(o for o in GAME.options if o.key == "tables")
    assert option.default == "one" and not option.offered
    assert GAME.initial_state(GameConfig(2, {"deck": "sensed"})).apart is False


def test_take_only_exchange_variant_still_plays_out_all_40_cards():
    def edit(d):
        d["special"][3]["effect"]["give"] = "none"
    game = custom_game(edit)
    seen_uneven = False
    for seed in range(12):
        for state in states_along(game, GameConfig(2, {"deck": "tracked"}), seed):
            for r in state.results:
                assert sum(r.played) == 40
                seen_uneven |= r.played != (20, 20)
    assert seen_uneven  # a taker without gift plays more cards than its victim


# -- rounds and the match ------------------------------------------------------------------------

def test_a_round_ends_when_every_card_is_played_and_the_count_replays_the_lines():
    states = states_along(GAME, GameConfig(2, {"deck": "tracked"}), 2)
    end = next(s for s in states if s.phase in (ROUND_END, OVER))
    before = states[states.index(end) - 1]
    assert [len(s.line) for s in end.sides] == [20, 20]
    for seat in (0, 1):
        assert tuple(c for t in end.turns for c in t.cards[seat]) == end.sides[seat].line
        assert sum(t.points[seat] for t in end.turns) == end.sides[seat].points == end.results[0].points[seat]
    step = GAME.apply(before, *next((s, a) for s in (0, 1) for a in GAME.legal_actions(before, s)
                                    if GAME.apply(before, s, a).state == end))
    counts = [e for e in step.effects if e.kind == "round_end"]
    assert counts and counts[0].data["turns"] == [list(t.points) for t in end.turns]


def result(label: str, winner: int | None) -> RoundResult:
    points = (5, 5) if winner is None else ((9, 4) if winner == 0 else (4, 9))
    return RoundResult(label, points, winner, (20, 20))


def test_best_of_three_sequence():
    nl = flow.next_label
    assert nl((result(MANCHE, 0),)) == REVANCHE
    assert nl((result(MANCHE, 0), result(REVANCHE, 0))) is None
    assert nl((result(MANCHE, 0), result(REVANCHE, 1))) == BELLE
    assert nl((result(MANCHE, 0), result(REVANCHE, 1), result(BELLE, 1))) is None


def test_a_tied_round_goes_straight_to_the_belle():
    assert flow.next_label((result(MANCHE, None),)) == BELLE
    assert flow.next_label((result(MANCHE, 1), result(REVANCHE, None))) == BELLE
    assert flow.next_label((result(MANCHE, None), result(BELLE, None))) == BELLE  # replayed
    assert flow.next_label((result(MANCHE, None), result(BELLE, 0))) is None


def ended_round(label: str, points: tuple[int, int], results: tuple[RoundResult, ...]) -> ZopState:
    state = sensed_state()
    sides = (replace(state.sides[0], points=points[0]), replace(state.sides[1], points=points[1]))
    return flow.end_round(replace(state, label=label, sides=sides, results=results)).state


def test_match_won_two_rounds_to_nothing():
    state = ended_round(REVANCHE, (12, 7), (result(MANCHE, 0),))
    assert state.phase == OVER
    outcome = GAME.outcome(state)
    assert outcome.winners == (0,) and outcome.scores == (2.0, 0.0)
    assert [r["label"] for r in outcome.details["rounds"]] == [MANCHE, REVANCHE]


def test_tied_manche_then_belle_decides():
    state = ended_round(MANCHE, (10, 10), ())
    assert state.phase == ROUND_END and GAME.outcome(state) is None
    nxt = GAME.apply(state, 1, {"type": "next_round"}).state
    assert nxt.label == BELLE and nxt.round_no == 2 and nxt.turn == 1
    assert [s.points for s in nxt.sides] == [0, 0]
    final = ended_round(BELLE, (3, 8), (result(MANCHE, None),))
    assert GAME.outcome(final).winners == (1,)


def test_round_end_count_is_read_turn_by_turn_with_the_buttons():
    states = states_along(GAME, GameConfig(2, {"deck": "sensed"}), 3)
    end = next(s for s in states if s.phase == ROUND_END)
    labels = [c.label.fr for c in GAME.choices(end, 0)]
    assert labels == ["Tour 2 ▶", f"Jouer la {ROUNDS[flow.next_label(end.results)].fr.lower()}"]
    moved = GAME.apply(end, 0, {"type": "review", "turn": 2}).state
    assert moved.review == (2, 1)
    screen = GAME.screen(GAME.view(moved, 0), 0)
    assert screen.lines[1].fr.startswith("T2 ")
    assert [c.label.fr for c in GAME.choices(moved, 0)][:2] == ["◀ Tour 1", "Tour 3 ▶"]


def test_next_round_reshuffles_fresh_decks_in_tracked_mode():
    states = states_along(GAME, GameConfig(2, {"deck": "tracked"}), 4)
    end = next(s for s in states if s.phase == ROUND_END)
    nxt = GAME.apply(end, 0, {"type": "next_round"}).state
    assert nxt.phase == DRAW and nxt.swaps == () and nxt.turns == ()
    assert [len(s.shuffled) for s in nxt.sides] == [20, 20]
    assert to_json(nxt.results) == to_json(end.results)
