"""The board as a terminal shows it: dice numbered exactly in line, boxes, help."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
import unicodedata
from pathlib import Path

import pytest

from adapters.console.app import CHANNEL
from adapters.console.render import box_lines, help_text, render_board, render_dice
from adapters.i18n import translator
from adapters.i18n.dice import DIE_FACES
from core.actions import Hold, Open, Roll, Score, Start
from core.boxes import Box
from core.dice import ScriptedRoller
from core.game import apply, open_lobby
from core.identity import PlayerRef
from core.view import GameView, make_view

EN = translator("en")
RU = translator("ru")
ANN = PlayerRef("1", "Ann")


def solo_with_held_dice() -> GameView:
    """Ann has thrown 5-5-5-5-1 and holds the first two dice."""
    roller = ScriptedRoller([5, 5, 5, 5, 1])
    game, _ = open_lobby("g", CHANNEL, ANN, Open())
    game, _ = apply(game, ANN, Start(), roller)
    game, _ = apply(game, ANN, Roll(), roller)
    game, _ = apply(game, ANN, Hold(frozenset({0, 1})), roller)
    return make_view(game, ANN.id)


def columns_of(line: str) -> list[int]:
    """The terminal column each character of `line` starts at (wide characters take two)."""
    starts, column = [], 0
    for char in line:
        starts.append(column)
        column += 2 if unicodedata.east_asian_width(char) in "WF" else 1
    return starts


def number_and_middle_columns(rows: str) -> list[tuple[int, int]]:
    """For each die: the column of its number in the row below and of its face's middle."""
    faces, numbers = rows.split("\n")
    at_face, at_number = columns_of(faces), columns_of(numbers)
    glyphs = [i for i, char in enumerate(faces) if char in DIE_FACES]
    labels = [numbers.index(str(n)) for n in range(1, len(glyphs) + 1)]
    # "⚄ 5": the middle of a die is the column after its face.
    return [
        (at_number[label], at_face[glyph] + 1) for glyph, label in zip(glyphs, labels, strict=True)
    ]


def test_board_lists_open_boxes_with_points_and_marks_held_dice() -> None:
    board = render_board(EN, solo_with_held_dice())
    assert "Ann's turn · round 1/10 · throw 1/3" in board
    assert "[⚄ 5] [⚄ 5]  ⚄ 5   ⚄ 5   ⚀ 1" in board
    lines = board.split("\n")
    assert any(line.split() == ["9", *EN("box-four").split(), "45"] for line in lines)
    assert any(line.split() == ["5", "Fives", "20"] for line in lines)


def test_die_numbers_stand_exactly_under_their_dice() -> None:
    rows = render_dice(solo_with_held_dice())
    pairs = number_and_middle_columns(rows)
    assert len(pairs) == 5
    for number, middle in pairs:
        assert number == middle, rows


@pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux, a real terminal")
def test_die_numbers_line_up_in_a_real_terminal(tmp_path: Path) -> None:
    """tmux draws the rows; the terminal itself reports where each character landed."""
    rows = render_dice(solo_with_held_dice()).split("\n")
    faces, numbers = rows
    glyphs = [i for i, char in enumerate(faces) if char in DIE_FACES]
    marks = [(faces, i + 1) for i in glyphs]
    marks += [(numbers, numbers.index(str(n))) for n in range(1, 6)]
    (tmp_path / "marks.json").write_text(json.dumps(marks))
    (tmp_path / "measure.py").write_text(MEASURE)
    out = tmp_path / "columns.json"
    command = f"{sys.executable} {tmp_path / 'measure.py'} {tmp_path / 'marks.json'} {out}"
    session = f"general-{time.monotonic_ns()}"
    subprocess.run(
        ["tmux", "-u", "-L", session, "new-session", "-d", "-x", "100", "-y", "10", command],
        check=True,
        env={"LANG": "C.UTF-8", "PATH": "/usr/bin:/bin", "TERM": "xterm-256color"},
    )
    try:
        deadline = time.monotonic() + 10
        while not out.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        measured = json.loads(out.read_text())
    finally:
        subprocess.run(["tmux", "-L", session, "kill-server"], check=False)
    assert measured[:5] == measured[5:], rows


# Prints each row up to a character and asks the terminal where the cursor is (ESC [6n).
MEASURE = """
import json, os, re, sys, termios, tty
marks = json.load(open(sys.argv[1]))
tty.setraw(0)
found = []
for line, index in marks:
    os.write(1, ("\\r\\x1b[2K" + line[:index] + "\\x1b[6n").encode())
    answer = b""
    while not answer.endswith(b"R"):
        answer += os.read(0, 1)
    found.append(int(re.search(rb"\\[(\\d+);(\\d+)R", answer).group(2)))
json.dump(found, open(sys.argv[2] + ".part", "w"))
os.rename(sys.argv[2] + ".part", sys.argv[2])
"""


def test_box_list_before_and_after_a_throw() -> None:
    roller = ScriptedRoller([2, 2, 4, 6, 3])
    game, _ = open_lobby("g", CHANNEL, ANN, Open())
    game, _ = apply(game, ANN, Start(), roller)
    before = box_lines(RU, make_view(game, ANN.id))
    assert before[0] == RU("console-open-boxes")
    assert [line.split()[0] for line in before[1:]] == [str(n) for n in range(1, 11)]
    game, _ = apply(game, ANN, Roll(), roller)
    game, _ = apply(game, ANN, Score(Box.TWOS), roller)
    game, _ = apply(game, ANN, Roll(), ScriptedRoller([2, 2, 4, 6, 3]))
    after = box_lines(RU, make_view(game, ANN.id))
    assert after[0] == RU("console-options")
    rows = {line.split()[0]: line.split()[1:] for line in after[1:]}
    assert "2" not in rows  # Twos is written
    assert rows["4"] == ["Четвёрки", "4"] and rows["6"] == ["Шестёрки", "6"]


def test_russian_help_lists_the_russian_words_first() -> None:
    text = help_text(RU)
    assert text.startswith(RU("console-help-title"))
    for usage in ("б, бросить", "о 1 3 5, оставить 1 3 5", "з ГРАФА, записать ГРАФА", "т, таблица",
                  "п, подсказка", "правила", "помощь, ?", "в, выход"):  # fmt: skip
        assert f"  {usage} " in text, usage
    assert "r, h, s, undo, sheet, hint, chances, rules, help, q" in text.split("\n")[-1]
    english = help_text(EN)
    assert "  r, roll " in english and "  s BOX, score BOX " in english
