"""The translation layer: every word the bot says comes from a Fluent catalogue, per language."""

from __future__ import annotations

import logging
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from babel.numbers import parse_decimal
from fluent.runtime import FluentBundle, FluentResource
from fluent.runtime.bundle import PluralCategory
from fluent.runtime.types import FluentNumber

LOCALES_DIR = Path(__file__).parent / "locales"
DEFAULT_LOCALE = "en"
FORMATTED = 8192  # formatted messages remembered per language
# Fluent makes the whole message "{???}" of a placeable over 2,500 characters: an argument is cut
# below that first (no message of the bot shows anything that long in one piece).
ARGUMENT_LIMIT = 2000
# Arguments that are a person's name, shown as every message shows names (names.shown_name).
NAME_ARGUMENTS = frozenset({"name", "host"})
log = logging.getLogger(__name__)


@cache
def available_locales() -> tuple[str, ...]:
    """The shipped translations (asked on every press: listed once)."""
    return tuple(sorted(p.name for p in LOCALES_DIR.iterdir() if p.is_dir()))


class _Bundle(FluentBundle):
    """A bundle whose plurals follow the number as it is shown. CLDR puts a visible fraction in
    its own form («1,0 очка», «1,5 очка», "1.0 points"), where Fluent would ask about the bare
    value (to it, 1.0 is 1 and takes «очко»)."""

    def __init__(self, locale: str) -> None:
        super().__init__([locale], use_isolating=False)
        rule = self._plural_form
        shown_in = self._babel_locale

        def by_shown(number: Any) -> PluralCategory:
            if isinstance(number, FluentNumber):
                number = parse_decimal(number.format(shown_in), locale=shown_in)
            return rule(number)

        self._plural_form = by_shown


@cache
def _bundle(locale: str) -> FluentBundle:
    bundle = _Bundle(locale)
    for path in sorted((LOCALES_DIR / locale).glob("*.ftl")):
        bundle.add_resource(FluentResource(path.read_text(encoding="utf-8")))
    return bundle


def message_ids(locale: str) -> set[str]:
    """Every message id in a locale's catalogue (for the completeness test)."""
    return set(_bundle(locale)._messages)


def normalize_locale(code: str | None) -> str:
    """'ru-RU', 'ru_RU' or 'ru' → 'ru' when we have it; anything else → English."""
    if code:
        base = code.replace("_", "-").split("-")[0].lower()
        if base in available_locales():
            return base
    return DEFAULT_LOCALE


class Translator:
    """Formats message ids of one language, falling back to English for a missing one."""

    def __init__(self, locale: str = DEFAULT_LOCALE) -> None:
        self.locale = normalize_locale(locale)
        self._chain = [_bundle(self.locale)]
        if self.locale != DEFAULT_LOCALE:
            self._chain.append(_bundle(DEFAULT_LOCALE))
        # A board says the same words and numbers press after press; Fluent (with Babel's number
        # formatting) took a tenth of a busy bot's CPU before the repeats were remembered.
        self._formatted = lru_cache(maxsize=FORMATTED)(self._format)

    def __call__(self, message_id: str, **args: Any) -> str:
        return self._formatted(message_id, tuple(sorted(args.items())))

    def _format(self, message_id: str, items: tuple[tuple[str, Any], ...]) -> str:
        text, errors = self.checked(message_id, **dict(items))
        if errors:
            log.warning("translation %s/%s: %s", self.locale, message_id, errors)
        return text

    def checked(self, message_id: str, **args: Any) -> tuple[str, list[Exception]]:
        """The text, and what Fluent found wrong in making it (a variable not given, a missing
        message): none for a message of this language's own given all it asks for."""
        for bundle in self._chain:
            if bundle.has_message(message_id):
                pattern = bundle.get_message(message_id).value
                if pattern is None:
                    break
                text, errors = bundle.format_pattern(pattern, _fitted(args))
                return str(text), errors
        return message_id, [LookupError(f"missing translation {self.locale}/{message_id}")]


def _fitted(args: dict[str, Any]) -> dict[str, Any]:
    """The arguments as a message may show them: names shortened and neutralised, any other
    text cut to what Fluent accepts."""
    from adapters.i18n.names import shown_name  # with the game's view: when first formatting

    fitted: dict[str, Any] = {}
    for key, value in args.items():
        if isinstance(value, str) and key in NAME_ARGUMENTS:
            value = shown_name(value)
        elif isinstance(value, str) and len(value) > ARGUMENT_LIMIT:
            value = value[: ARGUMENT_LIMIT - 1] + "…"
        fitted[key] = value
    return fitted


@cache
def translator(locale: str = DEFAULT_LOCALE) -> Translator:
    return Translator(locale)
