"""Opération Zèbre in a table session: a laid card becomes the move, buttons do the rest, the
interception countdown expires by itself on the fake clock."""

from __future__ import annotations

from firmware_host.apps.session import GameSession
from firmware_host.storage.tags import sim_registry, sim_uid
from games.core import GameConfig
from games.operation_zebre import GAME

SEATS = (1, 2, 3, 4, 5, 6)
ZONES = {f"seat{s}.pad" for s in SEATS}
CARD = "operation-zebre/documents/sample/1"


class Clock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def choose(session: GameSession, seat: int, label_fr: str) -> None:
    """Move the seat's cursor to a menu entry and press OK."""
    labels = [c.label.fr for c in session.menu(seat)]
    index = labels.index(label_fr)
    session.ui[seat].notices.clear()
    session.ui[seat].cursor = index
    session.press(seat, "ok", "press")


def test_laid_card_then_buttons_then_countdown_expiry():
    clock = Clock()
    session = GameSession(GAME, GameConfig(6, {"mode": "competitive"}), SEATS, sim_registry(GAME.pieces()),
                          ZONES, clock, auto_chance=True)
    session.sense({})
    session.sense({"seat1.pad": frozenset({sim_uid(CARD)})})
    assert session.moves == [(0, {"type": "lay", "card": "sample/1"})]
    choose(session, 0, "Recto : France")
    assert session.seat_frame(0).screen.lines[1].fr == "France"  # after "Somme → croix", the line acted on
    assert all("France" not in (ln.fr for ln in session.seat_frame(s).screen.lines) for s in range(1, 6))
    choose(session, 0, "Valider (13 croix)")
    for seat in (2, 1, 3):
        choose(session, seat, "Sans carte (somme)")
        choose(session, seat, "Somme visible : 1")
    assert session.state.phase == "transmit" and session.instruction is not None  # take the card back
    session.sense({})
    reader = session.state.reader
    assert reader == 1  # team B ticked less: it reads first
    choose(session, reader, "Lu à voix haute")
    clock.t += 4.0
    assert 0.5 < session.seat_frame(0).screen.bar < 0.7 and session.seat_frame(3).screen.bar is None
    clock.t += 6.5
    session.expire()
    assert session.state.lock is False and session.state.step == "guess"
    assert session.moves[-1][1] == {"type": "no_intercept"}
