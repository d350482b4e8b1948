"""Messages as the fake stores them, with what users see of them: attachments and
components (buttons, select menus, text displays, rows...)."""

from __future__ import annotations

import copy
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeAlias

from tests.fakes.discord.model import FakeChannel, FakeDMChannel, FakeUser
from tests.fakes.discord.protocol import _SELECT_TYPES, FLAG_EPHEMERAL, FLAG_LOADING

if TYPE_CHECKING:
    from tests.fakes.discord.interaction import FakeInteraction

#: files uploaded with a request, by index: (filename, content, content type)
_Files: TypeAlias = dict[int, tuple[str, bytes, str | None]]


@dataclass(eq=False)
class FakeAttachment:
    """A file attached to a message, served by the fake at ``url``."""

    id: str
    filename: str
    data: bytes
    content_type: str | None
    url: str
    description: str | None = None
    ephemeral: bool = False

    @property
    def size(self) -> int:
        return len(self.data)

    def payload(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id,
            "filename": self.filename,
            "size": self.size,
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type,
        }
        if self.description is not None:
            out["description"] = self.description
        if self.ephemeral:
            out["ephemeral"] = True
        return out


class FakeComponent:
    """A message component as the user sees it: button, select menu, text display, row..."""

    def __init__(self, raw: dict[str, Any]) -> None:
        self.raw = raw

    type = property(lambda self: self.raw.get("type"))
    id = property(lambda self: self.raw.get("id"))
    custom_id = property(lambda self: self.raw.get("custom_id"))
    label = property(lambda self: self.raw.get("label"))
    style = property(lambda self: self.raw.get("style"))
    url = property(lambda self: self.raw.get("url"))
    emoji = property(lambda self: self.raw.get("emoji"))
    placeholder = property(lambda self: self.raw.get("placeholder"))
    options = property(lambda self: self.raw.get("options") or [])
    content = property(lambda self: self.raw.get("content"))

    @property
    def disabled(self) -> bool:
        return bool(self.raw.get("disabled", False))

    @property
    def is_button(self) -> bool:
        return self.type == 2

    @property
    def is_select(self) -> bool:
        return self.type in _SELECT_TYPES

    @property
    def children(self) -> list[FakeComponent]:
        kids = [FakeComponent(c) for c in self.raw.get("components") or []]
        if isinstance(self.raw.get("accessory"), dict):
            kids.append(FakeComponent(self.raw["accessory"]))
        if isinstance(self.raw.get("component"), dict):
            kids.append(FakeComponent(self.raw["component"]))
        return kids

    def walk(self) -> Iterable[FakeComponent]:
        yield self
        for child in self.children:
            yield from child.walk()

    def __repr__(self) -> str:
        if self.type == 2:
            off = " disabled" if self.disabled else ""
            return f"<Button {self.label!r} custom_id={self.custom_id!r} style={self.style}{off}>"
        if self.type == 10:
            return f"<TextDisplay {self.content!r}>"
        return f"<Component type={self.type} custom_id={self.custom_id!r}>"


class FakeMessage:
    """A message as stored by the fake; ``payload`` is its current state as Discord sends it."""

    def __init__(
        self,
        channel: FakeChannel | FakeDMChannel,
        author: FakeUser,
        payload: dict[str, Any],
        *,
        ephemeral_user: FakeUser | None = None,
        interaction: FakeInteraction | None = None,
    ) -> None:
        self.channel = channel
        self.author = author
        self.payload = payload
        self.ephemeral_user = ephemeral_user
        self.interaction = interaction
        self.edits: list[FakeMessage] = []  # the earlier versions, oldest first
        self.deleted = False
        self.attachments: list[FakeAttachment] = []
        self.reactions: dict[str, list[str]] = {}

    id = property(lambda self: self.payload["id"])
    type = property(lambda self: self.payload["type"])
    content = property(lambda self: self.payload.get("content") or "")
    embeds = property(lambda self: self.payload.get("embeds") or [])
    flags = property(lambda self: int(self.payload.get("flags") or 0))
    raw_components = property(lambda self: self.payload.get("components") or [])

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & FLAG_EPHEMERAL)

    @property
    def loading(self) -> bool:
        """True while this is the "Bot is thinking..." placeholder of a deferred interaction."""
        return bool(self.flags & FLAG_LOADING)

    def _tree(self) -> Iterable[FakeComponent]:
        for raw in self.raw_components:
            yield from FakeComponent(raw).walk()

    @property
    def components(self) -> list[list[FakeComponent]]:
        """Action rows (wherever they are), each a list of buttons / select menus."""
        return [c.children for c in self._tree() if c.type == 1]

    @property
    def buttons(self) -> list[FakeComponent]:
        return [c for c in self._tree() if c.type == 2]

    @property
    def selects(self) -> list[FakeComponent]:
        return [c for c in self._tree() if c.type in _SELECT_TYPES]

    @property
    def text(self) -> str:
        """The content plus any components-v2 text displays, as a user would read them."""
        parts = [self.content] if self.content else []
        parts += [c.content for c in self._tree() if c.type == 10 and c.content]
        return "\n".join(parts)

    def button(self, label: str | None = None, *, custom_id: str | None = None) -> FakeComponent:
        found = [
            b
            for b in self.buttons
            if (custom_id is not None and b.custom_id == custom_id)
            or (custom_id is None and (b.label == label or (b.emoji or {}).get("name") == label))
        ]
        if not found:
            shown = [b.label or (b.emoji or {}).get("name") for b in self.buttons]
            raise LookupError(f"no button {label or custom_id!r} on message {self.id}: {shown}")
        if len(found) > 1:
            raise LookupError(f"several buttons {label!r} on message {self.id}")
        return found[0]

    def _snapshot(self) -> FakeMessage:
        snap = FakeMessage(
            self.channel,
            self.author,
            copy.deepcopy(self.payload),
            ephemeral_user=self.ephemeral_user,
            interaction=self.interaction,
        )
        snap.attachments = list(self.attachments)
        return snap

    def __repr__(self) -> str:
        extra = " deleted" if self.deleted else ""
        extra += " ephemeral" if self.ephemeral else ""
        extra += " loading" if self.loading else ""
        labels = [b.label for b in self.buttons]
        return f"<FakeMessage id={self.id} text={self.text[:60]!r} buttons={labels}{extra}>"
