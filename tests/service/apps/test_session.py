"""Reconciliation and button flow of a game session, on a toy board game, with a fake clock."""

import pytest

from firmware_host.apps import reconcile
from firmware_host.apps.app import LeaveGame
from firmware_host.apps.reconcile import Fix, fixes
from firmware_host.apps.session import GameSession
from firmware_host.storage.tags import sim_registry, sim_uid
from games.core import GameConfig, Text
from tests.kits.toyboard import GAME, token

ZONES = {"A1", "B1", "C1", "D1", "seat1.pad", "seat2.pad"}


class Clock:
    def __init__(self):
        self.t = 100.0

    def __call__(self):
        return self.t


@pytest.fixture
def session():
    reg = sim_registry(GAME.pieces() + ["zop/light/attack/1"])
    s = GameSession(GAME, GameConfig(players=2), (1, 2), reg, ZONES, Clock(), auto_chance=True)
    s.sense({})  # the runtime does this at start: an empty table matches a new game
    return s


def sensed(**squares):
    return {sq: frozenset({sim_uid(p)}) for sq, p in squares.items()}


def test_fixes_removals_before_places():
    assert fixes({"A1": {"x"}}, {"B1": {"x"}}) == [Fix("remove", "B1", "x"), Fix("place", "A1", "x")]


def test_sensed_placement_becomes_the_action(session):
    session.sense(sensed(A1=token(0, 1)))
    assert session.moves == [(0, {"type": "place", "piece": token(0, 1), "square": "A1"})]
    assert session.instruction is None
    assert session.state.turn == 1


def test_side_effect_becomes_one_instruction_with_led(session):
    session.sense(sensed(A1=token(0, 1)))
    session.sense(sensed(A1=token(0, 1), B1=token(1, 1)))
    assert len(session.moves) == 2
    fix, audience, text = session.instruction.fix, session.instruction.audience, session.instruction.text
    assert fix == Fix("remove", "A1", token(0, 1)) and audience == {0, 1}
    assert text.fr == "Retirez le jeton blanc de A1"
    assert session.leds() == {"A1": "red"}
    session.sense(sensed(B1=token(1, 1)))
    assert session.instruction is None and len(session.moves) == 2


def test_wrong_square_is_refused_with_reason_and_state_unchanged(session):
    session.sense(sensed(D1=token(0, 1)))
    assert session.moves == []
    fix, text = session.instruction.fix, session.instruction.text
    assert fix.kind == "remove" and "D1" in text.fr
    assert session.leds() == {"D1": "red"}
    assert session.seat_frame(0).banner.fr == "Retirez le jeton blanc de D1. Seulement A1, B1 ou C1"
    assert not session.ui[0].notices  # the reason goes with the instruction, not after it
    session.sense(sensed(C1=token(0, 1)))  # moved to a legal square: the game goes on
    assert session.instruction is None and session.moves[-1][1]["square"] == "C1"


def test_opponent_piece_out_of_turn_is_guided(session):
    session.sense(sensed(A1=token(1, 1)))
    assert session.moves == [] and session.instruction.fix == Fix("remove", "A1", token(1, 1))


def test_stranger_tags_are_ignored(session):
    strangers = session.sense({"A1": frozenset({"DEADBEEF"}), "B1": frozenset({sim_uid("zop/light/attack/1")})})
    assert [s.piece for s in strangers] == [None, "zop/light/attack/1"]
    assert session.moves == [] and session.instruction is None
    assert "autre jeu (ZOP) sur B1" in reconcile.strangers_text(strangers[1:], lambda z: Text(z, z)).fr


def test_button_menu_applies_choice_and_secret_effect_audience(session):
    frame = session.seat_frame(0)
    assert [t.en for t in frame.menu] == ["{\"type\": \"ring\"}"]
    assert session.seat_frame(1).menu == ()
    session.press(0, "ok", "press")
    assert session.state.rung == 1
    assert [n.text.fr for n in session.ui[1].notices] == ["Ding"] and not session.ui[0].notices


def test_banner_expires_with_time(session):
    session.press(0, "ok", "press")
    assert session.seat_frame(1).banner.fr == "Ding"
    session.clock.t += 5
    session.expire()
    assert session.seat_frame(1).banner is None


def _ask_quit(session, seat):
    session.press(seat, "ok", "long")
    frame = session.seat_frame(seat)
    assert frame.screen.title.en == "Quit the game?" and frame.banner is None
    assert [t.en for t in frame.menu] == ["Keep playing", "Quit the game"]
    session.press(seat, "right", "press")
    return session.press(seat, "ok", "press")


def test_quit_with_several_humans_asks_the_others_no_first(session):
    assert _ask_quit(session, 1) is None  # one press never ends the game for the other player
    frame = session.seat_frame(0)
    assert [t.en for t in frame.menu] == ["No", "Yes, quit"] and frame.cursor == 0
    assert frame.screen.title.en == "P2 wants to quit"
    assert [t.en for t in session.seat_frame(1).menu] == ["Withdraw the request"]
    assert session.press(0, "ok", "press") is None  # "Non": the game goes on
    assert session.menus.leaving is None and "keep playing" in session.seat_frame(1).banner.en + (
        session.seat_frame(1).status.en if session.seat_frame(1).status else "")
    assert _ask_quit(session, 1) is None
    session.press(0, "right", "press")
    assert session.press(0, "ok", "press") == LeaveGame(GAME.id, 0)


def test_quit_alone_is_one_press_away():
    reg = sim_registry(GAME.pieces())
    solo = GameSession(GAME, GameConfig(players=2), (1, None), reg, ZONES, Clock(), auto_chance=True)
    solo.sense({})
    assert _ask_quit(solo, 0) == LeaveGame(GAME.id, 0)


def test_pad_zone_mapping(session):
    assert session.to_physical("pad.1") == "seat2.pad"
    assert session.to_logical("seat1.pad") == "pad.0"
    assert session.logical_zones() >= {"pad.0", "pad.1", "A1"}


def test_leftover_piece_at_start_is_guided_not_played(session):
    fresh = GameSession(GAME, GameConfig(players=2), (1, 2), session.registry, ZONES, Clock(), True)
    fresh.sense(sensed(A1=token(0, 1)))
    assert fresh.moves == [] and fresh.instruction.fix == Fix("remove", "A1", token(0, 1))
    fresh.sense({})
    fresh.sense(sensed(A1=token(0, 1)))
    assert len(fresh.moves) == 1


def test_real_table_samples_chance_that_no_piece_shows():
    from tests.kits.toygame import GAME as TOY

    reg = sim_registry([])
    s = GameSession(TOY, GameConfig(players=2, seed=4), (1, 2), reg, ZONES, Clock(), auto_chance=False)
    s.sense({})
    assert all(v is not None for v in s.state.secrets)  # both deals drawn by the table itself
    assert [seat for seat, _ in s.moves] == [-1, -1]


def test_messages_wait_under_an_instruction(session):
    session.press(0, "ok", "press")            # seat 0 rings: seat 1 gets "Ding"
    session.sense(sensed(D1=token(1, 1)))      # a misplaced token: an instruction for all
    assert session.seat_frame(1).banner.fr.startswith("Retirez")
    session.clock.t += 10
    session.expire()
    assert [n.text.fr for n in session.ui[1].notices] == ["Ding"]  # not expired unseen
    session.sense({})
    assert session.seat_frame(1).banner.fr == "Ding"  # no menu on that seat: the message covers it
    session.clock.t += 3.5
    session.expire()
    assert session.seat_frame(1).banner is None
