"""The chat layer's cards drawn as Telegram messages (HTML text, inline keyboards, photos): each
card's layout serialised within Telegram's limits."""

from __future__ import annotations

from dataclasses import replace

from adapters.chat import cards, layout
from adapters.chat.layout_cards import drawn
from adapters.i18n import Translator
from adapters.i18n.hints import hint_lines
from adapters.telegram import render
from adapters.telegram.render import CAPTION_LIMIT, MESSAGE_LIMIT, Opening, Rendered

# A hint answered in a callback alert (200 characters) has room for this many choices.
ALERT_CHOICES = 3


class Telegram:
    """Telegram's serialiser of the layouts (see render.SHAPE for its rows); with an
    `opening`, the boards offer the live table, opened as that kind of chat allows."""

    writing = render
    limit = MESSAGE_LIMIT

    def __init__(self, opening: Opening | None = None) -> None:
        self.opening = opening
        self.shape = render.SHAPE if opening is None else replace(render.SHAPE, table=True)

    def message(self, message: layout.Message) -> list[Rendered]:
        """A message, after its preface: on the same message where both fit, else the
        preface's own pages first."""
        board = render.message(message, self.opening)
        if not message.preface:
            return [board]
        text = f"{render.text(message.preface)}\n\n{board.text}"
        if len(text) <= MESSAGE_LIMIT:
            return [Rendered(text, board.markup)]
        pages = render.pages(map(render.line, message.preface))
        return [*(Rendered(page) for page in pages), board]

    def paged(self, paged: layout.Pages) -> list[Rendered]:
        """Pages of words; a picture first, with its caption."""
        pages = [Rendered(page) for page in render.pages(layout.blocks(render, paged.parts))]
        if paged.picture is None:
            return pages
        caption = render.text(paged.caption.lines, CAPTION_LIMIT)
        return [Rendered(caption, picture=paged.picture), *pages]

    def page(self, text: str) -> Rendered:
        return Rendered(text)

    def under(self, drawn: Rendered, rows: tuple[layout.Row, ...]) -> Rendered:
        return replace(drawn, markup=render.keyboard(rows, self.opening))

    def stripped(self) -> Rendered:
        return Rendered("", strip=True)


TELEGRAM = Telegram()


def draw(t: Translator, card: cards.Card, serialiser: Telegram = TELEGRAM) -> list[Rendered]:
    """The messages that show `card`, in order (most cards are one message)."""
    return drawn(serialiser, t, card)


def alert(t: Translator, card: cards.Card) -> tuple[str | None, bool]:
    """A press's answer in its callback (plain text, at most 200 characters): the text and
    whether it shows as an alert; (None, False) for a card that cannot be said there."""
    match card:
        case cards.Lines(lines=lines):
            return render.alert("\n".join(lines)), False
        case cards.Hint(options=options, dice=dice, shares=shares, places=places):
            hint = hint_lines(
                t, list(options), dice, count=ALERT_CHOICES, shares=shares, places=places
            )
            return render.alert("\n".join(hint)), True
    return None, False
