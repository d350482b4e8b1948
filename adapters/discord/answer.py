"""Answers to one Discord interaction, and the chat layer's exchange over them.

Every interaction is acknowledged within Discord's 3 seconds: a press on the board being redrawn
is answered with that redraw (type 7), other work is deferred when it has to wait (a busy table,
a slow step) and followed up. Private answers are ephemeral.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord

from adapters.chat import cards, payload
from adapters.chat.boards import BoardRef
from adapters.chat.surface import Place
from adapters.discord import render
from adapters.discord.calls import ERRORS, DiscordCalls, channel_of, player_of
from adapters.discord.render import Rendered
from adapters.i18n import Translator, normalize_locale, translator

log = logging.getLogger(__name__)
# An interaction not answered after this many seconds is deferred (Discord allows 3).
ACK_AFTER = 1.5


def _custom_ids(message: discord.Message | None) -> list[str]:
    """The custom_ids of the message's components."""
    rows = message.components if message else ()
    found = (getattr(child, "custom_id", None) for row in rows for child in _children(row))
    return [custom_id for custom_id in found if isinstance(custom_id, str)]


def _children(row: object) -> tuple[object, ...]:
    return tuple(getattr(row, "children", ()))


def handled(interaction: discord.Interaction[Any]) -> None:
    """Say (for the log, and the tests that wait on it) that the bot is done with an
    interaction: answered, and its table drawn."""
    log.debug("interaction %s handled", interaction.id)


class Answer:
    """The replies to one interaction. The first reply is the interaction's response, later ones
    follow up; if nothing was said after ACK_AFTER seconds the interaction is deferred, so it
    never fails for being slow. One reply at a time, so that a response is never sent twice.
    What it says by itself is in the person's language (Discord always tells it)."""

    def __init__(self, interaction: discord.Interaction[Any], calls: DiscordCalls):
        self.interaction = interaction
        self.calls = calls
        self.component = interaction.type is discord.InteractionType.component
        message = interaction.message if self.component else None
        channel_id = str(interaction.channel_id or 0)
        self.pressed = BoardRef(channel_id, str(message.id)) if message else None
        self._guard = asyncio.Lock()
        self._thinking = False  # deferred as an ephemeral "thinking…" message
        self._spoke = False  # a follow-up replaced that message
        self._timer: asyncio.TimerHandle | None = None
        self._late_ack: asyncio.Task[None] | None = None

    @property
    def t(self) -> Translator:
        """What this answer says by itself is for the person answered alone."""
        return translator(normalize_locale(self.interaction.locale.value))

    @property
    def channel_id(self) -> int:
        return self.interaction.channel_id or 0

    @property
    def done(self) -> bool:
        return self.interaction.response.is_done()

    async def __aenter__(self) -> Answer:
        loop = asyncio.get_running_loop()
        self._timer = loop.call_later(ACK_AFTER, self._start_late_ack)
        return self

    async def __aexit__(self, kind: type[BaseException] | None, *exc: object) -> None:
        if self._timer is not None:
            self._timer.cancel()
        if self._late_ack is not None:
            await self._late_ack
        if kind is not None and not issubclass(kind, Exception):
            return  # cancelled (the bot is stopping): say nothing more
        try:
            await self._finish()
        except ERRORS as error:
            log.warning("finishing interaction %s failed: %s", self.interaction.id, error)

    def _start_late_ack(self) -> None:
        self._late_ack = asyncio.create_task(self._ack_quietly())

    async def _ack_quietly(self) -> None:
        try:
            await self.ack()
        except ERRORS as error:
            log.warning("deferring interaction %s failed: %s", self.interaction.id, error)

    async def ack(self) -> None:
        """Acknowledge now, saying nothing yet (a command's "thinking…" goes at the end if
        nothing follows it)."""
        async with self._guard:
            if self.done:
                return
            if self.component:
                await self.interaction.response.defer()
            else:
                await self.interaction.response.defer(ephemeral=True, thinking=True)
                self._thinking = True

    async def update(self, rendered: Rendered) -> bool:
        """Redraw the pressed message as the response (type 7), if that is still possible."""
        async with self._guard:
            if not self.component or self.done:
                return False
            await self.interaction.response.edit_message(**rendered.edit_kwargs())
            return True

    async def redraw_pressed(self, rendered: Rendered) -> None:
        """Redraw the pressed message, as the response or, once answered, through the
        interaction (which reaches an ephemeral message too)."""
        if not await self.update(rendered):
            await self.interaction.edit_original_response(**rendered.edit_kwargs())

    async def launch(self) -> bool:
        """Launch the application's Activity as the response (type 12), if nothing was
        answered yet. Discord refuses it for an application not set up as one: then False,
        and the person gets their link instead."""
        async with self._guard:
            if self.done:
                return False
            try:
                await self.interaction.response.launch_activity()
            except discord.HTTPException as error:
                log.warning("launching the Activity was refused (DISCORD_ACTIVITY?): %s", error)
                return False
            return True

    async def public(self, rendered: Rendered) -> int:
        """Say something to the channel; returns the message's id. A command's first public
        message is its response; a button's are new channel messages."""
        async with self._guard:
            if not self.component and not self.done:
                response = await self.interaction.response.send_message(**rendered.send_kwargs())
                if response.message_id is not None:
                    return response.message_id
                return (await self.interaction.original_response()).id
        await self.ack()
        return await self.calls.send_rendered(self.channel_id, rendered)

    async def private(self, rendered: Rendered) -> None:
        """Tell the person who acted, and no one else."""
        kwargs = {**rendered.send_kwargs(), "ephemeral": True}
        async with self._guard:
            if not self.done:
                await self.interaction.response.send_message(**kwargs)
                return
        await self.interaction.followup.send(**kwargs)
        self._spoke = True

    async def fail(self, t: Translator) -> None:
        try:
            await self.private(Rendered(render.esc(t("error-unexpected"))))
        except ERRORS as error:
            log.warning("could not tell of the failure of %s: %s", self.interaction.id, error)

    async def after_trouble(self, error: Exception, t: Translator) -> None:
        """Discord refused or failed part of the answer; the game is saved. Where the bot may
        not post, the person is told privately (an interaction's answer always gets through)."""
        if not isinstance(error, discord.Forbidden):
            return
        try:
            await self.private(Rendered(render.esc(t("discord-cannot-post"))))
        except ERRORS as failure:
            log.info("could not answer interaction %s: %s", self.interaction.id, failure)

    async def _finish(self) -> None:
        if not self.done:
            if self.component:
                await self.ack()
            else:
                await self.private(Rendered(render.esc(self.t("discord-done"))))
        elif self._thinking and not self._spoke:
            await self.interaction.delete_original_response()


class DiscordExchange:
    """The chat layer's `Exchange` over one interaction's `Answer`."""

    whispers = True  # ephemeral messages hold anything
    quiet = False

    def __init__(self, answer: Answer) -> None:
        interaction = answer.interaction
        self.answer = answer
        self.calls = answer.calls
        self.interaction = interaction
        self.channel = channel_of(interaction)
        self.person = player_of(interaction.user)
        self.locale: str | None = interaction.locale.value
        self.pressed = answer.pressed
        self.shown = payload.shown(_custom_ids(interaction.message)) if answer.component else None

    def carries(self, data: str) -> bool:
        return self.answer.component and data in _custom_ids(self.interaction.message)

    async def note(self, text: str | None) -> None:
        """Nothing: the pressed board itself is the press's answer on Discord."""

    async def private(self, card: cards.Card, t: Translator) -> None:
        for rendered in self.calls.draw(t, card):
            await self.answer.private(rendered)

    async def direct(self, card: cards.Card, t: Translator) -> bool:
        await self.private(card, t)  # ephemeral: anything fits
        return True

    async def public(self, card: cards.Card, t: Translator) -> str:
        message = 0
        for rendered in self.calls.draw(t, card):
            message = await self.answer.public(rendered)
        return str(message)

    async def update(self, card: cards.Card, t: Translator) -> bool:
        return await self.answer.update(self.calls.draw(t, card)[0])

    async def redraw(self, card: cards.Card, t: Translator) -> None:
        await self.answer.redraw_pressed(self.calls.draw(t, card)[0])

    async def ack(self) -> None:
        await self.answer.ack()

    async def launch(self) -> bool:
        return await self.answer.launch()

    async def may_configure(self) -> bool:
        """Settings are the whole server's, so only members who may manage the server change
        them (anyone in a DM, whose conversation keeps its own)."""
        interaction = self.interaction
        return interaction.guild_id is None or interaction.permissions.manage_guild

    async def place(self) -> Place:
        return self.calls.place_of(self.interaction)

    async def troubled(self, error: Exception, t: Translator) -> None:
        await self.answer.after_trouble(error, t)

    async def fail(self, t: Translator) -> None:
        await self.answer.fail(t)
