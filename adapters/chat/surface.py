"""What a front end provides the chat layer: its platform's calls, and one person's exchange.

`Platform` sends and edits messages (drawing each card with its own widgets, in the language
it is given) and knows where a channel's settings are kept. An `Exchange` is one command or
press being answered: privately to the person where the platform can, publicly to the chat, or
by redrawing the pressed message. Both are given the language of each card (see voices.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from adapters.chat.boards import BoardRef
from adapters.chat.cards import Card
from adapters.chat.pacing import Pace
from adapters.chat.payload import Press
from adapters.i18n import Translator
from core.identity import ChannelKey, PlayerRef


@dataclass(frozen=True)
class Place:
    """Where a channel's settings are kept (a Discord server's channels share them) and the
    place's language where it has one."""

    chat: str
    locale: str | None = None


class Platform(Protocol):
    name: str  # for the log and the catalogues' wording (telegram, discord)
    chat_word: str  # what the platform calls a chat, in the log: "chat", "channel"
    key: str  # ChannelKey.platform: "tg", "dc"
    errors: tuple[type[Exception], ...]  # what the platform (or the way to it) fails with
    forbidden: type[Exception]  # the bot may not write there
    pace: Pace  # how fast the bot may write in a chat (no limits where the library keeps them)

    async def send(self, channel: ChannelKey, card: Card, t: Translator) -> str:
        """Post the card (in as many messages as it takes); the id of the last one."""
        ...

    async def edit(self, ref: BoardRef, card: Card, t: Translator) -> bool:
        """Draw the card over a message; False when the message is gone."""
        ...

    async def place(self, channel: ChannelKey) -> Place: ...

    async def write_to(self, person_id: str, card: Card, t: Translator) -> bool:
        """Show a person alone a card no exchange of theirs asked for (a table opened where
        they asked to hear of it): in their private chat with the bot. False where the bot may
        not write there (they never opened it, or closed it to the bot)."""
        ...

    async def title(self, channel: ChannelKey) -> str | None:
        """The chat's name as its members see it, where the platform tells it (None where it
        does not, or failed to)."""
        ...

    async def link(self, channel: ChannelKey, message: str) -> str | None:
        """A link that opens a message of the chat, where the platform has one."""
        ...

    def private_link(self) -> str | None:
        """A link that opens the bot's private chat, where a person must open it before the
        bot may write there (Telegram); None where no such step is needed."""
        ...

    async def open_thread(self, channel: ChannelKey, title: str) -> ChannelKey | None:
        """A new thread of the channel's chat named `title` (a Telegram forum topic, a Discord
        thread under the channel), where a table can be played apart; None where the chat has
        none (a Telegram group without topics, a DM) or the bot may not make one."""
        ...


class Exchange(Protocol):
    """One person's command or press, being answered."""

    channel: ChannelKey
    person: PlayerRef
    locale: str | None  # the person's language, where the platform tells it
    pressed: BoardRef | None  # the message pressed (None: a command)
    shown: Press | None  # the game button that message carries, if any
    whispers: bool  # private answers can be whole messages (a score sheet)
    # Private answers cost nothing (no message in the chat): every flood answer may say so.
    quiet: bool

    def carries(self, data: str) -> bool:
        """Whether the pressed message shows a button with exactly this payload."""
        ...

    async def note(self, text: str | None) -> None:
        """The press was carried out: answer it now where its answer can wait for nothing,
        with a short word on what it did where it carries one without a message (Telegram's
        toast, shown while the board's edit may wait for the chat's pace); elsewhere nothing."""
        ...

    async def private(self, card: Card, t: Translator) -> None:
        """Tell the person, and (where the platform can) no one else."""
        ...

    async def direct(self, card: Card, t: Translator) -> bool:
        """Show the person alone a card that may be whole messages (a score sheet): where the
        platform whispers, privately; on Telegram, in their private chat with the bot, which
        costs the group nothing. False where that cannot be done (they never opened it)."""
        ...

    async def public(self, card: Card, t: Translator) -> str:
        """Say it to the chat; the id of the (last) message."""
        ...

    async def update(self, card: Card, t: Translator) -> bool:
        """Redraw the pressed message as the answer itself, where that is still possible."""
        ...

    async def redraw(self, card: Card, t: Translator) -> None:
        """Redraw the pressed message (a settings screen), one way or another."""
        ...

    async def ack(self) -> None:
        """Acknowledge now, saying nothing yet."""
        ...

    async def launch(self) -> bool:
        """Open the live table in the platform itself as the answer (Discord's Activity);
        False where the platform cannot."""
        ...

    async def may_configure(self) -> bool:
        """Whether the person may change the chat's settings (administrators)."""
        ...

    async def place(self) -> Place: ...

    async def troubled(self, error: Exception, t: Translator) -> None:
        """The platform refused part of the answer (the game is saved)."""
        ...

    async def fail(self, t: Translator) -> None:
        """Something unexpected broke: say so politely."""
        ...
