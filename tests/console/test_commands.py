"""What a player types, in either language, read as the right command or box."""

from __future__ import annotations

from pathlib import Path

import pytest

from adapters.console.commands import (
    MAX_LINE,
    WORDS,
    Ambiguous,
    BadBox,
    BadDice,
    Command,
    Meta,
    Unknown,
    is_command_word,
    parse,
    yes_or_no,
)
from adapters.i18n import translator
from adapters.i18n.dice import box_name
from adapters.i18n.hints import choice_text
from core.actions import Hold, Roll, Score, TakeBack
from core.boxes import ALL_BOXES, Box
from core.strategy import Choice


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("r", Roll()),
        ("  ROLL ", Roll()),
        ("h 1 3 5", Hold(frozenset({0, 2, 4}))),
        ("hold 2,4", Hold(frozenset({1, 3}))),
        ("h", Hold(frozenset())),
        ("s 2", Score(Box.TWOS)),
        ("s full", Score(Box.FULL_HOUSE)),
        ("score full house", Score(Box.FULL_HOUSE)),
        ("s 10", Score(Box.GENERAL)),
        ("s", Meta.BOXES),
        ("", Meta.EMPTY),
        ("help", Meta.HELP),
        ("?", Meta.HELP),
        ("q", Meta.QUIT),
        ("sheet", Meta.SHEET),
        ("h 6", BadDice()),
        ("h x", BadDice()),
        ("s 11", BadBox("11")),
        ("dance", Unknown("dance")),
    ],
)
def test_english_commands(line: str, expected: object) -> None:
    assert parse(line) == expected


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("б", Roll()),
        ("Бросить", Roll()),
        ("о 1 2", Hold(frozenset({0, 1}))),
        ("o 1 2", Hold(frozenset({0, 1}))),  # a Latin "o" that looks like the Russian one
        ("оставить", Hold(frozenset())),
        ("з 4", Score(Box.FOURS)),
        ("записать фулл", Score(Box.FULL_HOUSE)),
        ("з", Meta.BOXES),
        ("т", Meta.SHEET),
        ("таблица", Meta.SHEET),
        ("п", Meta.HINT),
        ("подсказка", Meta.HINT),
        ("правила", Meta.RULES),
        ("помощь", Meta.HELP),
        ("в", Meta.QUIT),
        ("выход", Meta.QUIT),
    ],
)
def test_russian_commands(line: str, expected: object) -> None:
    assert parse(line) == expected


@pytest.mark.parametrize(
    ("text", "box"),
    [
        ("четвёрки", Box.FOURS),  # as the board prints it
        ("четверки", Box.FOURS),
        ("ЧЕТВЁРКИ", Box.FOURS),
        ("пятерки", Box.FIVES),
        ("шестёрки", Box.SIXES),
        ("Full House", Box.FULL_HOUSE),
        ("full-house", Box.FULL_HOUSE),
        ("four", Box.FOUR),  # a whole name wins over being the start of "fours"
        ("fours", Box.FOURS),
        ("fu", Box.FULL_HOUSE),
        ("str", Box.STRAIGHT),
        ("g", Box.GENERAL),
        ("ген", Box.GENERAL),
        ("кар", Box.FOUR),
        ("ед", Box.ONES),
        ("7", Box.STRAIGHT),
    ],
)
def test_boxes_by_name_in_either_language_or_first_letters(text: str, box: Box) -> None:
    assert parse(f"s {text}") == Score(box)
    assert parse(f"з {text}") == Score(box)


def test_every_box_name_of_the_catalogues_is_understood() -> None:
    for locale in ("en", "ru"):
        for box in ALL_BOXES:
            assert parse(f"s {box_name(translator(locale), box)}") == Score(box), locale


def test_ambiguous_first_letters_answer_with_the_candidates_in_sheet_order() -> None:
    assert parse("s f") == Ambiguous("f", (Box.FOURS, Box.FIVES, Box.FULL_HOUSE, Box.FOUR))
    assert parse("з ч") == Ambiguous("ч", (Box.FOURS, Box.FOUR))
    assert parse("s t") == Ambiguous("t", (Box.TWOS, Box.THREES))


def test_a_long_word_is_echoed_short() -> None:
    assert parse("x" * MAX_LINE) == Unknown("x" * 19 + "…")
    assert parse("s " + "y" * MAX_LINE) == BadBox("y" * 19 + "…")


def test_every_listed_word_is_a_command_and_means_its_command() -> None:
    meaning = {
        Command.ROLL: Roll(),
        Command.HOLD: Hold(frozenset()),
        Command.SCORE: Meta.BOXES,
        Command.UNDO: TakeBack(),
        Command.SHEET: Meta.SHEET,
        Command.HINT: Meta.HINT,
        Command.CHANCES: Meta.CHANCES,
        Command.RULES: Meta.RULES,
        Command.HELP: Meta.HELP,
        Command.QUIT: Meta.QUIT,
    }
    for table in WORDS.values():
        assert set(table) == set(Command)
        for command, forms in table.items():
            for word in forms:
                assert is_command_word(word) and parse(word) == meaning[command], word
    assert not is_command_word("Ann")


@pytest.mark.parametrize(
    ("answer", "meaning"),
    [
        ("", True),
        ("y", True),
        ("YES", True),
        ("д", True),
        ("Да", True),
        ("у", True),  # the Cyrillic look-alike of "y"
        ("n", False),
        ("No", False),
        ("н", False),
        ("НЕТ", False),
        ("maybe", None),
        ("x", None),
    ],
)
def test_yes_or_no_in_both_alphabets(answer: str, meaning: bool | None) -> None:
    assert yes_or_no(answer) is meaning


def test_readme_lists_every_console_word() -> None:
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Playing in the console", 1)[1].split("\n## ", 1)[0]
    for table in WORDS.values():
        for forms in table.values():
            for word in forms:
                assert f"`{word}`" in section or f"`{word} " in section, word
    assert f"over {MAX_LINE} characters" in section


@pytest.mark.parametrize("locale", ["en", "ru"])
@pytest.mark.parametrize("box", ALL_BOXES)
def test_a_box_is_typed_as_the_hint_shows_it(locale: str, box: Box) -> None:
    """The hint's choice ("записать в «Каре» (45)", "write Four of a kind (45)") typed without
    its points writes that box; so do the name in its quotes and the name alone."""
    t = translator(locale)
    shown = choice_text(t, Choice(100.0, box=box, points=45), ())
    typed = shown.removesuffix(" (45)")
    assert typed != shown and parse(typed) == Score(box), typed
    score = WORDS[locale][Command.SCORE][0]
    for quoted in (f"«{box_name(t, box)}»", f'"{box_name(t, box)}"', f"“{box_name(t, box)}”"):
        assert parse(f"{score} {quoted}") == Score(box), quoted


def test_a_quoted_box_that_is_not_one_is_repeated_back_without_its_quotes() -> None:
    assert parse("з «Карета»") == BadBox("Карета")
    assert parse('s "nothing"') == BadBox("nothing")
    assert parse("з «»") == Meta.BOXES  # nothing inside the quotes: the open boxes
    assert parse("з в") == BadBox("в")  # a preposition alone is no box
