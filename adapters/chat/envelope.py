"""What every command, press, first contact and move shown by the bot itself goes through,
written once: the chat's settings and the languages of the answer, the flood limit, the
platform failing (logged once, the game kept), anything else (logged, and said politely), and
then the table's computers woken."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from adapters.chat import metrics
from adapters.chat.surface import Exchange
from adapters.chat.voices import Voices
from core.chat_settings import ChatSettings
from core.identity import ChannelKey
from core.table import Game

if TYPE_CHECKING:
    from adapters.chat.tables import Tables

Work = Callable[[Voices, ChatSettings], Awaitable[None]]


async def envelope(
    tables: Tables,
    channel: ChannelKey,
    work: Work,
    *,
    doing: str | None,
    exchange: Exchange | None = None,
    game: Game | None = None,
    wake: bool = True,
) -> None:
    """Do `work` in the languages of this answer. A person's (`exchange`) is held to the flood
    limit; a move the bot shows by itself (no exchange) waits for the table's turn and posts a
    lost board first. `doing` names it in the log where it fails unexpectedly; None lets such a
    failure through to the caller (a computer's loop, which counts them). `game`: the one
    being shown, where the caller has it (see Languages.of)."""
    own = tables.languages.default
    try:
        settings, voices = await tables.languages.of(channel, exchange, game)
        own = voices.own
        if exchange is None:
            async with tables.order.turn(channel):
                await tables.repair.heal(channel, voices.table)
                await work(voices, settings)
        elif not await tables.guard.slowed(exchange, own):
            await work(voices, settings)
    except tables.platform.errors as error:
        # Whatever was done is saved; only showing it failed: the next action redraws.
        tables.troubles(channel, error)
        if exchange is not None:
            await exchange.troubled(error, own)
    except Exception:
        if doing is None:
            raise
        metrics.failed()
        tables.log.exception("%s in %s failed", doing, channel)
        if exchange is not None:
            await exchange.fail(own)
    if wake:
        await tables.clock.wake_computers(channel)
