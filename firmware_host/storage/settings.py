"""What the players choose at the table and the table keeps across restarts: the language.

Stored as a tiny TOML file in the data directory (`<data_dir>/settings.toml`), not in the table
config: the config is the owner's file (/etc/zebra-table/table.toml, read-only for the service),
this is the players' choice. A setting here overrides the config's `language`; a missing or
unreadable file changes nothing.
"""

from __future__ import annotations

import logging
import os
import tomllib
from pathlib import Path

log = logging.getLogger(__name__)

LANGUAGES = ("fr", "en")
FILE = "settings.toml"


def settings_path(data_dir: str | os.PathLike[str]) -> Path:
    """Where the players' settings live for a data directory."""
    return Path(data_dir) / FILE


def load_language(path: Path | None) -> str | None:
    """The language the players chose last ("fr"/"en"), None if never chosen or unreadable."""
    if path is None:
        return None
    try:
        value = tomllib.loads(path.read_text(encoding="utf-8")).get("language")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        log.warning("settings %s unreadable (%s): the config's language is used", path, exc)
        return None
    return value if value in LANGUAGES else None


def save_language(path: Path | None, language: str) -> bool:
    """Keep the players' language choice (atomically); False if it could not be written."""
    if path is None or language not in LANGUAGES:
        return False
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(f'language = "{language}"\n', encoding="utf-8")
        os.replace(tmp, path)
        return True
    except OSError as exc:
        log.warning("cannot keep the language in %s: %s", path, exc)
        return False
