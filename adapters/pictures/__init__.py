"""Score-sheet pictures: a PNG drawn with Pillow and the bundled DejaVu font (Latin, Cyrillic).

The round and whose turn it is head the picture, then the turn's dice (held ones outlined), then
the sheet with every player's place; the current player's column is marked. `layout` says what
the picture reads, `draw` where it goes and how it looks.
"""

from __future__ import annotations

import io
from dataclasses import replace

from adapters.i18n import Translator
from adapters.pictures.draw import (
    MARGIN,
    PAD,
    STATUS_SIZE,
    TITLE_SIZE,
    Grid,
    grid,
    label_pen,
    name_pen,
    pen,
    picture,
)
from adapters.pictures.layout import SheetText, Space, labels, sheet_text
from core.view import GameView


def sheet_layout(t: Translator, view: GameView, title: str | None = None) -> tuple[SheetText, Grid]:
    """What the picture reads and where it goes: the header room sets how many lines names
    take, and those set the grid's height."""
    frame = grid(labels(t, view), len(view.players), len(view.dice))
    line = frame.width - 2 * MARGIN
    sheet = sheet_text(
        t,
        view,
        title,
        title_space=Space(pen(TITLE_SIZE, True), line),
        label_space=Space(label_pen(), frame.label_width - 2 * PAD),
        status_space=Space(pen(STATUS_SIZE), line),
        header_space=Space(name_pen(), frame.cell_width - 2 * PAD),
    )
    lines = max((len(column.header) for column in sheet.columns), default=1)
    return sheet, replace(frame, header_lines=lines)


def sheet_png(t: Translator, view: GameView, title: str | None = None) -> bytes:
    """The score sheet (and the turn's dice) as PNG bytes."""
    sheet, where = sheet_layout(t, view, title)
    out = io.BytesIO()
    picture(sheet, where, view.dice).save(out, format="PNG", optimize=True)
    return out.getvalue()
