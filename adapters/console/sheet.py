"""The score sheet as wide as the terminal: full names where they fit, shortened only to fit.

A shortened name keeps its start and, where two would read alike, its end too ("Alex…er",
"Alex…ra"), so two players never share a column heading."""

from __future__ import annotations

import shutil
import unicodedata
from collections import Counter
from collections.abc import Sequence

from adapters.i18n import Translator
from adapters.i18n.dice import box_name
from core.view import GameView

MIN_NAME = 6  # the narrowest a name is cut to before the sheet is split into several tables
NUMBER = 3  # a cell holds up to three digits


def width(text: str) -> int:
    """Columns the text takes in a terminal: East Asian wide characters and emoji take two."""
    return sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in text)


def terminal_columns() -> int:
    return shutil.get_terminal_size().columns


def shorten(name: str, limit: int, tail: int = 0) -> str:
    """`name` in at most `limit` columns: its start, "…", and its last `tail` characters."""
    if width(name) <= limit:
        return name
    end = name[len(name) - tail :] if tail else ""
    room = limit - 1 - width(end)
    start = ""
    for char in name:
        if width(start + char) > room:
            break
        start += char
    return f"{start}…{end}"


def headings(names: Sequence[str], limit: int) -> list[str] | None:
    """The names in at most `limit` columns each, no shortened one like another; None where
    that cannot be."""
    tails = [0] * len(names)
    while True:
        short = [shorten(name, limit, tail) for name, tail in zip(names, tails, strict=True)]
        counts = Counter(text.casefold() for text in short)
        clashing = [i for i, text in enumerate(short) if counts[text.casefold()] > 1]
        clashing = [i for i in clashing if short[i] != names[i]]
        if not clashing:
            return short
        for i in clashing:
            tails[i] += 1
            if tails[i] > limit - 2:
                return None


def sheet_text(t: Translator, view: GameView, columns: int | None = None) -> str:
    """Players across, boxes down, totals last, in as many tables as the width needs."""
    columns = columns if columns is not None else terminal_columns()
    labels = [box_name(t, row.box) for row in view.sheet] + [t("sheet-total")]
    label_width = max(width(label) for label in labels)
    names = [player.name for player in view.players]
    tables: list[str] = []
    start = 0
    while start < len(names):
        stop, short = _split(names, start, columns - label_width)
        tables.append(_table(view, labels, label_width, range(start, stop), short))
        start = stop
    return "\n\n".join(tables)


def _split(names: list[str], start: int, room: int) -> tuple[int, list[str]]:
    """The most players from `start` on that one table holds within `room`, and their headings."""
    for stop in range(len(names), start + 1, -1):
        short = _fit(names[start:stop], room)
        if short is not None:
            return stop, short
    return start + 1, [shorten(names[start], max(MIN_NAME, room - 1))]


def _fit(names: list[str], room: int) -> list[str] | None:
    """The longest headings, cut no shorter than MIN_NAME, with which `names` fit in `room`."""
    longest = max(width(name) for name in names)
    for limit in range(longest, min(longest, MIN_NAME) - 1, -1):
        short = headings(names, limit)
        if short is not None and sum(1 + max(NUMBER, width(text)) for text in short) <= room:
            return short
    return None


def _table(
    view: GameView, labels: list[str], label_width: int, seats: range, names: list[str]
) -> str:
    widths = [max(NUMBER, width(name)) for name in names]
    lines = [_row("", label_width, names, widths)]
    for label, row in zip(labels, view.sheet, strict=False):
        cells = ["·" if row.cells[i] is None else str(row.cells[i]) for i in seats]
        lines.append(_row(label, label_width, cells, widths))
    totals = [str(view.players[i].total) for i in seats]
    lines.append(_row(labels[-1], label_width, totals, widths))
    return "\n".join(lines)


def _row(label: str, label_width: int, cells: list[str], widths: list[int]) -> str:
    padded = label + " " * (label_width - width(label))
    return padded + "".join(
        " " * (1 + w - width(c)) + c for c, w in zip(cells, widths, strict=True)
    )
