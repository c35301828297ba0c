"""Tests of games/operation_zebre/."""
