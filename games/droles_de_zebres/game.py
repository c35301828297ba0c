"""Drôles de Zèbres as a table game: the Game subclass wiring rules, views and table flow."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from games.core import (
    SQUARES,
    Action,
    BadConfig,
    Choice,
    Game,
    GameConfig,
    Layout,
    Option,
    Rejection,
    Screen,
    Step,
    Text,
    tr,
)
from games.droles_de_zebres import rules, rules_step, scoring, table, views
from games.droles_de_zebres.pieces import ALL_PIECES, COLOURS, GAME_ID, colour_pieces, is_piece, sort_pieces
from games.droles_de_zebres.pieces import piece_label as _piece_label
from games.droles_de_zebres.pieces_board import DEFAULT_BOARD, BoardError, available_boards, get_board
from games.droles_de_zebres.state import (
    FIRST,
    FIRST_MODES,
    FIRST_RANDOM,
    FIRST_SEAT0,
    FIRST_SEAT1,
    GUARDIAN,
    DdzState,
    seat_of,
)

_BOARDS = available_boards() or (DEFAULT_BOARD,)


class DrolesDeZebres(Game[DdzState, views.DdzView]):
    """Two players fill the savannah under the guardian's eye; majorities score territories."""

    id = GAME_ID
    name = tr("Drôles de Zèbres", "Drôles de Zèbres")
    min_players = 2
    max_players = 2
    options = (
        Option("first_player", tr("Premier joueur", "First player"), FIRST_MODES,
               (tr("Au choix", "Either"), tr("Siège 1", "Seat 1"), tr("Siège 2", "Seat 2"),
                tr("Au hasard", "Random"))),
        Option("seat0_colour", tr("Couleur du 1er siège", "First seat's colour"), COLOURS,
               (tr("Blanc", "White"), tr("Vert", "Green"))),
        Option("board", tr("Plateau", "Board"), _BOARDS, tuple(tr(b, b) for b in _BOARDS)),
    )

    # -- set-up --------------------------------------------------------------------------------
    def initial_state(self, config: GameConfig) -> DdzState:
        """The empty savannah, every animal in front of its owner, the guardian not yet placed."""
        config = self.validate_config(config)
        board = str(config.option("board"))
        try:
            get_board(board)
        except BoardError as exc:
            raise BadConfig(f"{self.id}: {exc}") from exc
        mode = str(config.option("first_player"))
        colours = COLOURS if config.option("seat0_colour") == COLOURS[0] else (COLOURS[1], COLOURS[0])
        first = {FIRST_SEAT0: 0, FIRST_SEAT1: 1}.get(mode)
        return DdzState(
            board=board, colours=(colours[0], colours[1]), first_mode=mode,
            phase=FIRST if mode == FIRST_RANDOM else GUARDIAN,
            cells=(None,) * len(SQUARES),
            reserves=(sort_pieces(colour_pieces(colours[0])), sort_pieces(colour_pieces(colours[1]))),
            first=first,
        )

    # -- turn structure ------------------------------------------------------------------------
    # the rules' own functions, without a method in between: asked on every move of every playout
    to_act = staticmethod(rules.to_act)
    legal_actions = staticmethod(rules.legal_actions)
    random_legal_action = staticmethod(rules.random_legal_action)  # a placement drawn without the list
    check = staticmethod(rules.check)  # the reasons: docs/games/droles-de-zebres.md
    transition = staticmethod(rules_step.transition)  # the state now, the effects when read

    def apply(self, state: DdzState, seat: int, action: Action) -> Step[DdzState]:
        """`Game.apply`: a plainly legal placement or guardian's move (most moves) goes straight
        to its transition; any other action is checked in full (IllegalAction and its reason)."""
        if type(action) is dict and seat == state.turn and rules.plainly_legal(state, seat, action):
            return rules_step.transition(state, seat, action)
        return super().apply(state, seat, action)

    def chance_outcomes(self, state: DdzState) -> list[tuple[Action, float]]:
        """Who places the guardian, when the first player is drawn at random."""
        return rules.chance_outcomes(state)

    # -- views ---------------------------------------------------------------------------------
    def view(self, state: DdzState, seat: int | None) -> views.DdzView:
        """Everything is public: every seat sees the whole game."""
        return views.view(state, seat)

    def screen(self, view: views.DdzView, seat: int | None, *, pad_sensed: bool = True) -> Screen:
        """The seat's 128x64 screen built from its view."""
        return views.screen(view, seat)

    def hidden_variants(self, state: DdzState, seat: int) -> Iterable[DdzState]:
        """None: the game has no hidden information (face-down animals were seen by both)."""
        return ()

    # -- the physical table --------------------------------------------------------------------
    def expected_layout(self, state: DdzState) -> Layout:
        """Each animal on its square."""
        return table.expected_layout(state)

    def footprint(self, state: DdzState, seat: int, action: Action) -> Layout:
        """The board after the player's own gesture (placing, or swapping by hand)."""
        return table.footprint(state, seat, action)

    def choices(self, state: DdzState, seat: int) -> list[Choice]:
        """The button menu of `seat`."""
        return table.choices(state, seat)

    def describe_action(self, state: DdzState, seat: int, action: Action) -> Text:
        """A short label of an action."""
        return table.describe_action(state, seat, action)

    def explain(self, state: DdzState, seat: int, zone: str, piece: str) -> Rejection | None:
        """Why an animal sensed on `zone` is refused ("C4 hors de la ligne du gardien")."""
        return table.explain(state, seat, zone, piece)

    def effect(self, state: DdzState, zone: str, piece: str, lifted: bool) -> Rejection | None:
        """A gazelle that fled the lion, the animals of a crocodile swap (which goes where)."""
        return table.effect(state, zone, piece, lifted)

    def owner(self, state: DdzState, piece: str) -> int | None:
        """The seat of the animal's colour."""
        return seat_of(state, piece) if is_piece(piece) else None

    def highlights(self, state: DdzState) -> Mapping[str, str]:
        """LEDs: green = free squares of the guarded line; crocodile yellow, its prey blue."""
        return table.highlights(state)

    def pieces(self) -> list[str]:
        """The 30 tagged animals (the guardian and the inauguration token carry no tag)."""
        return list(ALL_PIECES)

    def piece_label(self, piece: str) -> Text:
        """"le zèbre blanc 3" / "the white zebra 3"."""
        return _piece_label(piece) if is_piece(piece) else Text(piece, piece)

    # -- the end -------------------------------------------------------------------------------
    outcome = staticmethod(scoring.outcome)


GAME = DrolesDeZebres()
