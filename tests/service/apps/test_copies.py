"""Opération Mata Hari's partners of one kind are printed alike: on the simulated table, a copy
laid where the table asks for another ("Posez Mata Hari sur votre plateau") is taken for it when
no seat can tell (the copy was in that player's hand or in the pile), and the table then reads
each tag as the other; a copy another player holds is not."""

from __future__ import annotations

from firmware_host.apps.copies import Copies
from games.mata_hari import GAME, pieces
from games.mata_hari.table import stands_for
from tests.kits.mata_hari_kit import dealt, lay_all, par, res
from tests.kits.tabledriver import Driver


def partner_kind(piece: str) -> str | None:
    return pieces.card(piece).partner if pieces.is_card(piece) else None


def test_a_partner_copy_from_the_pile_is_taken_for_the_one_the_table_dealt() -> None:
    driver = Driver(seed=3)
    try:
        driver.start("mata-hari", [1, 2, 3])
        s = driver.session
        swapped = None
        for _ in range(300):
            inst = s.instruction
            if inst is None:
                break
            fix = inst.fix
            kind = partner_kind(fix.piece)
            twin = next((p for p in s.state.pile if kind is not None and partner_kind(p) == kind), None)
            if swapped is None and fix.kind == "place" and twin is not None and kind is not None:
                table_seat = s.seats[int(fix.zone[4:])]
                assert table_seat is not None
                banner = driver.sim.frames()[table_seat].banner
                assert banner is not None and banner.fr == (f"Posez {pieces.name(kind).fr} sur votre plateau. "
                                                            "Carte reçue : la table la lit sur votre plateau.")
                moves = len(s.moves)
                driver.send({"place": s.to_physical(fix.zone), "piece": twin})  # the copy at hand
                # taken for the one asked: neither the copy asked for nor the one laid is asked about again
                assert s.instruction is None or s.instruction.fix.piece not in (fix.piece, twin)
                assert len(s.moves) == moves and s.table.copies.reads == {twin: fix.piece, fix.piece: twin}
                swapped = (int(fix.zone[4:]), fix.piece, twin)
                continue
            assert driver.follow_instruction()
        assert swapped is not None and s.instruction is None  # the deal lies on the pads as the game has it
        seat, wanted, twin = swapped
        pad = s.to_physical(f"pad.{seat}")
        assert pad is not None
        on_pad = sorted(p for p in (s.registry.piece(uid) for uid in s.sensed[pad]) if p is not None)
        assert twin in on_pad and wanted not in on_pad
        for i, piece in enumerate(on_pad):  # the player lifts the cards into the hand: the move is read
            driver.send({"remove": pad, "piece": piece, "settle": i == len(on_pad) - 1})
        assert s.moves[-1] == (seat, {"type": "lift"}) and wanted in s.state.seats[seat].hand
    finally:
        driver.close()


def test_a_copy_stands_for_another_only_where_nobody_can_tell() -> None:
    state = dealt(3, {0: [par("mata-hari", 1), par("mata-hari", 2), res("documents", 7)],
                      1: [par("hitman", 1)]})
    state = lay_all(state, 0, [par("mata-hari", 1)])
    assert stands_for(state, "pad.0", par("mata-hari", 1), par("mata-hari", 2))  # both in J1's hand
    assert not stands_for(state, "pad.0", par("mata-hari", 1), par("hitman", 1))  # another kind
    assert not stands_for(state, "pad.1", par("mata-hari", 1), par("mata-hari", 2))  # not wanted there
    state = dealt(3, {0: [par("mata-hari", 1)], 1: [par("mata-hari", 2)]})
    state = lay_all(state, 0, [par("mata-hari", 1)])
    assert not stands_for(state, "pad.0", par("mata-hari", 1), par("mata-hari", 2))  # J2 holds it
    assert GAME.stands_for(state, "pad.0", par("mata-hari", 1), par("mata-hari", 1)) is False


def test_swaps_compose_into_one_reading_of_each_tag() -> None:
    copies = Copies()
    copies._swap("a", "b")
    copies._swap("b", "c")  # the tag read as b (tag a) now reads as c, tag c as b
    assert copies.reads == {"a": "c", "c": "b", "b": "a"}
    assert copies.read({"pad.0": frozenset({"a", "c"})}) == {"pad.0": frozenset({"c", "b"})}
