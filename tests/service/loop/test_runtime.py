"""The runtime with the menu, settle window and outputs, on a toy board game and a fake clock."""

import pytest

import games.registry as registry
from drivers.buttons import ButtonEvent
from firmware_host.apps.session import GameSession
from firmware_host.loop.runtime import ReaderStatus, Runtime, Snapshot, TagChange
from firmware_host.storage.config import load_config
from firmware_host.storage.tags import sim_registry, sim_uid
from tests.kits.toyboard import GAME, token


class Clock:
    def __init__(self):
        self.t = 0.0

    def __call__(self):
        return self.t


class Recorder:
    def __init__(self):
        self.frames = {}
        self.sent = 0
        self.lit = {}
        self.cues = []

    def show(self, seat, frame):
        self.frames[seat] = frame
        self.sent += 1

    def leds(self, zones):
        self.lit = dict(zones)

    def cue(self, name):
        self.cues.append(name)


@pytest.fixture
def toy_only(monkeypatch):
    monkeypatch.setattr(registry, "GAMES", {"toyboard": "tests.kits.toyboard:GAME"})
    registry.get_game.cache_clear()
    yield
    registry.get_game.cache_clear()


@pytest.fixture
def rt(toy_only):
    out = Recorder()
    clock = Clock()
    runtime = Runtime(load_config(None), sim_registry(GAME.pieces()), out, clock, auto_chance=True, seed=1)
    runtime.refresh()
    return runtime, out, clock


def press(rt, seat, button="ok"):
    rt.handle(ButtonEvent(seat, button, "press", 0.0))
    rt.handle(ButtonEvent(seat, button, "release", 0.0))


def start_toy(runtime):
    for seat, button in ((2, "ok"), (2, "ok"), (5, "ok"), (2, "ok")):
        press(runtime, seat, button)
    assert isinstance(runtime.app, GameSession)


def test_menu_to_game_and_sensed_move_after_settle(rt):
    runtime, out, clock = rt
    assert len(out.frames) == 8 and "Appuyez" in out.frames[1].screen.lines[0].fr
    press(runtime, 2)          # seat 2 takes the menu
    press(runtime, 2)          # chooses the first game
    assert runtime.app.step == "setup" and runtime.app.joined == [2]
    press(runtime, 5)          # seat 5 joins
    assert out.frames[2].menu[out.frames[2].cursor].fr == "Commencer (2 joueurs)"
    press(runtime, 2)
    assert isinstance(runtime.app, GameSession) and runtime.app.seats == (2, 5)
    assert out.frames[1].screen.lines[0].fr == "Partie en cours :"
    runtime.handle(ReaderStatus("ready"))
    runtime.handle(TagChange("A1", sim_uid(token(0, 1)), True))
    assert runtime.app.moves == []  # not settled yet
    clock.t += 0.3
    runtime.tick()
    assert runtime.app.moves[0][1]["square"] == "A1"
    assert out.lit == {"B1": "green", "C1": "green"}


def test_only_changed_frames_are_sent(rt):
    runtime, out, clock = rt
    before = out.sent
    runtime.tick()
    runtime.refresh()
    assert out.sent == before
    press(runtime, 3)
    assert out.sent - before == 8  # every seat changes: the host menu, the others "seat 3 is choosing"
    before = out.sent
    press(runtime, 3, "right")
    assert out.sent - before == 1  # only the host's cursor moved


def test_flicker_inside_settle_window_is_not_a_move(rt):
    runtime, out, clock = rt
    start_toy(runtime)
    uid = sim_uid(token(0, 1))
    runtime.handle(TagChange("B1", uid, True))
    clock.t += 0.1
    runtime.handle(TagChange("B1", uid, False))
    clock.t += 0.1
    runtime.handle(TagChange("C1", uid, True))
    clock.t += 0.3
    runtime.tick()
    assert [m[1]["square"] for m in runtime.app.moves] == ["C1"]


def test_snapshot_replaces_sensed_state_and_stranger_is_named(rt):
    runtime, out, clock = rt
    start_toy(runtime)
    runtime.handle(ReaderStatus("ready"))
    runtime.handle(Snapshot({"seat5.pad": frozenset({"DEADBEEF"})}))
    clock.t += 0.3
    runtime.tick()
    assert out.frames[5].banner.fr == "Étiquette inconnue sur votre plateau : ignorée"
    assert out.frames[2].banner is None
    assert runtime.app.moves == []


def test_table_test_app_echoes_buttons_and_pads(rt):
    runtime, out, clock = rt
    press(runtime, 1)
    press(runtime, 1, "left")  # wraps to the last entry: the table test
    press(runtime, 1)
    runtime.handle(TagChange("seat4.pad", sim_uid(token(1, 2)), True))
    runtime.handle(TagChange("C2", "DEADBEEF", True))
    clock.t += 0.3
    press(runtime, 4, "right")
    lines = [t.fr for t in out.frames[4].screen.lines]
    assert lines[0] == "Bouton : right press (1)" and lines[1] == "Plateau : green/token/2"
    assert lines[2].split()[1] == "..#..."
    assert out.lit == {"seat4.pad": "white", "C2": "white"}
    runtime.handle(ButtonEvent(1, "ok", "press", 0.0))
    runtime.handle(ButtonEvent(1, "ok", "long", 0.0))
    runtime.handle(ButtonEvent(1, "ok", "release", 0.0))
    assert runtime.app.__class__.__name__ == "MenuApp"


def test_quit_returns_to_menu(rt):
    runtime, out, clock = rt
    start_toy(runtime)
    runtime.handle(ButtonEvent(5, "ok", "press", 0.0))
    runtime.handle(ButtonEvent(5, "ok", "long", 0.0))
    assert out.frames[5].screen.title.fr == "Quitter la partie ?"
    runtime.handle(ButtonEvent(5, "ok", "release", 0.0))  # the release after a long press chooses nothing
    assert out.frames[5].screen.title.fr == "Quitter la partie ?"
    press(runtime, 5, "right")
    press(runtime, 5)
    assert out.frames[2].screen.title.fr == "J2 veut quitter"  # seat 2 plays too: it is asked first
    press(runtime, 2, "right")
    press(runtime, 2)
    assert runtime.app.__class__.__name__ == "MenuApp"


@pytest.fixture
def real_table():
    """A runtime as on a real table: chance outcomes come from what is sensed."""
    registry.get_game.cache_clear()
    from firmware_host.storage.tags import all_game_pieces
    out = Recorder()
    clock = Clock()
    runtime = Runtime(load_config(None), sim_registry(all_game_pieces()), out, clock, auto_chance=False, seed=1)
    runtime.handle(ReaderStatus("ready"))
    return runtime, out, clock


def test_real_table_senses_a_dealt_passport(real_table):
    from firmware_host.apps.app import StartRequest
    runtime, out, clock = real_table
    runtime.start(StartRequest("spywhere", (1, 2, 3, 4, 5)))
    assert runtime.app.moves == []  # the table waits for the cards to be dealt
    runtime.handle(TagChange("seat3.pad", sim_uid("spywhere/passport/italie/1"), True))
    clock.t += 0.3
    runtime.tick()
    assert runtime.app.moves == [(-1, {"type": "passport", "to": 2, "card": "spywhere/passport/italie/1"})]


def choose_game(runtime, seat, game_id):
    """The host takes the menu and chooses a game by moving the cursor to it."""
    ids = runtime.app.games()
    press(runtime, seat)
    for _ in range(ids.index(game_id)):
        press(runtime, seat, "right")
    press(runtime, seat)
    assert runtime.app.game_id == game_id


def test_menu_refuses_an_option_that_does_not_suit_the_player_count(real_table):
    runtime, out, clock = real_table
    choose_game(runtime, 1, "operation-zebre")
    press(runtime, 2)
    press(runtime, 1, "right")  # players without a seat
    press(runtime, 1, "right")  # the first option: mode
    press(runtime, 1)           # coop -> competitive
    press(runtime, 1, "left")
    press(runtime, 1, "left")
    press(runtime, 1)           # start with 2 players in competitive mode
    assert runtime.app.__class__.__name__ == "MenuApp"
    assert out.frames[1].banner.fr.startswith("Impossible")


def test_a_stranger_is_named_once_while_it_lies_there(rt):
    runtime, out, clock = rt
    start_toy(runtime)
    runtime.handle(ReaderStatus("ready"))
    runtime.handle(TagChange("E5", "DEADBEEF", True))
    clock.t += 0.3
    runtime.tick()
    assert len(runtime.app.ui[0].notices) == 1
    runtime.handle(TagChange("A1", sim_uid(token(0, 1)), True))
    clock.t += 0.3
    runtime.tick()
    assert len(runtime.app.moves) == 1
    assert sum("inconnue" in n.text.fr for n in runtime.app.ui[0].notices) == 1


def test_buzzer_cues_for_presses_refusals_and_the_end(rt):
    runtime, out, clock = rt
    start_toy(runtime)
    runtime.handle(ReaderStatus("ready"))
    out.cues.clear()
    runtime.handle(TagChange("D1", sim_uid(token(0, 1)), True))  # off the row: refused
    clock.t += 0.3
    runtime.tick()
    assert out.cues == ["error"]
    runtime.handle(TagChange("D1", sim_uid(token(0, 1)), False))
    for _i, (sq, piece) in enumerate([("A1", token(0, 1)), ("C1", token(1, 1))]):
        runtime.handle(TagChange(sq, sim_uid(piece), True))
        clock.t += 0.3
        runtime.tick()
    press(runtime, 1)  # not playing: no cue
    press(runtime, 2, "right")
    assert out.cues == ["error", "turn", "turn", "tick"]  # each new turn has its cue
    for zone, piece, present in [("B1", token(0, 2), True), ("A1", token(0, 1), False), ("A1", token(1, 2), True)]:
        runtime.handle(TagChange(zone, sim_uid(piece), present))
        clock.t += 0.3
        runtime.tick()
    assert runtime.app.over and out.cues[-1] == "win"


def test_menu_adds_players_without_a_seat(real_table):
    runtime, out, clock = real_table
    choose_game(runtime, 1, "operation-zebre")
    for seat in (2, 3, 4):
        press(runtime, seat)                     # four seated players
    labels = [t.fr for t in out.frames[1].menu]
    assert labels[1] == "Joueurs sans siège : 0" and labels[2].startswith("Mode")
    press(runtime, 1, "right")
    press(runtime, 1)
    press(runtime, 1)                            # two players without a seat
    press(runtime, 1, "right")
    press(runtime, 1)                            # mode: competitive
    assert [t.fr for t in out.frames[1].menu][0] == "Commencer (6 joueurs)"
    press(runtime, 1, "left")
    press(runtime, 1, "left")
    press(runtime, 1)
    session = runtime.app
    assert isinstance(session, GameSession) and session.seats == (1, 2, 3, 4, None, None)
    assert session.config.players == 6 and session.config.options["mode"] == "competitive"
    assert set(out.frames) == set(range(1, 9)) and out.frames[5].screen.lines[0].fr == "Partie en cours :"
