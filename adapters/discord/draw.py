"""The chat layer's cards drawn as Discord messages (markdown content, buttons, attachments): each
card's layout serialised within Discord's limits."""

from __future__ import annotations

from dataclasses import replace

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
from adapters.discord import render
from adapters.discord.render import MESSAGE_LIMIT, ROW_WIDTH, Rendered, clip, code, esc
from adapters.i18n import Translator

# Wide rows: the boxes five to a row, the lobby's seating on one row and its computers on the
# next, the settings three to a row (eleven buttons within Discord's five rows). Slash commands
# list themselves: the welcome does not.
SHAPE = Shape(
    platform="discord",
    boxes=ROW_WIDTH,
    computers=ROW_WIDTH,
    settings=3,
    start_beside_join=True,
    welcome_commands=False,
)


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
            return [Rendered(None)]


def _message(message: Message) -> list[Rendered]:
    """A message after its preface's pages: on the last of them where both fit."""
    drawn = render.message(message)
    pages = render.pages(map(render.line, message.preface))
    content = drawn.content or ""
    if pages and len(pages[-1]) + 2 + len(content) <= MESSAGE_LIMIT:
        drawn = Rendered(f"{pages.pop()}\n\n{content}", drawn.view, drawn.ping)
    return [*(Rendered(page) for page in pages), drawn]


def _parts(part: Part) -> list[str]:
    match part:
        case Line():
            return [render.line(part)]
        case Block(lines=lines):
            return [render.text(lines)]
        case Code(text=text):
            return [code(text)]
        case Section(parts=parts):
            return render.pages(each for inner in parts for each in _parts(inner))


def _pages(paged: Pages) -> list[Rendered]:
    """Pages of words, the caption first; the picture on the first page, the rows under the
    last."""
    parts = [render.text(paged.caption.lines)]
    parts += [each for part in paged.parts for each in _parts(part)]
    drawn = [Rendered(page) for page in render.pages(parts)]
    if paged.picture is not None:
        first = drawn[0] if drawn else Rendered("")
        drawn = [replace(first, picture=paged.picture), *drawn[1:]]
    if not paged.rows or not drawn:
        return drawn
    return [*drawn[:-1], replace(drawn[-1], view=render.buttons(paged.rows))]


def _table(title: str, body: tuple[str, ...]) -> list[str]:
    """The title in bold, the rest in monospace blocks (as many messages as it takes; a block
    is never cut across two)."""
    heading = f"**{esc(title)}**"
    room = MESSAGE_LIMIT - len(heading) - 1 - len(code(""))
    blocks = [code(chunk) for chunk in stacked((clip(line, room) for line in body), room)]
    return render.pages([heading, *blocks])
