"""Drôles de Zèbres' player-facing texts: refusals (stable codes) and the messages of the moves."""

from __future__ import annotations

from typing import Final

from games.core import tr
from games.texts import Messages, Refusals

REFUSALS: Final = Refusals({
    "not_your_turn": tr("Ce n'est pas votre tour.", "It is not your turn."),
    "bad_chance": tr("Tirage impossible.", "Impossible chance outcome."),
    "bad_action:unreadable": tr("Action illisible.", "Unreadable action."),
    "bad_action:unknown": tr("Action inconnue.", "Unknown action."),
    "bad_action:malformed": tr("Action mal formée.", "Malformed action."),
    # what the phase expects, when an action of another phase comes
    "wrong_phase:first": tr("Tirage du 1er joueur en cours.", "Drawing the first player."),
    "wrong_phase:guardian": tr("Placez d'abord le gardien.", "Place the guardian first."),
    "wrong_phase:place": tr("Posez un animal sur la ligne du gardien.", "Place an animal on the guardian's line."),
    "wrong_phase:crocodile": tr("Échangez le crocodile ou terminez.", "Swap the crocodile or stop."),
    "wrong_phase:move": tr("Avancez le gardien de 1 à 3.", "Move the guardian 1 to 3 steps."),
    "wrong_phase:over": tr("La partie est finie.", "The game is over."),
    "bad_position": tr("Position du gardien : 0 à {last}.", "Guardian position: 0 to {last}."),
    "unknown_piece": tr("Pièce inconnue.", "Unknown piece."),
    "not_your_piece": tr("Cet animal n'est pas à vous.", "This animal is not yours."),
    "not_in_reserve": tr("Cet animal est déjà sur le plateau.", "This animal is already on the board."),
    "bad_square": tr("Case inconnue (A1 à F5).", "Unknown square (A1 to F5)."),
    "square_taken": tr("La case {square} est occupée.", "Square {square} is taken."),
    "off_line": tr("{square} hors de la ligne du gardien ({line}).",
                   "{square} is not on the guardian's line ({line})."),
    "no_gazelle": tr("Pas de gazelle en {square}.", "No gazelle on {square}."),
    "gazelle_hidden": tr("Gazelle cachée : le crocodile ne la voit pas.",
                         "Hidden gazelle: the crocodile cannot see it."),
    "not_across_river": tr("{square} n'est pas de l'autre côté d'une rivière.", "{square} is not across a river."),
    "already_swapped": tr("Déjà échangée avec ce crocodile.", "Already swapped with this crocodile."),
    "bad_steps": tr("Le gardien avance de 1, 2 ou 3.", "The guardian moves 1, 2 or 3."),
    "line_full": tr("{line} est pleine : autre choix.", "{line} is full: choose another."),
    # a sensed animal off the board (explain)
    "off_board": tr("Les animaux se posent sur le plateau.", "Animals go on the board."),
    # why the game itself moves the animal an instruction names (guidance, no fault); {p} "il"/"elle"
    "fled": tr("Elle fuit le lion et retourne devant {c}.", "It flees the lion and goes back in front of {c}."),
    "swap_moves": tr("Échange crocodile-gazelle : {p} va en {s}.", "Crocodile-gazelle swap: it goes to {s}."),
})

# Menu entries and log lines of the actions; {piece} is an animal without article.
LABELS: Final = Messages({
    "place": tr("{piece} en {square}", "{piece} on {square}"),
    "swap": tr("Échanger avec {square}", "Swap with {square}"),
    "no_swap": tr("Pas d'échange", "No swap"),
    "stop_swapping": tr("Arrêter les échanges", "Stop swapping"),
    "move": tr("+{steps} : {line}", "+{steps}: {line}"),
    "first_player": tr("{colour} commence", "{colour} starts"),
})

# The banners of the moves; {c} is a colour ("Blanc"), {p} an animal, {s} a square, {l} a line.
MESSAGES: Final = Messages({
    "first": tr("{c} place le gardien.", "{c} places the guardian."),
    "guardian_placed": tr("Gardien face à {l}. À {c} de jouer.", "Guardian faces {l}. {c} to play."),
    "face_down": tr("Posez {p} face cachée en {s} (lion).", "Place {p} face down on {s} (lion)."),
    "flip": tr("Retournez {p} en {s} face cachée.", "Turn {p} on {s} face down."),
    "return": tr("{p} en {s} fuit : rendez-la à {c}.", "{p} on {s} flees: back to {c}."),
    "crocodile": tr("Crocodile : échange possible ({t}).", "Crocodile: may swap ({t})."),
    "swap": tr("Échangez {c} ({a}) et {g} ({b}).", "Swap {c} ({a}) and {g} ({b})."),
    "swap_face_down": tr("{p} en {s} : face cachée (lion).", "{p} on {s}: face down (lion)."),
    "inauguration": tr("Inauguration (+{b}) pour {c} !", "Inauguration (+{b}) for {c}!"),
    "game_over": tr("Fin : {a} {x} – {b} {y}.", "End: {a} {x} – {b} {y}."),
    "move": tr("Avancez le gardien ({s}).", "Move the guardian ({s})."),
    "guardian_forced": tr("Gardien forcé : {l}.", "Guardian forced: {l}."),
    "guardian_faces": tr("Gardien face à {l}.", "Guardian faces {l}."),
    "pass": tr("{o} n'a plus d'animal : {c} rejoue.", "{o} has no animal left: {c} again."),
})
