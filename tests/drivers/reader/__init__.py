"""Tests of drivers/reader/: codec, link, virtual controller."""
