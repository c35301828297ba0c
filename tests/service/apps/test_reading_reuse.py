"""The table's reading after a settled change works out again only the zones whose tags changed:
over seeded random games of every game (moves laid, instructions followed, pieces and unknown tags
where they do not belong, tags enrolled during the game), every reading is the one a fresh
reading of the whole table gives."""

from __future__ import annotations

import copy
import random

import pytest

from firmware_host.apps.session import GameSession
from firmware_host.apps.table_reading import TableReading
from games.registry import game_ids
from tests.service.apps.test_frame_reuse import lay, move, open_game

EVENTS = 120
UNKNOWN = ("04A1B2C3D4E5F6", "04FFEEDDCCBBAA")


def fresh(s: GameSession) -> tuple[object, ...]:
    """The whole table read again, nothing kept from an earlier reading."""
    again = TableReading(s)
    again.sensed, again.copies = s.table.sensed, s.table.copies
    return again.read()


def unknown_tag(s: GameSession, rng: random.Random, sensed: dict[str, frozenset[str]]) -> None:
    """An unknown tag laid on (or lifted off) a zone, the table settled."""
    zone = rng.choice(sorted(s.zones))
    now = set(sensed.get(zone, frozenset()))
    uid = rng.choice(UNKNOWN)
    (now.discard if uid in now else now.add)(uid)
    sensed[zone] = frozenset(now)
    s.on_sensed(dict(sensed))


@pytest.mark.parametrize(("game_id", "seed"), [(g, seed) for g in game_ids() for seed in (1, 2)])
def test_every_reading_is_the_one_a_fresh_reading_gives(game_id: str, seed: int) -> None:
    s, _ = open_game(game_id, seed, False)
    rng = random.Random(seed)
    sensed: dict[str, frozenset[str]] = {}
    enrolled = False
    for n in range(EVENTS):
        r = rng.random()
        if r < 0.4 and s.instruction is not None:
            fix = s.instruction.fix
            lay(s, sensed, s.to_physical(fix.zone), fix.piece, fix.kind == "place")
        elif r < 0.8:
            move(s, rng, sensed)
        elif r < 0.9:
            lay(s, sensed, rng.choice(sorted(s.zones)), rng.choice(s.game.pieces()), rng.random() < 0.7)
        elif not enrolled and any(UNKNOWN[0] in tags for tags in sensed.values()):
            # the unknown tag lying there replaces a piece's tag: the same tags, read anew
            s.registry.add(UNKNOWN[0], rng.choice(s.game.pieces()))
            s.on_sensed(dict(sensed))
            enrolled = True
        else:
            unknown_tag(s, rng, sensed)
        assert s.table.read() == fresh(s), (game_id, seed, n)


def test_a_tag_enrolled_during_the_game_is_read_as_its_piece_on_the_zone_it_lies() -> None:
    s, _ = open_game(game_ids()[0], 1, False)
    zone = sorted(s.zones)[0]
    piece = s.game.pieces()[0]
    old = s.registry.uid(piece)
    assert old is not None
    sensed = {zone: frozenset({UNKNOWN[0]})}
    s.on_sensed(dict(sensed))
    assert [x.uid for x in s.strangers] == [UNKNOWN[0]]
    s.registry.add(UNKNOWN[0], piece)  # its replacement tag: the old one no longer reads as it
    s.on_sensed(dict(sensed))
    assert s.strangers == []
    assert piece in s.table.read()[0].get(s.to_logical(zone) or "", frozenset())


def test_a_copy_of_the_session_reads_its_own_registry_whichever_reads_first() -> None:
    s, _ = open_game(game_ids()[0], 1, False)
    zone = sorted(s.zones)[0]
    piece = s.game.pieces()[0]
    sensed = {zone: frozenset({UNKNOWN[0]})}
    s.on_sensed(dict(sensed))
    twin = copy.deepcopy(s)  # its own registry: the readings it shares are the original's
    twin.registry.add(UNKNOWN[0], piece)
    s.registry.add(UNKNOWN[1], s.game.pieces()[1])  # as many changes, not the same tags
    for x in (twin, s, twin, s):
        x.table.forget()
        x.on_sensed(dict(sensed))
        assert x.table.read() == fresh(x)
    assert [x.uid for x in s.strangers] == [UNKNOWN[0]] and twin.strangers == []
