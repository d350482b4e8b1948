"""Luck against skill in words (core.luck): a player's dice and decisions as signed figures, in
percentage points of win chance or in expected points; the others' play where it counted."""

from __future__ import annotations

from typing import TYPE_CHECKING

from adapters.i18n import Translator
from core.luck import Unit
from core.records import LUCK_GAMES, Fortune, LuckOrder

if TYPE_CHECKING:  # the review (numpy) is imported by whoever weighed the luck
    from core.luck import Luck

# The others' play is told where it moved a player's value at least this much: half a
# percentage point of win chance, or half an expected point.
REST_TOLD = {Unit.SHARE: 0.005, Unit.POINTS: 0.5}


def figure(t: Translator, value: float, unit: Unit) -> str:
    """A change with its sign, rounded as shown: "+12%", "−3.4 points" ("+0%" for nothing)."""
    shown = round(100 * value) if unit is Unit.SHARE else round(value, 1)
    sign = "minus" if shown < 0 else "plus"
    return t(f"luck-{unit.value}", sign=sign, amount=abs(shown))


def luck_line(t: Translator, name: str, luck: Luck) -> str:
    """🎲 Ann: dice +12% · decisions −3% (· the others' play −9%, where it counted)."""
    dice, decisions = figure(t, luck.dice, luck.unit), figure(t, luck.decisions, luck.unit)
    if abs(luck.rest) < REST_TOLD[luck.unit]:
        return t("luck-line", name=name, dice=dice, decisions=decisions)
    rest = figure(t, luck.rest, luck.unit)
    return t("luck-line-rest", name=name, dice=dice, decisions=decisions, rest=rest)


def luck_legend(t: Translator, luck: Luck) -> str:
    """The chart's legend under a name: dice +12% · decisions −3%."""
    return t(
        "luck-legend",
        dice=figure(t, luck.dice, luck.unit),
        decisions=figure(t, luck.decisions, luck.unit),
    )


def luck_board_lines(
    t: Translator, fortunes: list[Fortune], order: LuckOrder, global_: bool, period: str
) -> list[str]:
    """The luckiest dice, or the best decisions, of people with a few reviewed games over
    `period` (its words): a game's average in expected points."""
    where = "global" if global_ else "here"
    title = t("luck-board-title", order=order.value, where=where)
    if not fortunes:
        return [title, t("luck-board-empty", games=LUCK_GAMES)]
    lines = [title, t("luck-board-header", period=period, games=LUCK_GAMES)]
    for rank, fortune in enumerate(fortunes, start=1):
        dice = figure(t, fortune.dice, Unit.POINTS)
        decisions = figure(t, fortune.decisions, Unit.POINTS)
        lines.append(
            t(
                "luck-board-line",
                rank=rank,
                name=fortune.name,
                dice=dice,
                decisions=decisions,
                games=fortune.games,
            )
        )
    return lines
