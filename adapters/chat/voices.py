"""The languages of what is being handled, as a value worked out once per command, press or
move of the bot's own and handed to whatever draws or answers: the table's, for everything the
chat sees, and the person's own, for what only they see (alerts, ephemeral answers)."""

from __future__ import annotations

from dataclasses import dataclass

from adapters.chat.surface import Exchange, Platform
from adapters.i18n import Translator, normalize_locale, translator
from adapters.logcontext import bind
from core.chat_settings import ChatSettings
from core.identity import ChannelKey
from core.service import GameService
from core.table import Game


@dataclass(frozen=True)
class Voices:
    """The table's language and the person's own (the table's where nobody is answered)."""

    table: Translator
    own: Translator


def choose(default: Translator, *codes: str | None) -> Translator:
    """The first language given (chat, game, person, place), else the bot's."""
    code = next((c for c in codes if c), None)
    return translator(normalize_locale(code)) if code else default


class Languages:
    """A chat's settings and the languages of what is said there, by the platform's places."""

    def __init__(self, service: GameService, platform: Platform, locale: str) -> None:
        self.service = service
        self.platform = platform
        self.default = translator(normalize_locale(locale))

    async def settings(self, channel: ChannelKey) -> ChatSettings:
        place = await self.platform.place(channel)
        return await self.service.chat_settings(self.platform.key, place.chat)

    async def of(
        self, channel: ChannelKey, exchange: Exchange | None = None, game: Game | None = None
    ) -> tuple[ChatSettings, Voices]:
        """The chat's settings and the languages of this answer. The table's: the chat's choice,
        else the language its game opened with (kept, so that a computer's turn or a restart
        speaks it too), else the person's, else the place's (a server's), else the bot's. The
        person's own: theirs, else the table's. `game`: the one being shown, where the caller
        has it (a move that ended it: no longer the table's)."""
        place = await (exchange.place() if exchange else self.platform.place(channel))
        settings = await self.service.chat_settings(self.platform.key, place.chat)
        game = game or await self.service.game(channel)
        bind(platform=self.platform.name, chat=channel.chat, game=game.id if game else "")
        person = exchange.locale if exchange else None
        table = choose(
            self.default, settings.language, game.language if game else None, person, place.locale
        )
        return settings, Voices(table, choose(table, person))
