"""Bad inputs in the middle of every game, on the simulated table (virtual reader on a pty, mock pins).

An unknown tag, a piece of another game, a piece of the game on a square where no move puts it,
a card on the pad of a seat it does not belong to, and storms of hundreds of presses on one
button: each must give its own message on the right screens only, and leave the game's state and
moves exactly as they were; the game then goes on and ends exactly as the fault-free run.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from firmware_host.apps import mistakes, reconcile
from firmware_host.commands.script import state_digest
from firmware_host.screens.layout import plan
from games.core import CHANCE, SQUARES
from tests.kits import faultkit
from tests.kits.faultkit import CASES, GameCase, play_step, reference_run
from tests.kits.tabledriver import Driver

# every game fed bad inputs: tens of seconds in all
pytestmark = [pytest.mark.usefixtures("fault_summary"), pytest.mark.slow]

STORM = 300  # presses in one storm


class Probe:
    """Bad inputs on one driver's table, checking screens and state after each; problems collected."""

    def __init__(self, driver: Driver, rng: random.Random):
        self.driver = driver
        self.rng = rng
        self.problems: list[str] = []
        self.figures: Counter[str] = Counter()

    @property
    def s(self) -> Any:
        return self.driver.session

    def snapshot(self) -> tuple[str, int]:
        return state_digest(self.s.state), len(self.s.moves)

    def banners(self) -> dict[int, str | None]:
        """Every table seat's banner (French), None without one."""
        return {seat: f.banner.fr if f.banner else f.status.fr if f.status else None
                for seat, f in self.driver.sim.frames().items()}

    def clear_messages(self) -> None:
        """Players read their messages: a press dismisses one (◀ then ▶ leaves a menu's cursor where
        it was; OK on a screen without a menu)."""
        for gseat, seat in enumerate(self.s.seats):
            while self.s.ui[gseat].notices:
                if self.s.menu(gseat):
                    self.driver.send({"press": seat, "button": "left"})
                    self.driver.send({"press": seat, "button": "right"})
                else:
                    self.driver.send({"press": seat, "button": "ok"})

    def expect(self, what: str, before: tuple[str, int], shown: dict[int, str | None]) -> None:
        """The state is unchanged and exactly the seats in `shown` show their banner (others none)."""
        if self.snapshot() != before:
            self.problems.append(f"{what}: the game state changed")
        banners = self.banners()
        for seat, banner in banners.items():
            if banner != shown.get(seat):
                self.problems.append(f"{what}: seat {seat} shows {banner!r}, expected {shown.get(seat)!r}")

    def free_zone(self) -> str:
        """A board square (else a centre slot) with nothing on it and nothing expected there."""
        zones = self.s.logical_zones()
        taken = set(self.s.layout()) | set(reconcile.restrict(self.s.game.expected_layout(self.s.state), zones))
        free = [z for z in SQUARES if z not in taken] or sorted(z for z in zones if z.startswith("centre.")
                                                                and z not in taken)
        return self.rng.choice(free)

    def loose_pieces(self) -> list[str]:
        """This game's pieces that are neither on the table nor expected on it."""
        out = set(self.s.game.pieces())
        for pieces in (*self.s.layout().values(), *self.s.game.expected_layout(self.s.state).values()):
            out -= set(pieces)
        return sorted(out)

    # -- the bad inputs ---------------------------------------------------------------------------
    def stranger(self, zone: str, tag: str | None = None, piece: str | None = None) -> None:
        """An unknown tag or another game's piece: named to the zone's players, then ignored."""
        before = self.snapshot()
        key = {"tag": tag} if tag else {"piece": piece}
        self.driver.send({"place": zone, **key})
        self.figures["bad_inputs"] += 1
        self.figures["unknown_tags" if tag else "other_game_pieces"] += 1
        owner = int(zone[4:-4]) if zone.endswith(".pad") else None
        where = "votre plateau" if owner else zone
        text = f"Étiquette inconnue sur {where} : ignorée" if tag else \
            f"Pièce d'un autre jeu ({reconcile.game_name(str(piece).split('/')[0]).fr}) sur {where} : ignorée"
        audience = [owner] if owner else self.s.seats
        # the notice says it all; a screen short of rows shows it in parts, in turn: its first part now
        shown: dict[int, str | None] = {}
        for seat in audience:
            notices = self.s.ui[self.s.seats.index(seat)].notices
            if not notices or notices[0].text.fr != text:
                self.problems.append(f"stranger on {zone}: seat {seat} is told {notices and notices[0].text.fr!r}")
            part = self.banners()[seat]
            shown[seat] = part if part and text.split()[:len(part.split())] == part.split() else text
        self.expect(f"stranger on {zone}", before, shown)
        self.driver.send({"remove": zone, **key})
        self.clear_messages()
        self.expect(f"stranger lifted from {zone}", before, {})

    def half(self, on: dict[str, frozenset[str]]) -> bool:
        """True when `on` is part of a legal move (a card laid before the old one is lifted): the
        table waits for the rest, it is no mistake."""
        exp = dict(self.s.expected())
        on = reconcile.restrict(on, self.s.logical_zones())
        return any(foot != on and mistakes.between(exp, foot, on) for _, _, foot in self.s.footprints())

    def misplaced(self, zone: str, piece: str, what: str) -> None:
        """One of the game's pieces where no move puts it: its owner(s) are told to lift it."""
        before = self.snapshot()
        self.driver.send({"place": zone, "piece": piece})
        logical = self.s.to_logical(zone)
        owner = int(zone[4:-4]) if zone.endswith(".pad") else None
        self.figures["bad_inputs"] += 1
        self.figures["cards_on_wrong_pads" if owner else "pieces_on_illegal_squares"] += 1
        label = "votre plateau" if owner else zone
        text = f"Retirez {self.s.game.piece_label(piece).fr} de {label}"
        audience = [owner] if owner else self.s.seats
        shown: dict[int, str | None] = {seat: text for seat in audience}
        # the table says why to the seats that made the mistake (its class: the mistake oracle's
        # test); an instruction covers it until done
        why = self.s.reason
        if why is not None and self.s.instruction is not None \
                and self.s.instruction.fix == reconcile.Fix("remove", logical, piece):
            self.figures["explained"] += 1
            for gseat in why.seats:
                seat = self.s.seats[gseat]
                if seat is not None:
                    shown[seat] = f"{text}. {why.text.fr}" if seat in shown else why.text.fr
        self.expect(what, before, shown)
        if self.driver.sim.runtime.lit != {zone: "red"}:
            self.problems.append(f"{what}: LEDs {self.driver.sim.runtime.lit}, expected {zone} red")
        self.driver.send({"remove": zone, "piece": piece})
        self.clear_messages()
        self.expect(f"{what}, lifted", before, {})

    def storm(self, seat: int, button: str, presses: int) -> None:
        """Hundreds of presses on one button: only the cursor of that seat may move."""
        before = self.snapshot()
        frames = self.driver.sim.frames()
        gseat = self.s.game_seat(seat)
        menu = len(self.s.menu(gseat)) if gseat is not None else 0
        cursor = self.s.ui[gseat].cursor if gseat is not None else 0
        for _ in range(presses):
            self.driver.send({"press": seat, "button": button})
        self.figures["bad_inputs"] += 1
        self.figures["storm_presses"] += presses
        self.expect(f"{presses} × {button} on seat {seat}", before, {})
        after = self.driver.sim.frames()
        moved = [s for s in frames if s != seat and after[s] != frames[s]]
        if moved:
            self.problems.append(f"storm on seat {seat}: the screens of seats {moved} changed")
        if menu and button == "right":
            # ▶ walks the entries, then the extra pages of a screen too full for one (then round)
            stops = menu + plan(frames[seat].screen, "fr", frames[seat].menu, cursor).pages - 1
            pos = (cursor + presses) % stops
            where = (after[seat].cursor, after[seat].page)
            if where != ((pos, 0) if pos < menu else (0, pos - menu + 1)):
                self.problems.append(f"storm on seat {seat}: at {where}, expected position {pos} of {stops}")
            for _ in range((cursor - pos) % stops):  # back where the player had it
                self.driver.send({"press": seat, "button": "right"})

    def acting_with_menu(self) -> list[int]:
        """Game seats to act whose menu has several entries (a cursor to move)."""
        return [x for x in sorted(self.s.game.to_act(self.s.state)) if x != CHANCE and len(self.s.menu(x)) > 1]

    def ready(self) -> bool:
        """A moment for every bad input: the table matches the game and a menu has a cursor to move."""
        return self.s.instruction is None and bool(self.acting_with_menu())

    def all_of_them(self) -> None:
        """Every kind of bad input, one after another, from a synced table."""
        s, rng = self.s, self.rng
        self.clear_messages()
        uid = "04" + "".join(rng.choice("0123456789ABCDEF") for _ in range(12))
        self.stranger(self.free_zone(), tag=uid)
        self.stranger(f"seat{rng.choice(s.seats)}.pad", tag=uid)
        other = sorted(p for _, p in self.driver.sim.registry if not p.startswith(s.game.id + "/"))
        self.stranger(self.free_zone(), piece=rng.choice(other))
        loose = self.loose_pieces()
        zones = s.logical_zones()
        for piece in rng.sample(loose, len(loose)):
            zone = self.free_zone()
            on = {**s.layout(), zone: frozenset({piece})}
            if not reconcile.matching_actions(s.game, s.state, on, zones) and not self.half(on):
                self.misplaced(zone, piece, f"{piece} on the square {zone}")
                break
        self.wrong_pad()
        self.storm(s.seats[self.acting_with_menu()[0]], "right", STORM)
        idle = [seat for seat in s.seats if not s.menu(s.game_seat(seat))]
        idle += [seat for seat in self.driver.sim.runtime.seat_ids if seat not in s.seats]
        self.storm(idle[0], "ok", STORM)

    def wrong_pad(self) -> None:
        """A card on a pad where no move (nor the first part of one) lays it, if there is one now."""
        s, rng = self.s, self.rng
        loose = self.loose_pieces()
        zones = s.logical_zones()
        tries = [(piece, gseat) for piece in loose for gseat in range(len(s.seats))]
        for piece, gseat in rng.sample(tries, len(tries)):
            pad = f"pad.{gseat}"
            on = {**s.layout(), pad: s.layout().get(pad, frozenset()) | {piece}}
            if not reconcile.matching_actions(s.game, s.state, on, zones) and not self.half(on):
                self.misplaced(s.to_physical(pad), piece, f"{piece} on the pad of seat {s.seats[gseat]}")
                break


@pytest.mark.parametrize("case", CASES, ids=[c.game for c in CASES])
def test_bad_inputs_give_their_message_and_change_nothing(case: GameCase):
    rng = random.Random(case.seed + 100)
    driver = Driver(seed=case.seed)
    probe = Probe(driver, rng)
    at = rng.randint(4, 12)
    try:
        driver.send(case.start)
        step = 0
        while play_step(driver):
            step += 1
            if step >= at and probe.figures["bad_inputs"] == 0 and probe.ready():
                probe.all_of_them()
            elif step >= at and probe.figures["cards_on_wrong_pads"] == 0 and probe.ready():
                probe.clear_messages()
                probe.wrong_pad()  # every card could be laid where it was tried: later in the game
        ref = reference_run(case)
        if (state_digest(driver.session.state), len(driver.session.moves)) != (ref.state, ref.moves):
            probe.problems.append("the game did not end as the fault-free run")
    finally:
        driver.close()
    faultkit.record("bad inputs", mismatches=len(probe.problems), **probe.figures)
    assert probe.problems == []
    kinds = ("unknown_tags", "other_game_pieces", "pieces_on_illegal_squares", "cards_on_wrong_pads")
    assert all(probe.figures[k] >= 1 for k in kinds), dict(probe.figures)
    assert probe.figures["storm_presses"] == 2 * STORM
