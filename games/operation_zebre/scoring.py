"""The end of Opération Zèbre: each team's points, the winning teams, the outcome."""

from __future__ import annotations

from dataclasses import dataclass

from games.core import JSON, Outcome
from games.operation_zebre.state import OVER, OZState, team_of, team_seats


@dataclass(frozen=True)
class Result:
    """Once over: each team's totals and the winning teams (competitive: with the two kinds of points)."""

    totals: tuple[int, ...]
    winning_teams: tuple[int, ...]
    suspicion: tuple[int, ...] | None = None  # competitive only
    interception: tuple[int, ...] | None = None  # competitive only


def final_result(state: OZState) -> Result | None:
    """Once over: each team's suspicion, interception and total points and the winning teams.

    Competitive: total = interception points + highest visible suspicion value; tie → more
    interception points; tie again → both teams win. A team that ran out of boxes loses.
    Cooperative: one team (0), which wins unless it lost.
    """
    if state.phase != OVER:
        return None
    if not state.competitive:
        return Result((state.tracks[0].left,), () if state.lost is not None else (0,))
    suspicion = (state.tracks[0].score, state.tracks[1].score)
    interception = (sum(state.interceptions[0]), sum(state.interceptions[1]))
    totals = (suspicion[0] + interception[0], suspicion[1] + interception[1])
    if state.lost is not None:
        winning: tuple[int, ...] = (1 - state.lost,)
    else:
        keys = [(totals[t], interception[t]) for t in (0, 1)]
        winning = (0,) if keys[0] > keys[1] else (1,) if keys[1] > keys[0] else (0, 1)
    return Result(totals, winning, suspicion, interception)


def outcome(state: OZState) -> Outcome | None:
    """Cooperative: everyone wins or loses together. Competitive: each seat scores its team's
    total; the winning team's seats win (both teams on a complete tie)."""
    result = final_result(state)
    if result is None:
        return None
    details: dict[str, JSON] = {"mode": state.mode, "reason": state.reason, "rounds_played": state.round}
    if result.suspicion is not None and result.interception is not None:
        details.update(suspicion=list(result.suspicion), interception=list(result.interception))
    details.update(totals=list(result.totals), winning_teams=list(result.winning_teams))
    if not state.competitive:
        won = bool(result.winning_teams)
        return Outcome(tuple(1.0 if won else 0.0 for _ in range(state.players)),
                       tuple(range(state.players)) if won else (), details)
    scores = tuple(float(result.totals[team_of(state, s)]) for s in range(state.players))
    winners = tuple(s for t in result.winning_teams for s in team_seats(state, t))
    return Outcome(scores, tuple(sorted(winners)), details)
