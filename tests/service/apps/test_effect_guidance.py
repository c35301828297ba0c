"""An instruction the table gives because of a game's effect says that effect, in the game's words,
on the screens of every player, and never reads as a fault: Drôles de Zèbres' gazelle that flees a
lion (back in front of its owner) and its crocodile swap (which animal goes where), whether the
move was laid, chosen in the menu or the computer's; Mata Hari's cards dealt or drawn and its Cover
cards laid out; Spywhere's centre cards drawn from the pile, swapped or taken by a computer. A
mistake made meanwhile keeps its own reason."""

from __future__ import annotations

import random
from typing import Any

import pytest

from firmware_host.apps.session import GameSession
from firmware_host.storage.config import load_config
from firmware_host.storage.tags import sim_registry
from games import ai
from games.core import GameConfig
from games.droles_de_zebres.pieces import piece_id
from games.droles_de_zebres.state_diagram import from_diagram
from games.registry import get_game
from tests.kits.mistake_oracle import Clock, moved, new_session, physical, play_one

GAME = get_game("droles-de-zebres")
EMPTY = (". . . . . .",) * 5
LION = piece_id("white", "lion", 1)
CROC = piece_id("white", "crocodile", 1)


def session(state: Any, computer: int | None = None) -> GameSession:
    """Two players at table seats 1 and 2 (game seat `computer` played by the computer), the
    board of `state` laid."""
    s = GameSession(GAME, GameConfig(2), (1, 2), sim_registry(GAME.pieces()), set(load_config(None).zones), Clock(),
                    auto_chance=True, state=state)
    if computer is not None:
        s.set_computers({computer: "easy"}, hints=False)
    s.sense(physical(s, s.expected()))
    assert s.synced and s.instruction is None
    return s


def lay(s: GameSession, piece: str, zone: str | None) -> None:
    """`piece` laid on `zone` (None: taken off the table) by a hand."""
    s.sense(physical(s, moved(dict(s.layout()), piece, zone)))


def banners(s: GameSession) -> list[str]:
    """What each human's screen shows over the game."""
    return [b.fr if (b := s.seat_frame(x).banner) is not None else "" for x in s.humans()]


def follow(s: GameSession) -> list[str]:
    """Carry out every instruction as told; the banner of each, as every human reads it (the same)."""
    seen: list[str] = []
    for _ in range(20):
        if s.instruction is None:
            return seen
        shown = set(banners(s))
        assert len(shown) == 1, shown  # every player reads the same
        assert s.reason is not None and s.reason.mistake is None, s.reason  # the game's effect, no fault
        seen.append(shown.pop())
        fix = s.instruction.fix
        lay(s, fix.piece, fix.zone if fix.kind == "place" else None)
    raise AssertionError("the instructions never end")


def lion_board(computer: int | None = None) -> GameSession:
    rows = (". . wZ . . .", ". . gE . . .", ". wG . gG . .", ". . . . . .", ". . gC . . .")
    return session(from_diagram(rows, guardian=2, turn=0), computer)


def test_a_gazelle_that_flees_the_lion_is_said_to_flee_back_to_its_owner_on_every_screen() -> None:
    s = lion_board()
    lay(s, LION, "C3")
    assert s.moves[-1][1] == {"type": "place", "piece": LION, "square": "C3"}
    cues = list(s.cues)
    assert follow(s) == [
        "Retirez la gazelle blanche 1 de B3. Elle fuit le lion et retourne devant Blanc.",
        "Retirez la gazelle verte 1 de D3. Elle fuit le lion et retourne devant Vert.",
    ]
    assert "error" not in s.cues[len(cues):]  # an effect sounds no mistake
    assert s.reason is None and s.synced


def test_the_english_table_says_the_flight_too() -> None:
    s = lion_board()
    lay(s, LION, "C3")
    s.lang = "en"
    frame = s.seat_frame(1)
    assert frame.banner is not None
    assert frame.banner.en == "Remove the white gazelle 1 from B3. It flees the lion and goes back in front of White."


def test_the_computers_lion_says_the_flight_to_the_human() -> None:
    s = lion_board(computer=0)
    assert s.apply(0, {"type": "place", "piece": LION, "square": "C3"})
    s.reconcile()
    assert s.instruction is not None and s.instruction.fix.kind == "remove"
    assert banners(s) == ["Retirez la gazelle blanche 1 de B3. Elle fuit le lion et retourne devant Blanc."]


def test_a_crocodile_swap_chosen_in_the_menu_says_which_animal_goes_where() -> None:
    rows = (*EMPTY[:3], "gG gG . . . .", EMPTY[4])
    s = session(from_diagram(rows, guardian=18, turn=0))
    lay(s, CROC, "C4")
    assert s.instruction is None and [c.label.fr for c in s.menu(0)][:2] == ["Échanger avec B4", "Pas d'échange"]
    s.press(0, "ok", "press")  # the first entry: swap with B4
    assert s.moves[-1][1] == {"type": "swap", "square": "B4"}, s.moves
    assert follow(s) == [
        "Retirez la gazelle verte 2 de B4. Échange crocodile-gazelle : elle va en C4.",
        "Posez le crocodile blanc 1 sur B4. Échange crocodile-gazelle : il va en B4.",
        "Posez la gazelle verte 2 sur C4. Échange crocodile-gazelle : elle va en C4.",
    ]


def test_chained_swaps_chosen_in_the_menu_send_the_crocodile_to_its_last_square() -> None:
    rows = (*EMPTY[:3], "gG gG . . . .", ". . gG . . .")
    s = session(from_diagram(rows, guardian=18, turn=0))
    lay(s, CROC, "C4")
    assert [c.label.fr for c in s.menu(0)][:2] == ["Échanger avec C5", "Échanger avec B4"]
    s.press(0, "right", "press")
    s.press(0, "ok", "press")  # swap with B4: the crocodile may swap again, with A4
    assert [c.label.fr for c in s.menu(0)][0] == "Échanger avec A4"
    s.press(0, "ok", "press")  # swap with A4 before anything is laid
    assert [a for _, a in s.moves[-2:]] == [{"type": "swap", "square": "B4"}, {"type": "swap", "square": "A4"}]
    assert follow(s) == [
        "Retirez la gazelle verte 1 de A4. Échange crocodile-gazelle : elle va en B4.",
        "Posez le crocodile blanc 1 sur A4. Échange crocodile-gazelle : il va en A4.",
        "Posez la gazelle verte 2 sur C4. Échange crocodile-gazelle : elle va en C4.",
        "Posez la gazelle verte 1 sur B4. Échange crocodile-gazelle : elle va en B4.",
    ]


def test_a_gazelle_that_fled_laid_again_elsewhere_is_a_mistake_with_its_own_reason() -> None:
    s = lion_board()
    lay(s, LION, "C3")
    gazelle = piece_id("white", "gazelle", 1)
    lay(s, gazelle, "F5")  # taken off B3 as told, then laid on a square no move of White's fills
    assert s.reason is not None and s.reason.mistake is not None
    assert "fuit" not in s.reason.text.fr and all("fuit" not in b for b in banners(s)), banners(s)


def test_a_swapped_crocodile_lifted_afterwards_is_a_mistake_not_the_swap_again() -> None:
    rows = (*EMPTY[:3], ". gG . . . .", EMPTY[4])  # one swap, then the turn ends
    s = session(from_diagram(rows, guardian=18, turn=0))
    lay(s, CROC, "C4")
    s.press(0, "ok", "press")  # swap with B4
    follow(s)
    assert s.synced and s.instruction is None
    lay(s, CROC, None)  # the swap is laid; the crocodile taken away again
    assert s.reason is not None and s.reason.mistake is not None, s.reason
    assert "Échange" not in s.reason.text.fr and all("Échange" not in b for b in banners(s)), banners(s)


# the reasons each game gives for what it moves itself, and one of their texts as the screens read it
EFFECTS = {
    "mata-hari": {"cover_stock": "Les cartes Couverture vont au centre.",
                  "received": "Carte reçue : la table la lit sur votre plateau."},
    "spywhere": {"refill": "Tirée de la pioche pour le centre.", "taken": " prend le brelan ",
                 "swapped": " pose "},
}


@pytest.mark.parametrize("game_id", sorted(EFFECTS))
def test_what_the_game_moves_itself_is_said_with_its_instruction(game_id: str) -> None:
    """Seeded games on the table (solo and between humans): the cards the table deals, draws, lays
    out or a computer's move moves come with the game's reason, on the screens of the seats it
    concerns (a pad's owner only), never as a mistake."""
    want = EFFECTS[game_id]
    seen: set[str] = set()
    for seed in range(8):
        s = new_session(game_id, seed, ai.has_ai(game_id) and seed % 2 == 0)
        rng = random.Random(seed)
        for _ in range(3000):
            if s.over or seen == want.keys():
                break
            reason = s.reason
            if s.instruction is not None and reason is not None and reason.code in want:
                assert reason.mistake is None, reason
                pad = s.instruction.fix.zone.startswith("pad.")
                assert reason.seats == (s.instruction.audience if pad else frozenset(s.humans())), reason
                for seat in reason.seats:
                    banner = s.seat_frame(seat).banner
                    assert banner is not None and banner.fr == f"{s.instruction.text.fr}. {reason.text.fr}", banner
                assert want[reason.code] in reason.text.fr, reason.text
                seen.add(reason.code)
            if not play_one(s, rng):
                break
        if seen == want.keys():
            break
    assert seen == want.keys()
