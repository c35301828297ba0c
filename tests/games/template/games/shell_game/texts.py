"""The shell game's player-facing texts: refusals (stable codes, 3 lines of 21), messages, labels."""

from __future__ import annotations

from typing import Final

from games.core import tr
from games.texts import Messages, Refusals

REFUSALS: Final = Refusals({
    "not_your_turn": tr("Ce n'est pas votre tour.", "It is not your turn."),
    "bad_action": tr("Action inconnue.", "Unknown action."),
    "wrong_phase:hide": tr("Cachez d'abord le pois.", "Hide the pea first."),
    "wrong_phase:guess": tr("Le pois est caché : devinez.", "The pea is hidden: guess."),
    "wrong_phase:over": tr("La partie est finie.", "The game is over."),
    "bad_cup": tr("Gobelet 1, 2 ou 3.", "Cup 1, 2 or 3."),
    # a piece sensed or lifted (explain, explain_removal)
    "not_the_pea": tr("Seul le pois se cache.", "Only the pea is hidden."),
    "under_a_cup": tr("Posez le pois sous un gobelet.", "Put the pea under a cup."),
    "leave_it": tr("Laissez le pois caché.", "Leave the pea hidden."),
})

MESSAGES: Final = Messages({
    "hidden": tr("{seat} a caché le pois", "{seat} hid the pea"),
    "found": tr("{seat} trouve le pois !", "{seat} finds the pea!"),
    "missed": tr("Raté : gobelet {cup}", "Missed: cup {cup}"),
    "title": tr("Bonneteau {round}/{rounds}", "Shell game {round}/{rounds}"),
    "hide": tr("Cachez le pois sous un gobelet", "Hide the pea under a cup"),
    "guess": tr("Où est le pois ?", "Where is the pea?"),
    "your_cup": tr("Le pois : gobelet {cup}", "The pea: cup {cup}"),
    "wait": tr("Attendez {seat}", "Wait for {seat}"),
    "scores": tr("Points : {mine} à {theirs}", "Points: {mine} to {theirs}"),
    "over": tr("Partie finie", "Game over"),
})

LABELS: Final = Messages({
    "guess": tr("Gobelet {cup}", "Cup {cup}"),
    "hide": tr("Pois sous le gobelet {cup}", "Pea under cup {cup}"),
    "rounds": tr("Manches", "Rounds"),
})
