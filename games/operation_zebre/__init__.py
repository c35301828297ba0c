"""Opération Zèbre: a word-guessing game of censored documents, cooperative or in two teams."""

from games.operation_zebre.game import GAME, OperationZebre

__all__ = ["GAME", "OperationZebre"]
