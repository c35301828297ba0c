"""Undo by agreement: the author of the last move asks, the other human players accept on their own
screens, the table steps back one move, journals the undo (replay shows it) and guides the pieces
back; never past a chance draw or a move that showed hidden information; computer seats skipped."""

from __future__ import annotations

from firmware_host.apps import undo
from firmware_host.apps.session import GameSession
from firmware_host.commands.main import main
from firmware_host.storage.journal import Journal
from firmware_host.storage.tags import sim_registry
from games.core import GameConfig, replay
from tests.kits import menus
from tests.kits.tabledriver import Driver
from tests.kits.toygame import Toy

UNDO_FR = "Annuler le dernier coup"


class Clock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


class PeekToy(Toy):
    """The toy game where, once the pile is down to 5, each seat sees the next seat's secret."""

    def view(self, state, seat):
        out = super().view(state, seat)
        if seat is not None and state.pile <= 5:
            out["next_secret"] = state.secrets[(seat + 1) % state.players]
        return out


def choose(s: GameSession, seat: int, label_fr: str) -> None:
    labels = [c.label.fr for c in s.menu(seat)]
    s.ui[seat].cursor = labels.index(label_fr)
    s.press(seat, "ok", "press")


def toy_session(players: int = 2, game: Toy | None = None) -> GameSession:
    game = game or PeekToy()
    s = GameSession(game, GameConfig(players, seed=3), tuple(range(1, players + 1)), sim_registry([]), set(),
                    Clock(), auto_chance=True)
    s.sense({})  # the table draws the secrets (chance) itself
    return s


def test_the_others_accept_on_their_screens_and_the_move_is_taken_back():
    s = toy_session(3)
    recorded: list = []
    s.recorder = lambda seat, act: recorded.append((seat, act))
    s.apply(0, {"type": "take", "n": 1})
    assert UNDO_FR in [c.label.fr for c in s.menu(0)]
    assert UNDO_FR not in [c.label.fr for c in s.menu(1)]  # only the author asks
    choose(s, 0, UNDO_FR)
    assert s.undo.request is not None and s.undo.request.waiting == {1, 2}
    frame = s.seat_frame(1)
    assert frame.screen.title.fr == "J1 veut annuler" and [t.fr for t in frame.menu] == ["Non", "Oui"]
    assert s.seat_frame(0).screen.title.fr == "Annulation demandée"
    choose(s, 1, "Oui")
    assert s.state.pile == 6  # one player is not enough
    choose(s, 2, "Oui")
    assert s.state.pile == 7 and len(s.moves) == 3 and s.state == replay(s.game, s.config, s.moves)  # 3 deals
    assert recorded[-1] == (0, {"type": "_undo", "to": 3})  # journaled as an event
    assert len(s.history) == 5 and undo.effective_moves(s.history) == s.moves
    assert any("Dernier coup de J1 annulé" in n.text.fr for n in s.ui[1].notices)
    assert any("Coup annulé" in n.text.fr for n in s.ui[0].notices)  # the move named to its author only


def test_a_no_keeps_the_move_and_tells_the_asker():
    s = toy_session()
    s.apply(0, {"type": "take", "n": 1})
    choose(s, 0, UNDO_FR)
    choose(s, 1, "Non")
    assert s.undo.request is None and s.state.pile == 6
    assert any("J2 refuse" in n.text.fr for n in s.ui[0].notices)


def test_never_past_a_move_that_showed_hidden_information():
    s = toy_session()
    s.apply(0, {"type": "take", "n": 2})  # pile 5: each seat now sees the next seat's secret
    choose(s, 0, UNDO_FR)
    assert s.undo.request is None and s.state.pile == 5
    assert any("information cachée" in n.text.fr for n in s.ui[0].notices)


def test_never_past_a_chance_draw():
    game = Toy()
    moves = [(-1, {"type": "deal", "value": 1}), (0, {"type": "take", "n": 1}), (-1, {"type": "deal", "value": 2})]
    cut, why = undo.target(game, GameConfig(2), moves, frozenset())
    assert cut is None and "tirée" in why.fr


def test_against_the_computer_undo_takes_back_the_reply_too():
    s = toy_session()
    s.computers.seats = frozenset({1})  # seat 1 is played by the computer: it is never asked
    s.apply(0, {"type": "take", "n": 1})
    s.apply(1, {"type": "take", "n": 1})
    assert UNDO_FR in [c.label.fr for c in s.menu(0)] and s.state.pile == 5
    choose(s, 0, UNDO_FR)  # nobody to ask: done at once
    assert s.undo.request is None and s.state.pile == 7 and [a for _, a in s.moves if a["type"] == "take"] == []


def test_on_the_table_the_pieces_are_guided_back_and_replay_shows_the_undo(tmp_path, capsys):
    driver = Driver(seed=4)
    journal = Journal(tmp_path / "j.sqlite")
    driver.sim.runtime.journal = driver.sim.runtime.keeper.journal = journal
    try:
        driver.start("droles-de-zebres", [1, 2], {"first_player": "seat0"})
        s = driver.session
        guardian = s.menu(0)[0].action
        driver.do(0, guardian)  # the guardian (a menu choice)
        x = next(t for t in sorted(s.game.to_act(s.state)) if t >= 0)
        other = 1 - x
        placing = next(a for a in driver.reachable(x) if a not in menus.entries(s, x))
        driver.do(x, placing)  # a piece laid on a square
        square = placing.get("square")
        assert len(s.moves) == 2 and square
        labels = [c.label.fr for c in s.menu(x)]
        for _ in range(labels.index(UNDO_FR)):
            driver.send({"press": s.seats[x], "button": "right"})
        driver.send({"press": s.seats[x], "button": "ok"})
        assert driver.sim.frames()[s.seats[other]].screen.title.fr == f"J{x + 1} veut annuler"
        driver.send({"press": s.seats[other], "button": "right"})  # "Oui"
        driver.send({"press": s.seats[other], "button": "ok"})
        assert len(s.moves) == 1 and s.state == replay(s.game, s.config, s.moves)
        banner = driver.sim.frames()[s.seats[x]].banner
        assert banner is not None and banner.fr.startswith("Retirez") and square in banner.fr
        assert driver.sim.runtime.lit.get(square) == "red"
        while driver.follow_instruction():
            pass
        assert s.instruction is None and len(s.moves) == 1
        driver.do(x, placing)  # the same move can be made again
        assert len(s.moves) == 2
    finally:
        driver.close()
    gid = journal.games()[-1].id
    entries = journal.record(gid).moves
    assert any(a == {"type": "_undo", "to": 1} for _, a in entries) and len(entries) == 4
    assert main(["games", "--journal", str(tmp_path / "j.sqlite"), "replay", str(gid)]) == 0
    assert "annule, retour au coup 1" in capsys.readouterr().out


def test_resume_after_an_undo_rebuilds_the_game_without_the_undone_move(tmp_path):
    """A power cut after an undo: the resumed game is made of the moves that stand, and the journal
    numbering goes on after the undo entry."""
    from firmware_host.apps.app import StartRequest
    from firmware_host.loop.simulator import FakeClock, SimTable

    journal = Journal(tmp_path / "j.sqlite")
    driver = Driver(seed=4)
    driver.sim.runtime.journal = driver.sim.runtime.keeper.journal = journal
    try:
        driver.start("droles-de-zebres", [1, 2], {"first_player": "seat0"})
        s = driver.session
        driver.do(0, s.menu(0)[0].action)
        x = next(t for t in sorted(s.game.to_act(s.state)) if t >= 0)
        driver.do(x, next(a for a in driver.reachable(x) if a not in menus.entries(s, x)))
        choose(s, x, UNDO_FR)
        choose(s, 1 - x, "Oui")
        standing = list(s.moves)
    finally:
        driver.close()
    gid = journal.games()[-1].id
    assert len(journal.record(gid).moves) == 3 and undo.effective_moves(journal.record(gid).moves) == standing
    sim = SimTable(clock=FakeClock(), journal=journal)
    try:
        sim.runtime.start(StartRequest("droles-de-zebres", (1, 2), resume=gid))
        app = sim.runtime.app
        assert isinstance(app, GameSession) and app.moves == standing and len(app.history) == 3
        assert app.state == replay(app.game, app.config, standing)
        move = next(a for a in app.game.legal_actions(app.state, x))
        assert app.apply(x, move)
        assert journal.record(gid).moves[3] == (x, move)  # numbered after the undo entry
    finally:
        sim.close()


def test_the_others_never_learn_a_secret_move_from_the_undo():
    """ZOP: a card laid face down is a secret; asking to take it back never names it to the other."""
    from firmware_host.storage.tags import sim_uid
    from games.registry import get_game

    zop = get_game("zop")
    s = GameSession(zop, GameConfig(2), (1, 2), sim_registry(zop.pieces()), {"seat1.pad", "seat2.pad"}, Clock(),
                    auto_chance=True)
    s.sense({})
    lay = next(a for a in zop.legal_actions(s.state, 0) if a.get("type") == "commit")
    card = lay["card"]
    s.sense({"seat1.pad": frozenset({sim_uid(card)})})
    assert s.moves and s.moves[-1][0] == 0
    choose(s, 0, UNDO_FR)
    assert s.undo.request is not None
    secret = zop.describe_action(replay(zop, s.config, s.moves[:-1]), 0, s.moves[-1][1])
    frame = s.seat_frame(1)
    shown = " ".join(t.fr for t in (frame.screen.title, *frame.screen.lines, *frame.menu))
    assert secret.fr not in shown and card not in shown
    choose(s, 1, "Oui")
    assert all(secret.fr not in n.text.fr for n in s.ui[1].notices)


def test_a_journal_holding_an_undo_entry_resumes_without_the_undone_moves(tmp_path):
    """The journal's undo entry, `{"type": "_undo", "to": N}` as stored rows hold it, keeps its
    meaning: a game journaled with one resumes made of the moves before it and after it only."""
    from firmware_host.apps.app import StartRequest
    from firmware_host.loop.simulator import FakeClock, SimTable
    from games.registry import get_game

    ddz = get_game("droles-de-zebres")
    config = GameConfig(2, {"first_player": "seat0"}, seed=5)
    state = ddz.initial_state(ddz.validate_config(config))
    first = (0, ddz.legal_actions(state, 0)[0])
    state = ddz.apply(state, *first).state
    seat = next(x for x in sorted(ddz.to_act(state)) if x >= 0)
    undone, again = ddz.legal_actions(state, seat)[:2]
    journal = Journal(tmp_path / "j.sqlite")
    gid = journal.start_game(ddz.id, config, (1, 2))
    rows = [first, (seat, undone), (seat, {"type": "_undo", "to": 1}), (seat, again)]
    journal.append_many(gid, 0, rows)
    sim = SimTable(clock=FakeClock(), journal=journal)
    try:
        sim.runtime.start(StartRequest(ddz.id, (1, 2), resume=gid))
        app = sim.runtime.app
        assert isinstance(app, GameSession) and app.moves == [first, (seat, again)] and len(app.history) == 4
        assert app.state == replay(ddz, app.config, [first, (seat, again)])
    finally:
        sim.close()
