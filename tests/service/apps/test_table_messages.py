"""The table's side of the conversation: messages never swallow a deliberate press, a refusal's
reason comes with its instruction (for that mistake only), another game's piece is named at once
and its zone is not lit as free, abandoning a saved game is asked again, and Opération Zèbre asks
before another side of the card throws the censoring away."""

from __future__ import annotations

from firmware_host.apps import reconcile
from firmware_host.apps.app import AbandonUnfinished, Unfinished
from firmware_host.apps.menu import Do, MenuApp
from firmware_host.apps.session import GameSession
from firmware_host.storage.tags import sim_registry, sim_uid
from games.core import Choice, GameConfig, Text, tr
from tests.kits.tabledriver import Driver
from tests.kits.toyboard import GAME, token

ZONES = {"A1", "B1", "C1", "D1", "seat1.pad", "seat2.pad"}


class Clock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def toy_session() -> GameSession:
    reg = sim_registry(GAME.pieces() + ["zop/light/attack/1"])
    s = GameSession(GAME, GameConfig(players=2), (1, 2), reg, ZONES, Clock(), auto_chance=True)
    s.sense({})
    return s


def sensed(**squares: str) -> dict[str, frozenset[str]]:
    return {sq: frozenset({sim_uid(p)}) for sq, p in squares.items()}


def test_a_message_sits_above_a_menu_and_the_press_acts():
    s = toy_session()
    s.notify(frozenset({0}), tr("Bienvenue", "Welcome"))
    frame = s.seat_frame(0)
    assert frame.banner is None and frame.status == tr("Bienvenue", "Welcome") and frame.menu  # menu in view
    s.press(0, "ok", "press")  # one press: the message goes AND the entry is chosen
    assert s.state.rung == 1 and not s.ui[0].notices


def test_without_a_menu_a_message_covers_the_screen_and_a_press_only_clears_it():
    s = toy_session()
    s.notify(frozenset({1}), tr("Bienvenue", "Welcome"))
    assert not s.menu(1) and s.seat_frame(1).banner == tr("Bienvenue", "Welcome") and s.seat_frame(1).status is None
    s.press(1, "ok", "press")
    assert not s.ui[1].notices and s.moves == []


def test_guardian_moves_with_two_presses_under_a_message():
    """Drôles de Zèbres on the simulated table: each time a seat has a menu AND a message, one
    press on ▶ moves the cursor and OK chooses (it took three presses when a message ate one)."""
    driver = Driver(seed=5)
    try:
        driver.start("droles-de-zebres", [1, 2], {"first_player": "seat0"})
        checked = 0
        for _ in range(400):
            s = driver.session
            if s.over or checked >= 3:
                break
            if driver.follow_instruction():
                continue
            seat = next(x for x in sorted(s.game.to_act(s.state)) if x >= 0)
            menu = s.menu(seat)
            if len(menu) > 1:
                s.notify(frozenset({seat}), tr("Le zèbre est posé.", "The zebra is down."))
                moves = len(s.moves)
                driver.send({"press": s.seats[seat], "button": "right"})
                driver.send({"press": s.seats[seat], "button": "ok"})
                assert len(s.moves) == moves + 1 and s.moves[-1] == (seat, menu[1].action)
                checked += 1
                continue
            driver.do(seat, driver.rng.choice(driver.reachable(seat)))
        assert checked == 3
    finally:
        driver.close()


def test_refusal_reason_shows_with_its_instruction_and_only_for_that_mistake():
    s = toy_session()
    s.sense(sensed(D1=token(0, 1)))  # not a square of the game: refused, with a reason
    assert s.seat_frame(0).banner.fr == "Retirez le jeton blanc de D1. Seulement A1, B1 ou C1"
    assert s.seat_frame(1).banner.fr == "Retirez le jeton blanc de D1"  # the reason is the mover's
    assert not s.ui[0].notices  # nothing queued to show later
    s.sense({})
    assert s.seat_frame(0).banner is None and s.reason is None
    s.sense(sensed(A1=token(1, 1)))  # the next mistake (the other player's token) has no reason
    assert s.seat_frame(0).banner.fr == "Retirez le jeton vert de A1"


def shown_in_turn(driver: Driver, seats: tuple[int, ...], seconds: float) -> dict[int, tuple[list[str], str]]:
    """For each table seat: every part its screen shows of its notice, in turn, until it is read
    (at most `seconds`), and what the screen shows then."""
    s = driver.session
    seen: dict[int, list[str]] = {x: [] for x in seats}
    for _ in range(int(seconds / 0.5)):
        for x in seats:
            frame = driver.sim.frames()[x]
            shown = frame.banner or frame.status
            if s.ui[s.game_seat(x)].notices and shown is not None and (not seen[x] or seen[x][-1] != shown.fr):
                seen[x].append(shown.fr)
        driver.send({"advance": 0.5})
    assert not any(s.ui[s.game_seat(x)].notices for x in seats), "a notice is still there"
    frames = driver.sim.frames()
    return {x: (seen[x], (frames[x].banner or frames[x].status or tr("", "")).fr) for x in seats}


def test_other_games_pieces_laid_at_once_are_named_at_once_in_one_notice_on_the_screens_concerned():
    """Drôles de Zèbres on the simulated table, an instruction showing: pieces of two other games
    and an unknown tag laid in one gesture are named by the games' names, in one notice per seat,
    at once over the instruction; the piece on seat 1's pad is seat 1's news only; the
    instruction comes back once the notice is read."""
    driver = Driver(seed=2)
    try:
        driver.start("droles-de-zebres", [1, 2], {"first_player": "seat0"})
        s = driver.session
        driver.send({"place": "A1", "piece": "droles-de-zebres/green/lion/1"})  # not now: an instruction
        assert s.instruction is not None
        told = {x: driver.sim.frames()[x].banner for x in (1, 2)}
        driver.send({"place": "C3", "piece": "zop/light/attack/1", "settle": False})
        driver.send({"place": "D4", "piece": "mata-hari/partners/hitman/1", "settle": False})
        driver.send({"place": "seat1.pad", "piece": "zop/light/attack/2", "settle": False})
        driver.send({"place": "E5", "tag": "DEADBEEF"})
        assert s.instruction is not None and all(len(ui.notices) == 1 for ui in s.ui)  # one notice each
        whole = {x: s.ui[x].notices[0].text.fr for x in (0, 1)}
        assert whole[0] == ("Pièces d'autres jeux (ZOP, Opération Mata Hari) sur C3, D4, votre plateau : ignorées"
                            " · Étiquette inconnue sur E5 : ignorée")
        assert whole[1] == ("Pièces d'autres jeux (ZOP, Opération Mata Hari) sur C3, D4 : ignorées"
                            " · Étiquette inconnue sur E5 : ignorée")
        for table_seat, (parts, after) in shown_in_turn(driver, (1, 2), 6.0).items():
            gseat = table_seat - 1
            assert parts[0].startswith("Pièces d'autres jeux (ZOP, Opération Mata Hari)")  # at once, first
            assert " ".join(parts).split() == whole[gseat].split()  # every word of it, in turn
            assert after == told[table_seat].fr  # then the instruction again
        assert driver.sim.runtime.lit.get("C3") == "red"
        driver.send({"remove": "C3", "piece": "zop/light/attack/1"})
        assert driver.sim.runtime.lit.get("C3") != "red"
    finally:
        driver.close()


def test_a_piece_of_another_game_is_named_by_its_game_name():
    strangers = [reconcile.Stranger("B1", "U1", "droles-de-zebres/white/lion/1")]
    text = reconcile.strangers_text(strangers, lambda z: Text(z, z))
    assert text == tr("Pièce d'un autre jeu (Drôles de Zèbres) sur B1 : ignorée",
                      "Piece of another game (Drôles de Zèbres) on B1: ignored")
    gone = [reconcile.Stranger("B1", "U2", "removed-game/x/1"), reconcile.Stranger("B2", "U3", "removed-game/x/2")]
    assert reconcile.strangers_text(gone, lambda z: Text(z, z)).fr == \
        "Pièces d'un autre jeu (removed-game) sur B1, B2 : ignorées"  # a game this table lacks: its id


def test_abandoning_a_saved_game_is_asked_again_with_no_first():
    menu = MenuApp((1, 2, 3))
    menu.unfinished = Unfinished(7, "zop", (1, 2))
    menu.on_button(1, "ok", "press")  # takes the menu
    keys = [key for _, key in menu.entries()]
    menu.cursor = keys.index(Do("abandon"))
    assert menu.on_button(1, "ok", "press") is None and menu.step == "abandon"
    assert [label.fr for label, _ in menu.entries()][0] == "Non" and menu.cursor == 0
    assert menu.frame(1).screen.title.fr == "Abandonner la partie ?"
    assert menu.on_button(1, "ok", "press") is None  # "Non": nothing lost
    assert menu.unfinished is not None and menu.step == "home"
    menu.cursor = keys.index(Do("abandon"))
    menu.on_button(1, "ok", "press")
    menu.on_button(1, "right", "press")
    assert menu.on_button(1, "ok", "press") == AbandonUnfinished(7) and menu.unfinished is None


def test_operation_zebre_asks_before_the_other_side_drops_the_censoring():
    from games.operation_zebre import GAME as OZ

    seats = (1, 2, 3)
    s = GameSession(OZ, GameConfig(3), seats, sim_registry(OZ.pieces()), {f"seat{x}.pad" for x in seats},
                    Clock(), auto_chance=True)
    s.sense({})
    s.sense({"seat1.pad": frozenset({sim_uid("operation-zebre/documents/sample/1")})})
    side = next(c for c in s.menu(0) if isinstance(c, Choice) and c.action["type"] == "side")
    assert side.confirm is None  # nothing censored yet: nothing to lose
    s.apply(0, side.action)
    censor = next(c for c in s.menu(0) if isinstance(c, Choice) and c.action["type"] == "censor")
    s.apply(0, censor.action)
    other = next(c for c in s.menu(0) if isinstance(c, Choice) and c.action["type"] == "side")
    assert other.confirm is not None and "censure" in other.confirm.fr
    hidden = s.state.readings
    s.ui[0].cursor = s.menu(0).index(other)
    s.press(0, "ok", "press")  # asked, "Non" first
    assert s.ui[0].confirming == other and s.state.readings == hidden
    s.press(0, "ok", "press")  # Non: the censoring stays
    assert s.ui[0].confirming is None and s.state.readings == hidden


def test_text_is_a_value():
    assert Text("a", "b") == tr("a", "b")
