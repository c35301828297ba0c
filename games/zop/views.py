"""What each seat may know in ZOP (views) and what its 128x64 screen shows (built from the view only).

A seat sees its own hand, pile order and discard (it handled them), the cards it laid, and every
public fact: the revealed turns (the lines of played cards), points, pending effects, counts of
cards in hands and piles, and whether the opponent has laid its card(s) yet (visible on the pad)
— never which card. The cards blind exchanges moved are known to both players, not to spectators.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from games.core import Screen, Text, essential, evolve, tr
from games.frozen import quick_init
from games.zop import rules_supply
from games.zop.pieces import Deck, short_label
from games.zop.rules_transition import giveable
from games.zop.state import (
    COMMIT,
    CONFIRM,
    DRAW,
    EXCHANGE,
    GIVE,
    OVER,
    PICK,
    ROUND_END,
    SENSED,
    SHOW,
    TAKE,
    TRACKED,
    Pending,
    RoundResult,
    Side,
    Swap,
    TurnRecord,
    ZopState,
    other,
    with_side,
)
from games.zop.texts import ROUNDS


@quick_init
@dataclass(frozen=True)
class SidePublic:
    """What everyone knows of a seat."""

    points: int
    pending: Pending
    laid_count: int  # cards face down on its pad now (the cards themselves are secret)
    to_lay: int  # cards everyone knows it lays this turn (see rules_supply.announced)
    hand_size: int | None  # tracked mode only (hands are unknown in sensed mode)
    pile_size: int | None
    discard_size: int | None
    cards_left: int  # cards still to play this round, laid ones included


@quick_init
@dataclass(frozen=True)
class SidePrivate:
    """What only the seat itself knows."""

    hand: tuple[str, ...]
    laid: tuple[str, ...]
    to_lay: int  # cards it must lay this turn, its own "same_turn" extra cards included
    pile: tuple[str, ...]  # known order, top first (a recycled discard)
    unseen: tuple[str, ...]  # the rest of the shuffled first pass (order unknown)
    discard: tuple[str, ...]  # bottom first
    giveable: tuple[str, ...]  # during a blind exchange, the cards it may give back
    held: tuple[str, ...] = ()  # two tables: cards of the other deck it holds, not yet played


@quick_init
@dataclass(frozen=True)
class ExchangePublic:
    """The blind exchange in progress."""

    taker: int
    stage: str
    taken: str | None  # known to both players, hidden from spectators
    slots: int = 0  # two tables: the victim's face-down cards the taker chooses among
    slot: int = 0  # two tables: the place chosen


@quick_init
@dataclass(frozen=True)
class ZopView:
    """A seat's view (seat None: the public view for spectators and logs)."""

    seat: int | None
    mode: str
    round_no: int
    label: str
    turn: int
    phase: str
    sides: tuple[SidePublic, SidePublic]
    turns: tuple[TurnRecord, ...]
    results: tuple[RoundResult, ...]
    exchange: ExchangePublic | None
    swaps: tuple[Swap, ...]  # blind exchanges of this round (players only)
    review: int  # round end: the turn this seat reads in the count
    me: SidePrivate | None


def _public(deck: Deck, state: ZopState, seat: int) -> SidePublic:
    side = state.sides[seat]
    tracked = state.mode == TRACKED
    to_lay = rules_supply.announced(deck, state, seat) if state.phase == COMMIT else 0
    if tracked:
        left = len(side.hand) + len(side.pile) + len(side.shuffled) + len(side.discard)
    else:
        left = rules_supply.deck_total(deck, side) - len(side.line)
    return SidePublic(
        points=side.points, pending=side.pending, laid_count=len(side.laid), to_lay=to_lay,
        hand_size=len(side.hand) if tracked else None,
        pile_size=len(side.pile) + len(side.shuffled) if tracked else None,
        discard_size=len(side.discard) if tracked else None, cards_left=left)


def view(deck: Deck, state: ZopState, seat: int | None) -> ZopView:
    """Everything `seat` may know (None = public)."""
    me = None
    exchange = None
    if seat is not None:
        side = state.sides[seat]
        gives: tuple[str, ...] = ()
        if state.exchange is not None and state.exchange.stage == GIVE and state.exchange.taker == seat:
            gives = giveable(deck, state, state.exchange)
        to_lay = rules_supply.required(deck, state, seat) if state.phase == COMMIT else 0
        played = {c for s in state.sides for c in s.line}
        held = tuple(c for c in side.held if c not in played)
        me = SidePrivate(side.hand, side.laid, to_lay, side.pile, side.shuffled, side.discard, gives, held)
    if state.exchange is not None:
        step = state.exchange
        taken = step.taken if seat is not None else None
        exchange = ExchangePublic(step.taker, step.stage, taken, step.slots, step.slot)
    return ZopView(
        seat=seat, mode=state.mode, round_no=state.round_no, label=state.label, turn=state.turn,
        phase=state.phase, sides=(_public(deck, state, 0), _public(deck, state, 1)), turns=state.turns,
        results=state.results, exchange=exchange, swaps=state.swaps if seat is not None else (),
        review=state.review[seat] if seat is not None else len(state.turns), me=me)


# -- hidden information (for tests) ----------------------------------------------------------


def hidden_variants(deck: Deck, state: ZopState, seat: int) -> Iterator[ZopState]:
    """States differing only in the opponent's secret cards (laid card, hand, piles)."""
    opp = other(seat)
    want = rules_supply.required(deck, state, opp)
    for variant in _variants(deck, state, opp):
        if variant != state and rules_supply.required(deck, variant, opp) == want:
            yield variant


def _variants(deck: Deck, state: ZopState, opp: int) -> Iterator[ZopState]:
    side = state.sides[opp]
    if state.mode == SENSED:
        for i in range(len(side.laid)):
            trial = with_side(state, opp, evolve(side, laid=side.laid[:i] + side.laid[i + 1:]))
            for alt in rules_supply.layable(deck, trial, opp):  # every card it could have laid
                yield with_side(state, opp, evolve(side, laid=side.laid[:i] + (alt,) + side.laid[i + 1:]))
        # the order it laid them in (the reveal shows it): hidden too, even when the cards are not
        # (its last cards of the round, each known)
        for i in range(len(side.laid) - 1):
            order = list(side.laid)
            order[i], order[i + 1] = order[i + 1], order[i]
            yield with_side(state, opp, evolve(side, laid=tuple(order)))
        return
    if state.mode != TRACKED:
        return
    secret = [c for c in side.hand if c not in state.exposed]
    for i, card in enumerate(side.laid):
        if card in state.exposed:
            continue
        for alt in secret:
            if alt not in side.laid:
                yield with_side(state, opp, evolve(side, laid=side.laid[:i] + (alt,) + side.laid[i + 1:]))
    # every secret card changes place at least once: each one swapped with the next secret slot
    slots = [(z, i) for z in ("hand", "pile", "discard") for i, c in enumerate(getattr(side, z))
             if c not in state.exposed]
    for n, (z, i) in enumerate(slots):
        z2, i2 = slots[(n + 1) % len(slots)]
        if (z, i) == (z2, i2):
            continue
        cards = {k: list(getattr(side, k)) for k in ("hand", "pile", "discard")}
        cards[z][i], cards[z2][i2] = cards[z2][i2], cards[z][i]
        hand = tuple(cards["hand"])
        laid = tuple(hand[side.hand.index(c)] for c in side.laid)
        yield with_side(state, opp, evolve(side, hand=hand, pile=tuple(cards["pile"]),
                                            discard=tuple(cards["discard"]), laid=laid))
    # and whole redeals, a different sample in every game (seeded by the state itself)
    for k in range(3):
        rng = random.Random(f"{k}/{side.hand}/{side.pile}/{len(state.exposed)}")
        yield with_side(state, opp, _redeal(side, set(state.exposed), rng))


def _redeal(side: Side, exposed: set[str], rng: random.Random) -> Side:
    """The same side with its unexposed cards shuffled across hand, piles and discard."""
    slots = [("hand", i) for i in range(len(side.hand))] + [("pile", i) for i in range(len(side.pile))] \
        + [("discard", i) for i in range(len(side.discard))] + [("shuffled", i) for i in range(len(side.shuffled))]
    cards: dict[str, list[str]] = {"hand": list(side.hand), "pile": list(side.pile),
                                   "discard": list(side.discard), "shuffled": list(side.shuffled)}
    free = [(z, i) for z, i in slots if cards[z][i] not in exposed]
    pool = [cards[z][i] for z, i in free]
    rng.shuffle(pool)
    laid_at = [side.hand.index(c) for c in side.laid]
    for (z, i), card in zip(free, pool):
        cards[z][i] = card
    hand = tuple(cards["hand"])
    return evolve(side, hand=hand, pile=tuple(cards["pile"]), discard=tuple(cards["discard"]),
                   shuffled=tuple(sorted(cards["shuffled"])), laid=tuple(hand[i] for i in laid_at))


# -- screens -----------------------------------------------------------------------------------


def _wins(v: ZopView, a: int, b: int) -> tuple[int, int]:
    won = [0, 0]
    for r in v.results:
        if r.winner is not None:
            won[r.winner] += 1
    return won[a], won[b]


def _pending_mark(p: Pending) -> str:
    """" (+2 x2)": the bonus and multiplier waiting for a seat's next card, "" when none."""
    parts = ([f"+{p.boost}"] if p.boost else []) + ([f"x{p.factor}"] if p.factor != 1 else [])
    return f" ({' '.join(parts)})" if parts else ""


def _pair(deck: Deck, record: TurnRecord, a: int, b: int) -> Text:
    mine, theirs = short_label(deck, record.cards[a]), short_label(deck, record.cards[b])
    return tr(f"{mine.fr} / {theirs.fr}", f"{mine.en} / {theirs.en}")


def _lay_status(deck: Deck, v: ZopView, me: int, opp: int, pad_sensed: bool) -> list[Text]:
    assert v.me is not None
    mine, theirs, to_lay = v.sides[me], v.sides[opp], v.me.to_lay
    mark, their_mark = _pending_mark(mine.pending), _pending_mark(theirs.pending)
    if to_lay == 0:
        line = tr("Plus de cartes", "No cards left")
    elif len(v.me.laid) >= to_lay:
        laid = short_label(deck, v.me.laid)
        line = tr(f"Posée : {laid.fr}{mark}", f"Laid: {laid.en}{mark}")
    else:
        fr, en = ("Posez", "Lay") if pad_sensed else ("Choisissez", "Choose")
        if to_lay > 1:
            line = tr(f"{fr} {to_lay} cartes {mine.laid_count}/{to_lay}{mark}",
                      f"{en} {to_lay} cards {mine.laid_count}/{to_lay}{mark}")
        else:
            line = tr(f"{fr} une carte{mark}", f"{en} a card{mark}")
    if theirs.to_lay == 0:
        their = tr("Adv : plus de cartes", "Opp: no cards left")
    elif theirs.laid_count >= theirs.to_lay:
        their = tr(f"Adv : a posé{their_mark}", f"Opp: has laid{their_mark}")
    elif theirs.to_lay > 1:
        their = tr(f"Adv : {theirs.to_lay} cartes{their_mark}", f"Opp: {theirs.to_lay} cards{their_mark}")
    else:
        their = tr(f"Adv : réfléchit{their_mark}", f"Opp: thinking{their_mark}")
    return [line, their]


def _hand_line(deck: Deck, cards: tuple[str, ...]) -> Text:
    """The cards in hand, packed for one screen row: "Att4 Déf2 Renfort"."""
    fr = " ".join(deck.card(c).short.fr.replace(" ", "") for c in cards)
    en = " ".join(deck.card(c).short.en.replace(" ", "") for c in cards)
    return tr(f"Main {fr}", f"Hand {en}")


def _apart_lines(deck: Deck, ex: ExchangePublic, me: int, pad_sensed: bool) -> list[Text]:
    """Two tables: what each player does with cards that stay at home (kept on the first page);
    a seat whose pad is not sensed chooses the card in its menu."""
    taker = ex.taker == me
    if ex.stage == PICK:
        lines = [tr("choisissez une carte", "choose a card"), tr(f"parmi ses {ex.slots} (menu)", f"of their {ex.slots} (menu)")] \
            if taker else [tr("mélangez votre main", "shuffle your hand"), tr(f"faces cachées ({ex.slots})", f"face down ({ex.slots})")]
        return [essential(t) for t in [tr("Échange à l'aveugle :", "Blind swap:"), *lines]]
    if ex.stage == SHOW:
        if taker:
            return [essential(tr(f"Vous prenez la n°{ex.slot}", f"You take card {ex.slot}")),
                    tr("Adv : la montre…", "Opp: showing it…")]
        where = [tr("posez-la sur votre", "lay it on your"), tr("plateau", "pad")] if pad_sensed \
            else [tr("choisissez-la dans", "choose it in"), tr("votre menu", "your menu")]
        return [essential(t) for t in [tr(f"Il prend la n°{ex.slot} :", f"Card {ex.slot} is taken:"), *where]]
    taken = short_label(deck, (ex.taken,)) if ex.taken else Text("?", "?")
    if taker:
        where = [tr("Posez une carte à", "Lay a card to give"), tr("donner sur le plateau", "back on your pad")] \
            if pad_sensed else [tr("Choisissez une carte", "Choose a card"), tr("à donner (menu)", "to give (menu)")]
        return [essential(t) for t in [tr(f"Pris : {taken.fr}", f"Taken: {taken.en}"), *where]]
    return [tr(f"Il prend : {taken.fr}", f"Took: {taken.en}"), essential(tr("mettez-la de côté", "set it aside")),
            tr("Il vous en rend une", "A card comes back")]


def _held_line(deck: Deck, cards: tuple[str, ...]) -> Text:
    """"Reçue Att4 (menu)": cards of the other deck the player lays from its menu."""
    fr = " ".join(deck.card(c).short.fr.replace(" ", "") for c in cards)
    en = " ".join(deck.card(c).short.en.replace(" ", "") for c in cards)
    return tr(f"Reçue {fr} (menu)", f"Held {en} (menu)")


def _exchange_lines(deck: Deck, v: ZopView, me: int, pad_sensed: bool) -> list[Text]:
    ex = v.exchange
    assert ex is not None
    if ex.stage in (PICK, SHOW) or (ex.stage == GIVE and v.mode == SENSED):
        return _apart_lines(deck, ex, me, pad_sensed)
    if ex.stage == CONFIRM:
        # what the player must do now: kept on the first page whatever messages wait (essential)
        if ex.taker == me:
            return [essential(tr("Échange à l'aveugle :", "Blind swap:")),
                    essential(tr("piochez une carte", "draw a card blindly")),
                    essential(tr("chez l'adversaire", "from your opponent"))]
        return [essential(tr("Échange à l'aveugle :", "Blind swap:")),
                essential(tr("tendez votre main", "hold out your hand")), essential(tr("faces cachées", "face down"))]
    if ex.stage == TAKE:
        return [tr("Échange à l'aveugle…", "Blind swap…")]
    taken = short_label(deck, (ex.taken,)) if ex.taken else Text("?", "?")
    if ex.taker == me:
        return [tr(f"Pris : {taken.fr}", f"Taken: {taken.en}"), essential(tr("Donnez une carte", "Give a card back"))]
    return [tr(f"Il prend : {taken.fr}", f"Took: {taken.en}"), tr("Il vous rend une carte", "A card comes back")]


def _score_line(a: int, b: int, public: bool) -> Text:
    if public:
        return tr(f"Clair {a} · Foncé {b}", f"Light {a} · Dark {b}")
    return tr(f"Vous {a} · Adv {b}", f"You {a} · Opp {b}")


def _round_end_lines(deck: Deck, v: ZopView, me: int, opp: int) -> list[Text]:
    last = v.results[-1]
    public = v.seat is None
    lines = [_score_line(last.points[me], last.points[opp], public)]
    if v.turns:
        record = v.turns[min(max(v.review, 1), len(v.turns)) - 1]
        pair = _pair(deck, record, me, opp)
        lines.append(tr(f"T{record.turn} {pair.fr}", f"T{record.turn} {pair.en}"))
        gain = _score_line(record.points[me], record.points[opp], public)
        lines.append(tr(f"→ {gain.fr}", f"→ {gain.en}"))
    return lines


def screen(deck: Deck, v: ZopView, seat: int | None, *, pad_sensed: bool = True) -> Screen:
    """The seat's screen; the public screen names the decks instead of "you"; `pad_sensed` False:
    its cards are chosen in its menu."""
    me = seat if seat is not None else 0
    opp = 1 - me
    wa, wb = _wins(v, me, opp)
    label = ROUNDS[v.label]
    if v.phase == OVER:
        return _over_screen(v, seat, me, opp, wa, wb)
    if v.phase == ROUND_END:
        title = tr(f"Fin {label.fr} ({wa}-{wb})", f"End {label.en} ({wa}-{wb})")
        return Screen(title, tuple(_round_end_lines(deck, v, me, opp)), icon="trophy")
    title = tr(f"{label.fr} T{v.turn} ({wa}-{wb})", f"{label.en} T{v.turn} ({wa}-{wb})")
    lines = [_score_line(v.sides[me].points, v.sides[opp].points, seat is None)]
    icon = "wait"
    if v.phase == DRAW:
        lines.append(tr("Pioche…", "Drawing…"))
    elif v.phase == EXCHANGE and v.exchange is not None:
        lines += _exchange_lines(deck, v, me, pad_sensed) if seat is not None else [tr("Échange à l'aveugle", "Blind swap")]
        acting = 1 - v.exchange.taker if v.exchange.stage == SHOW else v.exchange.taker
        icon = "turn" if seat is not None and acting == seat and v.exchange.stage != TAKE else "wait"
    elif v.phase == COMMIT:
        if seat is None:
            for side, name in zip(v.sides, (tr("Clair", "Light"), tr("Foncé", "Dark"))):
                count = f"{side.laid_count}/{side.to_lay}{_pending_mark(side.pending)}"
                lines.append(tr(f"{name.fr} : {count}", f"{name.en}: {count}"))
        else:
            lines += _lay_status(deck, v, me, opp, pad_sensed)
            if v.me is not None and len(v.me.laid) < v.me.to_lay:
                icon = "turn"
                if v.mode == TRACKED:  # the table deals the hand: show it (the last pair was a banner)
                    lines.append(essential(_hand_line(deck, tuple(c for c in v.me.hand if c not in v.me.laid))))
                elif v.me.held:  # two tables: a card received lies at the other table, laid from the menu
                    lines.append(_held_line(deck, v.me.held))
    if v.turns and len(lines) < 4:
        last = _pair(deck, v.turns[-1], me, opp)
        # the prefix goes when a two-card play would not fit on the 21-character line
        lines.append(tr(f"Dernier {last.fr}" if len(last.fr) <= 13 else last.fr,
                        f"Last {last.en}" if len(last.en) <= 16 else last.en))
    return Screen(title, tuple(lines), icon=icon)


def _over_screen(v: ZopView, seat: int | None, me: int, opp: int, wa: int, wb: int) -> Screen:
    champion = v.results[-1].winner if v.results else None
    if seat is None:
        best, worst = max(wa, wb), min(wa, wb)
        head = tr(f"{'Clair' if champion == 0 else 'Foncé'} gagne {best}-{worst}",
                  f"{'Light' if champion == 0 else 'Dark'} wins {best}-{worst}")
    elif champion == seat:
        head = tr(f"Vous gagnez {wa}-{wb} !", f"You win {wa}-{wb}!")
    else:
        head = tr(f"Adv gagne {wb}-{wa}", f"Opponent wins {wb}-{wa}")
    lines = [head]
    for r in v.results[-3:]:
        name = ROUNDS[r.label]
        lines.append(tr(f"{name.fr} {r.points[me]}-{r.points[opp]}", f"{name.en} {r.points[me]}-{r.points[opp]}"))
    return Screen(tr("Partie finie", "Match over"), tuple(essential(t) for t in lines), icon="trophy")
