"""Play across tables: one table hosts a game, another joins it with the game code, through an
MQTT broker (the config's `[remote]` section). docs/remote.md describes the design and the wire.

Nothing here imports paho at import time: a table that never plays remotely never loads it.
"""
