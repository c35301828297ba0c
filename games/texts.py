"""Texts every game repeats: seat labels, catalogues of messages and refusals, templates.

A game keeps all its player-facing wording in its own `texts.py`, built with these helpers, so
the same thing is said the same way at every seat of every game ("J1" in French, "P1" in English).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Final

from games.core import Rejection, Text, tr

NOBODY: Final = tr("aucun", "none")


def seat_label(seat: int) -> Text:
    """How screens and messages name a game seat (0-based): "J1" in French, "P1" in English."""
    return Text(f"J{seat + 1}", f"P{seat + 1}")


def seats_label(seats: Iterable[int], none: Text = NOBODY) -> Text:
    """Several seats in a few characters, each once and in order: "J2,4,5" / "P2,4,5"."""
    numbers = ",".join(str(s + 1) for s in sorted(set(seats)))
    return Text("J" + numbers, "P" + numbers) if numbers else none


def join(items: Iterable[Text], sep: str = " ") -> Text:
    """Texts joined language by language."""
    parts = list(items)
    return Text(sep.join(t.fr for t in parts), sep.join(t.en for t in parts))


def fill(template: Text, **values: object) -> Text:
    """Each language's `str.format` placeholders filled; a Text value gives its own language."""
    if not values:
        return template
    fr = {k: v.fr if isinstance(v, Text) else v for k, v in values.items()}
    en = {k: v.en if isinstance(v, Text) else v for k, v in values.items()}
    return Text(template.fr.format(**fr), template.en.format(**en))


class Messages:
    """A game's catalogue of texts: key -> bilingual template with `{placeholders}`."""

    def __init__(self, entries: Mapping[str, Text]) -> None:
        for key, text in entries.items():
            if not isinstance(text, Text):
                raise TypeError(f"text {key!r} is not a Text")
        self._entries = dict(entries)

    def __call__(self, key: str, **values: object) -> Text:
        """The text of `key` with its placeholders filled (KeyError for an unknown key)."""
        return fill(self._entries[key], **values)

    def keys(self) -> frozenset[str]:
        """Every key of the catalogue (for tests)."""
        return frozenset(self._entries)


class Refusals:
    """A game's refusal catalogue: stable code -> bilingual reason for the acting seat's screen.

    A key "code:variant" gives another wording to the same stable code (several reasons that
    tests and logs need not tell apart, e.g. "wrong_phase:move").
    """

    def __init__(self, entries: Mapping[str, Text]) -> None:
        self._messages = Messages(entries)
        self._fixed = {key: Rejection(key.partition(":")[0], text) for key, text in entries.items()}

    def __call__(self, key: str, **values: object) -> Rejection:
        """The Rejection of `key` (its code is the part before ":"), placeholders filled."""
        if not values:
            return self._fixed[key]
        return Rejection(key.partition(":")[0], self._messages(key, **values))

    def keys(self) -> frozenset[str]:
        """Every key of the catalogue, variants included."""
        return self._messages.keys()

    def codes(self) -> frozenset[str]:
        """Every stable code of the catalogue (for tests and the game's documentation)."""
        return frozenset(key.partition(":")[0] for key in self._fixed)
