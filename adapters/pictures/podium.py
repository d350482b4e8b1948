"""The picture a chat gets when a season of its ladder ends: the season's name, its podium
(second, first and third side by side, the first on the tallest step, each with the name and
the rating above the step), then a line each for the most improved, the luckiest dice and the
best decisions, where the season knows them.

Names come as people typed them: shortened as every message shows them, stripped of what the
font cannot draw (layout.legible), and fitted to their room with an ellipsis: on the podium in
one line or two (layout.wrap), in a line under it cut in one (layout.cut).
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from PIL import Image, ImageDraw

from adapters.i18n import Translator
from adapters.i18n.names import shown_name
from adapters.pictures.draw import INK, MUTED, PAPER, RULE, FontPen, font, pen
from adapters.pictures.layout import Space, cut, legible, wrap

WIDTH = 900
MARGIN = 32
TITLE_SIZE, SUBTITLE_SIZE, NAME_SIZE, RATING_SIZE, PLACE_SIZE, LINE_SIZE = 36, 22, 26, 20, 48, 22
SUBTITLE_TOP = MARGIN + 52
PODIUM_TOP = SUBTITLE_TOP + 52  # where the podium (or the line saying there is none) begins
STEP_WIDTH = 240
STEP_GAP = 14
STEP_HEIGHT = {1: 150, 2: 108, 3: 78}
SLOTS = (2, 1, 3)  # the places from left to right
NAME_ABOVE = 62  # a name's (last line's) middle above its step
NAME_LINE = 30  # a long name takes two lines
RATING_ABOVE = 28  # the rating's middle above its step
BASE = PODIUM_TOP + NAME_ABOVE + NAME_LINE + 20 + STEP_HEIGHT[1]  # the floor the steps stand on
LINE = 42  # one line under the podium
MIN_NAME = 160  # the room a name keeps in a line, however long its words
# Each place's step and the colour of its number: gold, silver, bronze.
STEP_COLOURS = {
    1: ((255, 224, 138), (160, 110, 0)),
    2: ((226, 230, 234), (100, 108, 116)),
    3: ((238, 204, 170), (150, 88, 34)),
}
# Stands for the name in a line's text, to find where the name goes: a private-use character,
# which no catalogue uses and which shown_name keeps.
SENTINEL = "\ue000"
# Characters of a name kept before it is fitted in pixels: more than two lines of the podium
# hold, fewer than a message's cut (adapters.i18n.names), which would leave a second ellipsis.
NAME_CHARACTERS = 80


@dataclass(frozen=True)
class SeasonEnd:
    """What a finished season is remembered by."""

    label: str  # "2026-11" or "2026-Q4"
    podium: tuple[tuple[str, int], ...]  # up to 3 (name, shown rating), first place first
    improved: tuple[str, int] | None  # the most improved: name, rating points gained (>0)
    luckiest: tuple[str, str] | None  # name, the dice's figure already formatted
    wisest: tuple[str, str] | None  # name, the decisions' figure already formatted


@dataclass(frozen=True)
class Line:
    """A line under the podium: its text with SENTINEL where the name goes (None: no name)."""

    text: str
    name: str | None = None


def lines(t: Translator, end: SeasonEnd) -> list[Line]:
    """The lines under the podium: that nobody played rated games, when so; then the awards."""
    figure = pen(LINE_SIZE)
    out = [] if end.podium else [Line(t("podium-empty"))]
    if end.improved is not None:
        name, points = end.improved
        out.append(Line(t("podium-improved", name=SENTINEL, points=points), name))
    if end.luckiest is not None:
        name, dice = end.luckiest
        out.append(Line(t("podium-luckiest", name=SENTINEL, dice=legible(dice, figure)), name))
    if end.wisest is not None:
        name, decisions = end.wisest
        shown = legible(decisions, figure)
        out.append(Line(t("podium-wisest", name=SENTINEL, decisions=shown), name))
    return out


def lines_top(end: SeasonEnd) -> int:
    """Where the lines begin: under the podium's floor, or where the podium would be."""
    return BASE + LINE // 2 if end.podium else PODIUM_TOP - 8


def size(t: Translator, end: SeasonEnd) -> tuple[int, int]:
    """The picture's width and height: as tall as its lines need."""
    return WIDTH, lines_top(end) + len(lines(t, end)) * LINE + MARGIN


def drawable(name: str, space: Space) -> str:
    """A person's name cleaned as messages clean it, less what the font cannot draw ("?" when
    that is all of it)."""
    return legible(shown_name(name, NAME_CHARACTERS), space.pen) or "?"


def fitted_name(name: str, space: Space) -> str:
    """A person's name on one line, cut to the room."""
    return cut(drawable(name, space), space)


def podium_png(t: Translator, end: SeasonEnd) -> bytes:
    """The season's end as a picture: a title ("Season 2026-11"), the podium (second, first,
    third side by side, the first tallest, each with its place, name and rating), then a line
    each for the most improved, the luckiest dice and the best decisions where known."""
    image = Image.new("RGB", size(t, end), PAPER)
    draw = ImageDraw.Draw(image)
    room = WIDTH - 2 * MARGIN
    title = pen(TITLE_SIZE, bold=True)
    heading = cut(legible(t("podium-title", period=end.label), title), Space(title, room))
    draw.text((MARGIN, MARGIN), heading, font=title.face, fill=INK)
    below = pen(SUBTITLE_SIZE)
    subtitle = cut(legible(t("podium-subtitle"), below), Space(below, room))
    draw.text((MARGIN, SUBTITLE_TOP), subtitle, font=below.face, fill=MUTED)
    if end.podium:
        _podium(draw, t, end.podium[:3])
    top = lines_top(end)
    for n, line in enumerate(lines(t, end)):
        _line(draw, line, top + n * LINE + LINE // 2)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def _podium(draw: ImageDraw.ImageDraw, t: Translator, podium: tuple[tuple[str, int], ...]) -> None:
    """The steps on their floor, each with its place on it, the name and rating above it."""
    first = (WIDTH - len(SLOTS) * STEP_WIDTH - (len(SLOTS) - 1) * STEP_GAP) // 2
    last = first + len(SLOTS) * (STEP_WIDTH + STEP_GAP) - STEP_GAP
    name_pen = pen(NAME_SIZE, bold=True, condensed=True)
    names = Space(name_pen, STEP_WIDTH - 8)
    small = pen(RATING_SIZE)
    for slot, place in enumerate(SLOTS):
        if place > len(podium):
            continue
        name, rating = podium[place - 1]
        left = first + slot * (STEP_WIDTH + STEP_GAP)
        top = BASE - STEP_HEIGHT[place]
        middle = left + STEP_WIDTH // 2
        fill, ink = STEP_COLOURS[place]
        box = (left, top, left + STEP_WIDTH, BASE)
        draw.rounded_rectangle(box, radius=12, fill=fill, corners=(True, True, False, False))
        place_face = font(PLACE_SIZE, True)
        draw.text((middle, top + 40), str(place), font=place_face, fill=ink, anchor="mm")
        shown = wrap(drawable(name, names), "", names)  # one line or two
        for n, part in enumerate(reversed(shown)):
            y = top - NAME_ABOVE - n * NAME_LINE
            draw.text((middle, y), part, font=name_pen.face, fill=INK, anchor="mm")
        worth = cut(t("podium-rating", value=str(rating)), Space(small, STEP_WIDTH - 8))
        draw.text((middle, top - RATING_ABOVE), worth, font=small.face, fill=MUTED, anchor="mm")
    draw.line((first - 24, BASE, last + 24, BASE), fill=RULE, width=3)


def _line(draw: ImageDraw.ImageDraw, line: Line, y: int) -> None:
    """A line's words before the name muted, the name bold, the rest plain; the name cut to
    what the words leave it (but never below MIN_NAME: then the words after it are cut)."""
    plain, strong = pen(LINE_SIZE), pen(LINE_SIZE, bold=True)
    room = WIDTH - 2 * MARGIN
    before, found, after = line.text.partition(SENTINEL)
    if not found or line.name is None:
        _piece(draw, cut(line.text, Space(plain, room)), MARGIN, y, plain, INK)
        return
    before = cut(before, Space(plain, room - MIN_NAME)) if before.strip() else before
    left = room - plain.width(before) - plain.width(after)
    shown = fitted_name(line.name, Space(strong, max(MIN_NAME, left)))
    x = _piece(draw, before, MARGIN, y, plain, MUTED)
    x = _piece(draw, shown, x, y, strong, INK)
    _piece(draw, cut(after, Space(plain, WIDTH - MARGIN - x)), x, y, plain, INK)


def _piece(
    draw: ImageDraw.ImageDraw, text: str, x: float, y: int, face: FontPen, fill: tuple[int, ...]
) -> float:
    """`text` drawn from `x`, its middle at `y`; where the next piece begins."""
    if text:
        draw.text((x, y), text, font=face.face, fill=fill, anchor="lm")
    return x + face.width(text)
