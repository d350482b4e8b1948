"""The Discord API calls the chat layer makes: send, edit, and where a channel's settings live."""

from __future__ import annotations

import logging
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

import aiohttp
import discord

from adapters.chat.boards import BoardRef
from adapters.chat.cards import Card
from adapters.chat.pacing import Pace
from adapters.chat.surface import Place
from adapters.discord.draw import DISCORD, Discord, draw
from adapters.discord.render import Rendered
from adapters.i18n import Translator
from core.identity import ChannelKey, PlayerRef

if TYPE_CHECKING:  # only types; imported first, discord.types.threads meets a cycle of its own
    from discord.types.threads import ThreadArchiveDuration, ThreadType

log = logging.getLogger(__name__)
PLATFORM = "dc"
# What Discord (or the way to it) can fail with. The game is saved before anything is shown, so
# none of these loses anything: the log says so once, and play goes on.
ERRORS: tuple[type[Exception], ...] = (discord.HTTPException, aiohttp.ClientError, OSError)
THREAD_NAME = 100  # characters a thread's name may have
# Minutes without a message before Discord archives a thread: a day, so a slow table stays.
ARCHIVED_AFTER: ThreadArchiveDuration = 1440
NOT_THIS_CHANNEL_TYPE = 50024  # Discord's code for an action this kind of channel cannot take
# Channels whose server is remembered, the most recently used: one forgotten is asked again of
# the client's cache (or Discord) on its next board, and memory stays bounded.
PLACES_MEMORY = 4096


def channel_of(interaction: discord.Interaction[Any]) -> ChannelKey:
    """One table per channel; a thread has its own id, so it is a table of its own."""
    return ChannelKey(PLATFORM, str(interaction.channel_id), "")


def player_of(user: discord.abc.User) -> PlayerRef:
    return PlayerRef(str(user.id), user.display_name)


def cut(title: str, limit: int) -> str:
    """A thread's name within Discord's limit; ValueError for a blank one, which Discord does
    not take (a caller's mistake, not Discord's refusal)."""
    name = title.strip()[:limit].rstrip()
    if not name:
        raise ValueError("a thread needs a name")
    return name


class DiscordCalls:
    """The chat layer's `Platform` on Discord, once the client is logged in."""

    name = "discord"
    chat_word = "channel"
    key = PLATFORM
    errors = ERRORS
    forbidden: type[Exception] = discord.Forbidden

    def __init__(self, *, tables: bool = False) -> None:
        self.pace = Pace(None)  # discord.py keeps to Discord's buckets by their headers
        # `tables`: the boards offer the live table (its links are set up).
        self.serialiser = Discord(table=True) if tables else DISCORD
        self.client: discord.Client | None = None
        self._places: OrderedDict[int, Place] = OrderedDict()

    def _messageable(self, channel_id: int) -> discord.PartialMessageable:
        assert self.client is not None
        return self.client.get_partial_messageable(channel_id)

    async def send(self, channel: ChannelKey, card: Card, t: Translator) -> str:
        message = 0
        for rendered in self.draw(t, card):
            message = await self.send_rendered(int(channel.chat), rendered)
        return str(message)

    def draw(self, t: Translator, card: Card) -> list[Rendered]:
        """The messages that show `card` here (the boards with the live table's button or not)."""
        return draw(t, card, self.serialiser)

    async def send_rendered(self, channel_id: int, rendered: Rendered) -> int:
        return (await self._messageable(channel_id).send(**rendered.send_kwargs())).id

    async def edit(self, ref: BoardRef, card: Card, t: Translator) -> bool:
        rendered = self.draw(t, card)[0]
        message = self._messageable(int(ref.chat)).get_partial_message(int(ref.message))
        try:
            await message.edit(**rendered.edit_kwargs())
        except discord.NotFound:
            return False
        return True

    async def write_to(self, person_id: str, card: Card, t: Translator) -> bool:
        """In a direct message: False where the person takes none from the bot (Discord's
        50007: their privacy settings, or no server shared)."""
        assert self.client is not None
        try:
            channel = await self.client.create_dm(discord.Object(id=int(person_id)))
            for rendered in self.draw(t, card):
                await channel.send(**rendered.send_kwargs())
        except discord.Forbidden as error:
            log.info("cannot write to %s directly: %s", person_id, error)
            return False
        return True

    async def title(self, channel: ChannelKey) -> str | None:
        """#channel (server), from the client's cache or Discord."""
        assert self.client is not None
        found: Any = self.client.get_channel(int(channel.chat))
        if found is None:
            try:
                found = await self.client.fetch_channel(int(channel.chat))
            except ERRORS as error:
                log.info("no title for %s: %s", channel, error)
                return None
        name, guild = getattr(found, "name", None), getattr(found, "guild", None)
        if not name:
            return None
        return f"#{name} ({guild.name})" if guild is not None else f"#{name}"

    async def link(self, channel: ChannelKey, message: str) -> str | None:
        place = await self.place(channel)
        server = "@me" if place.chat == channel.chat else place.chat
        return f"https://discord.com/channels/{server}/{channel.chat}/{message}"

    def private_link(self) -> str | None:
        return None  # direct messages need no chat opened first, only the member's consent

    async def open_thread(self, channel: ChannelKey, title: str) -> ChannelKey | None:
        """A public thread under the channel named `title` (cut to Discord's 100 characters),
        with no starter message (nothing to say before its table does), archived after a day
        without a message; a thread is a channel of its own, so its key is its id alone.

        None where the channel has no threads of its own (a DM, a thread, a voice channel),
        known from the client's cache without a call, or from Discord's refusal where the
        cache does not know the channel; and where the bot may not (Forbidden: no Create
        Public Threads there). Every other failure is raised as Discord's (or the network's)
        error. An announcement channel's threads are of their own type."""
        assert self.client is not None
        name = cut(title, THREAD_NAME)
        known = self.client.get_channel(int(channel.chat))
        if known is not None and not isinstance(known, discord.TextChannel):
            return None
        news = known is not None and known.is_news()
        kind: ThreadType = 10 if news else 11  # an announcement thread, a public thread
        try:
            thread = await self.client.http.start_thread_without_message(
                int(channel.chat), name=name, auto_archive_duration=ARCHIVED_AFTER, type=kind
            )
        except discord.Forbidden as error:  # 50013 missing permissions; 50003 a DM
            log.info("no thread in %s: %s", channel.chat, error)
            return None
        except discord.HTTPException as error:
            if error.code != NOT_THIS_CHANNEL_TYPE:
                raise
            log.info("no thread in %s: %s", channel.chat, error)
            return None
        parent = self._places.get(int(channel.chat))
        if parent is not None:  # the thread's server is its channel's: no need to ask
            self._remember(int(thread["id"]), parent)
        return ChannelKey(PLATFORM, str(thread["id"]), "")

    def place_of(self, interaction: discord.Interaction[Any]) -> Place:
        """An interaction tells where it is: its server (a DM is its own) and its language."""
        channel_id = interaction.channel_id or 0
        locale = interaction.guild_locale
        place = Place(str(interaction.guild_id or channel_id), locale.value if locale else None)
        self._remember(channel_id, place)
        return place

    async def place(self, channel: ChannelKey) -> Place:
        """The server a channel belongs to: known from an interaction, else from the client's
        cache or Discord (a channel not found for now keeps its own settings)."""
        channel_id = int(channel.chat)
        known = self._places.get(channel_id)
        if known is not None:
            self._places.move_to_end(channel_id)
            return known
        assert self.client is not None
        found: Any = self.client.get_channel(channel_id)
        if found is None:
            try:
                found = await self.client.fetch_channel(channel_id)
            except ERRORS as error:
                log.info("channel %s unknown for now: %s", channel_id, error)
                return Place(str(channel_id))
        guild = getattr(found, "guild", None)
        place = (
            Place(str(channel_id))
            if guild is None
            else Place(str(guild.id), str(guild.preferred_locale.value))
        )
        self._remember(channel_id, place)
        return place

    def _remember(self, channel_id: int, place: Place) -> None:
        self._places[channel_id] = place
        self._places.move_to_end(channel_id)
        if len(self._places) > PLACES_MEMORY:
            self._places.popitem(last=False)
