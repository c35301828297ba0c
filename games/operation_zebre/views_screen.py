"""A seat's 128x64 screen, built from its view only (title + lines of ~21 characters; the table
pages what does not fit, and lines marked essential are never cut)."""

from __future__ import annotations

from collections.abc import Hashable

from games.core import Screen, Text, essential, tr
from games.operation_zebre.rules import to_act
from games.operation_zebre.state import (
    ECHEC,
    OVER,
    PREPARE,
    SETUP,
    STAGE_CARD,
    STAGE_CENSOR,
    STAGE_READY,
    TRANSMIT,
    OZState,
    reading_of,
    team_of,
)
from games.operation_zebre.views import OwnReading, OZView
from games.texts import seat_label

CATEGORY_LABELS = {
    "place": tr("Lieu", "Place"),
    "screen": tr("Film, série", "Film, series"),
    "person": tr("Personnage", "Person"),
}
TEAMS = ("A", "B")


def line(fr: str, en: str) -> Text:
    """A screen line in both languages."""
    return Text(fr, en)


def must(fr: str, en: str) -> Text:
    """A screen line the player acts on: never cut by the renderer."""
    return essential(Text(fr, en))


def _numbers(indices: list[int]) -> str:
    return " ".join(str(i + 1) for i in indices) or "-"


def _big(view: OZView, seat: int | None) -> str:
    """Coop: boxes left on the shared track; competitive: the seat's team suspicion points."""
    if view.mode == "coop":
        return str(view.tracks[0].left)
    team = view.team
    return str(view.tracks[team].score) if team is not None else ""


def screen_key(state: OZState, seat: int, pad_sensed: bool) -> Hashable | None:
    """Everything `screen` reads of the seat's view, from what the seat may know: its own reading,
    its track and the public parts of the others' readings (None once the game is over)."""
    phase = state.phase
    if phase == OVER or not 0 <= seat < state.players:
        return None
    if phase == SETUP:
        return SETUP
    track = state.tracks[team_of(state, seat)]  # the big number, and the boxes left while censoring
    acting = seat in to_act(state)
    key = (phase, state.round, state.rounds, state.mode, track.left, track.score if state.competitive else None,
           acting)
    if phase == ECHEC:
        return key
    if phase == PREPARE:
        own = reading_of(state, seat)  # one object while the seat's own document stays as it is
        # the readers still preparing show once its own is ready; its team's readers while it may become one
        waiting = mates = None
        if own is not None and own.stage not in (STAGE_CARD, STAGE_CENSOR):
            waiting = sum(1 for r in state.readings if r.stage != STAGE_READY)
        elif own is None and state.competitive and acting:
            team = team_of(state, seat)
            mates = sum(1 for r in state.readings if team_of(state, r.seat) == team)
        return (*key, own, waiting, mates, pad_sensed)
    if phase != TRANSMIT or state.reader is None:
        return None
    reader = state.reader
    if seat == reader:
        return (*key, state.step, reading_of(state, seat))
    # what everyone sees of the reading under way
    r = reading_of(state, reader)
    shown = None if r is None else (r.category, r.ticks if r.stage == STAGE_READY else None, r.hint, r.initial,
                                    r.erase_value)
    return (*key, state.step, reader, shown)


def screen(view: OZView, seat: int | None, *, pad_sensed: bool = True) -> Screen:
    """The screen of `seat` (None = a public screen); `pad_sensed` False: its documents are chosen in its menu."""
    if view.over:
        return _over(view, seat)
    title = tr(f"Manche {view.round}/{view.rounds}", f"Round {view.round}/{view.rounds}")
    if view.phase == "setup":
        return Screen(tr("Opération Zèbre", "Operation Zebra"),
                      (line("Tirage des cartes", "Drawing the cards"), line("variantes…", "of the variant…")),
                      icon="wait")
    if view.phase == "prepare":
        return Screen(title, _prepare_lines(view, seat, pad_sensed), big=_big(view, seat),
                      icon="turn" if seat in view.to_act else "wait")
    return _transmit(view, seat, title)


def _prepare_lines(view: OZView, seat: int | None, pad_sensed: bool) -> tuple[Text, ...]:
    own = view.own
    waiting = sum(1 for r in view.readings if r.status != "ready")
    if own is None:
        if seat is None or seat not in view.to_act:
            return (line("Les lecteurs", "The readers"), line("préparent leurs", "prepare their"),
                    line("dossiers.", "documents."))
        if view.teams is not None and view.team is not None:
            mine = sum(1 for r in view.readings if r.seat in view.teams[view.team])
            ask = (must("Lecteur ? Posez un dossier sur le plateau", "Reader? Lay a document on the pad") if pad_sensed
                   else must("Lecteur ? Choisissez un dossier au menu", "Reader? Choose a document in the menu"))
            return (ask, line(f"Lecteurs : {mine}/2", f"Readers: {mine}/2"))
        if pad_sensed:
            return (must("Posez un dossier sur votre plateau, ou « Sans carte »",
                         "Lay a document on your pad, or \"No card\""),)
        return (must("Choisissez un dossier au menu, ou « Sans carte »",
                     "Choose a document in the menu, or \"No card\""),)
    if own.stage == "card":
        return (must("Choisissez la face", "Choose the side"),
                line(f"R : {own.recto or '?'}", f"R: {own.recto or '?'}"),
                line(f"V : {own.verso or '?'}", f"V: {own.verso or '?'}"))
    if own.stage == "censor":
        if not own.known:
            return (must("Dossier inconnu : rayez au feutre puis entrez la somme",
                         "Unknown document: censor on paper then enter the sum"),)
        left = view.tracks[view.team or 0].left
        title = own.title or "?"
        return (must(f"Somme {own.sum} → {own.sum} croix", f"Sum {own.sum} → {own.sum} ticks"),
                line(title, title),
                line(f"Visibles {own.visible}/{len(own.lines)}", f"Visible {own.visible}/{len(own.lines)}"),
                line(f"Reste {left} cases", f"{left} boxes left"))
    return (line("Censure validée", "Censoring confirmed"),
            line(f"{own.ticks} suspicion(s)", f"{own.ticks} tick(s)"),
            line(f"Attente : {waiting}", f"Waiting: {waiting}"))


def _transmit(view: OZView, seat: int | None, title: Text) -> Screen:
    reader = view.reader
    assert reader is not None  # the transmission always has a reader
    pub = next(r for r in view.readings if r.seat == reader)
    big = _big(view, seat)
    if view.phase == "echec":
        return Screen(tr("Carte ÉCHEC", "ÉCHEC card"), (line("Mauvaise réponse :", "Wrong answer:"),
                                                       line("tirage d'une carte", "drawing a card")),
                      big=big, icon="warn")
    if seat is not None and seat == reader:
        assert view.own is not None  # a reader has a reading
        return Screen(tr("À vous de lire", "Your reading"), _reader_lines(view, view.own), big=big, icon="turn")
    step = view.step
    if step == "window" and seat is not None and seat in view.to_act:
        return Screen(tr("INTERCEPTION", "INTERCEPT"), (must("Notez votre réponse", "Write your answer"),
                                                       line("en 10 secondes !", "within 10 seconds!")),
                      big=big, bar=1.0, icon="warn")
    name = seat_label(reader)
    cat = CATEGORY_LABELS.get(pub.category or "", tr("annoncé", "announced"))
    lines = [line(f"Thème : {cat.fr}", f"Theme: {cat.en}"),
             line(f"Cochées : {pub.ticks}", f"Ticked: {pub.ticks}")]
    if pub.hint == "initial":
        letter = pub.initial or "?"
        lines.append(line(f"Initiale : {letter}", f"Initial: {letter}"))
    elif pub.hint == "erase":
        lines.append(line(f"Effacer (+{pub.erase_value})", f"Erase (+{pub.erase_value})"))
    if step == "check":
        lines.append(line("Vérif. interception", "Checking interception"))
    elif view.mode == "competitive" and step in ("read", "window"):
        lines.append(line("Écoutez la lecture", "Listen to the reading"))
    else:
        lines.append(line("Une seule réponse !", "One answer only!"))
    return Screen(tr(f"{name.fr} lit", f"{name.en} reads"), tuple(lines), big=big, icon="eye")


def _reader_lines(view: OZView, own: OwnReading) -> tuple[Text, ...]:
    cat = CATEGORY_LABELS.get(own.category or "", tr("?", "?"))
    lines = [line(f"Thème : {cat.fr}", f"Theme: {cat.en}")]
    if own.known:
        if own.hint == "erase" and own.erase_line is not None:
            n = own.erase_line + 1
            lines.append(must(f"Lisez seulement L{n}", f"Read line {n} only"))
        else:
            shown = [i for i, ln in enumerate(own.lines) if not ln.hidden]
            hidden = [i for i, ln in enumerate(own.lines) if ln.hidden]
            lines.append(must(f"Lisez : {_numbers(shown)}", f"Read: {_numbers(shown)}"))
            lines.append(must(f"Sautez : {_numbers(hidden)}", f"Skip: {_numbers(hidden)}"))
    else:
        lines.append(must("Lisez votre carte", "Read your card"))
    step = view.step
    tail = {"read": ("Lisez, puis « Lu »", "Read, then \"Read\""),
            "window": ("Interception adverse", "Other team intercepts"),
            "check": ("Vérif. interception", "Checking interception")}.get(
        step or "", ("Résultat ou indice ?", "Result or hint?"))
    lines.append(line(*tail))
    return tuple(lines)


def _over(view: OZView, seat: int | None) -> Screen:
    title = tr("Fin de partie", "Game over")
    if view.mode == "coop":
        won = view.lost is None
        reason = {"suspicion": ("Plus de cases", "No boxes left"), "echec": ("Plus de carte ÉCHEC", "No ÉCHEC left"),
                  "missions": ("Missions ratées", "Missions failed")}.get(view.reason or "", ("", ""))
        lines: tuple[Text, ...] = (
            must("Mission accomplie !", "Mission accomplished!") if won else must("Partie perdue", "Game lost"),)
        if not won:
            lines += (must(*reason),)
        return Screen(title, lines, big=str(view.tracks[0].left), icon="trophy" if won else "warn")
    result = view.result
    assert result is not None
    totals = result.totals
    winner = "+".join(TEAMS[t] for t in result.winning_teams)
    lines = (must(f"Gagnant : {winner}", f"Winner: {winner}"),)
    lines += tuple(must(f"Équipe {TEAMS[t]} : {totals[t]} pts", f"Team {TEAMS[t]}: {totals[t]} pts") for t in (0, 1))
    if view.lost is not None:
        lines += (must(f"{TEAMS[view.lost]} grillée", f"{TEAMS[view.lost]} blown"),)
    team = view.team
    mine = team is not None and team in result.winning_teams
    return Screen(title, lines, big=str(totals[team]) if team is not None else None,
                  icon="trophy" if mine else None)
