"""Discord's numbers as the fake uses them: API version, interaction and callback types,
message flags, permissions, gateway intents, locales; snowflakes and timestamps."""

from __future__ import annotations

import datetime as dt
import re
import time

API_VERSION = 10
DISCORD_EPOCH_MS = 1_420_070_400_000
# Interaction callback types
PONG = 1
CHANNEL_MESSAGE = 4
DEFERRED_CHANNEL_MESSAGE = 5
DEFERRED_UPDATE_MESSAGE = 6
UPDATE_MESSAGE = 7
AUTOCOMPLETE_RESULT = 8
MODAL = 9
LAUNCH_ACTIVITY = 12  # an application set up as an Activity launches it
# Interaction types
_PING, _COMMAND, _COMPONENT, _AUTOCOMPLETE, _MODAL_SUBMIT = 1, 2, 3, 4, 5
# Message flags
FLAG_SUPPRESS_EMBEDS = 1 << 2
FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7
FLAG_SUPPRESS_NOTIFICATIONS = 1 << 12
FLAG_COMPONENTS_V2 = 1 << 15
PERMISSIONS: dict[str, int] = {
    "create_instant_invite": 1 << 0,
    "kick_members": 1 << 1,
    "ban_members": 1 << 2,
    "administrator": 1 << 3,
    "manage_channels": 1 << 4,
    "manage_guild": 1 << 5,
    "add_reactions": 1 << 6,
    "view_audit_log": 1 << 7,
    "priority_speaker": 1 << 8,
    "stream": 1 << 9,
    "view_channel": 1 << 10,
    "send_messages": 1 << 11,
    "send_tts_messages": 1 << 12,
    "manage_messages": 1 << 13,
    "embed_links": 1 << 14,
    "attach_files": 1 << 15,
    "read_message_history": 1 << 16,
    "mention_everyone": 1 << 17,
    "use_external_emojis": 1 << 18,
    "view_guild_insights": 1 << 19,
    "connect": 1 << 20,
    "speak": 1 << 21,
    "change_nickname": 1 << 26,
    "manage_nicknames": 1 << 27,
    "manage_roles": 1 << 28,
    "manage_webhooks": 1 << 29,
    "manage_expressions": 1 << 30,
    "use_application_commands": 1 << 31,
    "manage_events": 1 << 33,
    "manage_threads": 1 << 34,
    "create_public_threads": 1 << 35,
    "create_private_threads": 1 << 36,
    "use_external_stickers": 1 << 37,
    "send_messages_in_threads": 1 << 38,
    "moderate_members": 1 << 40,
    "send_polls": 1 << 49,
    "use_external_apps": 1 << 50,
}
ALL_PERMISSIONS = (1 << 51) - 1
_P = PERMISSIONS
DEFAULT_EVERYONE_PERMISSIONS = (
    _P["create_instant_invite"]
    | _P["add_reactions"]
    | _P["stream"]
    | _P["view_channel"]
    | _P["send_messages"]
    | _P["embed_links"]
    | _P["attach_files"]
    | _P["read_message_history"]
    | _P["use_external_emojis"]
    | _P["connect"]
    | _P["speak"]
    | _P["change_nickname"]
    | _P["use_application_commands"]
    | _P["create_public_threads"]
    | _P["send_messages_in_threads"]
    | _P["send_polls"]
    | _P["use_external_apps"]
)
DEFAULT_BOT_PERMISSIONS = (
    _P["view_channel"]
    | _P["send_messages"]
    | _P["send_messages_in_threads"]
    | _P["embed_links"]
    | _P["attach_files"]
    | _P["read_message_history"]
    | _P["add_reactions"]
    | _P["use_external_emojis"]
    | _P["create_public_threads"]
    | _P["manage_threads"]
    | _P["manage_messages"]
)
# Gateway intents
INTENT_GUILDS = 1 << 0
INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_PRESENCES = 1 << 8
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DIRECT_MESSAGES = 1 << 12
INTENT_MESSAGE_CONTENT = 1 << 15
ALL_INTENTS = (1 << 26) - 1 | (1 << 27)  # 0..25 and 27 (26 is unused)
PRIVILEGED_INTENTS = {
    "members": INTENT_GUILD_MEMBERS,
    "presences": INTENT_GUILD_PRESENCES,
    "message_content": INTENT_MESSAGE_CONTENT,
}
# Application flags that say which privileged intents are enabled (the "limited" variants)
_APP_FLAG_FOR_INTENT = {
    INTENT_GUILD_PRESENCES: 1 << 13,
    INTENT_GUILD_MEMBERS: 1 << 15,
    INTENT_MESSAGE_CONTENT: 1 << 19,
}
_APP_FLAG_COMMAND_BADGE = 1 << 23
LOCALES = frozenset(
    {
        "id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu", "nl",
        "no", "pl", "pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru", "uk", "hi",
        "th", "zh-CN", "ja", "zh-TW", "ko",
    }
)  # fmt: skip
_SELECT_TYPES = (3, 5, 6, 7, 8)
_V2_TOP_LEVEL = (1, 9, 10, 12, 13, 14, 17)
_CHAT_NAME_RE = re.compile(r"^[-_'\w]{1,32}$")
_MENTION_RE = re.compile(r"<@!?(\d+)>")


def _app_flags(allowed_intents: int) -> int:
    """The application's flags: the command badge, and which privileged intents it may use."""
    flags = _APP_FLAG_COMMAND_BADGE
    for bit, flag in _APP_FLAG_FOR_INTENT.items():
        if allowed_intents & bit:
            flags |= flag
    return flags


def _iso(ts: float | None = None) -> str:
    return dt.datetime.fromtimestamp(time.time() if ts is None else ts, dt.UTC).isoformat()


def snowflake_time(snowflake: str | int) -> float:
    """The creation time (Unix seconds) encoded in a snowflake."""
    return ((int(snowflake) >> 22) + DISCORD_EPOCH_MS) / 1000


class _Snowflakes:
    """Real, strictly increasing, timestamp-based snowflakes (as strings)."""

    def __init__(self) -> None:
        self._last = 0

    def __call__(self) -> str:
        ms = int(time.time() * 1000)
        value = ((ms - DISCORD_EPOCH_MS) << 22) | (1 << 17) | (1 << 12)
        if value <= self._last:
            value = self._last + 1
        self._last = value
        return str(value)
