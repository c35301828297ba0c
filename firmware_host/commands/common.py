"""What several commands share: where the table config is, and the config's tag registry."""

from __future__ import annotations

import os

from firmware_host.storage.config import TableConfig
from firmware_host.storage.tags import TagRegistry, all_game_pieces, sim_registry

DEFAULT_PATH = "/etc/zebra-table/table.toml"


def default_config_path() -> str | None:
    """$ZEBRA_TABLE_CONFIG, else /etc/zebra-table/table.toml if it exists, else None (simulated)."""
    env = os.environ.get("ZEBRA_TABLE_CONFIG")
    if env:
        return env
    return DEFAULT_PATH if os.path.exists(DEFAULT_PATH) else None


def load_registry(config: TableConfig) -> TagRegistry:
    """The config's tag registry; the simulated table gets one tag per piece of every game."""
    if config.simulated:
        return sim_registry(all_game_pieces())
    return TagRegistry.load(config.tags_file)
