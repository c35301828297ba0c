"""ZOP's player-facing texts: refusals (stable codes, 3 lines of 21), messages, round names."""

from __future__ import annotations

from typing import Final

from games.core import Text, tr
from games.texts import Messages, Refusals
from games.zop.state import BELLE, MANCHE, REVANCHE

REFUSALS: Final = Refusals({
    "not_your_turn": tr("Ce n'est pas votre tour.", "It is not your turn."),
    "bad_action": tr("Action inconnue.", "Unknown action."),
    "wrong_phase": tr("Pas maintenant.", "Not now."),
    "bad_card": tr("Carte inconnue.", "Unknown card."),
    "not_in_hand": tr("Cette carte n'est pas dans votre main.", "This card is not in your hand."),
    "not_yours": tr("Cette carte est à l'adversaire.", "This card is your opponent's."),
    "already_played": tr("Carte déjà jouée cette manche.", "Card already played this round."),
    "already_laid": tr("Carte déjà posée.", "Card already laid."),
    "unavailable": tr("Carte indisponible.", "Card unavailable."),
    "enough_cards": tr("Vos cartes sont posées. Attendez.", "Your cards are laid. Wait."),
    "not_laid": tr("Cette carte n'est pas posée.", "This card is not laid."),
    "revealing": tr("Les cartes sont révélées. Attendez.", "The cards are being revealed. Wait."),
    "seal_mismatch": tr("Carte refusée : ce n'est pas la carte posée face cachée.",
                        "Card refused: it is not the card laid face down."),
    "seal_unavailable": tr("Carte refusée : elle ne pouvait pas être posée.", "Card refused: it could not be laid."),
    "withdraw_last": tr("Reprenez d'abord la dernière carte posée.", "Take back the last card laid first."),
    "cannot_give": tr("Vous ne pouvez pas donner cette carte.", "You cannot give this card."),
    "bad_turn": tr("Tour inconnu.", "Unknown turn."),
    "bad_chance": tr("Tirage impossible.", "Impossible chance outcome."),
    # a blind exchange across tables
    "bad_slot": tr("Place inconnue.", "Unknown place."),
    "lent": tr("Carte échangée : mettez-la de côté.", "Card swapped: set it aside."),
    "shown": tr("Carte déjà montrée : reprenez-la en main.", "Card already shown: take it back."),
    # a card sensed on a pad (explain)
    "not_your_pad": tr("Posez vos cartes sur votre plateau.", "Lay your cards on your own pad."),
    "to_line": tr("Carte jouée : rangez-la dans votre ligne.", "Played: put it in your line."),
})

SILENT: Final = Text("", "")  # an effect for logs and LEDs that shows no banner

# The names of the three rounds of a match.
ROUNDS: Final[dict[str, Text]] = {MANCHE: tr("Manche", "Round"), REVANCHE: tr("Revanche", "Return"),
                                  BELLE: tr("Belle", "Decider")}

# Menu entries and log lines of the actions; {card} is a card's short name.
LABELS: Final = Messages({
    "commit": tr("Poser {card}", "Lay {card}"),
    "withdraw": tr("Reprendre {card}", "Take back {card}"),
    "give": tr("Donner {card}", "Give {card}"),
    "exchange_done": tr("Échange fait", "Swap done"),
    "exchange_skip": tr("Échange impossible", "No swap possible"),
    "review_back": tr("◀ Tour {turn}", "◀ Turn {turn}"),
    "review_next": tr("Tour {turn} ▶", "Turn {turn} ▶"),
    "next_round": tr("Jouer la {name}", "Play the {name}"),
    "next": tr("Suite", "Next"),
    "draw": tr("Pioche {card}", "Draw {card}"),
    "blind_take": tr("Prend {card}", "Takes {card}"),
    "pick": tr("Prendre la n°{slot}", "Take card {slot}"),
    "hand_over": tr("Montrer {card}", "Show {card}"),
    "commit_held": tr("Poser {card} (reçue)", "Lay {card} (received)"),
    "withdraw_held": tr("Reprendre {card} (reçue)", "Take back {card} (received)"),
    "commit_sealed": tr("Poser une carte cachée", "Lay a hidden card"),
    "withdraw_sealed": tr("Reprendre la carte cachée", "Take back the hidden card"),
    "open": tr("Révéler {card}", "Reveal {card}"),
    "give_none": tr("Aucune carte à donner", "No card to give"),
    "unknown": tr("Action inconnue", "Unknown action"),
})

# The banners; {mine}/{theirs} are cards, {p}/{q} points, {card} a card, {name} a round.
MESSAGES: Final = Messages({
    "reveal": tr("{mine} / {theirs} : +{p} / +{q}", "{mine} / {theirs}: +{p} / +{q}"),
    "exchange_void": tr("Échange impossible : aucune carte.", "No exchange: no card to swap."),
    "exchange_take": tr("Échange : {card} pris", "Swap: {card} taken"),
    "exchange_give": tr("Échange : {card} donné", "Swap: {card} given"),
    "no_swap": tr("Pas d'échange.", "No swap."),
    "exchange_refused": tr("{card} : reprenez-la, il en choisit une autre.",
                           "{card}: take it back, another card is chosen."),
    "exchange_refused_taker": tr("{card} : refusée, choisissez-en une autre.",
                                 "{card}: refused, choose another card."),
    "exchange_back": tr("Rien à donner : la carte prise revient, pas d'échange.",
                        "Nothing to give: the card taken goes back, no swap."),
    "exchange_apart": tr("Échange impossible : la main adverse est à l'autre table.",
                         "No swap: the opponent's hand is at the other table."),
    "round_end": tr("{name} : {p} à {q}", "{name}: {p} to {q}"),
    "match_won": tr("Vous gagnez la partie !", "You win the match!"),
    "match_lost": tr("L'adversaire gagne la partie.", "Your opponent wins the match."),
    "new_round": tr("{name} : reprenez vos 20 cartes et mélangez.", "{name}: take back your 20 cards and shuffle."),
})
