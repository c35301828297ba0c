"""ZOP's reveal: every case of the rulebook's resolution table and every special-card precision."""

from games.zop import GAME
from games.zop.rules_reveal import resolve
from games.zop.state import Pending

DECK = GAME.deck
NONE = Pending()


def L(kind: str, n: int) -> str:  # reads like the card: L("attack", 4)
    """A light card (seat 0)."""
    return f"zop/light/{kind}/{n}"


def D(kind: str, n: int) -> str:
    """A dark card (seat 1)."""
    return f"zop/dark/{kind}/{n}"


# the data file's specials (see games/zop/data/decks.toml)
BAD_IDEA, REINFORCE, STEP_BACK, SWAP, COUNTER, GROUND, HOURS, DODGE = range(1, 9)


def turn(a: tuple[str, ...], b: tuple[str, ...], pa: Pending = NONE, pb: Pending = NONE):
    return resolve(DECK, (a, b), (pa, pb))


# -- the resolution table ------------------------------------------------------------------------

def test_attack_against_attack_each_scores_its_attack():
    assert turn((L("attack", 4),), (D("attack", 2),)).points == (4, 2)


def test_attack_against_weaker_defence_scores_the_difference():
    assert turn((L("attack", 5),), (D("defence", 2),)).points == (3, 0)
    assert turn((L("defence", 1),), (D("attack", 6),)).points == (0, 5)


def test_attack_not_strictly_above_defence_scores_nothing():
    assert turn((L("attack", 3),), (D("defence", 3),)).points == (0, 0)
    assert turn((L("attack", 2),), (D("defence", 5),)).points == (0, 0)


def test_defence_against_defence_scores_nothing():
    res = turn((L("defence", 6),), (D("defence", 1),))
    assert res.points == (0, 0) and res.pending == (NONE, NONE)


def test_attack_against_special_scores_and_the_special_applies():
    res = turn((L("attack", 4),), (D("special", REINFORCE),))
    assert res.points == (4, 0)
    assert res.pending[1] == Pending(boost=2)


def test_defence_against_special_scores_nothing_and_the_special_applies():
    res = turn((L("defence", 4),), (D("special", HOURS),))
    assert res.points == (0, 0)
    assert res.pending[1] == Pending(factor=2)


def test_special_against_special_both_apply():
    res = turn((L("special", REINFORCE),), (D("special", STEP_BACK),))
    assert res.points == (0, 0)
    assert res.pending == (Pending(boost=2), Pending(extra=1))


# -- Mauvaise idée -------------------------------------------------------------------------------

def test_bad_idea_cancels_the_opposing_card():
    res = turn((L("attack", 6),), (D("special", BAD_IDEA),))
    assert res.points == (0, 0)
    assert res.cancelled == ((L("attack", 6),), ())


def test_bad_idea_cancels_the_opposing_special_effect():
    res = turn((L("special", REINFORCE),), (D("special", BAD_IDEA),))
    assert res.pending[0] == NONE


def test_bad_idea_also_cancels_a_pending_reinforcement():
    # the light player's Renforcement of last turn would make its attack 3 + 2
    res = turn((L("attack", 3),), (D("special", BAD_IDEA),), pa=Pending(boost=2))
    assert res.points == (0, 0) and res.pending[0] == NONE


def test_bad_idea_also_cancels_a_pending_working_time_arrangement():
    res = turn((L("defence", 3),), (D("special", BAD_IDEA),), pa=Pending(factor=2))
    assert res.pending[0] == NONE and res.cancelled[0] == (L("defence", 3),)


def test_bad_idea_cancels_both_cards_of_a_double_play():
    res = turn((L("attack", 3), L("attack", 5)), (D("special", BAD_IDEA),))
    assert res.points == (0, 0)
    assert res.cancelled[0] == (L("attack", 3), L("attack", 5))


def test_two_bad_ideas_cancel_each_other_and_a_second_card_plays_normally():
    res = turn((L("special", BAD_IDEA), L("attack", 4)), (D("special", BAD_IDEA),))
    assert "mutual_cancel" in res.notes
    assert res.points == (4, 0)  # the attack faces no card: it scores in full
    assert res.cancelled == ((L("special", BAD_IDEA),), (D("special", BAD_IDEA),))


def test_cancelled_step_back_gives_no_extra_card():
    res = turn((L("special", STEP_BACK),), (D("special", BAD_IDEA),))
    assert res.pending[0] == NONE


def test_cancelled_blind_swap_makes_no_exchange():
    assert turn((L("special", SWAP),), (D("special", BAD_IDEA),)).exchanges == ()


# -- Renforcement --------------------------------------------------------------------------------

def test_reinforcement_adds_two_to_the_next_turns_attack():
    first = turn((L("special", REINFORCE),), (D("defence", 1),))
    assert first.pending[0] == Pending(boost=2)
    assert turn((L("attack", 3),), (D("attack", 1),), pa=first.pending[0]).points == (5, 1)


def test_reinforcement_on_a_defence_is_minus_two_on_the_opposing_attack():
    assert turn((L("defence", 2),), (D("attack", 5),), pa=Pending(boost=2)).points == (0, 1)
    assert turn((L("defence", 3),), (D("attack", 5),), pa=Pending(boost=2)).points == (0, 0)


def test_reinforcement_is_active_during_the_next_turn_only():
    # the pending bonus is used by the next card laid; it never reaches the turn after
    used = turn((L("attack", 1),), (D("attack", 1),), pa=Pending(boost=2))
    assert used.pending[0] == NONE
    # a seat that lays nothing (out of cards) loses it too
    assert turn((), (D("attack", 1),), pa=Pending(boost=2)).pending[0] == NONE


def test_reinforcement_then_a_second_card_right_after_benefits():
    # Reculer pour mieux sauter last turn: two cards now, Renforcement first
    res = turn((L("special", REINFORCE), L("attack", 4)), (D("defence", 3),))
    assert res.points == (6, 0)  # the defence faced the Renforcement; the attack 4+2 is unopposed


def test_order_matters_reinforcement_after_the_attack_waits_for_next_turn():
    res = turn((L("attack", 4), L("special", REINFORCE)), (D("defence", 3),))
    assert res.points == (1, 0) and res.pending[0] == Pending(boost=2)


def test_counter_attack_ignores_the_reinforcement_rulebook_example():
    # "contre une attaque à +4 et un renforcement, la contre-attaque ne permet de marquer que 4 points"
    # and the general rule for an attack facing a special card: "L'attaquant marque autant de
    # points que la force de son attaque / L'effet de la carte spéciale est appliqué" (4 + 2).
    res = turn((L("attack", 4),), (D("special", COUNTER),), pa=Pending(boost=2))
    assert res.points == (6, 4)


def test_counter_attack_is_not_raised_by_its_own_players_reinforcement():
    # "L'attaquant marque autant de points que la force de son attaque": the attack's 4 still count
    res = turn((L("attack", 4),), (D("special", COUNTER),), pb=Pending(boost=2))
    assert res.points == (4, 4)


def test_use_the_ground_scores_the_printed_defence_without_reinforcement():
    res = turn((L("defence", 3),), (D("special", GROUND),), pa=Pending(boost=2))
    assert res.points == (0, 3)


def test_use_the_ground_against_an_attack_does_nothing():
    assert turn((L("attack", 3),), (D("special", GROUND),)).points == (3, 0)


def test_working_time_arrangement_doubles_the_next_card():
    assert turn((L("attack", 3),), (D("defence", 1),), pa=Pending(factor=2)).points == (5, 0)


def test_working_time_arrangement_does_not_count_a_reinforcement():
    # Renforcement then Aménagement in one double play: the +2 is spent on the Aménagement
    res = turn((L("special", REINFORCE), L("special", HOURS)), (D("defence", 1),))
    assert res.pending[0] == Pending(factor=2)
    assert turn((L("attack", 3),), (D("attack", 1),), pa=res.pending[0]).points == (6, 1)


# -- other specials ------------------------------------------------------------------------------

def test_step_back_owes_one_extra_card_next_turn():
    assert turn((L("special", STEP_BACK),), (D("attack", 2),)).pending[0] == Pending(extra=1)


def test_blind_swap_queues_an_exchange_after_the_turn():
    res = turn((L("attack", 2),), (D("special", SWAP),))
    assert res.points == (2, 0)
    assert res.exchanges == ((1, D("special", SWAP)),)


def test_both_blind_swaps_queue_in_seat_order():
    res = turn((L("special", SWAP),), (D("special", SWAP),))
    assert [s for s, _ in res.exchanges] == [0, 1]


def test_dodge_placeholder_has_no_effect_the_attack_scores():
    # the placeholder follows the general rule: "L'attaquant marque autant de points que la force
    # de son attaque / L'effet de la carte spéciale est appliqué" (it has none)
    res = turn((L("attack", 6),), (D("special", DODGE),))
    assert res.points == (6, 0) and "blocked_0" not in res.notes


def test_second_card_faces_nothing_when_the_opponent_laid_one():
    res = turn((L("defence", 2), L("attack", 3)), (D("attack", 5),))
    assert res.points == (3, 3)  # attack 5 vs defence 2 -> 3; the light attack 3 is unopposed
