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


def test_a_third_reader_of_a_team_is_told_the_team_has_two():
    """Competitive: a third document laid by one team is refused for the rules' limit, on the screen
    of the seat that laid it; once the documents are ready, the table asks for them back as such."""
    from games.core import Mistake

    session = GameSession(GAME, GameConfig(6, {"mode": "competitive"}), SEATS, sim_registry(GAME.pieces()),
                          ZONES, Clock(), auto_chance=True)
    session.sense({})
    laid = {"seat1.pad": frozenset({sim_uid(CARD)})}
    session.sense(laid)
    laid["seat3.pad"] = frozenset({sim_uid("operation-zebre/documents/sample/2")})
    session.sense(laid)
    assert [seat for seat, _ in session.moves] == [0, 2]  # two readers of team A
    session.sense({**laid, "seat5.pad": frozenset({sim_uid("operation-zebre/documents/sample/3")})})
    why = session.reason
    assert why is not None and why.mistake is Mistake.OVER_LIMIT and why.seats == {4}
    assert session.seat_frame(4).banner.fr.endswith("Votre équipe a déjà 2 lecteurs.")
    assert all(session.seat_frame(x).banner is None or "lecteurs" not in session.seat_frame(x).banner.fr
               for x in range(6) if x != 4)


def test_a_ready_document_is_asked_back_without_calling_it_a_mistake():
    """Every reader validated: "take your document back" is guidance, not a fault (no error sound)."""
    session = GameSession(GAME, GameConfig(6, {"mode": "competitive"}), SEATS, sim_registry(GAME.pieces()),
                          ZONES, Clock(), auto_chance=True)
    session.sense({})
    session.sense({"seat1.pad": frozenset({sim_uid(CARD)})})
    choose(session, 0, "Recto : France")
    choose(session, 0, "Valider (13 croix)")
    for seat in (2, 1, 3):
        choose(session, seat, "Sans carte (somme)")
        choose(session, seat, "Somme visible : 1")
    session.take_cues()
    session.reconcile()
    assert session.state.phase == "transmit" and session.instruction is not None
    assert session.reason is not None and session.reason.mistake is None
    assert session.seat_frame(0).banner.fr.endswith("Dossier prêt : reprenez-le.")
    assert "error" not in session.take_cues()
