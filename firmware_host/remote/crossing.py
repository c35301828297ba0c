"""What crosses to the joining table: which games may be played across tables, with which options,
and the game as the joining table starts it.

Drôles de Zèbres hides nothing: its seed and every move cross as they are. ZOP hides the cards laid
face down until the reveal: its moves cross through the host's shadow of the joining table's game
(shadow.py, settle_zop.py), never its seed (no draw is made in the mode it is played in across
tables: each table senses its own cards). Spywhere hides the host seats' passports, cards and
identifications until the end: the host deals for both tables, and its moves cross through a shadow
of its own (shadow_spywhere.py), never its seed. Operation: Mata Hari hides the host seats' objectives,
cards, offers and the statements they compose: the host deals for both tables too, and its moves cross
through a shadow whose stand-ins are changed to give every public outcome the host's game gave
(shadow_mata_hari.py), never its seed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from firmware_host.remote import settle_zop
from firmware_host.remote.shadow import Secrets, Shadow, view_digests
from games.core import JSON, Action, Game, GameConfig, to_json

if TYPE_CHECKING:  # the menu reads this module: no game is imported before one is chosen
    from firmware_host.remote.shadow_mata_hari import MHShadow  # Mata Hari's rules: loaded when played
    from firmware_host.remote.shadow_spywhere import SpyShadow  # Spywhere's rules: loaded when played

# games in which every seat may know every move and every draw: their seed and moves may cross
PUBLIC_GAMES = frozenset({"droles-de-zebres"})
# games with secrets, and how their moves are told to the joining table
SECRETS: dict[str, Secrets] = {"zop": settle_zop.SECRETS}
# games with secrets told through a shadow of their own, with the options they are played with
OWN_SHADOWS: dict[str, dict[str, str]] = {"spywhere": {}, "mata-hari": {}}
# options a game is played with across tables, whatever its menu says
REMOTE_OPTIONS: dict[str, dict[str, str]] = {**{g: dict(s.options) for g, s in SECRETS.items()},
                                             **{g: dict(o) for g, o in OWN_SHADOWS.items()}}
REMOTE_GAMES = PUBLIC_GAMES | frozenset(SECRETS) | frozenset(OWN_SHADOWS)
# games whose reveal is shared: the joining table's cards laid face down cross as commitments,
# opened at the reveal (sealing.py)
SEALED = frozenset({"zop"})


def secret(game_id: str) -> bool:
    """True for a game whose moves cross through a shadow (some are hidden from the other table)."""
    return game_id in SECRETS or game_id in OWN_SHADOWS


def refusal(game_id: str, options: Mapping[str, object]) -> str | None:
    """Why `game_id` with `options` cannot be played across tables (None: it can)."""
    if game_id not in REMOTE_GAMES:
        return f"{game_id}: not playable between tables (only {', '.join(sorted(REMOTE_GAMES))})"
    for key, value in REMOTE_OPTIONS.get(game_id, {}).items():
        if options.get(key, value) != value:
            return f"{game_id} is played between tables with {key} = {value!r} only"
    if game_id in SEALED:
        return _unsealable(game_id)
    return None


def _unsealable(game_id: str) -> str | None:
    """Why the cards of `game_id`'s deck data cannot cross as commitments (None: they can)."""
    from games.registry import get_game  # the game is about to be played: its rules load now

    deck = getattr(get_game(game_id), "deck", None)
    for card in getattr(deck, "cards", ()):
        ability = card.ability
        if ability is not None and ability.kind == "extra_cards" and ability.timing == "same_turn":
            # a card opened at once would be shown before the host knows its player lays another
            return (f"{game_id} between tables: the card {card.name.en!r} lays more cards in the same turn "
                    f"(timing = \"same_turn\" in the deck's data file), which is not played between tables")
    return None


def shadow(game: Game[Any, Any], config: GameConfig, seats: Iterable[int], moves: list[tuple[int, Action]]
           ) -> Shadow | SpyShadow | MHShadow:
    """The host's shadow of the joining table's game, after the host's `moves` (replayed)."""
    from firmware_host.remote.shadow_mata_hari import MHShadow  # Mata Hari's rules: loaded when played
    from firmware_host.remote.shadow_spywhere import SpyShadow  # Spywhere's rules: loaded when played

    out: Shadow | SpyShadow | MHShadow = MHShadow(game, config, seats) if game.id == "mata-hari" \
        else SpyShadow(game, config, seats) if game.id in OWN_SHADOWS \
        else Shadow(game, config, seats, SECRETS.get(game.id))
    state = game.initial_state(config)
    for seat, action in moves:
        after = game.apply(state, seat, action).state
        out.step(state, seat, action, after)
        state = after
    return out


def game_fields(game: Game[Any, Any], config: GameConfig, told: Shadow | SpyShadow | MHShadow, state: Any
                ) -> dict[str, JSON]:
    """The game as the joining table starts it: options, seed, its seats, moves as it holds them, its views' digests.

    The seed of a game with secrets would tell every draw to come: it crosses as 0 (such a game
    draws nothing at the joining table). ValueError for a game not played across tables."""
    if game.id not in REMOTE_GAMES:
        raise ValueError(f"{game.id}: its seed and moves would carry secrets to the other table")
    return {"game": game.id, "players": config.players, "options": to_json(dict(config.options)),
            "seed": config.seed if game.id in PUBLIC_GAMES else 0, "remote": sorted(told.seats),
            "moves": [[s, to_json(dict(a))] for s, a in told.log], "views": view_digests(game, state, told.seats)}
