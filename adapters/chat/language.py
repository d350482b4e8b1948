"""The languages of what is being handled, set once per update and read by every card drawn:
the table's, for everything the chat sees (the chat's choice, else the one its game opened
with, else the person's, else the place's, else the bot's), and the person's own, for what
only they see (alerts, ephemeral answers)."""

from __future__ import annotations

from contextvars import ContextVar

from adapters.i18n import Translator, normalize_locale, translator

_TABLE: ContextVar[Translator | None] = ContextVar("table_language", default=None)
_OWN: ContextVar[Translator | None] = ContextVar("own_language", default=None)


def choose(default: Translator, *codes: str | None) -> Translator:
    """The first language given (chat, game, person, place), else the bot's."""
    code = next((c for c in codes if c), None)
    return translator(normalize_locale(code)) if code else default


def speak(table: Translator, own: Translator | None = None) -> Translator:
    """Take up `table` (and `own`, the person's, where there is one) for the rest of this task:
    an update, or a computer's step."""
    _TABLE.set(table)
    _OWN.set(own)
    return table


def current(default: Translator) -> Translator:
    """The table's language: for whatever the chat sees."""
    return _TABLE.get() or default


def own(default: Translator) -> Translator:
    """The person's language: for what only they see."""
    return _OWN.get() or current(default)
