"""Score-sheet pictures: a PNG drawn with Pillow and the bundled DejaVu font (Latin, Cyrillic).

Players go across in blocks of a few columns stacked down the picture, so that it stays narrow
enough to read on a phone however many sit at the table; the current player's column is marked,
and the dice of the turn, held ones outlined, head the picture.
"""

from __future__ import annotations

import io
from functools import cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from adapters.i18n import Translator
from adapters.i18n.text import box_name
from core.view import GameView, PlayerView

FONTS = Path(__file__).parent / "fonts"
COLUMNS_PER_BLOCK = 6
LABEL_WIDTH = 230
CELL_WIDTH = 118
ROW_HEIGHT = 46
MARGIN = 24
DIE_SIZE = 64
INK = (33, 37, 41)
MUTED = (134, 142, 150)
RULE = (222, 226, 230)
BAND = (248, 249, 250)
MARK = (255, 236, 153)
HELD = (230, 73, 45)
PAPER = (255, 255, 255)
PIPS = {
    1: [(0.5, 0.5)],
    2: [(0.25, 0.25), (0.75, 0.75)],
    3: [(0.25, 0.25), (0.5, 0.5), (0.75, 0.75)],
    4: [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)],
    5: [(0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)],
    6: [(0.25, 0.25), (0.75, 0.25), (0.25, 0.5), (0.75, 0.5), (0.25, 0.75), (0.75, 0.75)],
}


@cache
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(str(FONTS / name), size)


def _fit(draw: ImageDraw.ImageDraw, text: str, width: int, face: ImageFont.FreeTypeFont) -> str:
    if draw.textlength(text, font=face) <= width:
        return text
    while text and draw.textlength(text + "…", font=face) > width:
        text = text[:-1]
    return text + "…"


def _dice(draw: ImageDraw.ImageDraw, view: GameView, top: int) -> None:
    for i, die in enumerate(view.dice):
        left = MARGIN + i * (DIE_SIZE + 18)
        box = (left, top, left + DIE_SIZE, top + DIE_SIZE)
        outline, width = (HELD, 5) if die.held else (INK, 2)
        draw.rounded_rectangle(box, radius=12, fill=PAPER, outline=outline, width=width)
        for x, y in PIPS[die.value]:
            cx, cy = left + x * DIE_SIZE, top + y * DIE_SIZE
            draw.ellipse((cx - 6, cy - 6, cx + 6, cy + 6), fill=INK)


def _block(
    draw: ImageDraw.ImageDraw,
    t: Translator,
    view: GameView,
    index: int,
    block: tuple[PlayerView, ...],
    y: int,
    width: int,
    labels: list[str],
) -> None:
    """One band of players: bands, the current player's column, rules, then the figures."""
    first = index * COLUMNS_PER_BLOCK
    rows = len(labels) + 2
    for r in range(2, rows, 2):
        row_top = y + r * ROW_HEIGHT
        draw.rectangle((MARGIN, row_top, width - MARGIN, row_top + ROW_HEIGHT), fill=BAND)
    for n, player in enumerate(block):
        if player.is_current:
            x = MARGIN + LABEL_WIDTH + n * CELL_WIDTH
            draw.rectangle((x, y, x + CELL_WIDTH, y + rows * ROW_HEIGHT), fill=MARK)
    for n, player in enumerate(block):
        x = MARGIN + LABEL_WIDTH + (n + 1) * CELL_WIDTH - 8
        name = _fit(draw, player.name, CELL_WIDTH - 12, font(22, True))
        draw.text((x, y + 10), name, font=font(22, True), fill=INK, anchor="ra")
    for r, label in enumerate([*labels, t("sheet-total")], start=1):
        row_top = y + r * ROW_HEIGHT
        total = r == len(labels) + 1
        draw.line((MARGIN, row_top, width - MARGIN, row_top), fill=INK if total else RULE)
        face = font(22, bold=total)
        draw.text((MARGIN + 6, row_top + 10), label, font=face, fill=INK)
        for n, player in enumerate(block):
            x = MARGIN + LABEL_WIDTH + (n + 1) * CELL_WIDTH - 8
            if total:
                text, colour = str(player.total), INK
            else:
                value = view.sheet[r - 1].cells[first + n]
                text, colour = ("·", MUTED) if value is None else (str(value), INK)
            draw.text((x, row_top + 10), text, font=face, fill=colour, anchor="ra")


def sheet_png(t: Translator, view: GameView, title: str | None = None) -> bytes:
    """The score sheet (and the turn's dice) as PNG bytes."""
    players = view.players
    blocks = [players[i : i + COLUMNS_PER_BLOCK] for i in range(0, len(players), COLUMNS_PER_BLOCK)]
    blocks = blocks or [()]
    labels = [box_name(t, row.box) for row in view.sheet]
    rows = len(view.sheet) + 2  # names, boxes, total
    block_height = rows * ROW_HEIGHT + MARGIN
    columns = max(len(block) for block in blocks)
    width = 2 * MARGIN + LABEL_WIDTH + max(columns, 1) * CELL_WIDTH
    head = 56 + (DIE_SIZE + MARGIN if view.dice else 0)
    height = MARGIN + head + len(blocks) * block_height
    image = Image.new("RGB", (width, height), PAPER)
    draw = ImageDraw.Draw(image)
    draw.text((MARGIN, MARGIN), title or t("sheet-title"), font=font(30, True), fill=INK)
    top = MARGIN + 56
    if view.dice:
        _dice(draw, view, top)
        top += DIE_SIZE + MARGIN
    for block_index, block in enumerate(blocks):
        _block(draw, t, view, block_index, block, top + block_index * block_height, width, labels)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()
