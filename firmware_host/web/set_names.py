"""The names of the games' piece sets (a piece id's second part), for the virtual table's box."""

from __future__ import annotations

from typing import Final

from games.core import Text

SET_NAMES: Final[dict[str, Text]] = {
    "": Text("pièces", "pieces"),
    "white": Text("animaux blancs", "white animals"),
    "green": Text("animaux verts", "green animals"),
    "light": Text("cartes claires", "light cards"),
    "dark": Text("cartes foncées", "dark cards"),
    "documents": Text("dossiers", "documents"),
    "resources": Text("ressources", "resources"),
    "partners": Text("partenaires", "partners"),
    "covers": Text("couvertures", "covers"),
    "objectives": Text("objectifs", "objectives"),
    "nationality": Text("nationalités", "nationalities"),
    "identification": Text("identifications", "identifications"),
    "passport": Text("passeports", "passports"),
}


def set_name(set_id: str, lang: str) -> str:
    """A piece set's name in `lang` ("fr" or "en"); an unknown set keeps its id."""
    name = SET_NAMES.get(set_id)
    return set_id if name is None else name.get(lang)
