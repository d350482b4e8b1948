"""What a card shows, as one platform-neutral value: marked lines, rows of buttons, a picture.

Which words, which buttons in which rows, with which payloads and labels, is decided in the
chat layer once (layout_cards.of, the boards in layout_boards), for each platform's shape; a
platform only serialises the value (Telegram to HTML and an inline keyboard, Discord to markdown
and components) within its own limits. Every value is frozen and plain (strings, numbers, tuples,
enums that are strings; a picture's PNG bytes, which a page would serve apart), so that it
converts to JSON as it is.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol, TypeVar

from adapters.i18n.names import shown_name
from core.view import PlayerView

KEYCAPS = ("1️⃣", "2️⃣", "3️⃣", "4️⃣", "5️⃣", "6️⃣")
HELD = "🔒"
SLOT = "\x00"  # where a person, or the seated names, stand in a message's words
Drawn = TypeVar("Drawn")


class Mark(StrEnum):
    """What a span of words is: a platform escapes each span on its own and marks it so."""

    PLAIN = "plain"
    BOLD = "bold"
    COMMAND = "command"  # a command as typed (code where a platform shows it as such)
    HIDDEN = "hidden"  # shown at a tap where a platform can (a spoiler), else plain


class Emphasis(StrEnum):
    """How a line stands out."""

    NONE = "none"
    HEADING = "heading"  # large where a platform has headings, plain where not
    FOCUS = "focus"  # the board's dice: large, or set apart by blank lines where no headings


class Intent(StrEnum):
    """What a button means, for a platform that colours buttons."""

    PRIMARY = "primary"
    SECONDARY = "secondary"
    SUCCESS = "success"
    DANGER = "danger"


@dataclass(frozen=True)
class Span:
    """Words from the catalogue (or a name), unescaped, and what they are."""

    text: str
    mark: Mark = Mark.PLAIN


@dataclass(frozen=True)
class Line:
    """A line of a message: its spans in order, and how it stands out."""

    spans: tuple[Span, ...]
    emphasis: Emphasis = Emphasis.NONE


@dataclass(frozen=True)
class Button:
    """A button: `payload` comes back when pressed (else it opens `url`); a held die's button is
    marked `held`."""

    label: str
    payload: str | None = None
    url: str | None = None
    intent: Intent = Intent.SECONDARY
    held: bool = False


Row = tuple[Button, ...]


@dataclass(frozen=True)
class Person:
    """The player a message names at its SLOT (or, with none, where their name first stands):
    `notify` where a new message with it should notify them."""

    id: str
    name: str
    notify: bool = False


@dataclass(frozen=True)
class Message:
    """One message: a board, a screen, a notice, a hint, the help. `preface` lines go before it
    (on the same message where they fit, apart by a blank line); `lead` lines go on top of it,
    cut to the room left. `names` stand at the SLOT of a lobby, as many as fit."""

    lines: tuple[Line, ...]
    rows: tuple[Row, ...] = ()
    person: Person | None = None
    names: tuple[str, ...] = ()
    preface: tuple[Line, ...] = ()
    lead: tuple[Line, ...] = ()


@dataclass(frozen=True)
class Block:
    """Lines kept together on one page (why a game ended)."""

    lines: tuple[Line, ...]


@dataclass(frozen=True)
class Code:
    """A monospace table, on one page."""

    text: str


@dataclass(frozen=True)
class Section:
    """Parts paged on their own first, each of its pages then a part (the sheet in a final)."""

    parts: tuple[Part, ...]


Part = Line | Block | Code | Section


@dataclass(frozen=True)
class Pages:
    """Words in as many messages as they take; `picture` (a PNG) goes first, with `caption`;
    `rows` go under the last page."""

    parts: tuple[Part, ...]
    caption: Block = Block(())
    picture: bytes | None = None
    rows: tuple[Row, ...] = ()


@dataclass(frozen=True)
class Table:
    """A leaderboard, statistics or history: a bold title, then a monospace body split into as
    many blocks as it takes (a line is never cut across two)."""

    title: str
    body: tuple[str, ...]


@dataclass(frozen=True)
class Strip:
    """An old board's buttons taken away (its words stay)."""


Layout = Message | Pages | Table | Strip


@dataclass(frozen=True)
class Shape:
    """How a platform arranges what the layout holds: its rows' widths, and what it says where
    (its name, where the catalogue's words differ by platform; whether a command's arguments
    are typed after it or named; whether its welcome lists the commands and offers a group).
    Each platform declares its own (its draw module)."""

    platform: str
    typed: bool
    boxes: int  # open boxes to a row
    computers: int  # "add a computer" buttons to a row
    settings: int  # settings to a row (Done among them)
    start_by_join: bool  # Start and Cancel on Join's row, else on a row of their own last
    welcome_menu: bool  # the welcome lists the commands and offers to add the bot to a group
    table: bool = False  # the boards offer the live table (its links are configured)


def plain(text: str) -> Line:
    return Line((Span(text),))


def bold(text: str) -> Line:
    return Line((Span(text, Mark.BOLD),))


def person(player: PlayerView, *, notify: bool = False) -> Person:
    return Person(player.id, shown_name(player.name), notify)


def dice_line(dice: Iterable[int], held: Iterable[bool] | None = None) -> str:
    values = tuple(dice)
    marks = tuple(held) if held is not None else (False,) * len(values)
    return "  ".join(
        KEYCAPS[d - 1] + (HELD if h else "") for d, h in zip(values, marks, strict=True)
    )


def stacked(lines: Iterable[str], room: int) -> list[str]:
    """Lines joined into as few chunks as fit `room` characters each (a line is never cut)."""
    chunks: list[str] = []
    chunk: list[str] = []
    for line in lines:
        if chunk and len("\n".join([*chunk, line])) > room:
            chunks.append("\n".join(chunk))
            chunk = []
        chunk.append(line)
    return [*chunks, "\n".join(chunk)] if chunk else chunks


def chunked(buttons: list[Button], width: int) -> list[Row]:
    return [tuple(buttons[i : i + width]) for i in range(0, len(buttons), width)]


class Writing(Protocol):
    """How a platform writes words (its render module): a line, lines kept together, a table
    (a line of it cut to a room, lines in a monospace block), and blocks paged within its
    messages."""

    def line(self, line: Line) -> str: ...

    def text(self, lines: Iterable[Line]) -> str: ...

    def code(self, text: str) -> str: ...

    def cell(self, text: str, room: int) -> str: ...

    def fence(self, cells: str) -> str: ...

    def pages(self, blocks: Iterable[str]) -> list[str]: ...


def blocks(writing: Writing, parts: Iterable[Part]) -> list[str]:
    """Parts written as blocks for the platform to page (a section paged on its own first)."""
    out: list[str] = []
    for part in parts:
        match part:
            case Line():
                out.append(writing.line(part))
            case Block(lines=lines):
                out.append(writing.text(lines))
            case Code(text=text):
                out.append(writing.code(text))
            case Section(parts=inner):
                out.extend(writing.pages(blocks(writing, inner)))
    return out


def table_pages(writing: Writing, table: Table, limit: int) -> list[str]:
    """A table's title in bold, then its body in monospace blocks, each page at most `limit`
    characters (a line is never cut across two blocks)."""
    heading = writing.line(bold(table.title))
    room = limit - len(heading) - 1 - len(writing.fence(""))
    chunks = stacked((writing.cell(line, room) for line in table.body), room)
    return writing.pages([heading, *map(writing.fence, chunks)])


class Platform(Protocol[Drawn]):
    """A platform's serialiser: its shape, how it writes words, and its messages."""

    @property
    def shape(self) -> Shape: ...

    @property
    def writing(self) -> Writing: ...

    @property
    def limit(self) -> int: ...  # the characters of a message

    def message(self, layout: Message) -> list[Drawn]: ...

    def paged(self, layout: Pages) -> list[Drawn]: ...  # the pages, with the picture

    def page(self, text: str) -> Drawn: ...

    def under(self, drawn: Drawn, rows: tuple[Row, ...]) -> Drawn: ...

    def stripped(self) -> Drawn: ...


def serialised(platform: Platform[Drawn], drawn: Layout) -> list[Drawn]:
    """A layout as the platform's messages, in order: the rows of pages under the last."""
    match drawn:
        case Message():
            return platform.message(drawn)
        case Pages(rows=rows):
            pages = platform.paged(drawn)
            return [*pages[:-1], platform.under(pages[-1], rows)] if rows and pages else pages
        case Table():
            return [
                platform.page(page) for page in table_pages(platform.writing, drawn, platform.limit)
            ]
        case Strip():
            return [platform.stripped()]
