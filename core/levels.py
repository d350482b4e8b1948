"""How well a computer plays."""

from __future__ import annotations

from enum import Enum


class Level(Enum):
    GRANDMASTER = "grandmaster"  # the highest chance of winning the table at every decision
    MASTER = "master"  # the exact optimal policy (the highest expected score)
    CLUB = "club"  # the best play for this turn only
    NOVICE = "novice"  # keeps the most common face, writes the highest score now
