"""Why Spywhere refuses an action: stable codes and short French/English messages.

A refusal is shown only on the acting seat's screen; none of these texts names a nationality,
so even a refusal read over a shoulder gives no passport away.
"""

from __future__ import annotations

from typing import Final

from games.core import Rejection, Text, tr

MESSAGES: Final[dict[str, Text]] = {
    "bad_action": tr("Action mal formée.", "Malformed action."),
    "unknown_action": tr("Action inconnue.", "Unknown action."),
    "wrong_step_swap": tr("Échangez d'abord une carte avec le centre.", "First swap a card with the centre."),
    "wrong_step_take": tr("Prenez ou laissez d'abord le brelan.", "First take or leave the triple."),
    "wrong_step_identify": tr("Identifiez ou finissez le tour.", "Identify or end your turn."),
    "wrong_step_final": tr("Identifiez ou terminez.", "Identify or finish."),
    "wrong_step_setup": tr("Choisissez la nationalité retirée.", "Choose the removed nationality."),
    "bad_slot": tr("Emplacement du centre : 1 à 5.", "Centre slot: 1 to 5."),
    "empty_slot": tr("Cet emplacement est vide.", "This slot is empty."),
    "not_in_hand": tr("Cette carte n'est pas dans votre main.", "This card is not in your hand."),
    "bad_slots": tr("Trois emplacements différents.", "Three different slots."),
    "not_a_triple": tr("Ces 3 cartes ne sont pas identiques.", "These 3 cards are not identical."),
    "triple_refused": tr("Vous ne pouvez pas prendre ce brelan.", "You may not take this triple."),
    "bad_target": tr("Adversaire inconnu.", "Unknown opponent."),
    "already_identified": tr("Adversaire déjà identifié.", "Opponent already identified."),
    "unknown_nationality": tr("Nationalité inconnue.", "Unknown nationality."),
    "nationality_removed": tr("Nationalité retirée du jeu.", "Nationality out of the game."),
    "card_used": tr("Carte d'identification déjà posée.", "Identification card already used."),
    "too_early": tr("Trop tôt pour identifier.", "Too early to identify."),
    # chance outcomes (sensed deals and draws)
    "bad_chance": tr("Tirage impossible maintenant.", "Impossible draw now."),
    "not_in_pile": tr("Cette carte n'est pas dans la pioche.", "This card is not in the draw pile."),
    "passport_unavailable": tr("Passeport indisponible.", "Passport not available."),
    "seat_served": tr("Ce joueur a déjà ses cartes.", "This player already has their cards."),
    "slot_taken": tr("Emplacement déjà occupé.", "Slot already taken."),
}


def reject(code: str) -> Rejection:
    """The Rejection for a code of MESSAGES."""
    # the four wrong-step messages share one stable code
    return Rejection("wrong_step" if code.startswith("wrong_step_") else code, MESSAGES[code])
