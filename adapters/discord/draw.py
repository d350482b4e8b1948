"""The chat layer's cards drawn as Discord messages (markdown content, buttons, attachments): each
card's layout serialised within Discord's limits."""

from __future__ import annotations

from dataclasses import replace

from adapters.chat import cards, layout
from adapters.chat.layout_cards import drawn
from adapters.discord import render
from adapters.discord.render import MESSAGE_LIMIT, Rendered
from adapters.i18n import Translator


class Discord:
    """Discord's serialiser of the layouts (see render.SHAPE for its rows); with `table`, the
    boards offer the live table (its button's press gives the link or launches the Activity)."""

    writing = render
    limit = MESSAGE_LIMIT

    def __init__(self, *, table: bool = False) -> None:
        self.shape = replace(render.SHAPE, table=True) if table else render.SHAPE

    def message(self, message: layout.Message) -> list[Rendered]:
        """A message after its preface's pages: on the last of them where both fit."""
        board = render.message(message)
        pages = render.pages(map(render.line, message.preface))
        content = board.content or ""
        if pages and len(pages[-1]) + 2 + len(content) <= MESSAGE_LIMIT:
            board = Rendered(f"{pages.pop()}\n\n{content}", board.view, board.ping)
        return [*(Rendered(page) for page in pages), board]

    def paged(self, paged: layout.Pages) -> list[Rendered]:
        """Pages of words, the caption first; the picture on the first page."""
        blocks = [render.text(paged.caption.lines), *layout.blocks(render, paged.parts)]
        pages = [Rendered(page) for page in render.pages(blocks)]
        if paged.picture is None:
            return pages
        first = pages[0] if pages else Rendered("")
        return [replace(first, picture=paged.picture), *pages[1:]]

    def page(self, text: str) -> Rendered:
        return Rendered(text)

    def under(self, drawn: Rendered, rows: tuple[layout.Row, ...]) -> Rendered:
        return replace(drawn, view=render.buttons(rows))

    def stripped(self) -> Rendered:
        return Rendered(None)


DISCORD = Discord()


def draw(t: Translator, card: cards.Card, serialiser: Discord = DISCORD) -> list[Rendered]:
    """The messages that show `card`, in order (most cards are one message)."""
    return drawn(serialiser, t, card)
