"""`/general` as Discord slash commands, made from the chat layer's catalogue: names,
descriptions, options and choices, localised from the Fluent catalogues."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

import discord
from discord import app_commands

from adapters.chat.catalogue import COMMAND, COMMANDS, Command, Kind
from adapters.chat.commands import MAX_ARGUMENT, Asked, Target
from adapters.chat.records import Order, Period, Query
from adapters.i18n import DEFAULT_LOCALE, Translator, message_ids, normalize_locale, translator

DESCRIPTION_LIMIT = 100
NAME_LIMIT = 32
OnCommand = Callable[[discord.Interaction[Any], Asked], Awaitable[None]]
Callback = Callable[..., Coroutine[Any, Any, None]]


class CatalogueTranslator(app_commands.Translator):
    """Descriptions, option names and choice names in every language the Fluent catalogues
    have (the bot's own language is the default text itself, so it gets no localisation). The
    group and subcommand names stay as they are: every text, here and on Telegram, tells people
    to type `/general start`, and that must stay true in every language."""

    def __init__(self, default_locale: str = DEFAULT_LOCALE) -> None:
        self.default_locale = normalize_locale(default_locale)

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        message_id = string.extras.get("message")
        ours = normalize_locale(locale.value)
        # Option names are English identifiers whatever the bot's language; texts are in it.
        is_name = context.location is app_commands.TranslationContextLocation.parameter_name
        default = DEFAULT_LOCALE if is_name else self.default_locale
        if message_id is None or ours == default or message_id not in message_ids(ours):
            return None
        text = translator(ours)(message_id)
        return text[:NAME_LIMIT] if is_name else text[:DESCRIPTION_LIMIT]


def command_group(t: Translator, on_command: OnCommand) -> app_commands.Group:
    """`/general` and its subcommands, described in the bot's language `t`."""

    def text(key: str) -> app_commands.locale_str:
        return app_commands.locale_str(t(key)[:DESCRIPTION_LIMIT], message=key)

    group = app_commands.Group(
        name=COMMAND,
        description=text("cmd-general"),
        allowed_contexts=app_commands.AppCommandContext(
            guild=True, dm_channel=True, private_channel=False
        ),
        allowed_installs=app_commands.AppInstallationType(guild=True, user=False),
    )
    for command in COMMANDS:
        callback = _callback(command, on_command)
        for option in command.options:
            name = app_commands.locale_str(option.name, message=f"opt-{option.name}")
            callback = app_commands.rename(**{option.name: name})(callback)
            callback = app_commands.describe(**{option.name: text(option.about)})(callback)
            if option.kind is Kind.CHOICE:
                choices = [
                    app_commands.Choice(name=text(f"choice-{choice}"), value=choice)
                    for choice in option.choices
                ]
                callback = app_commands.choices(**{option.name: choices})(callback)
        group.add_command(
            app_commands.Command(
                name=command.name, description=text(command.about), callback=callback
            )
        )
    return group


def _callback(command: Command, on_command: OnCommand) -> Callback:
    """The command's callback, bound to it by name: its parameters are the command's options
    (discord.py reads their names and types); a command without options takes none."""
    name = command.name

    async def plain(interaction: discord.Interaction[Any]) -> None:
        await on_command(interaction, Asked(name))

    async def sheet(interaction: discord.Interaction[Any], text: bool = False) -> None:
        await on_command(interaction, Asked(name, text=text))

    async def leaderboard(
        interaction: discord.Interaction[Any],
        scope: str = "channel",
        period: str = "season",
        order: str = "rating",
        season: str | None = None,
    ) -> None:
        query = Query(
            name,
            everywhere=scope == "global",
            period=Period.named(period),
            order=Order.named(order),
            season=season.strip()[:MAX_ARGUMENT] if season else None,
        )
        await on_command(interaction, Asked(name, query=query))

    async def stats(
        interaction: discord.Interaction[Any], player: discord.User | None = None
    ) -> None:
        who = player or interaction.user
        query = Query(name, who_id=str(who.id), who_name=who.display_name)
        await on_command(interaction, Asked(name, query=query))

    async def notify(interaction: discord.Interaction[Any], off: bool = False) -> None:
        await on_command(interaction, Asked(name, off=off))

    async def kick(interaction: discord.Interaction[Any], player: discord.User) -> None:
        target = Target(str(player.id), player.display_name)
        await on_command(interaction, Asked(name, target=target))

    with_options: dict[str, Callback] = {
        "sheet": sheet,
        "leaderboard": leaderboard,
        "stats": stats,
        "kick": kick,
        "notify": notify,
    }
    # A command given options in the catalogue has its callback here: none is a KeyError at start.
    callback: Callback = with_options[name] if command.options else plain
    callback.__name__ = name
    return callback
