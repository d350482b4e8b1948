"""The language of what is being handled: the chat's choice, else the person's, else the
place's (a Discord server's), else the bot's. Set once per update, read by every card drawn."""

from __future__ import annotations

from contextvars import ContextVar

from adapters.i18n import Translator, normalize_locale, translator

_CURRENT: ContextVar[Translator | None] = ContextVar("chat_language", default=None)


def choose(default: Translator, *codes: str | None) -> Translator:
    """The first language given (chat, person, place), else the bot's."""
    code = next((c for c in codes if c), None)
    return translator(normalize_locale(code)) if code else default


def speak(t: Translator) -> Translator:
    """Take up `t` for the rest of this task (an update, a computer's step)."""
    _CURRENT.set(t)
    return t


def current(default: Translator) -> Translator:
    return _CURRENT.get() or default
