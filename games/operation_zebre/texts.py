"""Rejections of Opération Zèbre: stable codes, short French and English messages (3×21 chars)."""

from __future__ import annotations

from games.core import Rejection, tr

_MESSAGES: dict[str, tuple[str, str]] = {
    "not_your_turn": ("Ce n'est pas votre tour.", "It is not your turn."),
    "game_over": ("La partie est finie.", "The game is over."),
    "bad_action": ("Action inconnue.", "Unknown action."),
    "bad_field": ("Action mal formée.", "Malformed action."),
    "wrong_phase": ("Pas maintenant.", "Not now."),
    "card_unknown": ("Carte inconnue du jeu.", "Card not in this game."),
    "card_in_use": ("Carte déjà sur un autre plateau.", "Card already on another pad."),
    "same_card": ("Cette carte est déjà posée.", "This card is already laid."),
    "team_full": ("Votre équipe a déjà 2 lecteurs.", "Your team already has 2 readers."),
    "already_ready": ("Censure déjà validée.", "Censoring already confirmed."),
    "no_reading": ("Posez d'abord un dossier.", "Lay a document first."),
    "already_laid": ("Dossier déjà choisi : retirez-le.", "Document chosen: remove it first."),
    "has_card": ("Retirez la carte du plateau.", "Take the card off the pad."),
    "bad_side": ("Face : recto ou verso.", "Side: recto or verso."),
    "same_side": ("Cette face est déjà choisie.", "This side is already chosen."),
    "side_first": ("Choisissez d'abord la face.", "Choose the side first."),
    "unknown_document": ("Dossier inconnu : entrez la somme.", "Unknown document: enter the sum."),
    "known_document": ("Dossier connu : rayez les lignes.", "Known document: censor lines."),
    "bad_line": ("Ligne inexistante.", "No such line."),
    "bad_value": ("Valeur impossible.", "Impossible value."),
    "protocol_lines": ("Protocole : trop de lignes visibles.", "Protocol: too many visible lines."),
    "protocol_ticks": ("Protocole : trop de suspicions.", "Protocol: too many ticks."),
    "protocol_hint": ("Protocole : indice interdit.", "Protocol: hint forbidden."),
    "protocol_first_line": ("Protocole : rayez la 1re ligne.", "Protocol: censor line 1."),
    "no_missions": ("Pas de missions dans cette partie.", "No missions in this game."),
    "bad_mission": ("Mission inexistante.", "No such mission."),
    "mission_done": ("Mission déjà réussie.", "Mission already achieved."),
    "mission_category": ("Mission d'un autre thème.", "Mission of another theme."),
    "same_mission": ("Mission déjà choisie.", "Mission already chosen."),
    "not_reader": ("Vous n'êtes pas le lecteur.", "You are not the reader."),
    "hints_off": ("Indices interdits.", "Hints are off."),
    "hint_used": ("Un seul indice par dossier.", "One hint a document."),
    "bad_hint": ("Indice : initiale ou effacer.", "Hint: initial or erase."),
    "erase_competitive": ("Effacer : mode coop. seulement.", "Erase: cooperative only."),
    "not_opponent": ("Réservé à l'équipe adverse.", "For the other team only."),
    "window_closed": ("Délai d'interception passé.", "Interception time is over."),
    "no_interception": ("Aucune interception notée.", "No interception written."),
    "already_checked": ("Interception déjà vérifiée.", "Interception already checked."),
    "already_guessed": ("Réponse déjà donnée.", "Answer already given."),
}


def reject(code: str) -> Rejection:
    """The rejection for a stable code."""
    fr, en = _MESSAGES[code]
    return Rejection(code, tr(fr, en))


def codes() -> frozenset[str]:
    """Every rejection code (for tests)."""
    return frozenset(_MESSAGES)
