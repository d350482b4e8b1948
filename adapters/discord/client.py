"""The discord.py client: the command tree, the buttons, and the fallback for presses."""

from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any, Protocol

import aiohttp
import discord
from discord import app_commands

from adapters.chat import metrics


@dataclass(frozen=True)
class Shards:
    """Gateway sharding: `count` shards in all (0: as many as Discord recommends), of which this
    process runs `ids` (None: all of them)."""

    count: int
    ids: tuple[int, ...] | None = None


class Front(Protocol):
    """What the client hands on to the front end."""

    async def setup(self, client: GeneralClient) -> None: ...

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None: ...

    async def on_button(self, interaction: discord.Interaction[Any], custom_id: str) -> None: ...

    async def on_tree_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None: ...

    def linked(self, shard: int | None, up: bool) -> None:
        """The gateway connected (ready, or resumed) or was lost: one shard's, or (None) all."""
        ...


class GeneralClient(discord.Client):
    """No privileged intent, no message cache: interactions carry all the bot needs."""

    def __init__(self, front: Front, guild_ready_timeout: float, **more: Any) -> None:
        super().__init__(
            intents=discord.Intents.default(),
            allowed_mentions=discord.AllowedMentions.none(),
            guild_ready_timeout=guild_ready_timeout,
            max_messages=None,
            **more,
        )
        self.front = front
        self.tree = app_commands.CommandTree(self)
        self.tree.error(front.on_tree_error)

    async def setup_hook(self) -> None:
        await self.front.setup(self)

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        await self.front.on_interaction(interaction)

    async def on_button(self, interaction: discord.Interaction[Any], custom_id: str) -> None:
        await self.front.on_button(interaction, custom_id)

    async def on_ready(self) -> None:  # every shard ready (again, after a new session)
        self.front.linked(None, True)

    async def on_resumed(self) -> None:
        self.front.linked(None, True)

    async def on_disconnect(self) -> None:
        self.front.linked(None, False)


class ShardedGeneralClient(GeneralClient, discord.AutoShardedClient):
    """The same client over several gateway shards (some or all of the bot's); each shard
    connects and is lost by itself."""

    async def on_resumed(self) -> None:
        pass  # on_shard_resumed says which

    async def on_disconnect(self) -> None:
        pass  # on_shard_disconnect says which

    async def on_shard_ready(self, shard_id: int) -> None:
        self.front.linked(shard_id, True)

    async def on_shard_resumed(self, shard_id: int) -> None:
        self.front.linked(shard_id, True)

    async def on_shard_disconnect(self, shard_id: int) -> None:
        self.front.linked(shard_id, False)


def traced() -> aiohttp.TraceConfig:
    """Every answer of Discord's REST API (the gateway's too) told to the metrics: the failing
    kinds are counted, including the 429s discord.py waits out and retries by itself."""
    trace = aiohttp.TraceConfig()

    async def ended(
        session: aiohttp.ClientSession, context: SimpleNamespace, end: aiohttp.TraceRequestEndParams
    ) -> None:
        metrics.answered("discord", end.response.status)

    async def failed(
        session: aiohttp.ClientSession,
        context: SimpleNamespace,
        failure: aiohttp.TraceRequestExceptionParams,
    ) -> None:
        if isinstance(failure.exception, Exception):  # not a cancellation
            metrics.answered("discord", None)

    trace.on_request_end.append(ended)
    trace.on_request_exception.append(failed)
    return trace


def make_client(front: Front, guild_ready_timeout: float, shards: Shards | None) -> GeneralClient:
    if shards is None:
        return GeneralClient(front, guild_ready_timeout, http_trace=traced())
    more: dict[str, Any] = {"http_trace": traced()}
    if shards.count:
        more["shard_count"] = shards.count
    if shards.ids is not None:
        more["shard_ids"] = list(shards.ids)
    return ShardedGeneralClient(front, guild_ready_timeout, **more)
