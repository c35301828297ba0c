"""The Variante: PROTOCOLE and MISSIONS SPÉCIALES cards played together, and what contradicts.

Rulebook: « En début de partie, piochez une ou plusieurs cartes PROTOCOLE et/ou MISSIONS
SPÉCIALES. » Several cards are played at once unless they contradict each other. Contradictions
come from the data file only: the `excludes` lists of variants.toml, and the constraint fields (a
mission that needs a hint the protocols or the `hints` option forbid cannot be achieved).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations

from games.core import Text, tr
from games.operation_zebre.pieces import HINTS, GameData, MissionCard, Protocol
from games.operation_zebre.state import INITIAL_HINT_TICKS

NONE, RANDOM = "none", "random"
JOIN = "+"
_HINT_NAMES = {"initial": ("Initiale", "Initial"), "erase": ("Effacer", "Erase")}


class VariantError(ValueError):
    """An option value naming variant cards that do not exist or cannot be played together."""


def split(value: str) -> tuple[str, ...]:
    """The card ids of an option value ("p1+p3" -> ("p1", "p3")); none/random -> ()."""
    return () if value in (NONE, RANDOM) else tuple(value.split(JOIN))


def join(ids: Iterable[str]) -> str:
    """The option value of a set of cards, in the canonical (sorted) order."""
    return JOIN.join(sorted(ids))


def combined(data: GameData, protocols: Sequence[str]) -> Protocol | None:
    """The protocols' constraints together: the tightest limit of each, the hints all allow."""
    cards = [data.protocols[p] for p in protocols]
    if not cards:
        return None
    lines = [c.max_visible_lines for c in cards if c.max_visible_lines is not None]
    ticks = [c.max_document_ticks for c in cards if c.max_document_ticks is not None]
    return Protocol(join(protocols), Text(" + ".join(c.text.fr for c in cards), " + ".join(c.text.en for c in cards)),
                    min(lines, default=None), min(ticks, default=None),
                    tuple(h for h in HINTS if all(h in c.hints for c in cards)),
                    any(c.hide_first_line for c in cards))


@dataclass(frozen=True)
class MissionSlot:
    """One mission of the game, numbered across every missions card in play."""

    card: str
    index: int  # within its card
    text: Text


def mission_slots(data: GameData, cards: Sequence[str]) -> list[MissionSlot]:
    """Every mission of the cards in play, card after card (M1…M4 of the first, M5… of the next)."""
    return [MissionSlot(c, i, m.text) for c in cards for i, m in enumerate(data.mission_cards[c].missions)]


def _card(data: GameData, vid: str) -> Protocol | MissionCard:
    return data.protocols[vid] if vid in data.protocols else data.mission_cards[vid]


def contradictions(data: GameData, protocols: Sequence[str], missions: Sequence[str],
                   hints: bool = True) -> list[Text]:
    """Why these cards cannot be played together with this `hints` option (empty: they can)."""
    out: list[Text] = []
    ids = [*protocols, *missions]
    for a, b in combinations(ids, 2):
        if b in _card(data, a).excludes or a in _card(data, b).excludes:
            out.append(tr(f"{a} et {b} s'excluent (variants.toml)",
                          f"{a} and {b} exclude each other (variants.toml)"))
    rules = combined(data, protocols)
    for slot, mission in ((s, data.mission_cards[s.card].missions[s.index]) for s in mission_slots(data, missions)):
        need = mission.hint
        if need not in HINTS:
            continue
        fr, en = _HINT_NAMES[need]
        where = f"{slot.card} n°{slot.index + 1}"
        if not hints:
            out.append(tr(f"Indices interdits : mission {where} impossible (indice {fr})",
                          f"Hints off: mission {slot.card} no. {slot.index + 1} impossible ({en} hint)"))
        elif rules is not None and need not in rules.hints:
            forbid = next(p for p in protocols if need not in data.protocols[p].hints)
            out.append(tr(f"{forbid} interdit l'indice {fr} : mission {where} impossible",
                          f"{forbid} forbids the {en} hint: mission {slot.card} no. {slot.index + 1} impossible"))
        elif need == "initial" and rules is not None and rules.max_document_ticks is not None \
                and rules.max_document_ticks < INITIAL_HINT_TICKS:
            out.append(tr(f"Initiale (+{INITIAL_HINT_TICKS}) au-delà du protocole : mission {where} impossible",
                          f"Initial (+{INITIAL_HINT_TICKS}) over the protocol: mission {slot.card} "
                          f"no. {slot.index + 1} impossible"))
    return out


def combos(ids: Sequence[str], data: GameData) -> list[tuple[str, ...]]:
    """Every non-empty set of these cards that does not contradict itself, smallest sets first."""
    ordered = sorted(ids)
    out = []
    for size in range(1, len(ordered) + 1):
        for group in combinations(ordered, size):
            protos = [g for g in group if g in data.protocols]
            missions = [g for g in group if g in data.mission_cards]
            if not contradictions(data, protos, missions):
                out.append(group)
    return out


def option_values(data: GameData, kind: str) -> tuple[tuple[str, ...], tuple[Text, ...]]:
    """The `protocol` or `missions` option's values and labels: none, random, every combination."""
    names: dict[str, Text]
    if kind == "protocol":
        names = {k: p.text for k, p in data.protocols.items()}
        values, labels = [NONE, RANDOM], [tr("Aucun", "None"), tr("Au hasard", "Random")]
    else:
        names = {k: c.name for k, c in data.mission_cards.items()}
        values, labels = [NONE, RANDOM], [tr("Aucune", "None"), tr("Au hasard", "Random")]
    for group in combos(list(names), data):
        values.append(join(group))
        texts = [names[v] for v in group]
        labels.append(Text(" + ".join(t.fr for t in texts), " + ".join(t.en for t in texts)))
    return tuple(values), tuple(labels)


def parse_value(data: GameData, kind: str, value: object) -> str:
    """An option value in canonical form ("p3+p1" -> "p1+p3"); VariantError names what is wrong."""
    if not isinstance(value, str) or value in (NONE, RANDOM):
        return value  # type: ignore[return-value]  # the generic option check refuses non-strings
    known = data.protocols if kind == "protocol" else data.mission_cards
    ids = split(value)
    unknown = [v for v in ids if v not in known]
    if unknown or not ids or "" in ids:
        names = ", ".join(repr(v) for v in unknown) or repr(value)
        raise VariantError(f"option {kind}={value!r}: unknown card {names} "
                           f"(known: {', '.join(sorted(known))}; join several with '+')")
    if len(set(ids)) != len(ids):
        raise VariantError(f"option {kind}={value!r}: a card is named twice")
    return join(ids)


def draw_candidates(data: GameData, kind: str, protocols: Sequence[str], missions: Sequence[str],
                    hints: bool, missions_to_draw: bool = False) -> list[str]:
    """Cards a random draw may give: those compatible with the cards already in play.

    When the missions card is drawn after the protocol, only protocols leaving at least one
    compatible missions card are drawn.
    """
    if kind == "protocol":
        out = [p for p in sorted(data.protocols) if not contradictions(data, [*protocols, p], missions, hints)]
        if missions_to_draw:
            out = [p for p in out if draw_candidates(data, "missions", [*protocols, p], missions, hints)]
        return out
    return [m for m in sorted(data.mission_cards) if not contradictions(data, protocols, [*missions, m], hints)]
