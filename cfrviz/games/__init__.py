"""Game rules: Kuhn poker with N cards, Leduc poker and matrix games.

Which games exist, by what names and with which parameters, is `cfrviz.catalog`'s business.
"""
from __future__ import annotations

from cfrviz.games.base import Game, InformationSet, State
from cfrviz.games.kuhn import KuhnPoker
from cfrviz.games.leduc import LeducPoker
from cfrviz.games.matrix import MatrixGame, rock_paper_scissors

__all__ = ["Game", "InformationSet", "KuhnPoker", "LeducPoker", "MatrixGame", "State", "rock_paper_scissors"]
