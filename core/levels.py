"""How well a computer plays."""

from __future__ import annotations

from enum import Enum


class Level(Enum):
    MASTER = "master"  # the exact optimal policy
    CLUB = "club"  # the best play for this turn only
    NOVICE = "novice"  # keeps the most common face, writes the highest score now
