"""A game's view as a page shows it: short lines in the table's language, per game.

It reads only a view that `redact.py` already put in a page's payload (the public view, or the
seat's own view on that seat's page), so it can show nothing that page did not already hold.
Players are J1, J2… (game seats counted from 1) with their table seat; pieces are named by the
labels the payload carries. A view it cannot read (an old transcript) gives its phase-free
minimum, never an error.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeGuard

log = logging.getLogger(__name__)

Summary = dict[str, Any]
Words = Mapping[str, tuple[str, str]]

PHASES: Words = {
    # Drôles de Zèbres
    "first": ("tirage du premier joueur", "drawing the first player"),
    "guardian": ("pose du gardien", "placing the guardian"),
    "place": ("pose d'un animal", "placing an animal"),
    "crocodile": ("échange du crocodile", "crocodile swap"),
    "move": ("déplacement du gardien", "moving the guardian"),
    "over": ("partie finie", "game over"),
    # ZOP
    "draw": ("pioche", "drawing"),
    "commit": ("chacun pose sa carte face cachée", "each lays a card face down"),
    "exchange": ("échange à l'aveugle", "blind exchange"),
    "round_end": ("fin de manche", "end of the round"),
    # Opération Zèbre
    "setup": ("mise en place", "setting up"),
    "prepare": ("préparation des documents", "preparing the documents"),
    "transmit": ("transmission", "transmission"),
    "echec": ("carte Échec", "Échec card"),
    # Opération Mata Hari
    "deal": ("distribution", "dealing"),
    "offer": ("offre du joueur actif", "the active player's offer"),
    "counter": ("contre-offres", "counter-offers"),
    "hitman": ("exigence du Tueur", "the Hitman's demand"),
    "swap": ("échange", "swap"),
    "settle": ("règlement du tour", "settling the turn"),
    # Spywhere
    "play": ("en jeu", "playing"),
    "final": ("dernières identifications", "last identifications"),
    "take": ("prise d'un triplé", "taking a triple"),
    "bonus": ("carte bonus", "bonus card"),
    "refill": ("le centre est complété", "refilling the centre"),
    "identify": ("identification", "identification"),
}
KINDS: Words = {"zebra": ("zèbre", "zebra"), "gazelle": ("gazelle", "gazelle"), "crocodile": ("crocodile", "crocodile"),
                "elephant": ("éléphant", "elephant"), "lion": ("lion", "lion")}
ROUNDS: Words = {"manche": ("Manche", "Round"), "revanche": ("Revanche", "Rematch"), "belle": ("Belle", "Decider")}
STATUS: Words = {"idle": ("attend", "waiting"), "composing": ("compose son offre", "making an offer"),
                 "confirmed": ("offre faite", "offer made"), "passed": ("passe", "passes"),
                 "withdrawn": ("offre retirée", "offer withdrawn"), "preparing": ("prépare", "preparing"),
                 "ready": ("prêt", "ready"), "reading": ("lit", "reading"), "done": ("a lu", "has read")}
COLOURS: Words = {"white": ("blanc", "white"), "green": ("vert", "green"), "rouge": ("rouge", "red"),
                  "bleu": ("bleu", "blue"), "vert": ("vert", "green"), "jaune": ("jaune", "yellow"),
                  "noir": ("noir", "black"), "blanc": ("blanc", "white"), "violet": ("violet", "purple"),
                  "orange": ("orange", "orange")}
COUNTRIES: Words = {"france": ("France", "France"), "allemagne": ("Allemagne", "Germany"),
                    "angleterre": ("Angleterre", "England"), "belgique": ("Belgique", "Belgium"),
                    "espagne": ("Espagne", "Spain"), "italie": ("Italie", "Italy")}


class Say:
    """Words in the table's language, and the players' names."""

    def __init__(self, lang: str, seats: Sequence[int | None], labels: Mapping[str, str]):
        self.en = lang == "en"
        self.seats = seats
        self.labels = labels

    def __call__(self, fr: str, en: str) -> str:
        return en if self.en else fr

    def word(self, words: Words, key: Any) -> str | None:
        """A known value's word, None for an unknown one (never shown raw)."""
        pair = words.get(key) if isinstance(key, str) else None
        return None if pair is None else pair[self.en]

    def who(self, gseat: Any) -> str:
        """J1, J2… for game seat 0, 1…"""
        return f"{'P' if self.en else 'J'}{gseat + 1}" if _int(gseat) else "?"

    def card(self, piece: Any) -> dict[str, str] | None:
        """A piece as a card of the page: its name on the table and its set (for the colour)."""
        if not isinstance(piece, str) or "/" not in piece:
            return None
        parts = piece.split("/")
        return {"piece": piece, "label": self.labels.get(piece, piece), "set": parts[1] if len(parts) > 2 else ""}

    def cards(self, title: str, pieces: Any) -> dict[str, Any] | None:
        """A titled row of cards, None when there is none."""
        shown = [c for p in (pieces if isinstance(pieces, list) else []) if (c := self.card(p)) is not None]
        return {"title": title, "cards": shown} if shown else None


def _int(value: Any) -> TypeGuard[int]:
    return type(value) is int


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _n(value: Any) -> str:
    return f"{value:g}" if isinstance(value, (int, float)) and not isinstance(value, bool) else "?"


def _join(*parts: str | None) -> str:
    return " · ".join(p for p in parts if p)


def _players(say: Say, lines: Callable[[int], list[str]], count: int) -> list[dict[str, Any]]:
    out = []
    for g in range(count):
        seat = say.seats[g] if g < len(say.seats) else None
        out.append({"who": say.who(g), "seat": seat, "lines": [x for x in lines(g) if x]})
    return out


def summarize(game_id: str, view: Any, seats: Sequence[int | None], labels: Mapping[str, str], lang: str,
              mine: bool = False) -> Summary:
    """The view as facts (lines), players (J1… with their lines) and cards; `mine`: the seat's own part."""
    say = Say(lang, seats, labels)
    out: Summary = {"facts": [], "players": [], "cards": [], "score": None}
    make = FORMATTERS.get(game_id)
    if make is None:  # a game without its own formatter: who plays where, nothing of its view
        out["players"] = _players(say, lambda g: [], len(seats))
        return out
    if not isinstance(view, dict):
        return out
    try:
        make(say, view, out, mine)
    except Exception:  # a view of another shape (an old transcript): the minimum, never an error
        log.debug("cannot summarize a %s view", game_id, exc_info=True)
        out = {"facts": [], "players": [], "cards": [], "score": None}
    out["facts"] = [f for f in out["facts"] if f]
    out["cards"] = [c for c in out["cards"] if c is not None]
    return out


def _phase(say: Say, view: Mapping[str, Any]) -> str | None:
    return say.word(PHASES, view.get("step") if view.get("step") in ("draw", "swap", "take", "bonus", "refill",
                                                                     "identify") else view.get("phase"))


def _ddz(say: Say, view: dict[str, Any], out: Summary, mine: bool) -> None:
    line = str(view.get("guardian_line") or "")
    where = None
    if line.startswith("col:"):
        where = say(f"colonne {line[4:]}", f"column {line[4:]}")
    elif line.startswith("row:"):
        where = say(f"ligne {line[4:]}", f"row {line[4:]}")
    turns = view.get("turns")
    out["facts"] = [_join(_phase(say, view), say(f"tour {_n(turns)}", f"turn {_n(turns)}") if _int(turns) else None),
                    say(f"Gardien : {where}", f"Guardian: {where}") if where else None]
    colours = _list(view.get("colours"))
    counts = _list(view.get("reserve_counts"))
    projected = _list(view.get("projected"))
    kinds = ("zebra", "gazelle", "crocodile", "elephant", "lion")

    def lines(g: int) -> list[str]:
        colour = say.word(COLOURS, colours[g]) if g < len(colours) else None
        left = _list(counts[g]) if g < len(counts) else []
        reserve = ", ".join(f"{_n(n)} {say.word(KINDS, k)}" for k, n in zip(kinds, left) if n)
        return [say(f"animaux {colour}s", f"{colour} animals") if colour else "",
                say(f"{_n(projected[g])} pts si la partie finissait", f"{_n(projected[g])} pts if it ended now")
                if g < len(projected) else "",
                say(f"réserve : {reserve or 'vide'}", f"reserve: {reserve or 'empty'}")]

    out["players"] = _players(say, lines, len(colours))
    for t in _list(view.get("territories")):
        t = _dict(t)
        leader = t.get("leader")
        out["facts"].append(say(f"Territoire {str(t.get('name', '?')).upper()} : {_n(t.get('points'))} pts, "
                                + (f"mené par {say.who(leader)}" if _int(leader) else "à égalité"),
                                f"Territory {str(t.get('name', '?')).upper()}: {_n(t.get('points'))} pts, "
                                + (f"led by {say.who(leader)}" if _int(leader) else "tied")))
    me = view.get("seat")
    if mine and _int(me) and me < len(projected):
        pts = _n(projected[me])
        out["score"] = say(f"{pts} pts si la partie finissait", f"{pts} pts if it ended now")
        out["cards"] = [say.cards(say("Ma réserve", "My reserve"), _list(view.get("reserves"))[me]
                                  if me < len(_list(view.get("reserves"))) else [])]


def _zop(say: Say, view: dict[str, Any], out: Summary, mine: bool) -> None:
    label = say.word(ROUNDS, view.get("label")) or say("Manche", "Round")
    out["facts"] = [_join(f"{label} {_n(view.get('round_no'))}", say(f"tour {_n(view.get('turn'))}",
                                                                      f"turn {_n(view.get('turn'))}"),
                          _phase(say, view))]
    for r in _list(view.get("results")):
        r = _dict(r)
        pts = " – ".join(_n(p) for p in _list(r.get("points")))
        won = r.get("winner")
        out["facts"].append(_join(f"{say.word(ROUNDS, r.get('label')) or label} : {pts}",
                                  say(f"gagnée par {say.who(won)}", f"won by {say.who(won)}") if _int(won) else None))
    sides = [_dict(s) for s in _list(view.get("sides"))]

    def lines(g: int) -> list[str]:
        s = sides[g]
        return [f"{_n(s.get('points'))} pts",
                say(f"{_n(s.get('cards_left'))} cartes restantes", f"{_n(s.get('cards_left'))} cards left"),
                say(f"{_n(s.get('laid_count'))}/{_n(s.get('to_lay'))} posée(s)",
                    f"{_n(s.get('laid_count'))}/{_n(s.get('to_lay'))} laid")]

    out["players"] = _players(say, lines, len(sides))
    turns = _list(view.get("turns"))
    if turns:
        last = _dict(turns[-1])
        out["cards"] = [say.cards(say(f"Tour {_n(last.get('turn'))} — {say.who(g)}",
                                      f"Turn {_n(last.get('turn'))} — {say.who(g)}"), played)
                        for g, played in enumerate(_list(last.get("cards")))]
    me = view.get("seat")
    own = _dict(view.get("me"))
    if mine and _int(me) and me < len(sides):
        out["score"] = f"{_n(sides[me].get('points'))} pts"
        out["cards"] = [say.cards(say("Ma main", "My hand"), own.get("hand")),
                        say.cards(say("Posées ce tour", "Laid this turn"), own.get("laid")),
                        say.cards(say("Ma pioche", "My pile"), own.get("pile"))]


def _oz(say: Say, view: dict[str, Any], out: Summary, mine: bool) -> None:
    mode = say("coopératif", "cooperative") if view.get("mode") == "coop" else say("compétitif", "competitive")
    out["facts"] = [_join(say(f"Manche {_n(view.get('round'))}/{_n(view.get('rounds'))}",
                              f"Round {_n(view.get('round'))}/{_n(view.get('rounds'))}"), mode, _phase(say, view))]
    for i, track in enumerate(_list(view.get("tracks"))):
        track = _dict(track)
        out["facts"].append(say(f"Piste {i + 1} : {_n(track.get('ticked'))}/{_n(track.get('size'))} cases cochées",
                                f"Track {i + 1}: {_n(track.get('ticked'))}/{_n(track.get('size'))} boxes ticked"))
    echecs = _dict(view.get("echecs"))
    if echecs:
        out["facts"].append(say(f"Cartes Échec restantes : {_n(echecs.get('left'))}",
                                f"Échec cards left: {_n(echecs.get('left'))}"))
    readings = {r.get("seat"): r for r in map(_dict, _list(view.get("readings")))}
    reader = view.get("reader")

    def lines(g: int) -> list[str]:
        r = readings.get(g, {})
        return [say.word(STATUS, r.get("status")) or "",
                say(f"{_n(r.get('ticks'))} cases", f"{_n(r.get('ticks'))} boxes") if _int(r.get("ticks")) else "",
                say("lit son document", "reads the document") if reader == g else ""]

    count = view.get("players")
    out["players"] = _players(say, lines, count if _int(count) and 0 < count <= 16 else 0)
    own = _dict(view.get("own"))
    if mine and own:
        title = own.get("title")
        out["cards"] = [{"title": say("Mon document", "My document"),
                         "text": [str(title)] if isinstance(title, str) else [],
                         "lines": [str(_dict(x).get("text", "")) for x in _list(own.get("lines"))
                                   if not _dict(x).get("hidden")]}]
        if _int(own.get("ticks")):
            out["score"] = say(f"{own['ticks']} cases cochées", f"{own['ticks']} boxes ticked")


def _mata(say: Say, view: dict[str, Any], out: Summary, mine: bool) -> None:
    active = view.get("active")
    out["facts"] = [_join(say(f"Tour {_n(view.get('turn'))}", f"Turn {_n(view.get('turn'))}"), _phase(say, view),
                          say(f"joueur actif {say.who(active)}", f"active player {say.who(active)}")
                          if _int(active) else None),
                    say(f"Pioche : {_n(view.get('pile'))} cartes · {_n(view.get('covers'))} couvertures",
                        f"Pile: {_n(view.get('pile'))} cards · {_n(view.get('covers'))} covers")]
    for a in _list(view.get("accusations"))[-3:]:
        a = _dict(a)
        out["facts"].append(say(f"{say.who(a.get('accuser'))} accuse {say.who(a.get('accused'))} : "
                                + ("fondé" if a.get("founded") else "infondé"),
                                f"{say.who(a.get('accuser'))} accuses {say.who(a.get('accused'))}: "
                                + ("founded" if a.get("founded") else "unfounded")))
    seats = [_dict(s) for s in _list(view.get("seats"))]
    out_ = set(x for x in _list(view.get("eliminated")) if _int(x))

    def lines(g: int) -> list[str]:
        s = seats[g]
        return [say(f"{_n(s.get('cards'))} cartes", f"{_n(s.get('cards'))} cards"),
                say(f"{_n(s.get('compromis'))} compromis", f"{_n(s.get('compromis'))} compromised"),
                say.word(STATUS, s.get("status")) or "",
                f"{_n(s.get('points'))} pts" if s.get("points") is not None else "",
                say("éliminé", "out") if g in out_ else ""]

    out["players"] = _players(say, lines, len(seats))
    me = _dict(view.get("me"))
    if mine and me:
        out["score"] = say(f"{_n(me.get('score'))} pts pour l'instant", f"{_n(me.get('score'))} pts so far")
        out["cards"] = [say.cards(say("Mon objectif", "My objective"), [me.get("objective")]),
                        say.cards(say("Ma main", "My hand"), me.get("hand")),
                        say.cards(say("Mon offre", "My offer"), me.get("offer"))]


def _spy(say: Say, view: dict[str, Any], out: Summary, mine: bool) -> None:
    active = view.get("active")
    removed = say.word(COUNTRIES, view.get("removed"))
    out["facts"] = [_join(say(f"Tour {_n(view.get('round'))}", f"Round {_n(view.get('round'))}"), _phase(say, view),
                          say(f"joueur actif {say.who(active)}", f"active player {say.who(active)}")
                          if _int(active) else None),
                    _join(say(f"Pioche : {_n(view.get('pile'))} cartes", f"Pile: {_n(view.get('pile'))} cards"),
                          say(f"nationalité retirée : {removed}", f"nationality out: {removed}") if removed else None)]
    seats = [_dict(s) for s in _list(view.get("seats"))]

    def lines(g: int) -> list[str]:
        s = seats[g]
        colour = say.word(COLOURS, s.get("colour"))
        return [say(f"espion {colour}", f"{colour} spy") if colour else "",
                say(f"{_n(s.get('hand'))} cartes en main", f"{_n(s.get('hand'))} cards in hand"),
                say(f"{_n(s.get('passports'))} passeport(s)", f"{_n(s.get('passports'))} passport(s)"),
                say(f"{len(_list(s.get('identified')))} identifié(s)", f"{len(_list(s.get('identified')))} identified"),
                say("a fini", "finished") if s.get("finished") is True else ""]

    out["players"] = _players(say, lines, len(seats))
    out["cards"] = [say.cards(say("Centre", "Centre"), view.get("centre"))]
    if mine:
        out["cards"] += [say.cards(say("Mes passeports", "My passports"), view.get("passports")),
                         say.cards(say("Ma main", "My hand"), view.get("hand"))]


FORMATTERS: dict[str, Callable[[Say, dict[str, Any], Summary, bool], None]] = {
    "droles-de-zebres": _ddz, "zop": _zop, "operation-zebre": _oz, "mata-hari": _mata, "spywhere": _spy,
}
