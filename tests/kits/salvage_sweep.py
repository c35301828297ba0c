"""Damage a journal of real games page by page (zeroed) and cut it short, boot each copy through
the table's own path (`open_journal`), and check what salvage kept and what the screens say.

Each kept game must hold a prefix of the moves written (never another game's, never an invented
one); the notice's counts must be true: the games kept exactly, the games lost exactly (at most,
when it says "ou plus"), the moves lost at the games' ends likewise. A damage the boot does not
see must have cost nothing.
"""

from __future__ import annotations

import random
import re
import shutil
import sqlite3
import traceback
from collections import Counter
from pathlib import Path
from typing import Any

from firmware_host.commands.common import open_journal
from firmware_host.storage.journal import Journal
from games.core import GameConfig
from games.playout import random_playout
from games.registry import get_game

PAGE = 4096
GAMES = (("droles-de-zebres", 2), ("zop", 2), ("spywhere", 4), ("operation-zebre", 3), ("mata-hari", 4))
NOTICE = re.compile(r"(\d+) partie\(s\) gardée\(s\)(?: \((\d+)( ou plus)? coup\(s\) perdu\(s\) en fin de partie\))?"
                    r"(?: \(derniers coups peut-être perdus\))?, (\d+)( ou plus)? perdue\(s\)")


def written_journal(path: Path, games: int) -> dict[int, list[tuple[int, Any]]]:
    """`games` real games (random playouts), the last one left playing, then a crash (no clean
    stop: the next boot checks the file). Returns game id -> its moves as the journal reads them."""
    j = Journal(path)
    for n in range(games):
        game_id, players = GAMES[n % len(GAMES)]
        played = random_playout(get_game(game_id), GameConfig(players, {}, n), n)
        gid = j.start_game(game_id, played.config, tuple(range(1, players + 1)))
        j.append_many(gid, 0, list(played.moves))  # one commit: building the journal is not what is measured
        if n < games - 1 and played.outcome is not None:
            j.finish(gid, played.outcome.to_json())
    truth = {gid: list(j.record(gid).moves) for gid in j.ids()}
    j.close()
    db = sqlite3.connect(path)
    db.execute("UPDATE meta SET value='0' WHERE key='clean'")
    db.commit()
    db.close()
    return truth


def sweep(work: Path, games: int, truncations: int, seed: int, pages: int | None = None) -> tuple[Counter[str], list[str]]:
    """Zero each page of the journal (or `pages` of them, drawn at random), then cut it at
    `truncations` random lengths; (figures, problems)."""
    figures: Counter[str] = Counter()
    problems: list[str] = []
    base = work / "base.sqlite"
    truth = written_journal(base, games)
    data = base.read_bytes()
    rng = random.Random(seed)
    count = len(data) // PAGE
    numbers = list(range(1, count + 1))
    if pages is not None and pages < count:
        numbers = sorted(rng.sample(numbers, pages))
    damages: list[tuple[str, bytes]] = []
    for page in numbers:
        damages.append((f"page {page} zeroed", data[:(page - 1) * PAGE] + bytes(PAGE) + data[page * PAGE:]))
    for _ in range(truncations):
        cut = rng.randrange(1, len(data))
        damages.append((f"cut at byte {cut}", data[:cut]))
    for what, damaged in damages:
        folder = work / "boot"
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir()
        path = folder / "j.sqlite"
        path.write_bytes(damaged)
        figures["damages"] += 1
        figures["games_written"] += len(truth)
        figures["moves_written"] += sum(len(m) for m in truth.values())
        try:
            problems += _check(what, path, truth, figures)
        except Exception:  # a boot that raises: the table would not start
            figures["tracebacks"] += 1
            problems.append(f"salvage, {what}: {traceback.format_exc(limit=6)}")
    shutil.rmtree(work / "boot", ignore_errors=True)
    return figures, problems


def _check(what: str, path: Path, truth: dict[int, list[tuple[int, Any]]], figures: Counter[str]) -> list[str]:
    journal, notice = open_journal(str(path))
    if journal is None:
        figures["no_journal"] += 1
        return [f"salvage, {what}: no journal after the boot ({notice.en if notice else None})"]
    try:
        kept = {gid: list(journal.record(gid).moves) for gid in journal.ids()}
    finally:
        journal.close()
    problems = [f"salvage, {what}: game {gid} kept moves that are not a prefix of those written"
                for gid, moves in kept.items() if gid not in truth or moves != truth[gid][:len(moves)]]
    figures["games_kept"] += len(kept)
    figures["moves_kept"] += sum(len(m) for m in kept.values())
    lost_games = len(truth) - len(kept)
    lost_moves = sum(len(truth[g]) - len(m) for g, m in kept.items() if g in truth)
    if notice is None or "mis de côté" not in notice.fr:  # the boot saw no damage: it must have cost nothing
        figures["damage_unseen"] += 1
        if lost_games or lost_moves:
            problems.append(f"salvage, {what}: unseen at boot, yet {lost_games} games and {lost_moves} moves "
                            "do not read")
        return problems
    figures["set_aside"] += 1
    said = NOTICE.search(notice.fr)
    if said is None:
        return [*problems, f"salvage, {what}: the notice gives no counts: {notice.fr}"]
    n_kept, n_moves, moves_more, n_lost, lost_more = said.groups()
    true = int(n_kept) == len(kept) and (int(n_lost) <= lost_games if lost_more else int(n_lost) == lost_games)
    if n_moves is not None:
        true = true and (int(n_moves) <= lost_moves if moves_more else int(n_moves) == lost_moves)
    elif "peut-être" not in notice.fr:
        true = true and lost_moves == 0
    figures["notices_true" if true else "notices_untrue"] += 1
    if not true:
        problems.append(f"salvage, {what}: the screens say \"{notice.fr}\"; kept {len(kept)} games, "
                        f"lost {lost_games} games and {lost_moves} moves at the ends of kept games")
    return problems
