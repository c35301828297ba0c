"""The statement language of declarations and demands: data-driven predicates over offer cards.

A statement is "<quantifier> <predicate>": the quantifier counts the matching cards among the k
cards of an offer; the predicate compares one card attribute with a value (data/statements.toml).
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache

from games.core import Text
from games.mata_hari.pieces import DATA, card, card_set, name, setup
from games.mata_hari.state import Statement

QUANTS = ("least", "all", "none", "exact")


@dataclass(frozen=True)
class Category:
    """A predicate category: which attribute, which comparison, which values."""

    id: str
    label: Text
    attribute: str
    op: str
    values: tuple[str | int, ...] | str
    template: Text


@dataclass(frozen=True)
class Language:
    """The quantifiers and categories from data/statements.toml."""

    quants: dict[str, tuple[Text, Text]]  # id -> (menu label, short label) with {n}
    categories: dict[str, Category]
    families: dict[str, Text]


@cache
def language() -> Language:
    """The statement language (read once)."""
    with open(DATA / "statements.toml", "rb") as fh:
        raw = tomllib.load(fh)
    quants = {q["id"]: (Text(q["fr"], q["en"]), Text(q["short_fr"], q["short_en"]))
              for q in raw["quantifiers"]}
    if set(quants) != set(QUANTS):
        raise ValueError(f"statements.toml: quantifiers must be {QUANTS}")
    cats = {}
    for c in raw["categories"]:
        if c["op"] not in _OPS:
            raise ValueError(f"statements.toml: category {c['id']}: unknown op {c['op']!r}")
        vals = c["values"] if isinstance(c["values"], str) else tuple(c["values"])
        cats[c["id"]] = Category(c["id"], Text(c["fr"], c["en"]), c["attribute"], c["op"], vals,
                                 Text(c["label_fr"], c["label_en"]))
    fams = {k: Text(v["fr"], v["en"]) for k, v in raw["families"].items()}
    return Language(quants, cats, fams)


_OPS = {
    "eq": lambda a, b: a == b,
    "gt": lambda a, b: a > b,
    "lt": lambda a, b: a < b,
    "ge": lambda a, b: a >= b,
    "le": lambda a, b: a <= b,
}


@cache
def category_values(cat_id: str, players: int) -> tuple[str | int, ...]:
    """The values a category offers at this player count (resources in play only)."""
    cat = language().categories[cat_id]
    if isinstance(cat.values, tuple):
        return cat.values
    if cat.values == "resources":
        return setup(players).resources
    if cat.values == "colours":
        return card_set().colours
    if cat.values == "partners":
        return card_set().partner_kinds
    if cat.values == "families":
        return tuple(language().families)
    raise ValueError(f"statements.toml: category {cat_id}: unknown value list {cat.values!r}")


def quant_options(k: int) -> list[tuple[str, int]]:
    """The quantifiers that make sense over k cards, in menu order."""
    out: list[tuple[str, int]] = [("least", n) for n in range(1, k)]
    out += [("all", 0), ("none", 0)]
    out += [("exact", n) for n in range(1, k)]
    return out


@cache
def matches(cid: str, cat_id: str, value: str | int) -> bool:
    """True when the card satisfies the predicate (missing attribute: false)."""
    cat = language().categories[cat_id]
    got = card(cid).attr(cat.attribute)
    if got is None or type(got) is not type(value):
        return False
    return bool(_OPS[cat.op](got, value))


def holds(q: str, n: int, m: int, k: int) -> bool:
    """Whether m matching cards out of k satisfy the quantifier."""
    if q == "least":
        return m >= n
    if q == "exact":
        return m == n
    if q == "all":
        return m == k
    return m == 0


def evaluate(st: Statement, cards: Sequence[str]) -> bool:
    """Whether the statement is true of exactly these cards."""
    m = sum(1 for c in cards if matches(c, st.cat, st.value))
    return holds(st.q, st.n, m, len(cards))


def feasible(st: Statement, fixed: Sequence[str], pool: Iterable[str], k: int, wild: bool) -> bool:
    """Whether `fixed` can be completed with cards of `pool` to k cards making `st` true.

    wild: partner cards count as matching or not, at will (the partner exception of binding
    demands, "exception : les cartes Partenaire").
    """
    def cls(c: str) -> int:  # 0 matching, 1 not matching, 2 wildcard
        if wild and card(c).family == "partner":
            return 2
        return 0 if matches(c, st.cat, st.value) else 1

    fm = sum(1 for c in fixed if cls(c) == 0)
    fw = sum(1 for c in fixed if cls(c) == 2)
    counts = [0, 0, 0]
    for c in pool:
        counts[cls(c)] += 1
    need = k - len(fixed)
    if need < 0:
        return False
    for x in range(min(need, counts[0]) + 1):
        for z in range(min(need - x, counts[2]) + 1):
            y = need - x - z
            if y > counts[1]:
                continue
            lo, hi = fm + x, fm + x + fw + z
            if any(holds(st.q, st.n, t, k) for t in range(lo, hi + 1)):
                return True
    return False


# -- labels ----------------------------------------------------------------------------------


def value_name(cat_id: str, value: str | int) -> Text:
    """The name of a category value ("rouge", "Documents", "5")."""
    if isinstance(value, int):
        return Text(str(value), str(value))
    fams = language().families
    if value in fams:
        return fams[value]
    return name(value)


def quant_label(q: str, n: int, short: bool = False) -> Text:
    """"Au moins 2" (menu) or "≥2" (short)."""
    long_, short_ = language().quants[q]
    return (short_ if short else long_).format(n=n)


def category_label(cat_id: str) -> Text:
    """"Couleur", "Valeur >"..."""
    return language().categories[cat_id].label


def predicate_label(cat_id: str, value: str | int) -> Text:
    """"rouge", "valeur > 5", "Documents"..."""
    v = value_name(cat_id, value)
    t = language().categories[cat_id].template
    return Text(t.fr.format(v=v.fr), t.en.format(v=v.en))


def statement_label(st: Statement) -> Text:
    """A short statement for screens: "≥1 rouge", "toutes valeur > 6"."""
    q = quant_label(st.q, st.n, short=True)
    p = predicate_label(st.cat, st.value)
    return Text(f"{q.fr} {p.fr}", f"{q.en} {p.en}")
