"""The review's picture: every player's chance to win after each turn, from the start to the end.

One line per player in a colour of its own (by seat), the big moments marked on the line of the
player they belong to (a General written, a big general, the lead changing hands), the rounds
along the bottom, and a legend with the names, each with their dice against their decisions
(core.luck) beneath. About 1,000 pixels wide with large type, so that
a phone shows it whole.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from PIL import Image, ImageDraw

from adapters.i18n import Translator
from adapters.i18n.luck import luck_legend
from adapters.i18n.names import shown_name
from adapters.pictures.draw import INK, MUTED, PAPER, RULE, font, pen
from adapters.pictures.layout import Space, cut, legible, seat_tag
from core.review import MomentKind, Story
from core.view import GameView

WIDTH = 1000
MARGIN = 28
TITLE_SIZE, TEXT_SIZE, LEGEND_SIZE = 32, 22, 24
PLOT_TOP = MARGIN + 64
PLOT_HEIGHT = 480
AXIS_ROOM = 72  # left of the plot: the percentages
LINE_WIDTH = 5
ROW = 40  # one line of the legend
ENTRY = 2 * ROW  # one player in the legend: the name, and their luck beneath
SWATCH = 44
LEGEND_COLUMNS = 2
# Ten colours told apart at a glance (the "tab10" set), one per seat: a table weighed by win
# chances has ten seats at most.
PALETTE = (
    (31, 119, 180),
    (255, 127, 14),
    (44, 160, 44),
    (214, 39, 40),
    (148, 103, 189),
    (140, 86, 75),
    (227, 119, 194),
    (127, 127, 127),
    (188, 189, 34),
    (23, 190, 207),
)
MARK_SIZE = {MomentKind.GENERAL: 11, MomentKind.BIG_GENERAL: 17, MomentKind.LEAD: 11}
MARK_WORDS = {
    MomentKind.GENERAL: "review-chart-general",
    MomentKind.BIG_GENERAL: "review-chart-big",
    MomentKind.LEAD: "review-chart-lead",
}


def colour(seat: int) -> tuple[int, int, int]:
    return PALETTE[seat % len(PALETTE)]


@dataclass(frozen=True)
class Plot:
    """Where a point of the series goes: `points` of them across, 0 to 1 up."""

    points: int
    left: int = MARGIN + AXIS_ROOM
    right: int = WIDTH - MARGIN
    top: int = PLOT_TOP
    bottom: int = PLOT_TOP + PLOT_HEIGHT

    def x(self, point: int) -> float:
        return self.left + (self.right - self.left) * point / max(1, self.points - 1)

    def y(self, share: float) -> float:
        return self.bottom - (self.bottom - self.top) * min(1.0, max(0.0, share))


def chart_png(t: Translator, view: GameView, story: Story) -> bytes:
    """The picture as PNG bytes."""
    plot = Plot(len(story.chances))
    names = legend_names(view, story)
    kinds = [kind for kind in MomentKind if any(m.kind is kind for m in story.moments)]
    legend_top = plot.bottom + 2 * ROW + 8
    entries = -(-len(names) // LEGEND_COLUMNS)
    height = legend_top + entries * ENTRY + (ROW if kinds else 0) + MARGIN
    image = Image.new("RGB", (WIDTH, height), PAPER)
    draw = ImageDraw.Draw(image)
    draw.text((MARGIN, MARGIN), t("review-chart-title"), font=font(TITLE_SIZE, True), fill=INK)
    _axes(draw, t, plot, story)
    _lines(draw, plot, story)
    for moment in story.moments:
        seat = story.seats.index(moment.player_id)
        share = story.chances[moment.point][seat]
        _mark(draw, moment.kind, (plot.x(moment.point), plot.y(share)), colour(seat))
    lucks = [_luck(t, story, player_id) for player_id in story.seats]
    _legend(draw, t, list(zip(names, lucks, strict=True)), kinds, legend_top)
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def legend_names(view: GameView, story: Story) -> list[str]:
    """Each seat's name as the font draws it, cut to its legend column (the seat's number where
    nothing of the name can be drawn)."""
    shown = {player.id: player.name for player in view.players}
    space = Space(pen(LEGEND_SIZE), WIDTH / LEGEND_COLUMNS - SWATCH - 3 * MARGIN)
    names = []
    for seat, player_id in enumerate(story.seats):
        name = legible(shown_name(shown.get(player_id, "")), space.pen)
        names.append(cut(name or seat_tag(seat), space))
    return names


def _luck(t: Translator, story: Story, player_id: str) -> str:
    """A player's dice against their decisions, for the legend ("" without a review)."""
    player_review = story.reviews.get(player_id)
    luck = player_review.luck if player_review is not None else None
    return luck_legend(t, luck) if luck is not None else ""


def _axes(draw: ImageDraw.ImageDraw, t: Translator, plot: Plot, story: Story) -> None:
    """Percentages up the left, a rule at each quarter; each round's first turn along the
    bottom, under a faint rule."""
    small = font(TEXT_SIZE)
    for quarter in range(5):
        y = plot.y(quarter / 4)
        draw.line((plot.left, y, plot.right, y), fill=INK if quarter == 0 else RULE, width=2)
        label = f"{quarter * 25}%"
        draw.text((plot.left - 10, y), label, font=small, fill=MUTED, anchor="rm")
    shown = 0
    for point, turn in enumerate(story.turns):
        if turn.round == shown:
            continue
        shown = turn.round
        x = plot.x(point)
        if point:
            draw.line((x, plot.top, x, plot.bottom), fill=RULE, width=1)
        draw.text((x, plot.bottom + 8), str(turn.round), font=small, fill=MUTED, anchor="mt")
    middle = (plot.left + plot.right) / 2
    round_label = t("review-chart-round")
    draw.text((middle, plot.bottom + 40), round_label, font=small, fill=INK, anchor="mt")


def _lines(draw: ImageDraw.ImageDraw, plot: Plot, story: Story) -> None:
    """A line per player; the winners' drawn last, on top."""
    won = story.chances[-1]
    for seat in sorted(range(len(story.seats)), key=lambda s: won[s]):
        series = story.series(story.seats[seat])
        xy = [(plot.x(point), plot.y(share)) for point, share in enumerate(series)]
        draw.line(xy, fill=colour(seat), width=LINE_WIDTH, joint="curve")


def _mark(
    draw: ImageDraw.ImageDraw,
    kind: MomentKind,
    at: tuple[float, float],
    fill: tuple[int, int, int],
) -> None:
    """A General a dot, a big general a large dot, a change of lead a diamond."""
    x, y = at
    size = MARK_SIZE[kind]
    if kind is MomentKind.LEAD:
        corners = [(x, y - size), (x + size, y), (x, y + size), (x - size, y)]
        draw.polygon(corners, fill=fill, outline=INK, width=3)
    else:
        draw.ellipse((x - size, y - size, x + size, y + size), fill=fill, outline=INK, width=3)


def _legend(
    draw: ImageDraw.ImageDraw,
    t: Translator,
    entries: list[tuple[str, str]],
    kinds: list[MomentKind],
    top: int,
) -> None:
    """The players in two columns, each by a stroke of their colour with their luck beneath;
    then what the marks mean."""
    face, small = font(LEGEND_SIZE), font(TEXT_SIZE)
    column = (WIDTH - 2 * MARGIN) // LEGEND_COLUMNS
    for seat, (name, luck) in enumerate(entries):
        left = MARGIN + (seat % LEGEND_COLUMNS) * column
        y = top + (seat // LEGEND_COLUMNS) * ENTRY + ROW // 2
        draw.line((left, y, left + SWATCH, y), fill=colour(seat), width=3 * LINE_WIDTH // 2)
        draw.text((left + SWATCH + 12, y), name, font=face, fill=INK, anchor="lm")
        draw.text((left + SWATCH + 12, y + ROW - 6), luck, font=small, fill=MUTED, anchor="lm")
    y = top + -(-len(entries) // LEGEND_COLUMNS) * ENTRY + ROW // 2
    left = MARGIN + MARK_SIZE[MomentKind.BIG_GENERAL]
    for kind in kinds:
        _mark(draw, kind, (left, y), MUTED)
        words = t(MARK_WORDS[kind])
        draw.text((left + 24, y), words, font=small, fill=INK, anchor="lm")
        left += 24 + int(small.getlength(words)) + 2 * MARGIN
