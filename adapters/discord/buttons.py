"""The game's buttons: dynamic items whose custom_id is the shared payload `g1|game|version|code`.

Registered with `Client.add_dynamic_items` at start-up, so a press on a message sent by an earlier
process (before a restart) still reaches the bot. The custom_id comes back from Discord as the
user's client sent it: it is parsed again, as untrusted input, by the handler.
"""

from __future__ import annotations

import re
from typing import Any, Protocol, runtime_checkable

import discord

from adapters import payload


@runtime_checkable
class PressHandler(Protocol):
    """What the client of the front end offers the buttons (see frontend.GeneralClient)."""

    async def on_game_press(
        self, interaction: discord.Interaction[Any], custom_id: str, *, shown: bool
    ) -> None: ...


class GameButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=payload.PATTERN):
    """One button of a lobby or a turn board."""

    def __init__(
        self,
        custom_id: str,
        *,
        label: str | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        row: int | None = None,
    ) -> None:
        super().__init__(discord.ui.Button(custom_id=custom_id, label=label, style=style), row=row)

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> GameButton:
        button = item if isinstance(item, discord.ui.Button) else None
        return cls(
            match.group(0),
            label=button.label if button else None,
            style=button.style if button else discord.ButtonStyle.secondary,
        )

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        client = interaction.client
        if isinstance(client, PressHandler):
            # discord.py found this very button on the pressed message: the message shows it.
            await client.on_game_press(interaction, self.custom_id, shown=True)
