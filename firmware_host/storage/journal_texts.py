"""What every screen says about the journal: busy, full, read-only, set aside, back."""

from __future__ import annotations

from games.core import Text, tr

BUSY = tr("Journal occupé : nouvel essai…", "Journal busy: retrying…")
FULL = tr("Journal plein : la partie continue sans sauvegarde", "Journal full: the game goes on unsaved")
DISK_ERROR_PLAYING = tr("Erreur disque : la partie continue sans sauvegarde", "Disk error: the game goes on unsaved")
READ_ONLY = tr("Journal en lecture seule : partie non sauvegardée", "Read-only journal: the game is not saved")
UNUSABLE = tr("Journal indisponible : parties non gardées", "No journal: games are not kept")
# at start-up, a journal that cannot be written is opened read-only: why, as it is
FULL_AT_START = tr("Disque plein : parties non sauvegardées", "Disk full: games are not saved")
DISK_ERROR = tr("Erreur disque : parties non sauvegardées", "Disk error: games are not saved")
# a lost -wal: the unfinished game kept its first moves; or no game is left unfinished, and the
# one being played (its start lived in the lost file) may be lost whole
WAL_LOST = tr("Journal incomplet (-wal perdu) : derniers coups à vérifier",
              "Journal incomplete (-wal lost): check the last moves")
WAL_LOST_GAME = tr("Journal incomplet (-wal perdu) : la dernière partie a pu être perdue",
                   "Journal incomplete (-wal lost): the last game may be lost")
BACK = tr("Journal rétabli : partie sauvegardée", "Journal back: the game is saved")
BACK_IDLE = tr("Journal rétabli : parties sauvegardées", "Journal back: games are saved")
# start-up notices that stop being true once the journal can be written
UNSAVED_AT_START = (BUSY, READ_ONLY, FULL_AT_START, DISK_ERROR, UNUSABLE)


def set_aside_text(kept: int, lost: int, moves_lost: int = 0, more_lost: bool = False,
                   more_moves_lost: bool = False) -> Text:
    """What the screens say when a damaged journal was set aside: the games kept (and the moves
    lost at their ends: a game resumes from its last readable move), the games lost. `more_lost`,
    `more_moves_lost`: part of the game list, or of the moves, was unreadable, so more may be lost."""
    if moves_lost:
        more = (" ou plus", " or more") if more_moves_lost else ("", "")
        cut = (f" ({moves_lost}{more[0]} coup(s) perdu(s) en fin de partie)",
               f" ({moves_lost}{more[1]} move(s) lost at the end)")
    elif more_moves_lost:
        cut = (" (derniers coups peut-être perdus)", " (last moves may be lost)")
    else:
        cut = ("", "")
    more_fr, more_en = (" ou plus", " or more") if more_lost else ("", "")
    return tr(f"Journal abîmé mis de côté : {kept} partie(s) gardée(s){cut[0]}, {lost}{more_fr} perdue(s)",
              f"Damaged journal set aside: {kept} game(s) kept{cut[1]}, {lost}{more_en} lost")
