"""A chat's settings in words, and spans of time (the turn timer, a reminder)."""

from __future__ import annotations

from adapters.i18n import Translator
from core.chat_settings import ChatSettings, DiceKind, SheetStyle
from core.rules import BigGeneralMode
from core.seasons import SeasonLength


def duration(t: Translator, seconds: int) -> str:
    """A span of time in words: whole hours, else minutes, else seconds."""
    if seconds >= 3600 and seconds % 3600 == 0:
        return t("settings-hours", n=seconds // 3600)
    if seconds >= 60:
        return t("settings-minutes", n=round(seconds / 60))
    return t("settings-seconds", n=seconds)


def setting_value(t: Translator, name: str, value: object) -> str:
    """A setting's current choice in words."""
    if name == "language":
        return t(f"settings-language-{value}" if value else "settings-language-auto")
    if name == "computer_pause":
        return t("settings-default") if value is None else t("settings-seconds", n=value)
    if name == "turn_timer" and isinstance(value, int):
        return duration(t, value) if value else t("settings-timer-off")
    if name in ("hints", "chances"):
        return t("settings-hints-on" if value else "settings-hints-off")
    if isinstance(value, BigGeneralMode):
        return t("settings-big-ends" if value is BigGeneralMode.ENDS_GAME else "settings-big-sixty")
    if isinstance(value, SheetStyle | DiceKind | SeasonLength):
        return t(f"settings-{name}-{value.value}")
    if isinstance(value, bool):
        return t("settings-yes" if value else "settings-no")
    return str(value)


def setting_label(t: Translator, name: str, settings: ChatSettings) -> str:
    return t(f"settings-{name}", value=setting_value(t, name, getattr(settings, name)))
