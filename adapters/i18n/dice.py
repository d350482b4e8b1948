"""Dice and the boxes they are written in, in words."""

from __future__ import annotations

from collections.abc import Iterable

from adapters.i18n import Translator
from core.boxes import Box

DIE_FACES = "⚀⚁⚂⚃⚄⚅"


def box_name(t: Translator, box: Box) -> str:
    return t(f"box-{box.value}")


def dice_text(dice: Iterable[int]) -> str:
    return "-".join(str(d) for d in dice)
