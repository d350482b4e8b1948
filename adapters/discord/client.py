"""The discord.py client: the command tree, the buttons, and the fallback for presses."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

import discord
from discord import app_commands


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


class ShardedGeneralClient(GeneralClient, discord.AutoShardedClient):
    """The same client over several gateway shards (some or all of the bot's)."""


def make_client(front: Front, guild_ready_timeout: float, shards: Shards | None) -> GeneralClient:
    if shards is None:
        return GeneralClient(front, guild_ready_timeout)
    more: dict[str, Any] = {}
    if shards.count:
        more["shard_count"] = shards.count
    if shards.ids is not None:
        more["shard_ids"] = list(shards.ids)
    return ShardedGeneralClient(front, guild_ready_timeout, **more)
