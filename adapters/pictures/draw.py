"""The score sheet drawn with Pillow: where everything goes (`Grid`) and the drawing itself.

Players go across in blocks of a few columns stacked down the picture, so that it stays narrow
enough to read on a phone however many sit at the table.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from adapters.pictures.layout import EMPTY, Column, SheetText
from core.view import Die

FONTS = Path(__file__).parent / "fonts"
COLUMNS_PER_BLOCK = 6
CELL_WIDTH = 132
ROW_HEIGHT = 42
HEADER_LINE = 24  # one line of a player's name
MARGIN = 24
PAD = 8  # between a cell's edge and its text
STATUS_TOP = MARGIN + 44
DIE_SIZE = 64
DIE_GAP = 18
MIN_WIDTH = 560  # room for the title and the round line, even for one player
MAX_WIDTH = 1000  # narrow enough for a phone: wide labels narrow the cells
LABEL_MAX = 200  # longer labels are cut
TITLE_SIZE, STATUS_SIZE, TEXT_SIZE, HEADER_SIZE = 30, 22, 22, 18
INK = (33, 37, 41)
MUTED = (134, 142, 150)
RULE = (222, 226, 230)
BAND = (248, 249, 250)
MARK = (255, 236, 153)
LEAD = (176, 122, 0)
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
def font(size: int, bold: bool = False, condensed: bool = False) -> ImageFont.FreeTypeFont:
    """A face of the bundled DejaVu Sans; the condensed bold one (for names) fits more letters
    into a column."""
    name = "DejaVuSans" + ("Condensed" if condensed else "") + ("-Bold" if bold else "")
    return ImageFont.truetype(str(FONTS / f"{name}.ttf"), size)


class FontPen:
    """A `Pen` on the bundled font. Whether a glyph exists is asked of the plain layout, which
    maps characters straight to glyphs (the shaping one would add dotted circles and such)."""

    def __init__(self, size: int, bold: bool = False, condensed: bool = False) -> None:
        self.face = font(size, bold, condensed)
        self._plain = self.face.font_variant(layout_engine=ImageFont.Layout.BASIC)
        self._missing = bytes(self._plain.getmask("\U0010fffd"))
        self._draws: dict[str, bool] = {}

    def width(self, text: str) -> float:
        return self.face.getlength(text)

    def look(self, text: str) -> bytes:
        mask = self.face.getmask(text)
        return f"{mask.size}".encode() + bytes(mask)

    def draws(self, char: str) -> bool:
        if char not in self._draws:
            self._draws[char] = bytes(self._plain.getmask(char)) != self._missing
        return self._draws[char]


@cache
def pen(size: int, bold: bool = False, condensed: bool = False) -> FontPen:
    return FontPen(size, bold, condensed)


def label_pen() -> FontPen:
    """Row labels, measured bold (the total's and the place's are) so that every one fits."""
    return pen(TEXT_SIZE, bold=True)


def name_pen() -> FontPen:
    """Players' names, in the column headers."""
    return pen(HEADER_SIZE, bold=True, condensed=True)


@dataclass(frozen=True)
class Grid:
    """Where the parts go: the label column, player columns in blocks, rows, the dice."""

    label_width: int
    cell_width: int
    per_block: int
    players: int
    rows: int  # below the header: boxes, total, place
    dice: int
    header_lines: int = 1

    @property
    def header_height(self) -> int:
        return max(ROW_HEIGHT, self.header_lines * HEADER_LINE + 2 * PAD + 2)

    @property
    def width(self) -> int:
        return 2 * MARGIN + self.label_width + self.per_block * self.cell_width

    @property
    def dice_top(self) -> int:
        return STATUS_TOP + 40

    @property
    def top(self) -> int:
        """Where the first block begins."""
        return self.dice_top + (DIE_SIZE + MARGIN if self.dice else 0)

    @property
    def block_height(self) -> int:
        return self.header_height + self.rows * ROW_HEIGHT + MARGIN

    @property
    def blocks(self) -> int:
        return max(1, math.ceil(self.players / self.per_block))

    @property
    def height(self) -> int:
        return self.top + self.blocks * self.block_height

    def block_top(self, block: int) -> int:
        return self.top + block * self.block_height

    def column_left(self, player: int) -> int:
        return MARGIN + self.label_width + (player % self.per_block) * self.cell_width

    def row_top(self, player: int, row: int) -> int:
        """Top of `row` (0 the header, then the boxes, the total, the place) in a player's block."""
        top = self.block_top(player // self.per_block)
        return top if row == 0 else top + self.header_height + (row - 1) * ROW_HEIGHT

    def cell(self, player: int, row: int) -> tuple[int, int, int, int]:
        left, top = self.column_left(player), self.row_top(player, row)
        bottom = top + (self.header_height if row == 0 else ROW_HEIGHT)
        return left, top, left + self.cell_width, bottom

    def die(self, index: int) -> tuple[int, int, int, int]:
        left = MARGIN + index * (DIE_SIZE + DIE_GAP)
        return left, self.dice_top, left + DIE_SIZE, self.dice_top + DIE_SIZE


def grid(labels: tuple[str, ...], players: int, dice: int) -> Grid:
    """The grid for these labels and players: the label column as wide as its longest label,
    blocks as even as they can be (8 players go 4 and 4, not 6 and 2), cells widened to fill
    the picture when few players leave it narrower than its title."""
    longest = max(label_pen().width(label) for label in labels)
    label_width = min(LABEL_MAX, math.ceil(longest) + 2 * PAD)
    blocks = max(1, math.ceil(players / COLUMNS_PER_BLOCK))
    per_block = max(1, math.ceil(players / blocks))
    room = 2 * MARGIN + label_width
    cell_width = min(CELL_WIDTH, (MAX_WIDTH - room) // per_block)
    cell_width = max(cell_width, (MIN_WIDTH - room) // per_block)
    return Grid(label_width, cell_width, per_block, players, len(labels), dice)


def picture(sheet: SheetText, where: Grid, dice: tuple[Die, ...]) -> Image.Image:
    image = Image.new("RGB", (where.width, where.height), PAPER)
    draw = ImageDraw.Draw(image)
    draw.text((MARGIN, MARGIN), sheet.title, font=font(TITLE_SIZE, True), fill=INK)
    draw.text((MARGIN, STATUS_TOP), sheet.status, font=font(STATUS_SIZE), fill=MUTED)
    for index, die in enumerate(dice):
        _die(draw, where.die(index), die)
    for block in range(where.blocks):
        first = block * where.per_block
        _block(draw, sheet, where, first, sheet.columns[first : first + where.per_block])
    return image


def _die(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], die: Die) -> None:
    outline, width = (HELD, 5) if die.held else (INK, 2)
    draw.rounded_rectangle(box, radius=12, fill=PAPER, outline=outline, width=width)
    for x, y in PIPS[die.value]:
        cx, cy = box[0] + x * DIE_SIZE, box[1] + y * DIE_SIZE
        draw.ellipse((cx - 6, cy - 6, cx + 6, cy + 6), fill=INK)


def _block(
    draw: ImageDraw.ImageDraw,
    sheet: SheetText,
    where: Grid,
    first: int,
    columns: tuple[Column, ...],
) -> None:
    """One band of players: row bands, the current player's column, rules, then the text."""
    right = where.column_left(first + len(columns) - 1) + where.cell_width
    rows = len(sheet.labels)
    for row in range(2, rows + 1, 2):
        top = where.row_top(first, row)
        draw.rectangle((MARGIN, top, right, top + ROW_HEIGHT), fill=BAND)
    for n, column in enumerate(columns):
        if column.current:
            left, top, cell_right, _ = where.cell(first + n, 0)
            bottom = where.cell(first + n, rows)[3]
            draw.rectangle((left, top, cell_right, bottom), fill=MARK)
    totals = rows - 1  # the total's row; the place's comes after it
    for row, label in enumerate(sheet.labels, start=1):
        top = where.row_top(first, row)
        strong = row >= totals
        draw.line((MARGIN, top, right, top), fill=INK if row == totals else RULE)
        draw.text(
            (MARGIN + PAD, top + ROW_HEIGHT // 2),
            label,
            font=font(TEXT_SIZE, strong),
            fill=INK,
            anchor="lm",
        )
    for n, column in enumerate(columns):
        _column(draw, where, first + n, column)


def _column(draw: ImageDraw.ImageDraw, where: Grid, player: int, column: Column) -> None:
    left, top, right, _ = where.cell(player, 0)
    middle = (left + right) // 2
    ink = INK if column.active else MUTED
    lines = len(column.header)
    first = top + (where.header_height - lines * HEADER_LINE) // 2
    for i, line in enumerate(column.header):
        y = first + i * HEADER_LINE + HEADER_LINE // 2
        draw.text((middle, y), line, font=name_pen().face, fill=ink, anchor="mm")
    texts = [*column.cells, column.total, column.place]
    for row, text in enumerate(texts, start=1):
        y = where.row_top(player, row) + ROW_HEIGHT // 2
        strong = row >= len(texts) - 1 and column.active  # "out" in plain type fits a cell
        colour = MUTED if text == EMPTY or not column.active else INK
        if row == len(texts) and column.leader:
            colour = LEAD
        draw.text((middle, y), text, font=font(TEXT_SIZE, strong), fill=colour, anchor="mm")
