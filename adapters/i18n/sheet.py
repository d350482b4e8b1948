"""The score sheet as monospace tables: players across, boxes down."""

from __future__ import annotations

import unicodedata

from adapters.i18n import Translator
from adapters.i18n.dice import box_name
from adapters.i18n.names import shown_name
from core.view import GameView

SHEET_NAME_WIDTH = 7
PHONE_COLUMNS = 4


def _width(text: str) -> int:
    """Display width in a monospace font: wide (East Asian, emoji) characters take two cells."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _fit(text: str, width: int) -> str:
    out = ""
    for char in text:
        if _width(out + char) > width:
            return out[:-1] + "…" if out else "…"
        out += char
    return out


def _pad_left(text: str, width: int) -> str:
    return " " * (width - _width(text)) + text


def sheet_table(t: Translator, view: GameView, columns: range | None = None) -> str:
    """Players across, boxes down, totals last; monospace text. '·' is an empty box."""
    columns = columns if columns is not None else range(len(view.players))
    players = [view.players[i] for i in columns]
    names = [_fit(shown_name(p.name), SHEET_NAME_WIDTH) for p in players]
    labels = [box_name(t, row.box) for row in view.sheet] + [t("sheet-total")]
    label_width = max(_width(label) for label in labels)
    widths = [max(3, _width(name)) for name in names]
    lines = [_row("", label_width, names, widths)]
    for label, row in zip(labels, view.sheet, strict=False):
        cells = ["·" if row.cells[i] is None else str(row.cells[i]) for i in columns]
        lines.append(_row(label, label_width, cells, widths))
    lines.append(_row(labels[-1], label_width, [str(p.total) for p in players], widths))
    return "\n".join(lines)


def sheet_tables(t: Translator, view: GameView, per_table: int = PHONE_COLUMNS) -> list[str]:
    """The sheet cut into tables of a few players each, so that a phone shows them unwrapped."""
    count = len(view.players)
    return [
        sheet_table(t, view, range(start, min(start + per_table, count)))
        for start in range(0, max(count, 1), per_table)
    ]


def _row(label: str, label_width: int, cells: list[str], widths: list[int]) -> str:
    padded = label + " " * (label_width - _width(label))
    return padded + "".join(" " + _pad_left(c, w) for c, w in zip(cells, widths, strict=True))
