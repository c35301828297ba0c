"""ZOP's refusal reasons: stable codes with short French and English messages (3 lines of 21)."""

from __future__ import annotations

from typing import Final

from games.core import Rejection, tr

NOT_YOUR_TURN: Final = Rejection("not_your_turn", tr("Ce n'est pas votre tour.", "It is not your turn."))
BAD_ACTION: Final = Rejection("bad_action", tr("Action inconnue.", "Unknown action."))
WRONG_PHASE: Final = Rejection("wrong_phase", tr("Pas maintenant.", "Not now."))
BAD_CARD: Final = Rejection("bad_card", tr("Carte inconnue.", "Unknown card."))
NOT_IN_HAND: Final = Rejection("not_in_hand", tr("Cette carte n'est pas dans votre main.",
                                                 "This card is not in your hand."))
NOT_YOURS: Final = Rejection("not_yours", tr("Cette carte est à l'adversaire.",
                                             "This card is your opponent's."))
ALREADY_PLAYED: Final = Rejection("already_played", tr("Carte déjà jouée cette manche.",
                                                       "Card already played this round."))
ALREADY_LAID: Final = Rejection("already_laid", tr("Carte déjà posée.", "Card already laid."))
UNAVAILABLE: Final = Rejection("unavailable", tr("Carte indisponible.", "Card unavailable."))
ENOUGH_CARDS: Final = Rejection("enough_cards", tr("Vos cartes sont posées. Attendez.",
                                                   "Your cards are laid. Wait."))
NOT_LAID: Final = Rejection("not_laid", tr("Cette carte n'est pas posée.", "This card is not laid."))
WITHDRAW_LAST: Final = Rejection("withdraw_last", tr("Reprenez d'abord la dernière carte posée.",
                                                     "Take back the last card laid first."))
CANNOT_GIVE: Final = Rejection("cannot_give", tr("Vous ne pouvez pas donner cette carte.",
                                                 "You cannot give this card."))
BAD_TURN: Final = Rejection("bad_turn", tr("Tour inconnu.", "Unknown turn."))
BAD_CHANCE: Final = Rejection("bad_chance", tr("Tirage impossible.", "Impossible chance outcome."))
NOT_YOUR_PAD: Final = Rejection("not_your_pad", tr("Posez vos cartes sur votre plateau.",
                                                   "Lay your cards on your own pad."))
TO_LINE: Final = Rejection("to_line", tr("Carte jouée : rangez-la dans votre ligne.",
                                         "Played: put it in your line."))
