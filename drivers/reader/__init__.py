"""The reader controller: wire codec (shared with the firmware), serial link, its events, virtual controller."""
