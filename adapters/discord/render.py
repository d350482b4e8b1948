"""Discord's serialiser of the chat layer's layouts: markdown content plus buttons (at most 5
rows of 5).

Every text that can hold a name is escaped for Discord markdown and mentions; the catalogue's
words are escaped too (they are plain text). Content stays within Discord's 2000 characters:
long texts are cut into pages. Buttons are drawn as Discord's component JSON (what a
discord.py View of them serialises to) without building discord.py's View and Item objects: a
board's 17–20 buttons are drawn at every press. They hold no state: each press comes back as a
dynamic item (buttons.py) whose custom_id carries the game and its version.
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import discord
from discord.utils import escape_markdown, escape_mentions

from adapters.chat import layout
from adapters.chat.layout import HELD, SLOT, Emphasis, Intent, Line, Mark, Message, Person, Row
from adapters.i18n.names import listed

MESSAGE_LIMIT = 2000
ROW_WIDTH = 5
SHEET_FILE = "score-sheet.png"
ROWS = 5
LABEL_LIMIT = 80
CUSTOM_ID_LIMIT = 100

# Discord's wide rows (five buttons at most): the boxes five to a row, the lobby's seating on
# one row and its computers on the next, the settings three to a row (eleven buttons within
# its five rows). Options are named; slash commands list themselves: the welcome does not.
SHAPE = layout.Shape(
    "discord", typed=False, boxes=5, computers=5, settings=3, start_by_join=True, welcome_menu=False
)
_Style = discord.ButtonStyle
Component = dict[str, Any]  # a button (type 2) or an action row (type 1), as Discord's JSON
STYLES = {
    Intent.PRIMARY: _Style.primary,
    Intent.SECONDARY: _Style.secondary,
    Intent.SUCCESS: _Style.success,
    Intent.DANGER: _Style.danger,
}


@dataclass
class Buttons:
    """A message's rows of buttons (an empty row is left out) as Discord's JSON, given to
    discord.py where it takes a View: it reads the components, and keeps nothing to dispatch
    (every button is a dynamic item, found again by its custom_id at each press)."""

    rows: list[list[Component]]
    __discord_ui_view__ = True
    timeout = None

    def __post_init__(self) -> None:
        self.rows = [row for row in self.rows if row]
        if len(self.rows) > ROWS or any(len(row) > ROW_WIDTH for row in self.rows):
            raise ValueError(f"more buttons than Discord's {ROWS} rows of {ROW_WIDTH}")

    def to_components(self) -> list[Component]:
        return [{"type": 1, "components": row} for row in self.rows]

    def has_components_v2(self) -> bool:
        return False

    def is_finished(self) -> bool:
        return True

    def is_dispatchable(self) -> bool:
        return False


def button(custom_id: str, label: str, style: _Style = _Style.secondary) -> Component:
    if len(custom_id) > CUSTOM_ID_LIMIT:
        raise ValueError(f"a custom_id longer than Discord's {CUSTOM_ID_LIMIT}: {custom_id}")
    return {
        "type": 2,
        "style": style.value,
        "disabled": False,
        "label": clip(label, LABEL_LIMIT),
        "custom_id": custom_id,
    }


@dataclass(frozen=True)
class Rendered:
    """A message to send or an edit to make. `view=None` on an edit removes the buttons;
    `content=None` on an edit keeps the text. `ping` is the one user a new message notifies;
    `picture` a PNG sent with a new message (the score sheet)."""

    content: str | None
    view: Buttons | None = None
    ping: str | None = None
    picture: bytes | None = None

    def send_kwargs(self) -> dict[str, Any]:
        kwargs: dict[str, Any] = {"content": self.content, "allowed_mentions": self.mentions()}
        if self.view is not None:
            kwargs["view"] = self.view
        if self.picture is not None:
            # A File is read once: a new one for every attempt.
            kwargs["file"] = discord.File(io.BytesIO(self.picture), filename=SHEET_FILE)
        return kwargs

    def edit_kwargs(self) -> dict[str, Any]:
        # An edit never notifies anyone, whatever it mentions.
        kwargs: dict[str, Any] = {"view": self.view, "allowed_mentions": _NOBODY}
        if self.content is not None:
            kwargs["content"] = self.content
        return kwargs

    def mentions(self) -> discord.AllowedMentions:
        if self.ping is None or not self.ping.isdigit():
            return _NOBODY
        return discord.AllowedMentions(
            everyone=False, roles=False, replied_user=False, users=[discord.Object(int(self.ping))]
        )


_NOBODY = discord.AllowedMentions.none()


def esc(text: str) -> str:
    """Plain text made safe for Discord: no markdown, no mass or user mentions."""
    return escape_markdown(escape_mentions(text))


def mention(player: Person) -> str:
    """`<@id>` for a Discord user (it notifies them in a new message); a name otherwise."""
    return f"<@{player.id}>" if player.id.isdigit() else f"**{esc(player.name)}**"


def clip(text: str, limit: int = MESSAGE_LIMIT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def pages(parts: Iterable[str], limit: int = MESSAGE_LIMIT) -> list[str]:
    """Parts joined by newlines into as few messages as fit `limit` each (a part is never cut
    across two messages; a part longer than a message is clipped)."""
    out: list[str] = []
    current = ""
    for part in (clip(p, limit) for p in parts if p):
        if current and len(current) + 1 + len(part) > limit:
            out.append(current)
            current = part
        else:
            current = f"{current}\n{part}" if current else part
    if current:
        out.append(current)
    return out


def _span(span: layout.Span) -> str:
    match span.mark:
        case Mark.BOLD:
            return f"**{esc(span.text)}**"
        case Mark.COMMAND:
            return f"`{span.text}`"
        case Mark.HIDDEN:
            return f"||{esc(span.text)}||"
    return esc(span.text)


def line(drawn: Line) -> str:
    text = "".join(_span(span) for span in drawn.spans)
    return text if drawn.emphasis is Emphasis.NONE else "# " + text


def text(lines: Iterable[Line]) -> str:
    return "\n".join(line(drawn) for drawn in lines)


def code(text: str) -> str:
    """A code block that a name cannot close: backticks become a look-alike."""
    return "```\n" + text.replace("`", "ˋ") + "\n```"


fence = code
cell = clip


def buttons(rows: Iterable[Row]) -> Buttons | None:
    """Rows of buttons as components, each button's style from its intent (None: no buttons)."""
    drawn = [[_button(each) for each in row] for row in rows]
    return Buttons(drawn) if drawn else None


def _button(drawn: layout.Button) -> Component:
    label = f"{HELD} {drawn.label}" if drawn.held else drawn.label
    if drawn.payload is None:
        return {
            "type": 2,
            "style": _Style.link.value,
            "label": clip(label, LABEL_LIMIT),
            "url": drawn.url,
        }
    return button(drawn.payload, label, STYLES[drawn.intent])


def message(drawn: Message) -> Rendered:
    """One message: its lead and lines (the person named where they stand, the seated names in
    the room left) and its buttons; `ping` the person a new message with it notifies."""
    content = text((*drawn.lead, *drawn.lines))
    named = drawn.person
    ping = None
    if named is not None and SLOT in content:
        content = content.replace(SLOT, mention(named))
        ping = named.id if named.notify else None
    elif named is not None and named.id.isdigit():  # a notice: where the name first stands
        content = content.replace(esc(named.name), mention(named), 1)
        ping = named.id if named.notify else None
    content = clip(content)
    if drawn.names:
        names = [esc(name) for name in drawn.names]
        content = content.replace(SLOT, listed(names, MESSAGE_LIMIT - len(content) + 1))
    return Rendered(content, buttons(drawn.rows), ping)
