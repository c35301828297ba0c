"""Spywhere's player-facing texts: refusals (stable codes, short French/English) and messages.

A refusal is shown only on the acting seat's screen; no refusal names a nationality, so even a
refusal read over a shoulder gives no passport away. A message naming a card goes to its owner only.
"""

from __future__ import annotations

from typing import Final

from games.core import Text, tr
from games.texts import Messages, Refusals

SILENT: Final = Text("", "")  # an effect for logs and LEDs that shows no banner

REFUSALS: Final = Refusals({
    "not_your_turn": tr("Ce n'est pas votre tour.", "It is not your turn."),
    "bad_action": tr("Action mal formée.", "Malformed action."),
    "unknown_action": tr("Action inconnue.", "Unknown action."),
    "wrong_step:swap": tr("Échangez d'abord une carte avec le centre.", "First swap a card with the centre."),
    "wrong_step:take": tr("Prenez ou laissez d'abord le brelan.", "First take or leave the triple."),
    "wrong_step:identify": tr("Identifiez ou finissez le tour.", "Identify or end your turn."),
    "wrong_step:final": tr("Identifiez ou terminez.", "Identify or finish."),
    "wrong_step:setup": tr("Choisissez la nationalité retirée.", "Choose the removed nationality."),
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
    # why the game itself moves a centre card (guidance, no fault); {nat} a nationality, {seat} a seat
    "refill": tr("Tirée de la pioche pour le centre.", "Drawn from the pile for the centre."),
    "retriple": tr("Brelan {nat} : il retourne dans la pioche.", "{nat} triple: it goes back into the pile."),
    "taken": tr("{seat} prend le brelan {nat}.", "{seat} takes the {nat} triple."),
    "swapped": tr("{seat} pose {laid}, prend {lifted}.", "{seat} lays {laid}, takes {lifted}."),
    # chance outcomes (sensed deals and draws)
    "bad_chance": tr("Tirage impossible maintenant.", "Impossible draw now."),
    "not_in_pile": tr("Cette carte n'est pas dans la pioche.", "This card is not in the draw pile."),
    "passport_unavailable": tr("Passeport indisponible.", "Passport not available."),
    "seat_served": tr("Ce joueur a déjà ses cartes.", "This player already has their cards."),
    "slot_taken": tr("Emplacement déjà occupé.", "Slot already taken."),
})

# Menu entries and log lines of the actions; a secret deal is described without its card.
LABELS: Final = Messages({
    "swap": tr("Poser {nat} en {slot}", "Lay {nat} on {slot}"),
    "take": tr("Prendre {nat} ({slots})", "Take {nat} ({slots})"),
    "unknown_nationality": tr("?", "?"),
    "leave": tr("Laisser le brelan", "Leave the triple"),
    "identify": tr("{seat} : {nat} ?", "{seat}: {nat}?"),
    "end_turn": tr("Fin du tour", "End turn"),
    "done": tr("Terminer", "Finish"),
    "remove": tr("Retirer {nat}", "Remove {nat}"),
    "passport": tr("Passeport pour {seat}", "Passport for {seat}"),
    "deal": tr("Carte pour {seat}", "Card for {seat}"),
    "draw": tr("Pioche de {seat}", "{seat} draws"),
    "centre": tr("{nat} au centre {slot}", "{nat} on centre {slot}"),
    "unknown": tr("Action inconnue", "Unknown action"),
    # an identification is irrevocable: the table asks once more
    "confirm_identify": tr("Définitif : {label}", "Final: {label}"),
})

# The banners; {seat}/{target} are seats ("J2"), {nat} a nationality, {card} a nationality card.
MESSAGES: Final = Messages({
    "drew": tr("Pioché : {nat}.", "Drew: {nat}."),
    "retriple": tr("Brelan {nat} : remettez-le dans la pioche.", "{nat} triple: shuffle it back."),
    "swap": tr("{seat} pose {laid}, prend {lifted}.", "{seat} lays {laid}, takes {lifted}."),
    "take": tr("{seat} prend le brelan {nat}.", "{seat} takes the {nat} triple."),
    "leave": tr("{seat} laisse le brelan.", "{seat} leaves the triple."),
    "identified": tr("{seat} a identifié {target}.", "{seat} identified {target}."),
    "my_guess": tr("Vous : {target} = {nat} ?", "You: {target} = {nat}?"),
    "everyone_identified": tr("{seat} a identifié tout le monde : fin !", "{seat} identified everyone: the end!"),
    "pile_empty": tr("Pioche épuisée : fin !", "Draw pile empty: the end!"),
    "to_play": tr("À {seat} de jouer.", "{seat} to play."),
    "removed": tr("Nationalité retirée : {nat}.", "Nationality removed: {nat}."),
    "passport": tr("Passeport {nat} : gardez-le secret.", "{nat} passport: keep it secret."),
    "dealt": tr("Carte {nat} en main.", "{nat} card in hand."),
    "starts": tr("À {seat} de commencer.", "{seat} starts."),
    "winners": tr("Fin ! Gagnant : {seats}.", "The end! Winner: {seats}."),
})
