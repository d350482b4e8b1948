"""Telegram's serialiser of the chat layer's layouts: HTML text, inline keyboards; pure functions.

Keyboards are drawn as the Bot API's JSON (what python-telegram-bot's InlineKeyboardMarkup
serialises to) without building its objects: a board's 17–20 buttons are drawn at every press.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from html import escape
from typing import TYPE_CHECKING

from adapters.chat import layout, payload
from adapters.chat.layout import HELD, SLOT, Emphasis, Line, Mark, Message, Person, Row
from adapters.chat.layout_cards import hint_offer as hint_offer_layout
from adapters.i18n import Translator
from adapters.i18n.names import listed

if TYPE_CHECKING:  # the live table's links come with its settings only
    from adapters.chat.weblinks import WebLinks

MESSAGE_LIMIT = 4096
ALERT_LIMIT = 200
CAPTION_LIMIT = 1024
CALLBACK_LIMIT = 64  # bytes of a button's callback_data

# Telegram's phones: two buttons a row (the computers' names are long in Russian), the settings
# one a row, Start and Cancel last; arguments typed after a command; its welcome lists the
# commands and offers a group.
SHAPE = layout.Shape(
    "telegram", typed=True, boxes=2, computers=2, settings=1, start_by_join=False, welcome_menu=True
)

# An InlineKeyboardButton as JSON: its text, its callback_data, url or web_app ({"url": …}).
Button = dict[str, str | dict[str, str]]
Keyboard = dict[str, list[list[Button]]]  # an InlineKeyboardMarkup as JSON


@dataclass(frozen=True)
class Rendered:
    """A message: HTML text (a caption where `picture`, a PNG, goes with it) and its keyboard.
    On an edit, `strip` keeps the text and takes the keyboard away."""

    text: str
    markup: Keyboard | None = None
    picture: bytes | None = None
    strip: bool = False


def mention(player: Person) -> str:
    """A link to the user: in a new message it notifies them, whatever their privacy settings."""
    return f'<a href="tg://user?id={escape(player.id)}">{escape(player.name)}</a>'


def fitted(pieces: Iterable[str], limit: int = MESSAGE_LIMIT) -> str:
    """HTML pieces (a character, an entity, a marked span) joined, at most `limit` characters:
    cut (with "…") between pieces, so that no entity or tag is split."""
    kept: list[str] = []
    size = 0
    for piece in pieces:
        if size + len(piece) > limit - 1:
            break
        kept.append(piece)
        size += len(piece)
    return "".join(kept) + "…"


def escaped(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """Plain text as HTML of at most `limit` characters."""
    out = escape(text)
    return out if len(out) <= limit else fitted(map(escape, text), limit)


def _pieces(drawn: Line, *, cut: bool = False) -> list[str]:
    """A line's HTML in pieces: a bold or hidden span whole, plain words each whole or (to be `cut`
    between characters) a piece a character."""
    pieces: list[str] = []
    for span in drawn.spans:
        if span.mark is Mark.BOLD:
            pieces.append(f"<b>{escape(span.text)}</b>")
        elif span.mark is Mark.HIDDEN:
            pieces.append(f"<tg-spoiler>{escape(span.text)}</tg-spoiler>")
        elif cut:  # a command is plain: Telegram makes a /command a link by itself
            pieces.extend(map(escape, span.text))
        else:
            pieces.append(escape(span.text))
    # HTML has no headings: the board's dice stand apart by a blank line on either side.
    return ["\n", *pieces, "\n"] if drawn.emphasis is Emphasis.FOCUS else pieces


def _joined(lines: Iterable[Line], *, cut: bool = False) -> list[str]:
    pieces: list[str] = []
    for number, drawn in enumerate(lines):
        pieces.extend(["\n", *_pieces(drawn, cut=cut)] if number else _pieces(drawn, cut=cut))
    return pieces


def text(lines: Iterable[Line], limit: int = MESSAGE_LIMIT) -> str:
    """Lines as HTML of at most `limit` characters (cut between characters only when longer:
    a board is drawn at every press)."""
    lines = tuple(lines)
    out = "".join(_joined(lines))
    return out if len(out) <= limit else fitted(_joined(lines, cut=True), limit)


def line(drawn: Line) -> str:
    return text((drawn,))


def fence(cells: str) -> str:
    return f"<pre>{cells}</pre>"


def code(table: str) -> str:
    return fence(escape(table))


cell = escaped


def pages(blocks: Iterable[str], limit: int = MESSAGE_LIMIT) -> list[str]:
    """HTML blocks joined by newlines into as few messages as fit (none is longer than a
    message: plain lines come through `escaped`)."""
    out: list[str] = []
    current = ""
    for block in blocks:
        if current and len(current) + 1 + len(block) > limit:
            out.append(current)
            current = block
        else:
            current = f"{current}\n{block}" if current else block
    return [*out, current] if current else out


@dataclass(frozen=True)
class Opening:
    """How a board's "Open the table" opens the page in one kind of chat. Telegram refuses a
    `web_app` button in a group: there it links to the Mini App (`startapp` names the table),
    or to the page in a browser where no Mini App is set; a private chat opens the page in
    Telegram itself (a Mini App's page must be HTTPS: else a link to it)."""

    links: WebLinks
    private: bool

    def button(self, label: str, table: str) -> Button:
        page = self.links.spectator(table)
        if self.private and page.startswith("https://"):
            return {"text": label, "web_app": {"url": page}}
        return {"text": label, "url": self.links.launch(table) or page}


def _button(drawn: layout.Button, opening: Opening | None = None) -> Button:
    label = f"{HELD}{drawn.label}" if drawn.held else drawn.label
    table = None if opening is None else payload.table_of(drawn.payload)
    if table is not None and opening is not None:
        return opening.button(label, table)
    if drawn.payload is None:
        return {"text": label, "url": drawn.url or ""}
    if len(drawn.payload.encode()) > CALLBACK_LIMIT:
        raise ValueError(
            f"a payload longer than Telegram's {CALLBACK_LIMIT} bytes: {drawn.payload}"
        )
    return {"text": label, "callback_data": drawn.payload}


def keyboard(rows: Iterable[Row], opening: Opening | None = None) -> Keyboard | None:
    """Rows of buttons as an inline keyboard (None: no buttons); `opening`: how the live
    table's button opens it in this chat."""
    drawn = [[_button(each, opening) for each in row] for row in rows]
    return {"inline_keyboard": drawn} if drawn else None


def message(drawn: Message, opening: Opening | None = None) -> Rendered:
    """One message: its lines (the person named where they stand, the seated names in the room
    left) and its keyboard (the live table's button opened so); the lead on top, cut to the
    room it leaves."""
    words = text(drawn.lines)
    named = drawn.person
    if named is not None:
        who = mention(named) if named.notify else f"<b>{escape(named.name)}</b>"
        # At its place on a board; in a notice, where the name first stands.
        slot = SLOT in words
        words = words.replace(SLOT, who) if slot else words.replace(escape(named.name), who, 1)
    if drawn.names:
        names = [escape(name) for name in drawn.names]
        words = words.replace(SLOT, listed(names, MESSAGE_LIMIT - len(words)))
    if drawn.lead:
        words = f"{text(drawn.lead, MESSAGE_LIMIT - len(words) - 1)}\n{words}"
    return Rendered(words, keyboard(drawn.rows, opening))


def hint_offer(t: Translator, game_id: str, version: int) -> Rendered:
    """Where a hint cannot be written to the asker privately: a button that shows it to
    whoever presses it, in a callback answer only they see."""
    return message(hint_offer_layout(t, game_id, version))


def alert(text: str) -> str:
    """A callback alert holds at most 200 characters: cut at a line, else at the limit."""
    if len(text) <= ALERT_LIMIT:
        return text
    lines = text.split("\n")
    while len(lines) > 1 and len("\n".join(lines)) > ALERT_LIMIT:
        lines.pop()
    return "\n".join(lines)[: ALERT_LIMIT - 1] + ("…" if len(lines[0]) >= ALERT_LIMIT else "")
