"""A press from the live table's page, as the chat layer answers it (adapters/chat/surface.py):
what is said to the person goes to their page alone; what is said to everyone goes to the chat."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from adapters.chat import cards
from adapters.chat.boards import BoardRef
from adapters.chat.payload import Press
from adapters.chat.surface import Place, Platform
from adapters.i18n import Translator
from core.identity import ChannelKey, PlayerRef

log = logging.getLogger(__name__)
Send = Callable[[dict[str, Any]], Awaitable[None]]


def said(card: cards.Card, t: Translator) -> str:
    """A card the chat layer answers a press with, as the page's words: refusals and notes are
    plain lines; anything else is named by what it is, never shown as data."""
    if isinstance(card, cards.Lines):
        return "\n".join(card.lines)
    return t("web-failed")


class PageExchange:
    """One page's press being answered. `send` writes to that page's socket."""

    pressed: BoardRef | None = None  # no chat message was pressed
    shown: Press | None = None
    whispers = True  # the page is the person's own
    quiet = True  # answering costs the chat nothing

    def __init__(
        self,
        channel: ChannelKey,
        person: PlayerRef,
        locale: str | None,
        platform: Platform,
        send: Send,
    ) -> None:
        self.channel = channel
        self.person = person
        self.locale = locale
        self._platform = platform
        self._send = send

    def carries(self, data: str) -> bool:
        return False  # the page shows no chat message's buttons

    async def note(self, text: str | None) -> None:
        if text:
            await self._send({"type": "note", "text": text})

    async def private(self, card: cards.Card, t: Translator) -> None:
        await self._send({"type": "refused", "text": said(card, t)})

    async def direct(self, card: cards.Card, t: Translator) -> bool:
        return False

    async def public(self, card: cards.Card, t: Translator) -> str:
        return await self._platform.send(self.channel, card, t)

    async def update(self, card: cards.Card, t: Translator) -> bool:
        return False  # no pressed message: the board is edited as any move's

    async def redraw(self, card: cards.Card, t: Translator) -> None:
        return None

    async def ack(self) -> None:
        return None  # the page waits on its socket; nothing times out

    async def launch(self) -> bool:
        return False

    async def may_configure(self) -> bool:
        return False

    async def place(self) -> Place:
        return await self._platform.place(self.channel)

    async def troubled(self, error: Exception, t: Translator) -> None:
        """The chat refused to show it: the game is saved, and the page shows it anyway."""
        log.info("the chat could not show a page's press in %s: %s", self.channel, error)

    async def fail(self, t: Translator) -> None:
        await self._send({"type": "refused", "text": t("web-failed")})
