"""Tests of the reader controller firmware (deploy/firmware/) on CPython."""
