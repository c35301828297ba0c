"""The table's web pages: the virtual table (simulator), spectators, phones as seat screens, replays.

The server (aiohttp) runs its own asyncio loop in its own thread and is imported only when the
web pages are enabled. The table's loop never waits for it: after each refresh the runtime hands
over an immutable snapshot (latest wins, `hub.Hub`), and inputs from the pages go onto the table
as hardware events do (virtual reader tags, gpiozero mock pin edges, or button events on the
runtime's queue). What a page may see is decided in one place: `redact.py`.
"""
