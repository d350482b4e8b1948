"""The chat layer's cards drawn as Telegram messages (HTML text, inline keyboards, photos): each
card's layout serialised within Telegram's limits."""

from __future__ import annotations

from dataclasses import replace
from html import escape

from adapters.chat import cards
from adapters.chat.layout import (
    Block,
    Code,
    Line,
    Message,
    Pages,
    Part,
    Section,
    Shape,
    Strip,
    Table,
    stacked,
)
from adapters.chat.layout_cards import of
from adapters.i18n import Translator
from adapters.i18n.text import hint_lines
from adapters.telegram import render
from adapters.telegram.render import CAPTION_LIMIT, MESSAGE_LIMIT, Rendered, escaped, html

# Phones: two buttons a row, settings one a row; the welcome lists the commands.
SHAPE = Shape(
    platform="telegram",
    boxes=2,
    computers=2,  # their names are long in Russian
    settings=1,
    start_beside_join=False,
    welcome_commands=True,
)
# A hint answered in a callback alert (200 characters) has room for this many choices.
ALERT_CHOICES = 3


def draw(t: Translator, card: cards.Card) -> list[Rendered]:
    """The messages that show `card`, in order (most cards are one message)."""
    match of(t, card, SHAPE):
        case Message() as message:
            return _message(message)
        case Pages() as paged:
            return _pages(paged)
        case Table(title=title, body=body):
            return [Rendered(page) for page in _table(title, body)]
        case Strip():
            return [Rendered("", strip=True)]


def _message(message: Message) -> list[Rendered]:
    """A message, after its preface: on the same message where both fit, else the preface's
    own pages first."""
    drawn = render.message(message)
    if not message.preface:
        return [drawn]
    text = f"{html(message.preface)}\n\n{drawn.text}"
    if len(text) <= MESSAGE_LIMIT:
        return [Rendered(text, drawn.markup)]
    return [*(Rendered(page) for page in render.pages(map(_line, message.preface))), drawn]


def _line(line: Line) -> str:
    return html((line,))


def _blocks(part: Part) -> list[str]:
    match part:
        case Line():
            return [_line(part)]
        case Block(lines=lines):
            return [html(lines)]
        case Code(text=text):
            return [f"<pre>{escape(text)}</pre>"]
        case Section(parts=parts):
            return render.pages(block for inner in parts for block in _blocks(inner))


def _pages(paged: Pages) -> list[Rendered]:
    """Pages of words; a picture first, with its caption; the rows under the last page."""
    blocks = [block for part in paged.parts for block in _blocks(part)]
    drawn = [Rendered(page) for page in render.pages(blocks)]
    if paged.picture is not None:
        caption = html(paged.caption.lines, CAPTION_LIMIT)
        drawn = [Rendered(caption, picture=paged.picture), *drawn]
    if not paged.rows or not drawn:
        return drawn
    return [*drawn[:-1], replace(drawn[-1], markup=render.keyboard(paged.rows))]


def _table(title: str, body: tuple[str, ...]) -> list[str]:
    """The title in bold, the rest in monospace blocks, as many messages as it takes (a line
    is never cut across two)."""
    heading = f"<b>{escaped(title)}</b>"
    room = MESSAGE_LIMIT - len(heading) - 1 - len("<pre></pre>")
    blocks = (f"<pre>{chunk}</pre>" for chunk in stacked((escaped(x, room) for x in body), room))
    return render.pages([heading, *blocks])


def alert(t: Translator, card: cards.Card) -> tuple[str | None, bool]:
    """A press's answer in its callback (plain text, at most 200 characters): the text and
    whether it shows as an alert; (None, False) for a card that cannot be said there."""
    match card:
        case cards.Lines(lines=lines):
            return render.alert("\n".join(lines)), False
        case cards.Hint(options=options, dice=dice, shares=shares):
            hint = hint_lines(t, list(options), dice, count=ALERT_CHOICES, shares=shares)
            return render.alert("\n".join(hint)), True
    return None, False
