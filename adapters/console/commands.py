"""Parsing what a player types at the console into an action or a console command.

Every word is accepted in both languages whatever language the console speaks, and ё reads as е,
so that a player can type what the board shows or what their keyboard happens to give."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from adapters.i18n import available_locales, translator
from adapters.i18n.dice import box_name
from core.actions import Action, Hold, Roll, Score, TakeBack
from core.boxes import ALL_BOXES, Box
from core.dice import DICE_COUNT

MAX_LINE = 400  # characters in one line of input; Fluent refuses a placeable over 2,500
ECHO = 20  # characters of a player's word repeated back in an answer


class Command(Enum):
    """What the first word of a line asks for."""

    ROLL = "roll"
    HOLD = "hold"
    SCORE = "score"
    UNDO = "undo"
    SHEET = "sheet"
    HINT = "hint"
    CHANCES = "chances"
    RULES = "rules"
    HELP = "help"
    QUIT = "quit"


# The words the help lists, per language, short form first.
WORDS: dict[str, dict[Command, tuple[str, ...]]] = {
    "en": {
        Command.ROLL: ("r", "roll"), Command.HOLD: ("h", "hold"), Command.SCORE: ("s", "score"),
        Command.UNDO: ("undo",),
        Command.SHEET: ("sheet",), Command.HINT: ("hint",), Command.CHANCES: ("chances",),
        Command.RULES: ("rules",),
        Command.HELP: ("help", "?"), Command.QUIT: ("q", "quit"),
    },
    "ru": {
        Command.ROLL: ("б", "бросить"), Command.HOLD: ("о", "оставить"),
        Command.SCORE: ("з", "записать"), Command.UNDO: ("отменить",),
        Command.SHEET: ("т", "таблица"),
        Command.HINT: ("п", "подсказка"), Command.CHANCES: ("шансы",),
        Command.RULES: ("правила",),
        Command.HELP: ("помощь", "?"), Command.QUIT: ("в", "выход"),
    },
}  # fmt: skip
# Accepted but not listed: other spellings, and "o", the Latin look-alike of the Russian "о".
HIDDEN_WORDS: dict[str, Command] = {
    "exit": Command.QUIT, "выйти": Command.QUIT, "справка": Command.HELP,
    "бросок": Command.ROLL, "отложить": Command.HOLD, "o": Command.HOLD,
    "write": Command.SCORE,  # as a hint words it: "write Fours (16)"
    "takeback": Command.UNDO, "вернуть": Command.UNDO,  # the chat button's word
}  # fmt: skip
BOX_ALIASES: dict[str, Box] = {
    "1s": Box.ONES, "2s": Box.TWOS, "3s": Box.THREES,
    "4s": Box.FOURS, "5s": Box.FIVES, "6s": Box.SIXES,
    "full": Box.FULL_HOUSE, "fh": Box.FULL_HOUSE, "st": Box.STRAIGHT,
    "фуллхаус": Box.FULL_HOUSE, "четыре": Box.FOUR,
}  # fmt: skip
# What a box's name may come dressed in, as a hint shows it ("записать в «Каре»"): quotes
# around it and a preposition before it are not part of the name.
QUOTES = "«»\"“”„‟'‘’‚‛`"
PREPOSITIONS = frozenset({"в", "во", "in", "into"})


def fold(word: str) -> str:
    """The form words are compared in: any case, ё as е, no spaces, hyphens or underscores."""
    text = word.casefold().replace("ё", "е")
    return "".join(char for char in text if char not in " -_")


def _command_words() -> dict[str, Command]:
    words = {fold(word): command for word, command in HIDDEN_WORDS.items()}
    for table in WORDS.values():
        words |= {fold(word): command for command, forms in table.items() for word in forms}
    return words


def _box_words() -> dict[str, Box]:
    """Every name of every box: the catalogues' names in each language, storage names, aliases."""
    words = {fold(box.value): box for box in ALL_BOXES}
    for locale in available_locales():
        words |= {fold(box_name(translator(locale), box)): box for box in ALL_BOXES}
    return words | {fold(alias): box for alias, box in BOX_ALIASES.items()}


COMMAND_WORDS = _command_words()
BOX_WORDS = _box_words()


class Meta(Enum):
    """Console commands that are not game actions."""

    HELP = "help"
    RULES = "rules"
    SHEET = "sheet"
    HINT = "hint"
    CHANCES = "chances"
    QUIT = "quit"
    BOXES = "boxes"  # `s` alone: the open boxes and what they would score
    EMPTY = "empty"


@dataclass(frozen=True)
class Unknown:
    command: str


@dataclass(frozen=True)
class BadBox:
    box: str


@dataclass(frozen=True)
class Ambiguous:
    """The first letters of more than one box; `boxes` in sheet order."""

    box: str
    boxes: tuple[Box, ...]


@dataclass(frozen=True)
class BadDice:
    pass


Parsed = Action | Meta | Unknown | BadBox | Ambiguous | BadDice
META = {
    Command.SHEET: Meta.SHEET, Command.HINT: Meta.HINT, Command.CHANCES: Meta.CHANCES,
    Command.RULES: Meta.RULES,
    Command.HELP: Meta.HELP, Command.QUIT: Meta.QUIT,
}  # fmt: skip


YES = frozenset({"y", "yes", "д", "да", "у"})  # "у" is the Cyrillic look-alike of "y"
NO = frozenset({"n", "no", "н", "нет"})


def yes_or_no(answer: str) -> bool | None:
    """A yes/no answer in either alphabet; Enter alone is yes, anything else None (ask again)."""
    word = fold(answer)
    if not word or word in YES:
        return True
    return False if word in NO else None


def clip(text: str, limit: int = ECHO) -> str:
    """A player's word short enough to repeat back in a sentence."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def is_command_word(text: str) -> bool:
    """True for a word that the game prompt takes as a command (so not a player's name)."""
    return fold(text) in COMMAND_WORDS


def parse(line: str) -> Parsed:
    words = line.split()
    if not words:
        return Meta.EMPTY
    head, rest = words[0], words[1:]
    command = COMMAND_WORDS.get(fold(head))
    match command:
        case None:
            return Unknown(clip(head))
        case Command.ROLL:
            return Roll()
        case Command.HOLD:
            return _hold(rest)
        case Command.SCORE:
            box = bare_box(" ".join(rest))
            return find_box(box) if box else Meta.BOXES
        case Command.UNDO:
            return TakeBack()
    return META[command]


def _hold(words: list[str]) -> Hold | BadDice:
    try:
        positions = {int(word) for word in " ".join(words).replace(",", " ").split()}
    except ValueError:
        return BadDice()
    if any(not 1 <= p <= DICE_COUNT for p in positions):
        return BadDice()
    return Hold(frozenset(p - 1 for p in positions))


def find_box(text: str) -> Score | BadBox | Ambiguous:
    """A box by its number, any of its names, or the first letters of just one box's names."""
    key = fold(text)
    if key.isdigit() and 1 <= int(key) <= len(ALL_BOXES):
        return Score(Box.from_index(int(key) - 1))
    if key in BOX_WORDS:
        return Score(BOX_WORDS[key])
    found = {box for word, box in BOX_WORDS.items() if key and word.startswith(key)}
    if len(found) == 1:
        return Score(found.pop())
    if found:
        return Ambiguous(clip(text), tuple(box for box in ALL_BOXES if box in found))
    return BadBox(clip(text))


def bare_box(text: str) -> str:
    """`text` without the preposition and the quotes a hint puts around a box's name, so that
    "в «Каре»" reads, and is repeated back, as Каре."""
    words = text.split()
    if len(words) > 1 and fold(words[0]) in PREPOSITIONS:
        words = words[1:]
    return " ".join(words).strip(QUOTES).strip()
