"""What each seat may know (passports and identifications stay secret until the end) and its screen."""

from __future__ import annotations

from collections.abc import Hashable, Iterator
from dataclasses import dataclass
from functools import lru_cache

from games.core import Screen, Text, essential, evolve, last_state, tr
from games.frozen import quick_init
from games.spywhere.pieces import IDENTIFY_FROM_ROUND, TWO_PLAYER_FIRST_ROUND, card_set, nat_of, nat_short
from games.spywhere.rules import to_act
from games.spywhere.rules_turn import allowed_triples
from games.spywhere.scoring import SeatResult, results, winners
from games.spywhere.state import (
    BONUS,
    DRAW,
    FINAL,
    IDENTIFY,
    OVER,
    PLAY,
    REFILL,
    SETUP,
    SWAP,
    TAKE,
    SpyState,
    first_identification_turn,
    free_cards,
    put,
    round_number,
    undealt_passports,
    without,
)
from games.texts import join, seat_label, seats_label


@quick_init
@dataclass(frozen=True)
class SeatInfo:
    """What everyone sees of one player."""

    seat: int
    colour: str  # identification colour id
    passports: int  # passports scanned so far (face down: only the count is public)
    hand: int  # cards in hand
    clues: tuple[str, ...]  # the face-up clue pile (card ids)
    identified: tuple[int, ...]  # opponents this player laid an identification card on (face down)
    finished: bool  # final phase: no more identification to make


@quick_init
@dataclass(frozen=True)
class SpyView:
    """One seat's knowledge (seat None: the public view). Own secrets are empty in the public view."""

    seat: int | None
    players: int
    phase: str
    step: str
    active: int
    round: int
    waiting: tuple[int, ...]  # seats to act; -1 = a deal or draw is awaited
    pile: int
    centre: tuple[str | None, ...]
    nationalities: tuple[str, ...]
    removed: str | None
    removal_pending: bool
    retriple: bool
    seats: tuple[SeatInfo, ...]
    last_swap: tuple[int, int, str, str] | None
    ender: int | None
    identify_from: str  # 2 players: "round" (5th round) or "turn" (5th turn of play)
    identify_wait: int  # turns still to play before identifications are allowed (0: allowed)
    swaps: tuple[tuple[int, str, str], ...] = ()  # every swap so far: seat, nationality laid, lifted
    left: tuple[tuple[int, tuple[str, ...]], ...] = ()  # every triple left: seat, nationalities in the centre
    passports: tuple[str, ...] = ()  # own passport piece ids
    hand: tuple[str, ...] = ()  # own hand
    guesses: tuple[tuple[int, str], ...] = ()  # own identifications (target, nationality)
    free_cards: tuple[str, ...] = ()  # own identification cards not yet placed
    takeable: tuple[tuple[int, ...], ...] = ()  # triples this seat may take now (its TAKE step)
    results: tuple[SeatResult, ...] = ()  # everything, once the game is over
    winners: tuple[int, ...] = ()


def view(state: SpyState, seat: int | None) -> SpyView:
    """Everything `seat` may know now (an unknown seat gets the public view)."""
    if seat is not None and not 0 <= seat < state.players:
        seat = None
    public = _public(state)
    if seat is None:
        return public
    takeable = (tuple(allowed_triples(state, seat))
                if state.phase == PLAY and state.step == TAKE and state.active == seat else ())
    return evolve(public, seat=seat, passports=state.passports[seat], hand=state.hands[seat],
                   guesses=state.guesses[seat], free_cards=tuple(free_cards(state, seat)), takeable=takeable)


@last_state
def _public(state: SpyState) -> SpyView:
    """What every seat may know: the same for each seat's view of one state."""
    colours = card_set().colours
    seats = tuple(
        SeatInfo(s, colours[s].id, len(state.passports[s]), len(state.hands[s]), state.clues[s],
                 tuple(t for t, _ in state.guesses[s]), s in state.finished)
        for s in range(state.players)
    )
    over = state.phase == OVER
    res = results(state) if over else ()
    return SpyView(
        seat=None, players=state.players, phase=state.phase, step=state.step, active=state.active,
        round=round_number(state), waiting=tuple(sorted(to_act(state))), pile=len(state.pile),
        centre=state.centre, nationalities=state.nationalities, removed=state.removed,
        removal_pending=state.removal_pending, retriple=state.retriple, seats=seats,
        last_swap=state.last_swap, ender=state.ender, identify_from=state.identify_from,
        identify_wait=max(0, first_identification_turn(state) - state.turn), swaps=state.swaps, left=state.left,
        results=res, winners=winners(res) if over else (),
    )


# -- hidden information (for tests) ------------------------------------------------------------


def hidden_variants(state: SpyState, seat: int) -> Iterator[SpyState]:
    """Other seats' passports permuted, their hand cards swapped with the pile, their guesses changed."""
    if state.phase == OVER:
        return
    others = [s for s in range(state.players) if s != seat]
    # passports: rotate those of the others together with the undealt ones
    pool = [p for s in others for p in state.passports[s]] + list(undealt_passports(state))
    if len(pool) > 1:
        for shift in range(1, len(pool)):
            rotated = pool[shift:] + pool[:shift]
            passports, i = list(state.passports), 0
            for s in others:
                k = len(state.passports[s])
                passports[s] = tuple(rotated[i:i + k])
                i += k
            yield evolve(state, passports=tuple(passports))
    # hands: swap one card of each other hand with a pile card of another nationality
    for s in others:
        for n, card in enumerate(state.hands[s]):  # every secret card, each with a different pile card
            pile = state.pile[n % len(state.pile):] + state.pile[:n % len(state.pile)] if state.pile else ()
            swap = next((c for c in pile if nat_of(c) != nat_of(card)), None)
            if swap is not None:
                hand = tuple(sorted(without(state.hands[s], card) + (swap,)))
                pile = tuple(sorted(without(state.pile, swap) + (card,)))
                yield evolve(state, hands=put(state.hands, s, hand), pile=pile)
    # identifications: another nationality on each of the others' cards
    for s in others:
        for i, (target, nat) in enumerate(state.guesses[s]):
            for other in state.nationalities:
                if other != nat:
                    guesses = put(state.guesses[s], i, (target, other))
                    yield evolve(state, guesses=put(state.guesses, s, guesses))
                    break


# -- screens --------------------------------------------------------------------------------------


def _nats(cards: tuple[str, ...]) -> Text:
    """Short nationality names of some cards, each nationality once."""
    return join([nat_short(n) for n in dict.fromkeys(nat_of(c) for c in cards)])


LINE = 21  # characters per screen line

STEP_TITLES = {
    DRAW: tr("À vous : piochez", "Your turn: draw"),
    SWAP: tr("Échangez au centre", "Swap with centre"),
    TAKE: tr("Brelan : prendre ?", "Triple: take it?"),
    BONUS: tr("Piochez la prime", "Draw the bonus"),
    REFILL: tr("Remplissez le centre", "Refill the centre"),
    IDENTIFY: tr("Identifier ?", "Identify?"),
}


def screen_key(state: SpyState, seat: int, pad_sensed: bool) -> Hashable | None:
    """Everything `screen` reads of the seat's view, from what the seat may know: its own passports,
    hand and identifications and the public table (None once the game is over)."""
    phase = state.phase
    if not 0 <= seat < state.players:
        return None
    own = (state.passports[seat], state.hands[seat])
    if phase == SETUP:
        placed = sum(c is not None for c in state.centre)
        return (SETUP, state.players, own, state.removal_pending, state.removed, placed, len(state.centre),
                pad_sensed)
    if phase == FINAL:
        return FINAL, state.players, own, state.guesses[seat], seat in state.finished, to_act(state)
    if phase != PLAY:
        return None
    active = state.active
    # the step only titles the active seat's screen
    return (PLAY, own, len(state.pile), active, state.step if active == seat else None, state.clues[seat],
            state.guesses[seat], max(0, first_identification_turn(state) - state.turn), state.identify_from)


def screen(v: SpyView, seat: int | None, *, pad_sensed: bool = True) -> Screen:
    """The seat's 128x64 screen, from its view only; `pad_sensed` False: its passports are chosen in its menu."""
    if v.phase == SETUP:
        return _setup_screen(v, pad_sensed)
    if v.phase == OVER:
        return _over_screen(v)
    lines: list[Text] = []
    if v.seat is not None:
        lines.append(_passport_line(v))
    if v.phase == FINAL:
        me = v.seats[v.seat] if v.seat is not None else None
        if me is not None and not me.finished:
            per = 2 if v.players == 2 else 1
            todo = seats_label([t for t in range(v.players) if t != v.seat and me.identified.count(t) < per])
            lines.append(Text("Reste " + todo.fr, "Left " + todo.en))
        waiting = seats_label([s for s in v.waiting if s >= 0])
        lines.append(Text("Attente " + waiting.fr, "Waiting " + waiting.en))
        return Screen(tr("Dernières identif.", "Last identifications"), tuple(lines), icon="eye")
    if v.seat is None:
        title = Text(f"Tour de {seat_label(v.active).fr}", f"{seat_label(v.active).en}'s turn")
        lines.append(join([nat_short(nat_of(c)) if c else Text("-", "-") for c in v.centre]))
        lines.append(Text(f"Pioche {v.pile} · tour {v.round}", f"Pile {v.pile} · round {v.round}"))
        return Screen(title, tuple(lines), icon="wait")
    me = v.seats[v.seat]
    mine = v.active == v.seat
    title = STEP_TITLES.get(v.step, tr("À vous", "Your turn")) if mine else Text(
        f"Tour de {seat_label(v.active).fr}", f"{seat_label(v.active).en}'s turn")
    lines.append(Text(f"Main {len(v.hand)} · pioche {v.pile}", f"Hand {len(v.hand)} · pile {v.pile}"))
    if v.hand:  # the seat's own cards, by nationality and number: which one to lay or swap
        lines.insert(0, _hand_line(tuple(v.hand)))
    if mine and v.step in (TAKE, IDENTIFY):
        # the runtime's menu goes under the lines: keep them few
        return Screen(title, tuple(lines), icon="turn")
    clues = _nats(me.clues) if me.clues else tr("aucun", "none")
    line = Text("Indices : " + clues.fr, "Clues: " + clues.en)
    if len(line.fr) > LINE:  # many nationalities: drop the spaces, else just count the triples
        line = Text("Indices : " + clues.fr.replace(" ", ""), "Clues: " + clues.en.replace(" ", ""))
    if len(line.fr) > LINE or len(line.en) > LINE:
        n = len(me.clues) // 3
        line = Text(f"Indices : {n} brelans", f"Clues: {n} triples")
    lines.append(line)
    if v.identify_wait and v.identify_from == IDENTIFY_FROM_ROUND:
        lines.append(tr(f"Identif. dès tour {TWO_PLAYER_FIRST_ROUND}", f"Identify from round {TWO_PLAYER_FIRST_ROUND}"))
    elif v.identify_wait:  # the 5th turn of play: count the turns down (« tour » = one turn here)
        n = v.identify_wait
        lines.append(tr(f"Identif. dans {n} tour{'s' if n > 1 else ''}", f"Identify in {n} turn{'s' if n > 1 else ''}"))
    else:
        if me.identified:
            done = seats_label(list(me.identified))
            lines.append(Text("Identifiés " + done.fr, "Identified " + done.en))
        else:
            lines.append(tr("Aucun identifié", "Nobody identified"))
    return Screen(title, tuple(lines), icon="turn" if mine else "wait")


@lru_cache(maxsize=64)
def _hand_line(hand: tuple[str, ...]) -> Text:
    """The seat's hand as short card names ("Main : Ita7 Fra3 All12"), never cut (cached: a hand
    stays the same while the other seats play)."""
    names = join([_short(c)[1] for c in sorted(hand, key=lambda c: _short(c)[0])])
    return essential(Text("Main : " + names.fr, "Hand: " + names.en))


@lru_cache(maxsize=256)
def _short(card: str) -> tuple[tuple[str, int], Text]:
    """A card's place in a sorted hand (nationality, number) and its short name ("Ita7")."""
    number = card.rsplit("/", 1)[1]
    nat = nat_short(nat_of(card))
    return (nat_of(card), int(number) if number.isdigit() else 0), Text(nat.fr + number, nat.en + number)


def _passport_line(v: SpyView) -> Text:
    if not v.passports:
        return tr("Passeport à scanner", "Passport: scan it")
    names = join([nat_short(nat_of(p)) for p in v.passports])
    if len(v.passports) == 1:
        full = card_set().nationality(nat_of(v.passports[0])).name
        return Text("Passeport " + full.fr, "Passport " + full.en)
    return Text("Passeports " + names.fr, "Passports " + names.en)


def _setup_screen(v: SpyView, pad_sensed: bool) -> Screen:
    lines: list[Text] = []
    if v.removal_pending:
        lines.append(tr("Nationalité retirée ?", "Removed nationality?"))
    elif v.removed is not None:
        name = card_set().nationality(v.removed).short
        lines.append(Text(f"Retirée : {name.fr}", f"Removed: {name.en}"))
    if v.seat is not None:
        per = 2 if v.players == 2 else 1
        if len(v.passports) == per:
            lines.append(_passport_line(v))
        elif per == 1:
            lines.append(tr("Scannez le passeport", "Scan your passport") if pad_sensed
                         else tr("Choisissez le passeport", "Choose your passport"))
        else:
            n = len(v.passports) + 1
            lines.append(Text(f"Scannez passeport {n}/2", f"Scan passport {n}/2") if pad_sensed
                         else Text(f"Choisissez passeport {n}/2", f"Choose passport {n}/2"))
        lines.append(Text(f"Main : {len(v.hand)}/3 cartes", f"Hand: {len(v.hand)}/3 cards"))
    placed = sum(c is not None for c in v.centre)
    lines.append(Text(f"Centre : {placed}/{len(v.centre)}", f"Centre: {placed}/{len(v.centre)}"))
    return Screen(tr("Préparation", "Set-up"), tuple(lines), icon="wait")


def _over_screen(v: SpyView) -> Screen:
    lines: list[Text] = []
    if v.seat is not None:
        r = v.results[v.seat]
        lines.append(essential(Text(f"{r.own_cards}+{r.own_cards}×{r.correct}+{r.bonus} = {r.score}",
                                    f"{r.own_cards}+{r.own_cards}×{r.correct}+{r.bonus} = {r.score}")))
    ranked = sorted(v.results, key=lambda r: (-r.score, r.seat))
    cells = [Text(f"{seat_label(r.seat).fr} {join([nat_short(n) for n in r.passports]).fr} {r.score}",
                  f"{seat_label(r.seat).en} {join([nat_short(n) for n in r.passports]).en} {r.score}") for r in ranked]
    lines.extend(essential(cell) for cell in cells)  # one player a line: the ranking is never cut
    won = v.seat is not None and v.seat in v.winners
    title = tr("Fin : gagné !", "The end: you win!") if won else tr("Fin de partie", "Game over")
    big = str(v.results[v.seat].score) if v.seat is not None else None
    return Screen(title, tuple(lines), big=big, icon="trophy" if won else None)
