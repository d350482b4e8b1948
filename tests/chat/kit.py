"""A recording chat platform and exchange: the chat layer's own protocols (adapters/chat/surface.py)
implemented honestly in memory, so that the chat layer is tested once, without Telegram or Discord.

The game underneath is real: `GameService` on a SQLite file, dice from `ScriptedRoller`.
"""

from __future__ import annotations

import contextlib
import itertools
import logging
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from adapters.chat import cards, payload, presses
from adapters.chat.boards import BoardRef
from adapters.chat.cards import Card
from adapters.chat.commands import command
from adapters.chat.layout import Shape
from adapters.chat.layout_events import event_screen
from adapters.chat.pacing import Pace
from adapters.chat.plan import Redraw
from adapters.chat.surface import Place
from adapters.chat.tables import Tables
from adapters.chat.voices import Voices
from adapters.i18n import Translator, translator
from adapters.ratelimit import RateLimiter
from adapters.sqlite import SqliteRepository
from adapters.telegram.words import asked as typed  # the words a person types, as on Telegram
from core.chat_settings import CHOICES, ChatSettings
from core.dice import ScriptedRoller, SecureRoller
from core.identity import ChannelKey, PlayerRef
from core.service import GameService
from core.table import Game, Phase
from core.view import GameView

KEY = "tc"
CHANNEL = ChannelKey(KEY, "-100")
OTHER = ChannelKey(KEY, "-200")
ALICE = PlayerRef("11", "Alice")
BOB = PlayerRef("22", "Bob")
T = translator("en")
VOICES = Voices(T, T)  # the bot's language, for the table and the person alike
LOBBY_CODES = ("j", "l", "ag", "am", "ac", "an", "b", "x")  # as both front ends draw it
SHAPE = Shape("testchat", typed=True, boxes=4, computers=4, settings=2, start_by_join=False,
              welcome_menu=False)  # fmt: skip


class PlatformDown(Exception):
    """The recording platform failing, as a network or an API would."""


class NoRight(PlatformDown):
    """The bot may not write in that chat."""


def board_buttons(view: GameView) -> tuple[str, ...]:
    """The payloads a front end draws on a board (as Telegram's and Discord's drawings do)."""
    if view.phase is Phase.LOBBY:
        codes: tuple[str, ...] = LOBBY_CODES
    elif view.phase is Phase.PLAYING:
        scores = tuple(f"s{option.box.index}" for option in view.options)
        holds = tuple(f"h{index}" for index in range(len(view.dice)))
        codes = ("r", *holds, *scores, "v", "t")
    else:
        return ()
    return tuple(payload.encode(view.game_id, view.version, code) for code in codes)


def buttons(card: Card) -> tuple[str, ...]:
    """The buttons a card is drawn with: live boards and the settings screen have some."""
    match card:
        case cards.Board(view=view):
            return board_buttons(view)
        case cards.Redrawn(view=view) if card.live:
            return board_buttons(view)
        case cards.Settings():
            return tuple(payload.setting_code(n) for n in (*CHOICES, payload.SETTINGS_DONE))
        case cards.Final(view=view):  # as both front ends draw it: Rematch, where it counts
            rematch = payload.rematch(view)
            return () if rematch is None else (rematch,)
        case cards.Forget(player_id=player_id):  # Forget me, Keep me
            return tuple(payload.forget_code(player_id, yes) for yes in (True, False))
        case cards.EventCard(event=event):  # as both front ends draw it (layout_events)
            drawn = event_screen(T, event, SHAPE)
            return tuple(b.payload for row in drawn.rows for b in row if b.payload)
        case cards.Hint(game_id=game_id, version=version) if game_id:
            # As Telegram's offer of a hint where it may not write privately: one 💡 button.
            return (payload.encode(game_id, version, payload.HINT),)
    return ()


@dataclass
class Message:
    """A message the platform "sent": where, its id, the card it shows now, what befell it."""

    id: int
    channel: ChannelKey
    card: Card
    stripped: bool = False  # its buttons taken away (its text stays)
    deleted: bool = False
    edits: int = 0
    # The table's language each time it was drawn (sent, then every edit): a real front end
    # draws the card in the language in force then.
    languages: list[str] = field(default_factory=list)

    @property
    def ref(self) -> BoardRef:
        return BoardRef(self.channel.chat, str(self.id))

    @property
    def buttons(self) -> tuple[str, ...]:
        return () if self.stripped or self.deleted else buttons(self.card)

    def show(self, card: Card, t: Translator) -> None:
        self.edits += 1
        self.languages.append(t.locale)
        if isinstance(card, cards.Stripped):
            self.stripped = True
        else:
            self.card, self.stripped = card, False


class RecordingPlatform:
    """The chat layer's `Platform`, keeping what it sent; the next sends or edits can fail."""

    name = "testchat"
    chat_word = "channel"
    key = KEY
    errors: tuple[type[Exception], ...] = (PlatformDown,)
    forbidden: type[Exception] = NoRight

    def __init__(self) -> None:
        self.pace = Pace(None)
        self.messages: list[Message] = []
        self.failing_sends: list[Exception] = []  # raised by the next sends, in order
        self.failing_edits: list[Exception] = []
        self.places: dict[str, Place] = {}
        self._ids = itertools.count(1)
        # Written to people privately, outside any exchange: (person, card, language).
        self.written: list[tuple[str, Card, str]] = []
        self.closed: set[str] = set()  # people the bot may not write to privately
        self.titles: dict[str, str] = {}  # the chats' names, where known
        self.threads = True  # the chats have threads (topics) a table can be played in
        self.opened: list[tuple[ChannelKey, str]] = []  # the threads made, with their titles

    async def send(self, channel: ChannelKey, card: Card, t: Translator) -> str:
        if self.failing_sends:
            raise self.failing_sends.pop(0)
        message = Message(next(self._ids), channel, card, languages=[t.locale])
        self.messages.append(message)
        return str(message.id)

    async def edit(self, ref: BoardRef, card: Card, t: Translator) -> bool:
        if self.failing_edits:
            raise self.failing_edits.pop(0)
        message = self.find(ref)
        if message is None or message.deleted:
            return False
        message.show(card, t)
        return True

    async def place(self, channel: ChannelKey) -> Place:
        return self.places.get(channel.chat, Place(channel.chat))

    async def write_to(self, person_id: str, card: Card, t: Translator) -> bool:
        if person_id in self.closed:
            return False
        self.written.append((person_id, card, t.locale))
        return True

    async def title(self, channel: ChannelKey) -> str | None:
        return self.titles.get(channel.chat)

    async def link(self, channel: ChannelKey, message: str) -> str | None:
        return f"https://testchat.invalid/{channel.chat}/{message}"

    def private_link(self) -> str | None:
        return "https://testchat.invalid/bot?start=notify"

    async def open_thread(self, channel: ChannelKey, title: str) -> ChannelKey | None:
        if not self.threads:
            return None
        thread = ChannelKey(KEY, channel.chat, str(len(self.opened) + 1))
        self.opened.append((thread, title))
        return thread

    def find(self, ref: BoardRef) -> Message | None:
        return next((m for m in self.messages if m.ref == ref), None)

    def of(self, kind: type[object]) -> list[Message]:
        """The messages sent showing a card of `kind` (as first sent or edited since)."""
        return [m for m in self.messages if isinstance(m.card, kind)]

    @property
    def edits(self) -> int:
        return sum(m.edits for m in self.messages)


@dataclass
class RecordingExchange:
    """One person's command (`on` None) or press on a message, answers recorded. `updates`: the
    pressed message can be redrawn as the answer, once and first (Discord's type 7);
    Telegram has no such answer."""

    platform: RecordingPlatform
    channel: ChannelKey
    person: PlayerRef
    on: Message | None = None
    updates: bool = False
    whispers: bool = False
    quiet: bool = False
    admin: bool = False
    dm: bool = False  # the person's private chat with the bot is open to it (Telegram)
    locale: str | None = None
    privately: list[Card] = field(default_factory=list)
    private_languages: list[str] = field(default_factory=list)  # the language of each
    notes: list[str | None] = field(default_factory=list)
    publicly: list[Card] = field(default_factory=list)
    directly: list[Card] = field(default_factory=list)
    updated: list[Card] = field(default_factory=list)
    redrawn: list[Card] = field(default_factory=list)
    redrawn_languages: list[str] = field(default_factory=list)  # the language of each
    troubles: list[Exception] = field(default_factory=list)
    acks: int = 0
    activity: bool = False  # the platform launches an Activity as the answer (Discord's)
    launched: int = 0
    failed: bool = False
    _answered: bool = False

    def __post_init__(self) -> None:
        # What the pressed message showed when it was pressed (a client's view of it).
        self._buttons = self.on.buttons if self.on else ()
        self.card_then = self.on.card if self.on else None
        self.pressed = self.on.ref if self.on else None
        decoded = (payload.decode(data) for data in self._buttons)
        self.shown = next((press for press in decoded if press is not None), None)

    def carries(self, data: str) -> bool:
        return data in self._buttons

    async def note(self, text: str | None) -> None:
        self.notes.append(text)

    async def private(self, card: Card, t: Translator) -> None:
        self._answered = True
        self.privately.append(card)
        self.private_languages.append(t.locale)

    async def direct(self, card: Card, t: Translator) -> bool:
        if self.whispers:
            await self.private(card, t)
            return True
        if self.dm:
            self.directly.append(card)
        return self.dm

    async def public(self, card: Card, t: Translator) -> str:
        message_id = await self.platform.send(self.channel, card, t)
        self.publicly.append(card)
        return message_id

    async def update(self, card: Card, t: Translator) -> bool:
        if not self.updates or self.on is None or self._answered:
            return False
        self._answered = True
        self.on.show(card, t)
        self.updated.append(card)
        return True

    async def redraw(self, card: Card, t: Translator) -> None:
        self.redrawn.append(card)
        self.redrawn_languages.append(t.locale)
        if self.pressed is not None and not await self.update(card, t):
            await self.platform.edit(self.pressed, card, t)

    async def ack(self) -> None:
        self._answered = True
        self.acks += 1

    async def launch(self) -> bool:
        if not self.activity or self._answered:
            return False
        self._answered = True
        self.launched += 1
        return True

    async def may_configure(self) -> bool:
        return self.admin

    async def place(self) -> Place:
        return await self.platform.place(self.channel)

    async def troubled(self, error: Exception, t: Translator) -> None:
        self.troubles.append(error)

    async def fail(self, t: Translator) -> None:
        self.failed = True

    def said(self) -> list[str]:
        """Every line said privately (refusals and the like)."""
        return [
            line for card in self.privately if isinstance(card, cards.Lines) for line in card.lines
        ]


def how(message: Message) -> Redraw | None:
    """How a message was last redrawn (None: it shows what was sent, or it is no board)."""
    return message.card.how if isinstance(message.card, cards.Redrawn) else None


def view_of(card: Card) -> GameView:
    assert isinstance(card, cards.Board | cards.Redrawn), card
    return card.view


@dataclass
class World:
    """One table of the recording platform over a real service and store."""

    service: GameService
    repository: SqliteRepository
    platform: RecordingPlatform
    tables: Tables
    roller: ScriptedRoller
    channel: ChannelKey = CHANNEL

    def asking(
        self, person: PlayerRef, channel: ChannelKey | None = None, **switches: Any
    ) -> RecordingExchange:
        """A command's exchange (at the world's table unless `channel` says another)."""
        return RecordingExchange(self.platform, channel or self.channel, person, **switches)

    def pressing(self, message: Message, person: PlayerRef, **switches: Any) -> RecordingExchange:
        return RecordingExchange(self.platform, message.channel, person, on=message, **switches)

    async def command(self, person: PlayerRef, *words: str, **switches: Any) -> RecordingExchange:
        exchange = self.asking(person, **switches)
        await command(self.tables, exchange, typed(list(words)))
        await self.tables.redraws.idle()  # the boards drawn, as a person would next see them
        await self.tables.notifier.idle()  # and those who asked to hear of a new table told
        return exchange

    async def press(
        self, message: Message, person: PlayerRef, code: str, **switches: Any
    ) -> RecordingExchange:
        """Press button `code` of a board message, for the game and version its card shows."""
        exchange = self.pressing(message, person, **switches)
        await self.send(exchange, code)
        return exchange

    async def send(self, exchange: RecordingExchange, code: str) -> None:
        """Press `code` for the game and version the message showed when `exchange` was made."""
        assert exchange.card_then is not None, "a command presses nothing"
        view = view_of(exchange.card_then)
        await presses.press(self.tables, exchange, payload.encode(view.game_id, view.version, code))
        await self.tables.redraws.idle()
        await self.tables.notifier.idle()

    async def game(self) -> Game:
        game = await self.service.game(self.channel)
        assert game is not None, "no game at the table"
        return game

    async def board(self) -> Message:
        """The message the stored board reference names."""
        game = await self.game()
        ref = BoardRef.loads(await self.repository.board(game.id))
        assert ref is not None, "no live board stored"
        message = self.platform.find(ref)
        assert message is not None, f"the stored board {ref} was never sent"
        return message

    async def settings(self) -> ChatSettings:
        return await self.repository.chat_settings(KEY, self.channel.chat)


@contextlib.asynccontextmanager
async def opened(
    tmp_path: Path, limiter: RateLimiter | None = None, seeds: Callable[[], str] | None = None
) -> AsyncIterator[World]:
    """A fresh world on `tmp_path`/g.db, closed afterwards. `seeds`: its games' dice are the
    production roller's, committed to these seeds, not the scripted ones."""
    repository = await SqliteRepository.open(tmp_path / "g.db")
    roller = ScriptedRoller()
    if seeds is None:
        service = GameService(repository, roller)
    else:
        service = GameService(repository, SecureRoller(), seeds=seeds)
    platform = RecordingPlatform()
    log = logging.getLogger("tests.chat")
    limiter = limiter or RateLimiter(10_000, 10_000)
    tables = Tables(service, platform, log, pause=0, limiter=limiter)
    try:
        yield World(service, repository, platform, tables, roller)
    finally:
        await service.close()
        await repository.close()
