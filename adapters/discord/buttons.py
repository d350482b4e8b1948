"""The bot's buttons: dynamic items whose custom_id says what they do, parsed again on every press.

`GameButton`: the shared payload `g1|game|version|code` of lobbies and turn boards.
`SettingButton`: `cfg|<setting>` (or `cfg|done`) of the private settings screen.
`ForgetButton`: `fgt|<user id>|y` or `|n` of /general forget's private confirmation.
`EventButton`: `ev1|<event id>|<code>` of a tournament's message.
All are handed, as they are, to the chat layer (adapters.chat.presses).

All are registered with `Client.add_dynamic_items` at start-up, so a press on a message sent by an
earlier process (before a restart) still reaches the bot. The custom_id comes back from Discord as
the user's client sent it: it is parsed again, as untrusted input, by the handler.
"""

from __future__ import annotations

import re
from typing import Any, Protocol, Self, runtime_checkable

import discord

from adapters.chat import payload


@runtime_checkable
class PressHandler(Protocol):
    """What the client of the front end offers the buttons (see frontend.GeneralClient)."""

    async def on_button(self, interaction: discord.Interaction[Any], custom_id: str) -> None: ...


def _label_and_style(item: discord.ui.Item[Any]) -> tuple[str | None, discord.ButtonStyle]:
    button = item if isinstance(item, discord.ui.Button) else None
    return (
        button.label if button else None,
        button.style if button else discord.ButtonStyle.secondary,
    )


class PayloadButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"(?!)"):
    """What every button of ours is: built again from its custom_id at each press, and handed,
    as it is, to the chat layer. Each kind below names its own template (this one matches
    nothing, and is never registered)."""

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
    ) -> Self:
        label, style = _label_and_style(item)
        return cls(match.group(0), label=label, style=style)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        client = interaction.client
        if isinstance(client, PressHandler):
            # discord.py found this very button on the pressed message: the message shows it.
            await client.on_button(interaction, self.custom_id)


class GameButton(PayloadButton, template=payload.PATTERN):
    """One button of a lobby or a turn board."""


class SettingButton(PayloadButton, template=payload.SETTINGS_PATTERN):
    """One button of the settings screen: each press moves its setting to the next choice."""


class ForgetButton(PayloadButton, template=payload.FORGET_PATTERN):
    """One button of /general forget's confirmation: forget me, or keep me."""


class EventButton(PayloadButton, template=payload.EVENT_PATTERN):
    """One button of a tournament's message: enter, leave, or its host's rules and start."""
