"""Parsing what a player types at the console into an action or a console command."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from core.actions import Action, Hold, Roll, Score
from core.boxes import ALL_BOXES, Box
from core.dice import DICE_COUNT

BOX_ALIASES: dict[str, Box] = {
    **{box.value: box for box in ALL_BOXES},
    **{str(box.index + 1): box for box in ALL_BOXES},
    "1s": Box.ONES, "2s": Box.TWOS, "3s": Box.THREES,
    "4s": Box.FOURS, "5s": Box.FIVES, "6s": Box.SIXES,
    "full": Box.FULL_HOUSE, "fullhouse": Box.FULL_HOUSE, "full-house": Box.FULL_HOUSE,
    "fh": Box.FULL_HOUSE, "st": Box.STRAIGHT, "gen": Box.GENERAL,
    "единицы": Box.ONES, "двойки": Box.TWOS, "тройки": Box.THREES, "четверки": Box.FOURS,
    "пятерки": Box.FIVES, "шестерки": Box.SIXES, "стрит": Box.STRAIGHT,
    "фулл": Box.FULL_HOUSE, "четыре": Box.FOUR, "каре": Box.FOUR, "генерал": Box.GENERAL,
}  # fmt: skip


class Meta(Enum):
    """Console commands that are not game actions."""

    HELP = "help"
    RULES = "rules"
    SHEET = "sheet"
    HINT = "hint"
    QUIT = "quit"
    EMPTY = "empty"


@dataclass(frozen=True)
class Unknown:
    command: str


@dataclass(frozen=True)
class BadBox:
    box: str


@dataclass(frozen=True)
class BadDice:
    pass


Parsed = Action | Meta | Unknown | BadBox | BadDice

META_WORDS = {
    "help": Meta.HELP, "?": Meta.HELP, "rules": Meta.RULES, "sheet": Meta.SHEET,
    "hint": Meta.HINT, "q": Meta.QUIT, "quit": Meta.QUIT, "exit": Meta.QUIT,
}  # fmt: skip


def parse(line: str) -> Parsed:
    words = line.strip().lower().split()
    if not words:
        return Meta.EMPTY
    head, rest = words[0], words[1:]
    if head in META_WORDS:
        return META_WORDS[head]
    if head in ("r", "roll"):
        return Roll()
    if head in ("h", "hold"):
        try:
            positions = {int(word) for word in " ".join(rest).replace(",", " ").split()}
        except ValueError:
            return BadDice()
        if any(not 1 <= p <= DICE_COUNT for p in positions):
            return BadDice()
        return Hold(frozenset(p - 1 for p in positions))
    if head in ("s", "score"):
        name = "_".join(rest)
        box = BOX_ALIASES.get(name) or BOX_ALIASES.get(name.replace("_", ""))
        return Score(box) if box else BadBox(" ".join(rest))
    return Unknown(head)
