"""Power cuts, not kill -9: a disk that drops what was not synced (torn sectors included), under
the real runtime and journal, during all five games (tests/kits/powercut.py). The suite must also fail
when the journal is made wrong on purpose: that is what proves it tests durability."""

from __future__ import annotations

import pytest

from tests.kits import faultkit, powercut
from tests.kits.faultkit import CASES

pytestmark = pytest.mark.usefixtures("fault_summary")


def test_no_acknowledged_move_is_lost_over_power_cuts_in_all_five_games():
    report = powercut.run(CASES, games_per_case=1, span=80, seed=1)
    faultkit.record("power cuts", power_cuts=report.figures["cuts"], mismatches=len(report.problems),
                    **{k: v for k, v in report.figures.items() if k != "cuts"})
    assert report.problems == []
    assert report.figures["games"] == len(CASES)
    assert report.figures["cuts"] >= 80 and report.figures["resumes"] >= 50
    assert report.figures["writes_torn"] > 0 and report.figures["writes_dropped"] > 0


@pytest.mark.parametrize("kind", powercut.BROKEN)
def test_the_power_cut_test_fails_on_a_journal_made_wrong_on_purpose(kind):
    """synchronous=OFF or NORMAL, or moves shown before their commit: acknowledged moves are lost."""
    report = powercut.run(CASES[:2], games_per_case=1, span=80, seed=2, kind=kind)
    faultkit.record("power cuts (broken on purpose)", **{f"{kind}_detected": int(bool(report.problems))})
    assert report.problems, f"{kind}: {dict(report.figures)}"
    assert report.figures["acked_moves_lost"] + report.figures["journal_damaged"] > 0
