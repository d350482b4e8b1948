"""`/general notify`: a person asks to hear privately when a table opens in the chat (or no
longer), and the word each of them gets when one does, in the language they asked in."""

from __future__ import annotations

import asyncio
import logging

from adapters.chat import cards
from adapters.chat.surface import Exchange, Platform
from adapters.chat.voices import Voices
from adapters.i18n import Translator, translator
from core.identity import ChannelKey
from core.ports import Subscriptions
from core.view import GameView


class Notifier:
    """Keeps the chat's subscribers and tells them of its new tables, away from the table's
    own work: a lobby waits for nobody's private chat."""

    def __init__(self, subscriptions: Subscriptions, platform: Platform, log: logging.Logger):
        self._subscriptions = subscriptions
        self._platform = platform
        self._log = log
        self._telling: set[asyncio.Task[None]] = set()

    async def ask(self, exchange: Exchange, voices: Voices, *, off: bool) -> None:
        """Subscribe the person (they are written to at once, which shows whether the bot may),
        or, `off`, no longer."""
        platform, person, own = self._platform, exchange.person, voices.own
        chat = exchange.channel.chat
        if off:
            was = await self._subscriptions.unsubscribe(platform.key, chat, person.id)
            said = own("notify-off" if was else "notify-off-already")
            await exchange.private(cards.Lines((said,)), own)
            return
        fresh = await self._subscriptions.subscribe(platform.key, chat, person.id, own.locale)
        confirmation = cards.Lines((await self._said(own, "notify-confirmed", exchange.channel),))
        said = own("notify-on" if fresh else "notify-on-already")
        if await platform.write_to(person.id, confirmation, own):
            await exchange.private(cards.Lines((said,)), own)
            return
        lines = (said, own("notify-blocked", platform=platform.name))
        invite = platform.private_link()
        answer = cards.Linked(lines, own("btn-open-private"), invite) if invite else None
        await exchange.private(answer or cards.Lines(lines), own)

    def opened(self, channel: ChannelKey, view: GameView, message: str) -> None:
        """A table opened (its lobby is `message`): its chat's subscribers are told."""
        task = asyncio.create_task(self._tell(channel, view, message))
        self._telling.add(task)
        task.add_done_callback(self._telling.discard)

    async def idle(self) -> None:
        """Wait until every subscriber of the tables opened so far was told (a stop, a test)."""
        while self._telling:
            await asyncio.gather(*self._telling, return_exceptions=True)

    async def _tell(self, channel: ChannelKey, view: GameView, message: str) -> None:
        platform = self._platform
        try:
            subscribers = await self._subscriptions.subscribers(platform.key, channel.chat)
            seated = {player.id for player in view.players}
            wanted = [s for s in subscribers if s.player_id not in seated]
            if not wanted or view.host is None:
                return
            title = await platform.title(channel)
            link = await platform.link(channel, message)
            host = view.host.name
            for subscriber in wanted:
                t = translator(subscriber.locale)
                lines = (
                    t("notify-opened", host=host, where=title)
                    if title
                    else t("notify-opened-there", host=host),
                )
                card = cards.Linked(lines, t("btn-join-table"), link) if link else None
                if not await platform.write_to(subscriber.player_id, card or cards.Lines(lines), t):
                    self._log.info("cannot tell %s of a new table", subscriber.player_id)
        except platform.errors as error:
            self._log.warning("could not tell of the new table in %s: %s", channel, error)

    async def _said(self, t: Translator, message: str, channel: ChannelKey) -> str:
        """`message` naming the chat, or its `-there` form where its name cannot be had."""
        title = await self._platform.title(channel)  # None where the platform failed
        return t(message, where=title) if title else t(f"{message}-there")
