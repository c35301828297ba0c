"""Seeded games played through the table's session, and the mistakes one can make at the table
now, each with its class (a `Mistake`, a half move, a stranger), the seats that made it and the
table's tags that make it: the hands of tests/service/apps/test_mistake_oracle.py and
test_effect_guidance.py."""

from __future__ import annotations

import random

from firmware_host.apps import computer_seats
from firmware_host.apps.computer import InlineThinker
from firmware_host.apps.session import GameSession
from firmware_host.storage.config import load_config
from firmware_host.storage.tags import sim_registry, sim_uid
from games.core import BadConfig, GameConfig, Mistake
from games.registry import available_ids, get_game

HALF = "half_move"  # the first part of a legal move: no mistake
STRANGER = "stranger"  # a piece of another game: not this game's mistake, named as a stranger
Layout = dict[str, frozenset[str]]


def physical(s: GameSession, logical: Layout) -> Layout:
    """The tags lying on the table for a layout of this game's zones."""
    out: Layout = {}
    for zone, pieces in logical.items():
        where = s.to_physical(zone)
        if where is not None and where in s.zones and pieces:
            out[where] = frozenset(sim_uid(p) for p in pieces)
    return out


def moved(layout: Layout, piece: str, zone: str | None) -> Layout:
    """`layout` with `piece` taken from where it lies and laid on `zone` (None: lifted)."""
    out = {z: ps - {piece} for z, ps in layout.items()}
    if zone is not None:
        out[zone] = out.get(zone, frozenset()) | {piece}
    return {z: ps for z, ps in out.items() if ps}


Mistaken = tuple[object, frozenset[int], Layout]  # (class, the seats that made it, the table)


class Oracle:
    """The mistakes one can make now, each with its class and who made it."""

    def __init__(self, s: GameSession, rng: random.Random) -> None:
        self.s, self.rng = s, rng
        self.game, self.state = s.game, s.state
        self.exp: Layout = dict(s.expected())
        self.humans = frozenset(s.humans())
        self.computers = s.computers.seats
        self.to_act = s.to_act()
        self.acting = self.to_act & self.humans
        self.feet = s.footprints()
        self.zones = sorted(s.logical_zones())
        self.board = [z for z in self.zones if not z.startswith("pad.")]
        self.on_table = {p for ps in self.exp.values() for p in ps}
        self.off_table = sorted(p for p in self.game.pieces() if p not in self.on_table)

    def added(self, foot: Layout) -> list[tuple[str, str]]:
        return [(z, p) for z in sorted(foot) for p in sorted(foot[z] - self.exp.get(z, frozenset()))]

    def human_lays(self, piece: str, zone: str) -> bool:
        """True when some legal move of a human puts `piece` on `zone`."""
        return any(seat in self.humans and piece in foot.get(zone, frozenset()) for seat, _, foot in self.feet)

    def owner(self, piece: str) -> int | None:
        return self.game.owner(self.state, piece)

    def candidates(self) -> list[Mistaken]:
        """One mistake of each class that can be made now."""
        out: list[Mistaken] = []
        for make in (self.wrong_zone, self.not_yours, self.out_of_turn, self.computer_to_play, self.lifted,
                     self.on_pad, self.rule, self.half_move, self.stranger):
            made = make()
            if made is None or made[0] != STRANGER and any(foot == made[2] for _, _, foot in self.feet):
                continue  # a legal move of some seat (the computer's, laid by a human): no mistake
            if made[0] not in (HALF, STRANGER) and self._half(made[2]):
                continue
            out.append(made)
        return out

    def wrong_zone(self) -> Mistaken | None:
        rng = self.rng
        moves = [(seat, self.added(foot)) for seat, _, foot in self.feet if seat in self.acting]
        moves = [(seat, added) for seat, added in moves if added]
        if not moves:
            return None
        seat, added = rng.choice(moves)
        zone, piece = rng.choice(added)
        if self.owner(piece) not in (None, seat):
            return None
        occupied = rng.random() < 0.5
        where = [z for z in self.board if z != zone and not self.human_lays(piece, z)
                 and bool(self.exp.get(z)) == occupied and piece not in self.exp.get(z, frozenset())]
        if not where:
            return None
        owner = self.owner(piece)
        seats = frozenset({seat}) if owner == seat or len(self.acting) == 1 else self.acting
        return (Mistake.OCCUPIED if occupied else Mistake.WRONG_SQUARE, seats,
                moved(self.exp, piece, rng.choice(where)))

    def _free_board(self, piece: str) -> list[str]:
        return [z for z in self.board if not self.exp.get(z) and not self.human_lays(piece, z)]

    def not_yours(self) -> Mistaken | None:
        """The human to act lays a piece of the computer's seat (one the game knows the owner of)."""
        if len(self.acting) != 1:
            return None
        theirs = [p for p in self.off_table if self.owner(p) in self.computers]
        where = self._free_board(theirs[0]) if theirs else []
        if not where:
            return None
        return Mistake.NOT_YOURS, self.acting, moved(self.exp, self.rng.choice(theirs), self.rng.choice(where))

    def out_of_turn(self) -> Mistaken | None:
        """A human the game is not waiting for lays a card on its pad, or one of its own pieces."""
        idle = sorted(self.humans - self.to_act)
        if not idle or not self.acting:
            return None
        seat = self.rng.choice(idle)
        own = [p for p in self.off_table if self.owner(p) == seat]
        pad = f"pad.{seat}"
        where = self._free_board(own[0]) if own else []
        if pad in self.zones and self.off_table and (not where or self.rng.random() < 0.5):
            piece = self.rng.choice(self.off_table)
            # a limit of the rules (a team's third reader) is named as such: the rules know it
            kind = self._limit(seat, pad, piece) or Mistake.OUT_OF_TURN
            return kind, frozenset({seat}), moved(self.exp, piece, pad)
        if not where:
            return None
        return Mistake.OUT_OF_TURN, frozenset({seat}), moved(self.exp, self.rng.choice(own), self.rng.choice(where))

    def _limit(self, seat: int, zone: str, piece: str) -> Mistake | None:
        why = self.game.explain(self.state, seat, zone, piece)
        return self.game.mistakes.get(why.code) if why is not None else None

    def computer_to_play(self) -> Mistaken | None:
        """Only the computer is to play: a human lays a piece."""
        if self.acting or not self.to_act & self.computers or not self.off_table or not self.humans:
            return None
        seat = self.rng.choice(sorted(self.humans))
        piece = self.rng.choice(self.off_table)
        pad = f"pad.{seat}"
        zones = [pad] if pad in self.zones else []
        zones += [z for z in self.board if not self.exp.get(z)]
        if not zones:
            return None
        zone = self.rng.choice(zones)
        owner = self.owner(piece)
        seats = frozenset({seat}) if zone == pad or owner is None or owner in self.computers else frozenset({owner})
        if zone != pad and owner is None:
            seats = self.humans
        return Mistake.COMPUTER_TO_PLAY, seats, moved(self.exp, piece, zone)

    def lifted(self) -> Mistaken | None:
        """A human to act lifts a piece no move of its lifts: from its pad, or (the only one to act)
        from the board."""
        if not self.acting:
            return None
        seat = self.rng.choice(sorted(self.acting))
        zones = [*self.board, f"pad.{seat}"] if len(self.acting) == 1 else [f"pad.{seat}"]
        lying = [(z, p) for z in zones for p in sorted(self.exp.get(z, frozenset()))
                 if self.owner(p) in (None, seat, *self.computers) and z in self.zones]
        if not lying:
            return None
        zone, piece = self.rng.choice(lying)
        table = moved(self.exp, piece, None)
        if self._half(table) or any(foot == table for _, _, foot in self.feet):
            return None
        return Mistake.LIFTED, frozenset({seat}), table

    def on_pad(self) -> Mistaken | None:
        """A card laid on the pad of the human to act that the rules refuse: for a limit or a rule."""
        if len(self.acting) != 1 or not self.off_table:
            return None
        seat = min(self.acting)
        pad = f"pad.{seat}"
        if pad not in self.zones:
            return None
        piece = self.rng.choice(self.off_table)
        table = moved(self.exp, piece, pad)
        if self._half(table) or any(foot == table for _, _, foot in self.feet):
            return None
        limit = self._limit(seat, pad, piece)
        if limit is None:
            return None
        return limit, frozenset({seat}), table

    def rule(self) -> Mistaken | None:
        """A human to act lays a piece it may lay nowhere now, on its pad or (the only one to act) a
        zone of the board, and the rules say why (not a limit): their own reason (RULE)."""
        if not self.acting or not self.off_table:
            return None
        seat = self.rng.choice(sorted(self.acting))
        piece = self.rng.choice(self.off_table)
        zones = [*self.board, f"pad.{seat}"] if len(self.acting) == 1 else [f"pad.{seat}"]
        zone = self.rng.choice([z for z in zones if z in self.zones] or [""])
        if not zone:
            return None
        if self.owner(piece) not in (None, seat) or any(
                x == seat and piece in foot[z] - self.exp.get(z, frozenset()) for x, _, foot in self.feet for z in foot):
            return None  # another seat's piece, or one the seat may lay: other classes
        why = self.game.explain(self.state, seat, zone, piece)
        if why is None or why.code in self.game.mistakes or why.code in self.game.guidance:
            return None
        return Mistake.RULE, frozenset({seat}), moved(self.exp, piece, zone)

    def stranger(self) -> Mistaken | None:
        """A piece of another game laid on a zone of this table (now and then: it is no mistake of
        this game, and the mistakes are what is counted)."""
        if self.rng.random() > 0.15:
            return None
        others = [g for g in available_ids() if g != self.game.id]
        piece = self.rng.choice(get_game(self.rng.choice(others)).pieces())
        return STRANGER, frozenset(), moved(self.exp, piece, self.rng.choice(self.zones))

    def _half(self, table: Layout) -> bool:
        for seat, _, foot in self.feet:
            if seat in self.humans and foot != table and all(
                    self.exp.get(z, frozenset()) & foot.get(z, frozenset()) <= table.get(z, frozenset())
                    <= self.exp.get(z, frozenset()) | foot.get(z, frozenset()) for z in {*self.exp, *foot, *table}):
                return True
        return False

    def half_move(self) -> Mistaken | None:
        """Part of a legal move of several pieces: its lifts (or one of its pieces) only."""
        moves = []
        for seat, _, foot in self.feet:
            if seat not in self.acting:
                continue
            lifts = [(z, p) for z in sorted(self.exp) for p in sorted(self.exp[z] - foot.get(z, frozenset()))]
            lays = self.added(foot)
            if len(lifts) + len(lays) >= 2:
                moves.append((lifts, lays))
        if not moves:
            return None
        lifts, lays = self.rng.choice(moves)
        table = dict(self.exp)
        part = lifts[:1] if lifts else lays[:1]
        for zone, piece in part:
            table = moved(table, piece, None) if (zone, piece) in lifts else moved(table, piece, zone)
        if any(foot == table for _, _, foot in self.feet):
            return None
        return HALF, frozenset(), table


def computer_move_mistakes(s: GameSession, rng: random.Random, before: Layout, gesture: Layout
                           ) -> Mistaken | None:
    """The computer's move (its own gesture, `gesture`: its footprint) waits to be laid: it is laid
    on another zone, or another piece is laid."""
    exp = dict(s.expected())
    if all(gesture.get(z, frozenset()) == before.get(z, frozenset()) for z in {*gesture, *before}
           if not z.startswith("pad.")):
        return None  # nothing of it to lay: the table waits for the move's effects only
    # what the table must show now (the move and all that followed it), on the board and centre
    laid = [(z, p) for z in sorted(exp) for p in sorted(exp[z] - before.get(z, frozenset())) if not z.startswith("pad.")]
    zones = sorted(s.logical_zones())
    humans = frozenset(s.humans())
    changes = [(z, p, True) for z, p in laid] + [
        (z, p, False) for z in sorted(before) for p in sorted(before[z] - exp.get(z, frozenset()))]
    if len(changes) >= 2 and rng.random() < 0.3:  # carried out as told, part of it so far: no mistake
        zone, piece, lay = rng.choice(changes)
        return HALF, frozenset(), moved(before, piece, zone if lay else None)
    if laid and rng.random() < 0.7:
        zone, piece = rng.choice(laid)
        where = [z for z in zones if z != zone and not z.startswith("pad.") and piece not in exp.get(z, frozenset())]
        if where:
            return Mistake.COMPUTER_MOVE, humans, moved(before, piece, rng.choice(where))
    off = sorted(p for p in s.game.pieces() if not any(p in ps for ps in exp.values()))
    free = [z for z in zones if not z.startswith("pad.") and not before.get(z) and not exp.get(z)]
    if off and free:
        return Mistake.COMPUTER_MOVE, humans, moved(before, rng.choice(off), rng.choice(free))
    return None


class Clock:
    """The table's clock, moved by the test."""

    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


# a class that only a set-up the random draws never give can show: (players, options) played on
# every third seed (a team's third reader needs the competitive mode, 6 players at least)
STEER: dict[str, tuple[int, dict[str, object]]] = {
    "operation-zebre": (6, {"mode": "competitive", "echecs": 4, "boxes_removed": 0, "protocol": "none",
                            "missions": "none"})}


def new_session(game_id: str, seed: int, solo: bool) -> GameSession:
    """A game as the table starts it: one human and computers (solo), or humans only; the number
    of players and the options drawn from the seed (a valid set), or steered (STEER)."""
    game = get_game(game_id)
    rng = random.Random(f"config/{seed}")
    seats = len({z[:-4] for z in load_config(None).zones if z.endswith(".pad")})
    players = rng.randint(max(2, game.min_players), min(game.max_players, seats, game.min_players + 3))
    steer = STEER.get(game_id) if seed % 3 == 1 else None
    if steer is not None:
        players = steer[0]
    for _ in range(20):
        options = {o.key: rng.choice(o.choices) for o in game.options}
        options.update(steer[1] if steer is not None else {})
        if solo:
            options.update(computer_seats.REQUIRED_OPTIONS.get(game_id, {}))
        config = GameConfig(players, options, seed)
        try:
            config = game.validate_config(config)
            break
        except BadConfig:
            continue
    else:
        config = GameConfig(players, dict(computer_seats.REQUIRED_OPTIONS.get(game_id, {})) if solo else {}, seed)
    s = GameSession(game, config, tuple(range(1, players + 1)),
                    sim_registry(game.pieces()), set(load_config(None).zones), Clock(), auto_chance=True)
    if solo:
        s.set_computers({c: "easy" for c in range(1, players)}, hints=False)
        s.computers.thinker = InlineThinker(iterations=4)
    s.sense({})
    return s


def play_one(s: GameSession, rng: random.Random) -> bool:
    """One move of the game (a human's, laid or chosen, or the computer's); False when stuck."""
    if s.instruction is not None:
        s.sense(physical(s, s.expected()))
        return True
    acting = sorted(s.humans_to_act())
    if acting and s.computers.seats & s.to_act():  # a move all make at once: the computer's comes at once
        moves = len(s.moves)
        s.computers.step()
        if len(s.moves) > moves:
            return True
    if acting:
        seat = rng.choice(acting)
        action = rng.choice(s.game.legal_actions(s.state, seat))
        target = next((f for x, a, f in s.footprints() if x == seat and a == action), None)
        if target is not None and target != dict(s.expected()):
            s.sense(physical(s, target))
        else:
            assert s.apply(seat, action), action
            s.reconcile()
        return True
    if s.computers.seats & s.to_act():
        s.computers.step()
        return True
    if s.timers:
        s.clock.t = min(t.deadline for t in s.timers) + 0.01  # type: ignore[attr-defined]
        s.expire()
        return True
    return False
