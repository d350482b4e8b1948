"""A fake Discord (REST API + gateway) for offline end-to-end tests of the real discord.py.

The fake listens on 127.0.0.1 (port 0) in the test's event loop.  The real discord.py talks to it
once two process-wide settings point at it, before ``login()``::

    fake = FakeDiscord(token="fake-token")
    await fake.start()
    monkeypatch.setattr(discord.http.Route, "BASE", fake.api_base)
    monkeypatch.setattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY",
                        yarl.URL(fake.gateway_url))

The test side reads like a user: ``fake.slash(alice, chan, "general", "start")``,
``fake.press(alice, msg, label="Roll")``; what the bot showed is in ``fake.channel_messages(chan)``
and on the interaction handles.  Every request the fake does not understand is recorded in
``fake.unhandled``; every interaction the bot did not answer within 3 seconds in ``fake.expired``.

Close the bot (``await client.close()``) before ``await fake.stop()``: a bot whose gateway goes
away keeps reconnecting and logs errors.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import datetime as dt
import fnmatch
import itertools
import json
import math
import mimetypes
import re
import secrets
import time
import zlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

try:  # discord.py asks for zstd-stream when zstandard is importable
    import zstandard
except ImportError:  # pragma: no cover - depends on the environment
    zstandard = None

__all__ = [
    "AUTOCOMPLETE_RESULT",
    "CHANNEL_MESSAGE",
    "DEFERRED_CHANNEL_MESSAGE",
    "DEFERRED_UPDATE_MESSAGE",
    "MODAL",
    "PERMISSIONS",
    "UPDATE_MESSAGE",
    "FakeAttachment",
    "FakeChannel",
    "FakeComponent",
    "FakeDiscord",
    "FakeGuild",
    "FakeInteraction",
    "FakeMember",
    "FakeMessage",
    "FakeRequest",
    "FakeResponse",
    "FakeRole",
    "FakeUser",
]

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


class _ApiError(Exception):
    def __init__(
        self, status: int, code: int, message: str, errors: dict[str, Any] | None = None
    ) -> None:
        super().__init__(f"{status} {code} {message} {errors or ''}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors

    def body(self) -> dict[str, Any]:
        out: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors:
            out["errors"] = self.errors
        return out


class _Errors:
    """Builds Discord's nested ``errors`` object of a 50035 Invalid Form Body."""

    def __init__(self) -> None:
        self.tree: dict[str, Any] = {}

    def add(self, path: Iterable[str | int], code: str, message: str) -> None:
        node = self.tree
        for part in path:
            node = node.setdefault(str(part), {})
        node.setdefault("_errors", []).append({"code": code, "message": message})

    def length(
        self, path: Sequence[str | int], value: Any, lo: int, hi: int, *, required: bool = False
    ) -> None:
        if value is None:
            if required:
                self.add(path, "BASE_TYPE_REQUIRED", "This field is required")
            return
        if not isinstance(value, str):
            self.add(path, "BASE_TYPE_STRING", "Must be a string.")
            return
        if len(value) > hi:
            self.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {hi} or fewer in length.")
        elif len(value) < lo:
            self.add(path, "BASE_TYPE_MIN_LENGTH", f"Must be {lo} or more in length.")

    def raise_if_any(self) -> None:
        if self.tree:
            raise _ApiError(400, 50035, "Invalid Form Body", self.tree)


# --------------------------------------------------------------------------------------------
# Handles the tests see
# --------------------------------------------------------------------------------------------


@dataclass(eq=False)
class FakeUser:
    id: str
    username: str
    global_name: str | None = None
    bot: bool = False
    locale: str = "en-US"

    @property
    def name(self) -> str:
        return self.username

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": self.id,
            "username": self.username,
            "global_name": self.global_name,
            "discriminator": "0",
            "avatar": None,
            "public_flags": 0,
        }
        if self.bot:
            data["bot"] = True
        return data


@dataclass(eq=False)
class FakeRole:
    id: str
    guild: FakeGuild
    name: str
    permissions: int = 0
    position: int = 0
    managed: bool = False
    bot_id: str | None = None

    @property
    def mention(self) -> str:
        return f"<@&{self.id}>"

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": self.id,
            "name": self.name,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": self.managed,
            "mentionable": False,
            "flags": 0,
        }
        if self.bot_id:
            data["tags"] = {"bot_id": self.bot_id}
        return data


@dataclass(eq=False)
class FakeGuild:
    id: str
    name: str
    locale: str
    owner_id: str
    joined_at: float
    roles: dict[str, FakeRole] = field(default_factory=dict)
    channels: list[FakeChannel] = field(default_factory=list)
    members: dict[str, FakeMember] = field(default_factory=dict)

    @property
    def text_channels(self) -> list[FakeChannel]:
        return [c for c in self.channels if c.type == 0]

    @property
    def threads(self) -> list[FakeChannel]:
        return [c for c in self.channels if c.is_thread]

    @property
    def default_channel(self) -> FakeChannel:
        return self.text_channels[0]

    @property
    def everyone(self) -> FakeRole:
        return self.roles[self.id]

    def __repr__(self) -> str:
        return f"<FakeGuild id={self.id} name={self.name!r}>"


@dataclass(eq=False)
class FakeMember:
    user: FakeUser
    guild: FakeGuild
    roles: list[str] = field(default_factory=list)
    nick: str | None = None
    joined_at: float = field(default_factory=time.time)

    @property
    def id(self) -> str:
        return self.user.id

    @property
    def name(self) -> str:
        return self.user.username

    @property
    def mention(self) -> str:
        return self.user.mention

    @property
    def locale(self) -> str:
        return self.user.locale

    @property
    def permissions(self) -> int:
        """Guild-level permission bits (no channel overwrites in this fake)."""
        if self.guild.owner_id == self.user.id:
            return ALL_PERMISSIONS
        bits = self.guild.everyone.permissions
        for role_id in self.roles:
            role = self.guild.roles.get(role_id)
            if role is not None:
                bits |= role.permissions
        if bits & PERMISSIONS["administrator"]:
            return ALL_PERMISSIONS
        return bits

    def payload(self) -> dict[str, Any]:
        return {
            "user": self.user.payload(),
            "nick": self.nick,
            "avatar": None,
            "banner": None,
            "roles": list(self.roles),
            "joined_at": _iso(self.joined_at),
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "communication_disabled_until": None,
        }

    def __repr__(self) -> str:
        return f"<FakeMember {self.user.username!r} id={self.id} guild={self.guild.name!r}>"


@dataclass(eq=False)
class FakeChannel:
    id: str
    guild: FakeGuild
    name: str
    type: int = 0
    parent_id: str | None = None
    owner_id: str | None = None
    position: int = 0
    topic: str | None = None
    created: float = field(default_factory=time.time)
    messages: list[FakeMessage] = field(default_factory=list)

    @property
    def is_thread(self) -> bool:
        return self.type in (10, 11, 12)

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    @property
    def last_message_id(self) -> str | None:
        visible = [m for m in self.messages if not m.ephemeral]
        return visible[-1].id if visible else None

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": self.id,
            "type": self.type,
            "guild_id": self.guild.id,
            "name": self.name,
            "flags": 0,
            "last_message_id": self.last_message_id,
            "rate_limit_per_user": 0,
        }
        if self.is_thread:
            count = len([m for m in self.messages if not m.ephemeral])
            data.update(
                parent_id=self.parent_id,
                owner_id=self.owner_id,
                message_count=count,
                total_message_sent=count,
                member_count=1,
                applied_tags=[],
                thread_metadata={
                    "archived": False,
                    "auto_archive_duration": 1440,
                    "archive_timestamp": _iso(self.created),
                    "locked": False,
                    "create_timestamp": _iso(self.created),
                },
            )
        else:
            data.update(
                position=self.position,
                permission_overwrites=[],
                parent_id=self.parent_id,
                topic=self.topic,
                nsfw=False,
                default_auto_archive_duration=1440,
            )
        return data

    def __repr__(self) -> str:
        return f"<FakeChannel id={self.id} name={self.name!r} type={self.type}>"


@dataclass(eq=False)
class FakeAttachment:
    id: str
    filename: str
    data: bytes
    content_type: str | None
    url: str
    description: str | None = None
    ephemeral: bool = False

    @property
    def size(self) -> int:
        return len(self.data)

    def payload(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id,
            "filename": self.filename,
            "size": self.size,
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type,
        }
        if self.description is not None:
            out["description"] = self.description
        if self.ephemeral:
            out["ephemeral"] = True
        return out


class FakeComponent:
    """A message component as the user sees it: button, select menu, text display, row..."""

    def __init__(self, raw: dict[str, Any]) -> None:
        self.raw = raw

    type = property(lambda self: self.raw.get("type"))
    id = property(lambda self: self.raw.get("id"))
    custom_id = property(lambda self: self.raw.get("custom_id"))
    label = property(lambda self: self.raw.get("label"))
    style = property(lambda self: self.raw.get("style"))
    url = property(lambda self: self.raw.get("url"))
    emoji = property(lambda self: self.raw.get("emoji"))
    placeholder = property(lambda self: self.raw.get("placeholder"))
    options = property(lambda self: self.raw.get("options") or [])
    content = property(lambda self: self.raw.get("content"))

    @property
    def disabled(self) -> bool:
        return bool(self.raw.get("disabled", False))

    @property
    def is_button(self) -> bool:
        return self.type == 2

    @property
    def is_select(self) -> bool:
        return self.type in _SELECT_TYPES

    @property
    def children(self) -> list[FakeComponent]:
        kids = [FakeComponent(c) for c in self.raw.get("components") or []]
        if isinstance(self.raw.get("accessory"), dict):
            kids.append(FakeComponent(self.raw["accessory"]))
        if isinstance(self.raw.get("component"), dict):
            kids.append(FakeComponent(self.raw["component"]))
        return kids

    def walk(self) -> Iterable[FakeComponent]:
        yield self
        for child in self.children:
            yield from child.walk()

    def __repr__(self) -> str:
        if self.type == 2:
            off = " disabled" if self.disabled else ""
            return f"<Button {self.label!r} custom_id={self.custom_id!r} style={self.style}{off}>"
        if self.type == 10:
            return f"<TextDisplay {self.content!r}>"
        return f"<Component type={self.type} custom_id={self.custom_id!r}>"


class FakeMessage:
    """A message as stored by the fake; ``payload`` is its current state as Discord sends it."""

    def __init__(
        self,
        channel: FakeChannel,
        author: FakeUser,
        payload: dict[str, Any],
        *,
        ephemeral_user: FakeUser | None = None,
        interaction: FakeInteraction | None = None,
    ) -> None:
        self.channel = channel
        self.author = author
        self.payload = payload
        self.ephemeral_user = ephemeral_user
        self.interaction = interaction
        self.edits: list[FakeMessage] = []  # the earlier versions, oldest first
        self.deleted = False
        self.attachments: list[FakeAttachment] = []
        self.reactions: dict[str, list[str]] = {}

    id = property(lambda self: self.payload["id"])
    type = property(lambda self: self.payload["type"])
    content = property(lambda self: self.payload.get("content") or "")
    embeds = property(lambda self: self.payload.get("embeds") or [])
    flags = property(lambda self: int(self.payload.get("flags") or 0))
    raw_components = property(lambda self: self.payload.get("components") or [])

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & FLAG_EPHEMERAL)

    @property
    def loading(self) -> bool:
        """True while this is the "Bot is thinking..." placeholder of a deferred interaction."""
        return bool(self.flags & FLAG_LOADING)

    def _tree(self) -> Iterable[FakeComponent]:
        for raw in self.raw_components:
            yield from FakeComponent(raw).walk()

    @property
    def components(self) -> list[list[FakeComponent]]:
        """Action rows (wherever they are), each a list of buttons / select menus."""
        return [c.children for c in self._tree() if c.type == 1]

    @property
    def buttons(self) -> list[FakeComponent]:
        return [c for c in self._tree() if c.type == 2]

    @property
    def selects(self) -> list[FakeComponent]:
        return [c for c in self._tree() if c.type in _SELECT_TYPES]

    @property
    def text(self) -> str:
        """The content plus any components-v2 text displays, as a user would read them."""
        parts = [self.content] if self.content else []
        parts += [c.content for c in self._tree() if c.type == 10 and c.content]
        return "\n".join(parts)

    def button(self, label: str | None = None, *, custom_id: str | None = None) -> FakeComponent:
        found = [
            b
            for b in self.buttons
            if (custom_id is not None and b.custom_id == custom_id)
            or (custom_id is None and (b.label == label or (b.emoji or {}).get("name") == label))
        ]
        if not found:
            shown = [b.label or (b.emoji or {}).get("name") for b in self.buttons]
            raise LookupError(f"no button {label or custom_id!r} on message {self.id}: {shown}")
        if len(found) > 1:
            raise LookupError(f"several buttons {label!r} on message {self.id}")
        return found[0]

    def _snapshot(self) -> FakeMessage:
        snap = FakeMessage(
            self.channel,
            self.author,
            copy.deepcopy(self.payload),
            ephemeral_user=self.ephemeral_user,
            interaction=self.interaction,
        )
        snap.attachments = list(self.attachments)
        return snap

    def __repr__(self) -> str:
        extra = " deleted" if self.deleted else ""
        extra += " ephemeral" if self.ephemeral else ""
        extra += " loading" if self.loading else ""
        labels = [b.label for b in self.buttons]
        return f"<FakeMessage id={self.id} text={self.text[:60]!r} buttons={labels}{extra}>"


@dataclass
class FakeResponse:
    """The initial response the bot gave to an interaction (the callback)."""

    type: int
    data: dict[str, Any] | None
    message: FakeMessage | None
    at: float


@dataclass
class FakeRequest:
    method: str
    path: str  # without the /api/v10 prefix
    query: dict[str, str]
    body: Any
    files: list[tuple[str, str, bytes]]
    status: int | None = None
    at: float = field(default_factory=time.monotonic)


class FakeInteraction:
    """An interaction a fake user started, and everything the bot did with it."""

    def __init__(
        self,
        fake: FakeDiscord,
        *,
        id: str,
        token: str,
        type: int,
        member: FakeMember,
        channel: FakeChannel,
        data: dict[str, Any],
        payload: dict[str, Any],
        message: FakeMessage | None = None,
    ) -> None:
        self._fake = fake
        self.id = id
        self.token = token
        self.type = type
        self.member = member
        self.channel = channel
        self.data = data
        self.payload = payload
        self.message = message  # the message whose component was used
        self.response: FakeResponse | None = None
        self.followups: list[FakeMessage] = []
        self.expired = False
        self.modal: dict[str, Any] | None = None
        self.choices: list[dict[str, Any]] | None = None
        self._original: FakeMessage | None = None
        self._loading_replaced = False
        self._answered = asyncio.Event()
        self._timer: asyncio.TimerHandle | None = None

    @property
    def user(self) -> FakeUser:
        return self.member.user

    @property
    def original(self) -> FakeMessage | None:
        """The current state of the original response message (``@original``)."""
        return self._original

    @property
    def responded(self) -> bool:
        return self.response is not None

    @property
    def messages(self) -> list[FakeMessage]:
        out = [self._original] if self._original is not None else []
        out += [m for m in self.followups if m not in out]
        return [m for m in out if not m.deleted]

    def texts(self) -> list[str]:
        return [m.text for m in self.messages if m.text]

    def ephemeral_texts(self) -> list[str]:
        return [m.text for m in self.messages if m.ephemeral and m.text]

    async def wait_response(self, timeout: float | None = None) -> FakeResponse:
        """Wait for the initial response; fails when the interaction expired (3 s)."""
        if timeout is None:
            timeout = self._fake.interaction_timeout + 1.0
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while self.response is None:
            if self.expired:
                raise AssertionError(
                    f"interaction {self.id} was not answered in time: "
                    "the user sees 'This interaction failed'"
                )
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise AssertionError(f"no response to interaction {self.id} within {timeout}s")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._fake._changed_event().wait(), min(remaining, 0.05))
        return self.response

    async def wait_followups(self, count: int = 1, timeout: float = 5.0) -> list[FakeMessage]:
        await self._fake.wait_for(
            lambda: len(self.followups) >= count, timeout, f"{count} follow-up(s) to {self.id}"
        )
        return self.followups

    def __repr__(self) -> str:
        rtype = self.response.type if self.response else None
        return f"<FakeInteraction id={self.id} type={self.type} response={rtype}>"


@dataclass
class _Fault:
    method: str
    pattern: str
    status: int | str
    retry_after: float
    times: int
    is_global: bool
    code: int | None
    message: str | None
    applied: bool


class _Session:
    def __init__(self, session_id: str, intents: int, shard: list[int] | None) -> None:
        self.id = session_id
        self.intents = intents
        self.shard = shard
        self.seq = 0
        self.log: list[dict[str, Any]] = []
        self.conn: _Conn | None = None
        self.alive = True
        self.ready = False


class _Conn:
    def __init__(
        self, fake: FakeDiscord, ws: web.WebSocketResponse, request: web.Request, compress: str
    ) -> None:
        self.fake = fake
        self.ws = ws
        self.request = request
        self.compress = compress
        self.session: _Session | None = None
        self.closed = False
        self.dropped = False
        self.busy = False
        self.queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self._zlib = zlib.compressobj() if compress == "zlib-stream" else None
        self._zstd = (
            zstandard.ZstdCompressor().compressobj()
            if compress == "zstd-stream" and zstandard is not None
            else None
        )
        self.writer = asyncio.create_task(self._write())

    @property
    def idle(self) -> bool:
        return self.closed or (self.queue.empty() and not self.busy)

    def send(self, msg: dict[str, Any]) -> None:
        if not self.closed:
            self.queue.put_nowait(msg)

    def _encode(self, text: str) -> bytes | str:
        if self._zlib is not None:
            return self._zlib.compress(text.encode()) + self._zlib.flush(zlib.Z_SYNC_FLUSH)
        if self._zstd is not None and zstandard is not None:
            return self._zstd.compress(text.encode()) + self._zstd.flush(
                zstandard.COMPRESSOBJ_FLUSH_BLOCK
            )
        return text

    async def _write(self) -> None:
        while True:
            msg = await self.queue.get()
            if msg is None or self.closed:
                return
            self.busy = True
            try:
                frame = self._encode(json.dumps(msg, separators=(",", ":"), ensure_ascii=False))
                if isinstance(frame, bytes):
                    await self.ws.send_bytes(frame)
                else:
                    await self.ws.send_str(frame)
            except (ConnectionError, RuntimeError):
                return
            finally:
                self.busy = False
                if msg.get("op") != 11:
                    self.fake._notify()


# --------------------------------------------------------------------------------------------
# The fake
# --------------------------------------------------------------------------------------------


@dataclass
class _Ctx:
    method: str
    params: dict[str, str]
    body: Any
    files: dict[int, tuple[str, bytes, str | None]]
    query: dict[str, str]


class FakeDiscord:
    """Fake Discord REST API + gateway; see the module docstring."""

    def __init__(
        self,
        token: str = "fake-token",
        *,
        bot_name: str = "General",
        interaction_timeout: float = 3.0,
        bot_permissions: int = DEFAULT_BOT_PERMISSIONS,
        privileged_intents: Iterable[str] = ("members", "presences", "message_content"),
        heartbeat_interval_ms: int = 41250,
        attachment_size_limit: int = 10 * 1024 * 1024,
    ) -> None:
        self.token = token
        self.interaction_timeout = interaction_timeout
        self.bot_permissions = bot_permissions
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.attachment_size_limit = attachment_size_limit
        self.allowed_intents = ALL_INTENTS
        for name, bit in PRIVILEGED_INTENTS.items():
            if name not in set(privileged_intents):
                self.allowed_intents &= ~bit
        self._sf = _Snowflakes()
        self.application_id = self._sf()
        self.bot_user = FakeUser(self.application_id, bot_name, None, bot=True)
        self.owner = FakeUser(self._sf(), "owner", "Owner")
        self._users: dict[str, FakeUser] = {u.id: u for u in (self.bot_user, self.owner)}
        self._guilds: dict[str, FakeGuild] = {}
        self._channels: dict[str, FakeChannel] = {}
        self._messages: dict[str, FakeMessage] = {}
        self._attachments: dict[str, FakeAttachment] = {}
        self._global_commands: list[dict[str, Any]] = []
        self._guild_commands: dict[str, list[dict[str, Any]]] = {}
        self._interactions: dict[str, FakeInteraction] = {}
        self._by_token: dict[str, FakeInteraction] = {}
        self._faults: list[_Fault] = []
        self._sessions: list[_Session] = []
        self._conns: list[_Conn] = []
        self._runner: web.AppRunner | None = None
        self._port = 0
        self._inflight = 0
        self._last_activity = 0.0
        self._changed: asyncio.Event | None = None
        #: every interaction started by the test, oldest first
        self.interactions: list[FakeInteraction] = []
        #: every REST request, oldest first
        self.requests: list[FakeRequest] = []
        #: requests / gateway payloads the fake did not understand (a test asserts it is empty)
        self.unhandled: list[str] = []
        #: interactions the bot did not answer within ``interaction_timeout``
        self.expired: list[FakeInteraction] = []
        #: presence updates (op 3) the bot sent
        self.presences: list[dict[str, Any]] = []
        self.identifies = 0
        self.resumes = 0
        self._routes = self._route_table()

    # ---- lifecycle ---------------------------------------------------------------------------

    async def start(self) -> None:
        app = web.Application(client_max_size=self.attachment_size_limit * 2 + (1 << 20))
        app.router.add_get("/ws", self._gateway)
        app.router.add_get("/ws-resume", self._gateway)
        app.router.add_route("*", "/{tail:.*}", self._http)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self._port = self._runner.addresses[0][1]
        self._notify()

    async def stop(self) -> None:
        for inter in self.interactions:
            if inter._timer is not None:
                inter._timer.cancel()
        for conn in list(self._conns):
            if not conn.closed:
                conn.closed = True
                conn.queue.put_nowait(None)
                with contextlib.suppress(Exception):
                    await conn.ws.close(code=1001, message=b"fake Discord stopping")
        for conn in self._conns:
            conn.writer.cancel()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def port(self) -> int:
        return self._port

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._port}"

    @property
    def api_base(self) -> str:
        """Value for ``discord.http.Route.BASE``."""
        return f"{self.base_url}/api/v{API_VERSION}"

    @property
    def gateway_url(self) -> str:
        """Value for ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY`` (as a ``yarl.URL``)."""
        return f"ws://127.0.0.1:{self._port}/ws"

    @property
    def resume_gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self._port}/ws-resume"

    # ---- world building ----------------------------------------------------------------------

    def user(
        self, name: str, *, locale: str = "en-US", global_name: str | None = None, bot: bool = False
    ) -> FakeUser:
        user = FakeUser(
            self._sf(), name.lower().replace(" ", "_"), global_name or name, bot, locale
        )
        self._users[user.id] = user
        return user

    def guild(
        self,
        name: str = "Test guild",
        *,
        locale: str = "en-US",
        channel: str | None = "general",
        bot_permissions: int | None = None,
    ) -> FakeGuild:
        """A guild the bot is in, with a text channel (``channel``) unless None."""
        guild = FakeGuild(self._sf(), name, locale, self.owner.id, time.time())
        guild.roles[guild.id] = FakeRole(
            guild.id, guild, "@everyone", DEFAULT_EVERYONE_PERMISSIONS, 0
        )
        bot_role = FakeRole(
            self._sf(),
            guild,
            self.bot_user.username,
            self.bot_permissions if bot_permissions is None else bot_permissions,
            1,
            managed=True,
            bot_id=self.bot_user.id,
        )
        guild.roles[bot_role.id] = bot_role
        guild.members[self.owner.id] = FakeMember(self.owner, guild)
        guild.members[self.bot_user.id] = FakeMember(self.bot_user, guild, [bot_role.id])
        self._guilds[guild.id] = guild
        if channel is not None:
            self._add_channel(FakeChannel(self._sf(), guild, channel, 0), announce=False)
        self._dispatch(
            "GUILD_CREATE",
            lambda s: self._guild_create_payload(guild, s),
            intent=INTENT_GUILDS,
            guild=guild,
            ready_only=True,
        )
        return guild

    def text_channel(
        self, guild: FakeGuild, name: str = "general", *, topic: str | None = None
    ) -> FakeChannel:
        """The text channel of that name (created if the guild has none)."""
        for ch in guild.channels:
            if ch.type == 0 and ch.name == name:
                return ch
        ch = FakeChannel(self._sf(), guild, name, 0, topic=topic, position=len(guild.channels))
        return self._add_channel(ch)

    def thread(
        self,
        channel: FakeChannel,
        name: str,
        *,
        private: bool = False,
        owner: FakeMember | None = None,
    ) -> FakeChannel:
        """The thread of that name under ``channel`` (created if missing)."""
        for ch in channel.guild.channels:
            if ch.is_thread and ch.parent_id == channel.id and ch.name == name:
                return ch
        owner_id = owner.id if owner else self.owner.id
        ch = FakeChannel(
            self._sf(), channel.guild, name, 12 if private else 11, channel.id, owner_id
        )
        return self._add_channel(ch)

    def role(self, guild: FakeGuild, name: str, *, permissions: int = 0) -> FakeRole:
        role = FakeRole(self._sf(), guild, name, permissions, len(guild.roles))
        guild.roles[role.id] = role
        return role

    def member(
        self,
        guild: FakeGuild,
        user: str | FakeUser | FakeMember,
        *,
        locale: str | None = None,
        nick: str | None = None,
        roles: Iterable[FakeRole] = (),
        permissions: int = 0,
        **permission_flags: bool,
    ) -> FakeMember:
        """A user (new, by name, or existing) as a member of ``guild``.

        Extra permissions come from ``permissions`` bits and/or flags named as in
        ``PERMISSIONS`` (``manage_channels=True``); they are given through a role of their own.
        """
        if isinstance(user, FakeMember):
            user = user.user
        if isinstance(user, str):
            user = self.user(user, locale=locale or "en-US")
        elif locale is not None:
            user.locale = locale
        for flag, on in permission_flags.items():
            if flag not in PERMISSIONS:
                raise TypeError(f"unknown permission {flag!r}")
            if on:
                permissions |= PERMISSIONS[flag]
        role_ids = [r.id for r in roles]
        if permissions:
            role_ids.append(self.role(guild, f"{user.username} role", permissions=permissions).id)
        member = FakeMember(user, guild, role_ids, nick)
        guild.members[user.id] = member
        data = {**member.payload(), "guild_id": guild.id}
        self._dispatch("GUILD_MEMBER_ADD", data, intent=INTENT_GUILD_MEMBERS, guild=guild)
        return member

    def _add_channel(self, ch: FakeChannel, *, announce: bool = True) -> FakeChannel:
        ch.guild.channels.append(ch)
        self._channels[ch.id] = ch
        if announce:
            event = "THREAD_CREATE" if ch.is_thread else "CHANNEL_CREATE"
            data = ch.payload()
            if ch.is_thread:
                data["newly_created"] = True
            self._dispatch(event, data, intent=INTENT_GUILDS, guild=ch.guild)
        return ch

    # ---- reading what the bot did ------------------------------------------------------------

    def commands(self, guild: FakeGuild | None = None) -> list[dict[str, Any]]:
        """Registered application commands (global, or of ``guild``), as Discord stores them."""
        stored = self._global_commands if guild is None else self._guild_commands.get(guild.id, [])
        return copy.deepcopy(stored)

    def channel_messages(
        self,
        channel: FakeChannel,
        *,
        include_deleted: bool = False,
        include_ephemeral: bool = False,
    ) -> list[FakeMessage]:
        """Messages in a channel, oldest first (by default what every member sees)."""
        return [
            m
            for m in channel.messages
            if (include_deleted or not m.deleted) and (include_ephemeral or not m.ephemeral)
        ]

    def ephemeral_messages(self, user: FakeUser | FakeMember) -> list[FakeMessage]:
        uid = user.id
        return [
            m
            for m in self._messages.values()
            if m.ephemeral and m.ephemeral_user is not None and m.ephemeral_user.id == uid
        ]

    def message(self, message_id: str) -> FakeMessage:
        return self._messages[str(message_id)]

    def assert_clean(self) -> None:
        """Fail when the fake saw requests it did not understand or interactions expired."""
        assert not self.unhandled, f"requests the fake Discord did not understand: {self.unhandled}"
        assert not self.expired, f"interactions that were never answered: {self.expired}"

    # ---- waiting -----------------------------------------------------------------------------

    def _changed_event(self) -> asyncio.Event:
        if self._changed is None:
            self._changed = asyncio.Event()
        return self._changed

    def _notify(self) -> None:
        with contextlib.suppress(RuntimeError):
            self._last_activity = asyncio.get_running_loop().time()
        event = self._changed_event()
        self._changed = asyncio.Event()
        event.set()

    async def wait_for(
        self, predicate: Callable[[], Any], timeout: float = 5.0, what: str | None = None
    ) -> Any:
        """Wait until ``predicate()`` is truthy (re-checked on every change); return its value."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            value = predicate()
            if value:
                return value
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise AssertionError(f"timed out after {timeout}s waiting for {what or predicate}")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed_event().wait(), min(remaining, 0.05))

    async def settle(self, quiet: float = 0.05, timeout: float = 5.0) -> None:
        """Wait until no request is in flight, no gateway event is unsent, and ``quiet`` seconds
        passed without activity."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            now = loop.time()
            busy = self._inflight > 0 or not all(c.idle for c in self._conns)
            if not busy and now - self._last_activity >= quiet:
                return
            if now >= deadline:
                raise AssertionError(f"fake Discord still busy after {timeout}s")
            await asyncio.sleep(min(0.01, max(quiet / 4, 0.001)))

    async def wait_ready(self, timeout: float = 5.0) -> None:
        """Wait until a live gateway session got READY and its GUILD_CREATEs."""
        await self.wait_for(
            lambda: any(
                s.alive and s.ready and s.conn is not None and s.conn.idle for s in self._sessions
            ),
            timeout,
            "the bot to identify on the gateway",
        )

    # ---- fault injection ---------------------------------------------------------------------

    def fail_next(
        self,
        method: str,
        path: str,
        status: int | str = 429,
        *,
        retry_after: float = 0.2,
        times: int = 1,
        is_global: bool = False,
        code: int | None = None,
        message: str | None = None,
        applied: bool = False,
    ) -> None:
        """Fail the next ``times`` REST requests matching ``method`` and the glob ``path`` (relative
        to the API base, e.g. ``/channels/*/messages/*``).

        ``status``: 429 (with ``retry_after``), any HTTP error status, or ``"drop"`` (the
        connection is closed mid-request).  ``applied=True`` carries the request out first
        (the client never learns it worked).
        """
        if status != "drop" and not isinstance(status, int):
            raise ValueError("status must be an int or 'drop'")
        self._faults.append(
            _Fault(
                method.upper(), path, status, retry_after, times, is_global, code, message, applied
            )
        )

    def _take_fault(self, method: str, path: str) -> _Fault | None:
        for fault in self._faults:
            if fault.method in ("*", method) and fnmatch.fnmatchcase(path, fault.pattern):
                fault.times -= 1
                if fault.times <= 0:
                    self._faults.remove(fault)
                return fault
        return None

    async def drop_gateway(self, code: int | None = None) -> None:
        """Cut every gateway connection: abruptly (no close frame) or with close ``code``.
        The sessions stay resumable; events meanwhile are replayed on RESUME."""
        conns = [c for c in self._conns if not c.closed]
        if not conns:
            raise AssertionError("no gateway connection to drop")
        for conn in conns:
            conn.dropped = True
            conn.closed = True
            conn.queue.put_nowait(None)
            if conn.session is not None and conn.session.conn is conn:
                conn.session.conn = None
            if code is None:
                transport = conn.request.transport
                if transport is not None:
                    transport.abort()
            else:
                with contextlib.suppress(Exception):
                    await conn.ws.close(code=code, message=b"fake drop")
        self._notify()

    def reconnect_gateway(self) -> None:
        """Send op 7 RECONNECT (the bot should reconnect and resume)."""
        for conn in self._conns:
            if not conn.closed and conn.session is not None:
                conn.send({"op": 7, "d": None, "s": None, "t": None})

    def invalidate_sessions(self, resumable: bool = False) -> None:
        """Send op 9 INVALID_SESSION to every connected session."""
        for conn in self._conns:
            if not conn.closed and conn.session is not None:
                if not resumable:
                    conn.session.alive = False
                conn.send({"op": 9, "d": resumable, "s": None, "t": None})

    # ---- what users do -----------------------------------------------------------------------

    async def slash(
        self,
        member: FakeMember,
        channel: FakeChannel,
        command: str,
        *path: str,
        options: dict[str, Any] | None = None,
    ) -> FakeInteraction:
        """``member`` runs ``/command path... options`` in ``channel`` (INTERACTION_CREATE
        type 2).  The command must be registered and visible to the member."""
        data = self._command_data(member, channel, command, path, options or {}, focused=None)
        return await self._start_interaction(_COMMAND, member, channel, data)

    async def autocomplete(
        self,
        member: FakeMember,
        channel: FakeChannel,
        command: str,
        *path: str,
        options: dict[str, Any],
        focused: str,
    ) -> FakeInteraction:
        """``member`` types into option ``focused`` (INTERACTION_CREATE type 4)."""
        data = self._command_data(member, channel, command, path, options, focused=focused)
        return await self._start_interaction(_AUTOCOMPLETE, member, channel, data)

    async def press(
        self,
        member: FakeMember,
        message: FakeMessage | str,
        label: str | None = None,
        *,
        custom_id: str | None = None,
    ) -> FakeInteraction:
        """``member`` presses the button labelled ``label`` on ``message``, or sends a (possibly
        forged) press with a raw ``custom_id`` (INTERACTION_CREATE type 3)."""
        msg = self._usable_message(member, message)
        if label is not None:
            button = msg.button(label)
            if button.disabled:
                raise AssertionError(f"button {label!r} on message {msg.id} is disabled")
            if button.custom_id is None:
                raise AssertionError(f"button {label!r} is a link or premium button")
            custom_id = button.custom_id
        if custom_id is None:
            raise TypeError("press() needs a label or a custom_id")
        data = {"custom_id": custom_id, "component_type": 2}
        return await self._start_interaction(_COMPONENT, member, msg.channel, data, message=msg)

    async def select(
        self,
        member: FakeMember,
        message: FakeMessage | str,
        values: Sequence[str],
        *,
        custom_id: str | None = None,
        placeholder: str | None = None,
    ) -> FakeInteraction:
        """``member`` picks ``values`` in a string select menu (the only one, or by custom_id /
        placeholder)."""
        msg = self._usable_message(member, message)
        menus = [
            s
            for s in msg.selects
            if (custom_id is None or s.custom_id == custom_id)
            and (placeholder is None or s.placeholder == placeholder)
        ]
        if len(menus) != 1:
            raise LookupError(f"expected one matching select menu on {msg.id}, found {menus}")
        menu = menus[0]
        if menu.disabled:
            raise AssertionError(f"select menu {menu.custom_id!r} is disabled")
        if menu.type == 3:
            allowed = {o.get("value") for o in menu.options}
            bad = [v for v in values if v not in allowed]
            if bad:
                raise AssertionError(f"values {bad} are not options of {menu.custom_id!r}")
        lo, hi = menu.raw.get("min_values", 1), menu.raw.get("max_values", 1)
        if not lo <= len(values) <= hi:
            raise AssertionError(f"{len(values)} values chosen; the menu takes {lo}..{hi}")
        data = {"custom_id": menu.custom_id, "component_type": menu.type, "values": list(values)}
        return await self._start_interaction(_COMPONENT, member, msg.channel, data, message=msg)

    async def submit_modal(
        self, member: FakeMember, opened_by: FakeInteraction, values: dict[str, Any]
    ) -> FakeInteraction:
        """``member`` fills in and submits the modal the bot opened on ``opened_by``.
        ``values`` maps each input's custom_id to its text (or list of values for selects)."""
        modal = opened_by.modal
        if modal is None:
            raise AssertionError(f"the bot did not open a modal on interaction {opened_by.id}")
        used: set[str] = set()

        def answer(comp: dict[str, Any]) -> dict[str, Any]:
            out: dict[str, Any] = {"type": comp.get("type"), "id": comp.get("id")}
            cid = comp.get("custom_id")
            if comp.get("type") == 4:
                out["custom_id"] = cid
                out["value"] = str(values.get(cid, comp.get("value") or ""))
                used.add(cid)
            elif comp.get("type") in _SELECT_TYPES:
                out["custom_id"] = cid
                out["values"] = list(values.get(cid, []))
                used.add(cid)
            elif comp.get("type") == 1:
                out["components"] = [answer(c) for c in comp.get("components") or []]
            elif comp.get("type") == 18 and isinstance(comp.get("component"), dict):
                out["component"] = answer(comp["component"])
            return out

        components = [answer(c) for c in modal.get("components") or []]
        unknown = set(values) - used
        if unknown:
            raise AssertionError(f"the modal has no inputs {sorted(unknown)}")
        data = {"custom_id": modal.get("custom_id"), "components": components}
        return await self._start_interaction(
            _MODAL_SUBMIT, member, opened_by.channel, data, message=opened_by.message
        )

    async def say(self, member: FakeMember, channel: FakeChannel, content: str) -> FakeMessage:
        """``member`` posts a plain message (MESSAGE_CREATE; the content reaches the bot only
        with the message_content intent, or when it mentions the bot)."""
        msg = self._new_message(channel, member.user, {"content": content}, {}, msg_type=0)
        await asyncio.sleep(0)
        return msg

    def _usable_message(self, member: FakeMember, message: FakeMessage | str) -> FakeMessage:
        msg = message if isinstance(message, FakeMessage) else self._messages[str(message)]
        if msg.deleted:
            raise AssertionError(f"message {msg.id} was deleted")
        if msg.ephemeral and (msg.ephemeral_user is None or msg.ephemeral_user.id != member.id):
            raise AssertionError(f"{member.name} cannot see ephemeral message {msg.id}")
        if member.id not in msg.channel.guild.members:
            raise AssertionError(f"{member.name} is not a member of {msg.channel.guild.name}")
        return msg

    def _find_command(
        self, name: str, guild: FakeGuild, ctype: int = 1
    ) -> tuple[dict[str, Any], bool]:
        for cmd in self._guild_commands.get(guild.id, []):
            if cmd["name"] == name and cmd.get("type", 1) == ctype:
                return cmd, True
        for cmd in self._global_commands:
            if cmd["name"] == name and cmd.get("type", 1) == ctype:
                return cmd, False
        known = [c["name"] for c in self._global_commands + self._guild_commands.get(guild.id, [])]
        raise AssertionError(f"/{name} is not a registered command (registered: {known})")

    def _command_data(
        self,
        member: FakeMember,
        channel: FakeChannel,
        command: str,
        path: Sequence[str],
        options: dict[str, Any],
        *,
        focused: str | None,
    ) -> dict[str, Any]:
        guild = channel.guild
        if member.id not in guild.members:
            raise AssertionError(f"{member.name} is not a member of {guild.name}")
        cmd, is_guild_cmd = self._find_command(command, guild)
        needed = cmd.get("default_member_permissions")
        if needed is not None and (member.permissions & int(needed)) != int(needed):
            raise AssertionError(
                f"{member.name} cannot see /{command} (default_member_permissions)"
            )
        chain: list[dict[str, Any]] = []
        schema = cmd.get("options") or []
        for step in path:
            sub = next((o for o in schema if o.get("name") == step and o["type"] in (1, 2)), None)
            if sub is None:
                raise AssertionError(f"/{command} has no subcommand {step!r} at {chain}")
            chain.append(sub)
            schema = sub.get("options") or []
        if any(o.get("type") in (1, 2) for o in schema):
            raise AssertionError(f"/{command} {' '.join(path)} needs a subcommand")
        leaf, resolved = self._encode_options(schema, options, guild, focused)
        for sub in reversed(chain):
            leaf = [{"name": sub["name"], "type": sub["type"], "options": leaf}]
        data: dict[str, Any] = {"id": cmd["id"], "name": cmd["name"], "type": 1, "options": leaf}
        if is_guild_cmd:
            data["guild_id"] = guild.id
        if resolved:
            data["resolved"] = resolved
        return data

    def _encode_options(
        self,
        schema: list[dict[str, Any]],
        given: dict[str, Any],
        guild: FakeGuild,
        focused: str | None,
    ) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        out: list[dict[str, Any]] = []
        resolved: dict[str, dict[str, Any]] = {}
        by_name = {o["name"]: o for o in schema}
        for name, value in given.items():
            opt = by_name.get(name)
            if opt is None:
                raise AssertionError(f"no option {name!r}; options are {list(by_name)}")
            otype = opt["type"]
            entry: dict[str, Any] = {"name": name, "type": otype}
            if name == focused:
                entry["value"] = str(value)
                entry["focused"] = True
            elif otype in (6, 9) and isinstance(value, FakeMember | FakeUser):
                user = value.user if isinstance(value, FakeMember) else value
                entry["value"] = user.id
                resolved.setdefault("users", {})[user.id] = user.payload()
                member = guild.members.get(user.id)
                if member is not None:
                    mdata = member.payload()
                    del mdata["user"]
                    mdata["permissions"] = str(member.permissions)
                    resolved.setdefault("members", {})[user.id] = mdata
            elif otype == 7 and isinstance(value, FakeChannel):
                entry["value"] = value.id
                resolved.setdefault("channels", {})[value.id] = {
                    **value.payload(),
                    "permissions": str(ALL_PERMISSIONS),
                }
            elif otype in (8, 9) and isinstance(value, FakeRole):
                entry["value"] = value.id
                resolved.setdefault("roles", {})[value.id] = value.payload()
            elif _option_value_ok(otype, value):
                entry["value"] = value
            else:
                raise AssertionError(f"option {name!r} (type {otype}) cannot take {value!r}")
            choices = opt.get("choices")
            if choices and name != focused and value not in [c["value"] for c in choices]:
                raise AssertionError(f"{value!r} is not a choice of option {name!r}")
            out.append(entry)
        missing = [o["name"] for o in schema if o.get("required") and o["name"] not in given]
        if missing and focused is None:
            raise AssertionError(f"required options missing: {missing}")
        return out, resolved

    async def _start_interaction(
        self,
        itype: int,
        member: FakeMember,
        channel: FakeChannel,
        data: dict[str, Any],
        *,
        message: FakeMessage | None = None,
    ) -> FakeInteraction:
        guild = channel.guild
        perms = member.permissions
        bot_perms = guild.members[self.bot_user.id].permissions
        iid = self._sf()
        token = "fake_interaction_token_" + secrets.token_urlsafe(24)
        payload: dict[str, Any] = {
            "id": iid,
            "application_id": self.application_id,
            "type": itype,
            "data": data,
            "guild_id": guild.id,
            "guild": {"id": guild.id, "locale": guild.locale, "features": []},
            "channel_id": channel.id,
            "channel": {**channel.payload(), "permissions": str(perms)},
            "member": {**member.payload(), "permissions": str(perms)},
            "token": token,
            "version": 1,
            "app_permissions": str(bot_perms),
            "locale": member.locale,
            "guild_locale": guild.locale,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "authorizing_integration_owners": {"0": guild.id},
            "context": 0,
            "attachment_size_limit": self.attachment_size_limit,
        }
        if message is not None:
            payload["message"] = self._message_payload(message)
        inter = FakeInteraction(
            self,
            id=iid,
            token=token,
            type=itype,
            member=member,
            channel=channel,
            data=data,
            payload=payload,
            message=message,
        )
        self._interactions[iid] = inter
        self._by_token[token] = inter
        self.interactions.append(inter)
        loop = asyncio.get_running_loop()
        inter._timer = loop.call_later(self.interaction_timeout, self._expire, inter)
        self._dispatch("INTERACTION_CREATE", payload, guild=guild)  # to the guild's shard only
        await asyncio.sleep(0)
        return inter

    def _expire(self, inter: FakeInteraction) -> None:
        if inter.response is None:
            inter.expired = True
            self.expired.append(inter)
            self._notify()

    # ---- gateway -----------------------------------------------------------------------------

    def _dispatch(
        self,
        event: str,
        data: dict[str, Any] | Callable[[_Session], dict[str, Any] | None],
        *,
        intent: int | None = None,
        guild: FakeGuild | None = None,
        ready_only: bool = False,
    ) -> None:
        """Send a DISPATCH to every live session (queued in its log when disconnected)."""
        for sess in self._sessions:
            if not sess.alive or (ready_only and not sess.ready):
                continue
            if intent is not None and not sess.intents & intent:
                continue
            if guild is not None and not self._in_shard(guild, sess):
                continue
            d = data(sess) if callable(data) else copy.deepcopy(data)
            if d is not None:
                self._send_dispatch(sess, event, d)

    def _send_dispatch(self, sess: _Session, event: str, data: dict[str, Any]) -> None:
        sess.seq += 1
        msg = {"op": 0, "s": sess.seq, "t": event, "d": data}
        sess.log.append(msg)
        if sess.conn is not None:
            sess.conn.send(msg)

    @staticmethod
    def _in_shard(guild: FakeGuild, sess: _Session) -> bool:
        if not sess.shard:
            return True
        shard_id, count = sess.shard
        return (int(guild.id) >> 22) % count == shard_id

    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(compress=False, max_msg_size=1 << 20)
        await ws.prepare(request)
        query = request.query
        compress = query.get("compress", "")
        conn = _Conn(self, ws, request, compress)
        self._conns.append(conn)
        try:
            if query.get("v") != str(API_VERSION):
                self.unhandled.append(f"gateway: API version {query.get('v')!r}")
                await ws.close(code=4012, message=b"Invalid API version")
                return ws
            if query.get("encoding", "json") != "json":
                self.unhandled.append(f"gateway: encoding {query.get('encoding')!r}")
                await ws.close(code=4002, message=b"Decode error")
                return ws
            if compress not in ("", "zlib-stream", "zstd-stream") or (
                compress == "zstd-stream" and zstandard is None
            ):
                self.unhandled.append(f"gateway: compress {compress!r}")
                await ws.close(code=4000, message=b"Unknown compression")
                return ws
            conn.send(
                {
                    "op": 10,
                    "s": None,
                    "t": None,
                    "d": {
                        "heartbeat_interval": self.heartbeat_interval_ms,
                        "_trace": ["fake-discord"],
                    },
                }
            )
            async for msg in ws:
                if msg.type == WSMsgType.TEXT:
                    try:
                        payload = json.loads(msg.data)
                    except ValueError:
                        self.unhandled.append(f"gateway: undecodable {msg.data[:80]!r}")
                        await ws.close(code=4002, message=b"Decode error")
                        break
                    await self._gateway_op(conn, payload)
                else:
                    self.unhandled.append(f"gateway: unexpected {msg.type.name} frame")
                    await ws.close(code=4002, message=b"Decode error")
                    break
        finally:
            conn.closed = True
            conn.queue.put_nowait(None)
            sess = conn.session
            if sess is not None and sess.conn is conn:
                sess.conn = None
                if not conn.dropped and ws.close_code in (1000, 1001):
                    sess.alive = False  # a clean close ends the session
            self._notify()
        return ws

    async def _gateway_op(self, conn: _Conn, payload: dict[str, Any]) -> None:
        op = payload.get("op")
        d = payload.get("d")
        if op == 1:
            conn.send({"op": 11, "d": None, "s": None, "t": None})
            return
        self._notify()
        if op == 2:
            await self._identify(conn, d or {})
        elif op == 6:
            await self._resume(conn, d or {})
        elif op == 3:
            self.presences.append(d or {})
        elif op == 8:
            self._request_members(conn, d or {})
        elif op == 4:
            self.unhandled.append(f"gateway: voice state update {d}")
        else:
            self.unhandled.append(f"gateway: op {op}")
            await conn.ws.close(code=4001, message=b"Unknown opcode")

    def _token_ok(self, token: Any) -> bool:
        token = str(token or "")
        return token.removeprefix("Bot ") == self.token

    async def _identify(self, conn: _Conn, d: dict[str, Any]) -> None:
        if conn.session is not None:
            await conn.ws.close(code=4005, message=b"Already authenticated")
            return
        if not self._token_ok(d.get("token")):
            await conn.ws.close(code=4004, message=b"Authentication failed")
            return
        intents = d.get("intents")
        if not isinstance(intents, int) or intents & ~ALL_INTENTS:
            await conn.ws.close(code=4013, message=b"Invalid intent(s)")
            return
        if intents & ~self.allowed_intents:
            await conn.ws.close(code=4014, message=b"Disallowed intent(s)")
            return
        shard = d.get("shard")
        sess = _Session(secrets.token_hex(16), intents, shard)
        self._sessions.append(sess)
        sess.conn = conn
        conn.session = sess
        self.identifies += 1
        guilds = [g for g in self._guilds.values() if self._in_shard(g, sess)]
        flags = _APP_FLAG_COMMAND_BADGE
        for bit, flag in _APP_FLAG_FOR_INTENT.items():
            if self.allowed_intents & bit:
                flags |= flag
        user = {
            **self.bot_user.payload(),
            "verified": True,
            "mfa_enabled": False,
            "flags": 0,
            "email": None,
        }
        ready: dict[str, Any] = {
            "v": API_VERSION,
            "user": user,
            "guilds": [{"id": g.id, "unavailable": True} for g in guilds],
            "session_id": sess.id,
            "session_type": "normal",
            "resume_gateway_url": self.resume_gateway_url,
            "application": {"id": self.application_id, "flags": flags},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "user_settings": {},
            "geo_ordered_rtc_regions": ["fake"],
            "_trace": ["fake-discord"],
        }
        if shard:
            ready["shard"] = shard
        self._send_dispatch(sess, "READY", ready)
        if intents & INTENT_GUILDS:
            for g in guilds:
                self._send_dispatch(sess, "GUILD_CREATE", self._guild_create_payload(g, sess))
        sess.ready = True

    async def _resume(self, conn: _Conn, d: dict[str, Any]) -> None:
        sess = next((s for s in self._sessions if s.id == d.get("session_id")), None)
        if not self._token_ok(d.get("token")):
            await conn.ws.close(code=4004, message=b"Authentication failed")
            return
        if sess is None or not sess.alive:
            conn.send({"op": 9, "d": False, "s": None, "t": None})
            return
        old = sess.conn
        if old is not None and old is not conn:
            old.session = None
            old.closed = True
            old.queue.put_nowait(None)
            with contextlib.suppress(Exception):
                await old.ws.close(code=4000, message=b"Session resumed elsewhere")
        sess.conn = conn
        conn.session = sess
        seq = d.get("seq") or 0
        for msg in sess.log:
            if msg["s"] > seq:
                conn.send(msg)
        self._send_dispatch(sess, "RESUMED", {"_trace": ["fake-discord"]})
        self.resumes += 1

    def _request_members(self, conn: _Conn, d: dict[str, Any]) -> None:
        sess = conn.session
        guild = self._guilds.get(str(d.get("guild_id")))
        if sess is None or guild is None:
            self.unhandled.append(f"gateway: request members {d}")
            return
        members = list(guild.members.values())
        if d.get("user_ids"):
            ids = {str(u) for u in d["user_ids"]}
            members = [m for m in members if m.id in ids]
        elif d.get("query"):
            members = [m for m in members if m.name.startswith(str(d["query"]).lower())]
        if d.get("limit"):
            members = members[: int(d["limit"])]
        data = {
            "guild_id": guild.id,
            "members": [m.payload() for m in members],
            "chunk_index": 0,
            "chunk_count": 1,
            "presences": [],
        }
        if d.get("nonce") is not None:
            data["nonce"] = d["nonce"]
        self._send_dispatch(sess, "GUILD_MEMBERS_CHUNK", data)

    def _guild_create_payload(self, guild: FakeGuild, sess: _Session) -> dict[str, Any]:
        if sess.intents & INTENT_GUILD_MEMBERS:
            members = list(guild.members.values())
        else:  # without the members intent Discord sends only the bot itself
            members = [guild.members[self.bot_user.id]]
        text = guild.text_channels
        return {
            "id": guild.id,
            "name": guild.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": guild.owner_id,
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [r.payload() for r in guild.roles.values()],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "application_id": None,
            "system_channel_id": text[0].id if text else None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "max_members": 500000,
            "vanity_url_code": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "premium_progress_bar_enabled": False,
            "preferred_locale": guild.locale,
            "nsfw_level": 0,
            "nsfw": False,
            "joined_at": _iso(guild.joined_at),
            "large": False,
            "unavailable": False,
            "lazy": True,
            "member_count": len(guild.members),
            "members": [m.payload() for m in members],
            "voice_states": [],
            "presences": [],
            "channels": [c.payload() for c in guild.channels if not c.is_thread],
            "threads": [c.payload() for c in guild.threads],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }

    # ---- REST plumbing -----------------------------------------------------------------------

    def _route_table(self) -> list[tuple[set[str], re.Pattern[str], Callable[..., Any], bool]]:
        app = r"/applications/(?P<app>\d+)(?:/guilds/(?P<guild>\d+))?/commands"
        hook = r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)"
        chan = r"/channels/(?P<cid>\d+)"
        table: list[tuple[str, str, Callable[..., Any], bool]] = [
            ("GET", r"/users/@me", self._r_me, True),
            ("GET", r"/users/(?P<uid>\d+)", self._r_user, True),
            ("GET", r"/oauth2/applications/@me", self._r_app, True),
            ("GET", r"/applications/@me", self._r_app, True),
            ("GET", r"/gateway", self._r_gateway, False),
            ("GET", r"/gateway/bot", self._r_gateway_bot, True),
            ("GET PUT POST", app, self._r_commands, True),
            ("GET PATCH DELETE", app + r"/(?P<cmd>\d+)", self._r_command, True),
            (
                "POST",
                r"/interactions/(?P<iid>\d+)/(?P<token>[^/]+)/callback",
                self._r_callback,
                False,
            ),
            ("POST", hook, self._r_followup, False),
            (
                "GET PATCH DELETE",
                hook + r"/messages/(?P<mid>@original|\d+)",
                self._r_hook_message,
                False,
            ),
            ("GET", chan, self._r_channel, True),
            ("GET POST", chan + r"/messages", self._r_channel_messages, True),
            ("GET PATCH DELETE", chan + r"/messages/(?P<mid>\d+)", self._r_channel_message, True),
            (
                "PUT DELETE",
                chan + r"/messages/(?P<mid>\d+)/reactions/(?P<emoji>[^/]+)/@me",
                self._r_reaction,
                True,
            ),
            ("POST", chan + r"/typing", self._r_typing, True),
            ("POST", chan + r"(?:/messages/(?P<mid>\d+))?/threads", self._r_create_thread, True),
            ("GET", r"/guilds/(?P<gid>\d+)", self._r_guild, True),
            ("GET", r"/guilds/(?P<gid>\d+)/channels", self._r_guild_channels, True),
            ("GET", r"/guilds/(?P<gid>\d+)/roles", self._r_guild_roles, True),
            ("GET", r"/guilds/(?P<gid>\d+)/members/(?P<uid>\d+)", self._r_member, True),
        ]
        return [(set(m.split()), re.compile(p), h, auth) for m, p, h, auth in table]

    def _headers(self, bucket: str, *, limited: float | None = None) -> dict[str, str]:
        now = time.time()
        reset_after = limited if limited is not None else 1.0
        return {
            "Content-Type": "application/json",
            "X-RateLimit-Bucket": bucket,
            "X-RateLimit-Limit": "50",
            "X-RateLimit-Remaining": "0" if limited is not None else "49",
            "X-RateLimit-Reset": f"{now + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
        }

    def _json(self, status: int, body: Any, bucket: str, **extra: str) -> web.Response:
        headers = self._headers(bucket)
        headers.update(extra)
        if body is None:
            del headers["Content-Type"]
            return web.Response(status=status, headers=headers)
        return web.Response(status=status, body=json.dumps(body).encode(), headers=headers)

    async def _read_body(
        self, request: web.Request
    ) -> tuple[Any, dict[int, tuple[str, bytes, str | None]]]:
        ctype = request.headers.get("Content-Type", "")
        files: dict[int, tuple[str, bytes, str | None]] = {}
        if ctype.startswith("multipart/form-data"):
            body: Any = None
            reader = await request.multipart()
            async for part in reader:
                name = getattr(part, "name", None) or ""
                if name == "payload_json":
                    body = json.loads(await part.text())  # type: ignore[union-attr]
                    continue
                m = re.fullmatch(r"files\[(\d+)\]|file(\d*)", name)
                if m is None:
                    self.unhandled.append(f"multipart field {name!r}")
                    continue
                index = int(m.group(1) or m.group(2) or 0)
                filename = getattr(part, "filename", None) or f"file{index}"
                content = await part.read()  # type: ignore[union-attr]
                files[index] = (filename, bytes(content), None)
            return body, files
        raw = await request.read()
        if not raw:
            return None, files
        try:
            return json.loads(raw), files
        except ValueError:
            raise _ApiError(400, 50109, "The request body contains invalid JSON.") from None

    async def _http(self, request: web.Request) -> web.StreamResponse:
        path = request.path
        if path.startswith("/attachments/"):
            return self._serve_attachment(path)
        prefix = f"/api/v{API_VERSION}"
        sub = path[len(prefix) :] if path.startswith(prefix + "/") else None
        method = request.method
        self._inflight += 1
        self._notify()
        record = FakeRequest(method, sub or path, dict(request.query), None, [])
        self.requests.append(record)
        try:
            response = await self._http_inner(request, method, sub, record)
            record.status = response.status
            return response
        finally:
            self._inflight -= 1
            self._notify()

    async def _http_inner(
        self, request: web.Request, method: str, sub: str | None, record: FakeRequest
    ) -> web.StreamResponse:
        bucket = "fake-unknown"
        if sub is None:
            self.unhandled.append(f"{method} {request.path}")
            return self._json(404, {"message": "404: Not Found", "code": 0}, bucket)
        route = None
        path_matched = False
        for methods, pattern, handler, auth in self._routes:
            m = pattern.fullmatch(sub)
            if m is None:
                continue
            path_matched = True
            if method in methods:
                route = (m, handler, auth, pattern.pattern)
                break
        if route is None:
            self.unhandled.append(f"{method} {sub}")
            if path_matched:
                return self._json(405, {"message": "405: Method Not Allowed", "code": 0}, bucket)
            return self._json(404, {"message": "404: Not Found", "code": 0}, bucket)
        match, handler, auth, pattern = route
        bucket = f"{zlib.crc32(f'{method} {pattern}'.encode()):08x}"
        try:
            body, files = await self._read_body(request)
            record.body = body
            record.files = [(f"files[{i}]", name, data) for i, (name, data, _) in files.items()]
            if auth and request.headers.get("Authorization") != f"Bot {self.token}":
                return self._json(401, {"message": "401: Unauthorized", "code": 0}, bucket)
            fault = self._take_fault(method, sub)
            if fault is not None and not fault.applied:
                return await self._fault_response(request, fault, bucket)
            ctx = _Ctx(
                method,
                {k: v for k, v in match.groupdict().items() if v is not None},
                body,
                files,
                dict(request.query),
            )
            status, out = handler(ctx)
            if fault is not None:
                return await self._fault_response(request, fault, bucket)
            return self._json(status, out, bucket)
        except _ApiError as exc:
            return self._json(exc.status, exc.body(), bucket)

    async def _fault_response(
        self, request: web.Request, fault: _Fault, bucket: str
    ) -> web.StreamResponse:
        if fault.status == "drop":
            if request.transport is not None:
                request.transport.abort()
            raise asyncio.CancelledError
        status = int(fault.status)
        if status == 429:
            body = {
                "message": fault.message or "You are being rate limited.",
                "retry_after": fault.retry_after,
                "global": fault.is_global,
            }
            if fault.code is not None:
                body["code"] = fault.code
            headers = self._headers(bucket, limited=fault.retry_after)
            headers.update(
                {
                    "Via": "1.1 google",
                    "Retry-After": str(max(1, math.ceil(fault.retry_after))),
                    "X-RateLimit-Scope": "global" if fault.is_global else "user",
                }
            )
            if fault.is_global:
                headers["X-RateLimit-Global"] = "true"
            return web.Response(status=429, body=json.dumps(body).encode(), headers=headers)
        default = {
            500: "500: Internal Server Error",
            502: "502: Bad Gateway",
            503: "503: Service Unavailable",
            504: "504: Gateway Timeout",
        }
        body = {
            "message": fault.message or default.get(status, f"{status}: Fake error"),
            "code": fault.code if fault.code is not None else 0,
        }
        return self._json(status, body, bucket)

    def _serve_attachment(self, path: str) -> web.StreamResponse:
        parts = path.split("/")
        att = self._attachments.get(parts[3]) if len(parts) >= 5 else None
        if att is None:
            self.unhandled.append(f"GET {path}")
            return web.Response(status=404)
        return web.Response(
            body=att.data, headers={"Content-Type": att.content_type or "application/octet-stream"}
        )

    # ---- REST: users, application, gateway ---------------------------------------------------

    def _r_me(self, ctx: _Ctx) -> tuple[int, Any]:
        data = self.bot_user.payload()
        data.update(
            verified=True,
            mfa_enabled=False,
            flags=0,
            email=None,
            locale="en-US",
            banner=None,
            accent_color=None,
        )
        return 200, data

    def _r_user(self, ctx: _Ctx) -> tuple[int, Any]:
        user = self._users.get(ctx.params["uid"])
        if user is None:
            raise _ApiError(404, 10013, "Unknown User")
        return 200, user.payload()

    def _r_app(self, ctx: _Ctx) -> tuple[int, Any]:
        flags = _APP_FLAG_COMMAND_BADGE
        for bit, flag in _APP_FLAG_FOR_INTENT.items():
            if self.allowed_intents & bit:
                flags |= flag
        return 200, {
            "id": self.application_id,
            "name": self.bot_user.username,
            "icon": None,
            "description": "",
            "summary": "",
            "type": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "verify_key": "0" * 64,
            "owner": self.owner.payload(),
            "team": None,
            "flags": flags,
            "rpc_origins": [],
            "redirect_uris": [],
            "interactions_endpoint_url": None,
            "approximate_guild_count": len(self._guilds),
            "bot": self.bot_user.payload(),
            "tags": [],
        }

    def _r_gateway(self, ctx: _Ctx) -> tuple[int, Any]:
        return 200, {"url": self.gateway_url}

    def _r_gateway_bot(self, ctx: _Ctx) -> tuple[int, Any]:
        return 200, {
            "url": self.gateway_url,
            "shards": 1,
            "session_start_limit": {
                "total": 1000,
                "remaining": 1000 - self.identifies,
                "reset_after": 86_400_000,
                "max_concurrency": 1,
            },
        }

    # ---- REST: application commands ----------------------------------------------------------

    def _command_scope(self, ctx: _Ctx) -> tuple[list[dict[str, Any]], FakeGuild | None]:
        if ctx.params["app"] != self.application_id:
            raise _ApiError(403, 50001, "Missing Access")
        gid = ctx.params.get("guild")
        if gid is None:
            return self._global_commands, None
        guild = self._guilds.get(gid)
        if guild is None:
            raise _ApiError(403, 50001, "Missing Access")
        return self._guild_commands.setdefault(gid, []), guild

    def _r_commands(self, ctx: _Ctx) -> tuple[int, Any]:
        stored, guild = self._command_scope(ctx)
        if ctx.method == "GET":
            return 200, copy.deepcopy(stored)
        if ctx.method == "PUT":
            if not isinstance(ctx.body, list):
                raise _ApiError(
                    400,
                    50035,
                    "Invalid Form Body",
                    {"_errors": [{"code": "BASE_TYPE_ARRAY", "message": "Not an array"}]},
                )
            _validate_commands(ctx.body)
            new = [self._store_command(c, stored, guild) for c in ctx.body]
            stored[:] = new
            self._notify()
            return 200, copy.deepcopy(new)
        # POST: create or overwrite one command
        if not isinstance(ctx.body, dict):
            raise _ApiError(400, 50035, "Invalid Form Body")
        others = [
            c
            for c in stored
            if not (c["name"] == ctx.body.get("name") and c["type"] == ctx.body.get("type", 1))
        ]
        _validate_commands([*others, ctx.body], only=len(others))
        cmd = self._store_command(ctx.body, stored, guild)
        existed = len(others) != len(stored)
        stored[:] = [*others, cmd]
        self._notify()
        return (200 if existed else 201), copy.deepcopy(cmd)

    def _r_command(self, ctx: _Ctx) -> tuple[int, Any]:
        stored, guild = self._command_scope(ctx)
        cmd = next((c for c in stored if c["id"] == ctx.params["cmd"]), None)
        if cmd is None:
            raise _ApiError(404, 10063, "Unknown application command")
        if ctx.method == "GET":
            return 200, copy.deepcopy(cmd)
        if ctx.method == "DELETE":
            stored.remove(cmd)
            self._notify()
            return 204, None
        merged = {**cmd, **(ctx.body or {})}
        others = [c for c in stored if c is not cmd]
        _validate_commands([*others, merged], only=len(others))
        new = self._store_command(merged, stored, guild)
        stored[stored.index(cmd)] = new
        self._notify()
        return 200, copy.deepcopy(new)

    def _store_command(
        self, body: dict[str, Any], stored: list[dict[str, Any]], guild: FakeGuild | None
    ) -> dict[str, Any]:
        ctype = body.get("type", 1)
        old = next((c for c in stored if c["name"] == body["name"] and c["type"] == ctype), None)
        cmd: dict[str, Any] = {
            "id": old["id"] if old else self._sf(),
            "application_id": self.application_id,
            "version": self._sf(),
            "type": ctype,
            "name": body["name"],
            "name_localizations": body.get("name_localizations"),
            "description": body.get("description", ""),
            "description_localizations": body.get("description_localizations"),
            "default_member_permissions": body.get("default_member_permissions"),
            "contexts": body.get("contexts"),
            "integration_types": body.get("integration_types") or [0],
            "nsfw": bool(body.get("nsfw", False)),
        }
        if body.get("options"):
            cmd["options"] = copy.deepcopy(body["options"])
        if guild is not None:
            cmd["guild_id"] = guild.id
        else:
            cmd["dm_permission"] = body.get("dm_permission", True)
        return cmd

    # ---- REST: interactions and their webhooks -----------------------------------------------

    def _r_callback(self, ctx: _Ctx) -> tuple[int, Any]:
        inter = self._interactions.get(ctx.params["iid"])
        if inter is None or inter.expired:
            raise _ApiError(404, 10062, "Unknown interaction")
        if inter.token != ctx.params["token"]:
            raise _ApiError(401, 50027, "Invalid Webhook Token")
        if inter.response is not None:
            raise _ApiError(400, 40060, "Interaction has already been acknowledged.")
        body = ctx.body if isinstance(ctx.body, dict) else {}
        rtype = body.get("type")
        data = body.get("data") if isinstance(body.get("data"), dict) else {}
        allowed = {
            _COMMAND: {4, 5, 9},
            _COMPONENT: {4, 5, 6, 7, 9},
            _AUTOCOMPLETE: {8},
            _MODAL_SUBMIT: {4, 5, 6, 7} if inter.message is not None else {4, 5},
        }[inter.type]
        if rtype not in allowed:
            raise _ApiError(
                400,
                50035,
                "Invalid Form Body",
                {
                    "type": {
                        "_errors": [
                            {
                                "code": "INTERACTION_RESPONSE_TYPE_INVALID",
                                "message": f"Interaction response type {rtype} is not valid here",
                            }
                        ]
                    }
                },
            )
        message: FakeMessage | None = None
        if rtype == CHANNEL_MESSAGE:
            message = self._interaction_message(inter, data, ctx.files)
            inter._original = message
        elif rtype == DEFERRED_CHANNEL_MESSAGE:
            flags = FLAG_LOADING | (int(data.get("flags") or 0) & FLAG_EPHEMERAL)
            message = self._interaction_message(inter, {"flags": flags}, {}, loading=True)
            inter._original = message
        elif rtype == DEFERRED_UPDATE_MESSAGE:
            message = inter.message
            inter._original = message
        elif rtype == UPDATE_MESSAGE:
            assert inter.message is not None
            message = inter.message
            self._edit_message(message, data, ctx.files)
            inter._original = message
        elif rtype == AUTOCOMPLETE_RESULT:
            errs = _Errors()
            choices = data.get("choices") or []
            if len(choices) > 25:
                errs.add(
                    ["data", "choices"], "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length."
                )
            for i, ch in enumerate(choices):
                errs.length(["data", "choices", i, "name"], ch.get("name"), 1, 100, required=True)
            errs.raise_if_any()
            inter.choices = choices
        elif rtype == MODAL:
            _validate_modal(data)
            inter.modal = copy.deepcopy(data)
        inter.response = FakeResponse(rtype, copy.deepcopy(body.get("data")), message, time.time())
        if inter._timer is not None:
            inter._timer.cancel()
        inter._answered.set()
        self._notify()
        if ctx.query.get("with_response") not in ("1", "true", "True"):
            return 204, None
        resp_msg = message if rtype in (4, 5, 6, 7) else None
        summary: dict[str, Any] = {"id": inter.id, "type": inter.type}
        if resp_msg is not None:
            summary.update(
                response_message_id=resp_msg.id,
                response_message_loading=resp_msg.loading,
                response_message_ephemeral=resp_msg.ephemeral,
            )
        resource: dict[str, Any] = {"type": rtype}
        if resp_msg is not None and rtype != DEFERRED_UPDATE_MESSAGE:
            resource["message"] = self._message_payload(resp_msg)
        return 200, {"interaction": summary, "resource": resource}

    def _hook_interaction(self, ctx: _Ctx) -> FakeInteraction:
        inter = self._by_token.get(ctx.params["token"])
        if ctx.params["app"] != self.application_id or inter is None:
            raise _ApiError(404, 10015, "Unknown Webhook")
        return inter

    def _r_followup(self, ctx: _Ctx) -> tuple[int, Any]:
        inter = self._hook_interaction(ctx)
        if inter.response is None or inter.response.type in (AUTOCOMPLETE_RESULT, MODAL):
            raise _ApiError(404, 10015, "Unknown Webhook")
        body = ctx.body if isinstance(ctx.body, dict) else {}
        original = inter._original
        if (
            inter.response.type == DEFERRED_CHANNEL_MESSAGE
            and not inter._loading_replaced
            and original is not None
            and not original.deleted
        ):
            # The first follow-up after a "thinking" defer replaces the loading message (keeping
            # the defer's ephemerality).
            inter._loading_replaced = True
            data = dict(body)
            data["flags"] = (int(body.get("flags") or 0) & ~FLAG_EPHEMERAL) | (
                original.flags & FLAG_EPHEMERAL
            )
            self._edit_message(original, data, ctx.files, finish_loading=True)
            message = original
        else:
            message = self._interaction_message(inter, body, ctx.files, followup=True)
        inter.followups.append(message)
        self._notify()
        if ctx.query.get("wait") in ("1", "true", "True"):
            return 200, self._message_payload(message)
        return 204, None

    def _r_hook_message(self, ctx: _Ctx) -> tuple[int, Any]:
        inter = self._hook_interaction(ctx)
        mid = ctx.params["mid"]
        if mid == "@original":
            message = inter._original
        else:
            message = next((m for m in inter.messages if m.id == mid), None)
            if message is None and inter._original is not None and inter._original.id == mid:
                message = inter._original
        if message is None or message.deleted:
            raise _ApiError(404, 10008, "Unknown Message")
        if ctx.method == "GET":
            return 200, self._message_payload(message)
        if ctx.method == "DELETE":
            self._delete_message(message)
            return 204, None
        body = dict(ctx.body) if isinstance(ctx.body, dict) else {}
        finish = message.loading
        if finish and inter._original is message:
            inter._loading_replaced = True
        self._edit_message(message, body, ctx.files, finish_loading=finish)
        return 200, self._message_payload(message)

    def _interaction_message(
        self,
        inter: FakeInteraction,
        data: dict[str, Any],
        files: dict[int, tuple[str, bytes, str | None]],
        *,
        followup: bool = False,
        loading: bool = False,
    ) -> FakeMessage:
        flags = int(data.get("flags") or 0)
        ephemeral = bool(flags & FLAG_EPHEMERAL)
        meta: dict[str, Any] = {
            "id": inter.id,
            "type": inter.type,
            "user": inter.user.payload(),
            "authorizing_integration_owners": {"0": inter.channel.guild.id},
        }
        if inter.type == _COMMAND:
            meta["name"] = inter.data.get("name")
            meta["command_type"] = 1
        if inter.message is not None:
            meta["interacted_message_id"] = inter.message.id
        if followup and inter._original is not None:
            meta["original_response_message_id"] = inter._original.id
        msg_type = 20 if inter.type == _COMMAND and not followup else 0
        return self._new_message(
            inter.channel,
            self.bot_user,
            data,
            files,
            msg_type=msg_type,
            webhook=True,
            ephemeral_user=inter.user if ephemeral else None,
            interaction=inter,
            extra={"interaction_metadata": meta},
            allow_flags=FLAG_EPHEMERAL | (FLAG_LOADING if loading else 0),
            loading=loading,
        )

    # ---- REST: channels, messages, guilds ----------------------------------------------------

    def _channel(self, ctx: _Ctx) -> FakeChannel:
        ch = self._channels.get(ctx.params["cid"])
        if ch is None:
            raise _ApiError(404, 10003, "Unknown Channel")
        return ch

    def _bot_can(self, ch: FakeChannel, *names: str) -> None:
        perms = ch.guild.members[self.bot_user.id].permissions
        if not all(perms & PERMISSIONS[n] for n in names):
            raise _ApiError(403, 50013, "Missing Permissions")

    def _channel_msg(self, ctx: _Ctx, ch: FakeChannel) -> FakeMessage:
        msg = self._messages.get(ctx.params["mid"])
        if msg is None or msg.channel is not ch or msg.deleted or msg.ephemeral:
            raise _ApiError(404, 10008, "Unknown Message")
        return msg

    def _r_channel(self, ctx: _Ctx) -> tuple[int, Any]:
        ch = self._channel(ctx)
        self._bot_can(ch, "view_channel")
        return 200, ch.payload()

    def _r_channel_messages(self, ctx: _Ctx) -> tuple[int, Any]:
        ch = self._channel(ctx)
        if ctx.method == "GET":
            self._bot_can(ch, "view_channel", "read_message_history")
            msgs = [m for m in ch.messages if not m.deleted and not m.ephemeral]
            if "before" in ctx.query:
                msgs = [m for m in msgs if int(m.id) < int(ctx.query["before"])]
            if "after" in ctx.query:
                msgs = [m for m in msgs if int(m.id) > int(ctx.query["after"])]
            limit = max(1, min(100, int(ctx.query.get("limit", 50))))
            msgs = msgs[:limit] if "after" in ctx.query else msgs[-limit:]
            return 200, [self._message_payload(m) for m in reversed(msgs)]
        self._bot_can(
            ch, "view_channel", "send_messages_in_threads" if ch.is_thread else "send_messages"
        )
        body = ctx.body if isinstance(ctx.body, dict) else {}
        extra: dict[str, Any] = {}
        msg_type = 0
        ref = body.get("message_reference")
        if isinstance(ref, dict) and ref.get("message_id"):
            target = self._messages.get(str(ref["message_id"]))
            if target is None or target.deleted or target.ephemeral:
                if ref.get("fail_if_not_exists", True):
                    raise _ApiError(
                        400,
                        50035,
                        "Invalid Form Body",
                        {
                            "message_reference": {
                                "_errors": [
                                    {
                                        "code": "MESSAGE_REFERENCE_UNKNOWN_MESSAGE",
                                        "message": "Unknown message",
                                    }
                                ]
                            }
                        },
                    )
            else:
                msg_type = 19
                extra["message_reference"] = {
                    "type": 0,
                    "message_id": target.id,
                    "channel_id": target.channel.id,
                    "guild_id": target.channel.guild.id,
                }
                extra["referenced_message"] = self._message_payload(target)
        msg = self._new_message(ch, self.bot_user, body, ctx.files, msg_type=msg_type, extra=extra)
        return 200, self._message_payload(msg)

    def _r_channel_message(self, ctx: _Ctx) -> tuple[int, Any]:
        ch = self._channel(ctx)
        msg = self._channel_msg(ctx, ch)
        if ctx.method == "GET":
            self._bot_can(ch, "view_channel", "read_message_history")
            return 200, self._message_payload(msg)
        if ctx.method == "DELETE":
            if msg.author is not self.bot_user:
                self._bot_can(ch, "manage_messages")
            self._delete_message(msg)
            return 204, None
        if msg.author is not self.bot_user:
            raise _ApiError(403, 50005, "Cannot edit a message authored by another user")
        body = ctx.body if isinstance(ctx.body, dict) else {}
        self._edit_message(msg, body, ctx.files)
        return 200, self._message_payload(msg)

    def _r_reaction(self, ctx: _Ctx) -> tuple[int, Any]:
        ch = self._channel(ctx)
        msg = self._channel_msg(ctx, ch)
        emoji = ctx.params["emoji"]
        users = msg.reactions.setdefault(emoji, [])
        if ctx.method == "PUT":
            self._bot_can(ch, "add_reactions", "read_message_history")
            if self.bot_user.id not in users:
                users.append(self.bot_user.id)
        elif self.bot_user.id in users:
            users.remove(self.bot_user.id)
        if not users:
            del msg.reactions[emoji]
        self._notify()
        return 204, None

    def _r_typing(self, ctx: _Ctx) -> tuple[int, Any]:
        self._bot_can(self._channel(ctx), "view_channel")
        return 204, None

    def _r_create_thread(self, ctx: _Ctx) -> tuple[int, Any]:
        ch = self._channel(ctx)
        body = ctx.body if isinstance(ctx.body, dict) else {}
        errs = _Errors()
        errs.length(["name"], body.get("name"), 1, 100, required=True)
        errs.raise_if_any()
        if ch.is_thread:
            raise _ApiError(400, 50024, "Cannot execute action on this channel type")
        mid = ctx.params.get("mid")
        ttype = 11 if mid else int(body.get("type") or 12)
        self._bot_can(ch, "create_public_threads" if ttype == 11 else "create_private_threads")
        if mid:
            start = self._channel_msg(ctx, ch)
            if any(c.id == start.id for c in self._channels.values()):
                raise _ApiError(400, 160004, "A thread has already been created for this message")
            tid = start.id  # a thread started from a message shares its id
        else:
            tid = self._sf()
        thread = FakeChannel(tid, ch.guild, body["name"], ttype, ch.id, self.bot_user.id)
        self._add_channel(thread)
        return 201, thread.payload()

    def _guild(self, ctx: _Ctx) -> FakeGuild:
        guild = self._guilds.get(ctx.params["gid"])
        if guild is None:
            raise _ApiError(404, 10004, "Unknown Guild")
        return guild

    def _r_guild(self, ctx: _Ctx) -> tuple[int, Any]:
        guild = self._guild(ctx)
        data = self._guild_create_payload(guild, _Session("", 0, None))
        for key in (
            "members",
            "channels",
            "threads",
            "voice_states",
            "presences",
            "joined_at",
            "large",
            "unavailable",
            "lazy",
            "member_count",
        ):
            data.pop(key, None)
        return 200, data

    def _r_guild_channels(self, ctx: _Ctx) -> tuple[int, Any]:
        guild = self._guild(ctx)
        return 200, [c.payload() for c in guild.channels if not c.is_thread]

    def _r_guild_roles(self, ctx: _Ctx) -> tuple[int, Any]:
        return 200, [r.payload() for r in self._guild(ctx).roles.values()]

    def _r_member(self, ctx: _Ctx) -> tuple[int, Any]:
        member = self._guild(ctx).members.get(ctx.params["uid"])
        if member is None:
            raise _ApiError(404, 10007, "Unknown Member")
        return 200, member.payload()

    # ---- messages ----------------------------------------------------------------------------

    def _message_payload(self, msg: FakeMessage) -> dict[str, Any]:
        data = copy.deepcopy(msg.payload)
        data["attachments"] = [a.payload() for a in msg.attachments]
        if msg.reactions:
            data["reactions"] = [
                {
                    "emoji": _emoji_payload(e),
                    "count": len(users),
                    "count_details": {"burst": 0, "normal": len(users)},
                    "me": self.bot_user.id in users,
                    "me_burst": False,
                    "burst_colors": [],
                }
                for e, users in msg.reactions.items()
            ]
        return data

    def _new_message(
        self,
        channel: FakeChannel,
        author: FakeUser,
        data: dict[str, Any],
        files: dict[int, tuple[str, bytes, str | None]],
        *,
        msg_type: int = 0,
        webhook: bool = False,
        ephemeral_user: FakeUser | None = None,
        interaction: FakeInteraction | None = None,
        extra: dict[str, Any] | None = None,
        allow_flags: int = 0,
        loading: bool = False,
    ) -> FakeMessage:
        allowed = FLAG_SUPPRESS_EMBEDS | FLAG_SUPPRESS_NOTIFICATIONS | FLAG_COMPONENTS_V2
        flags = int(data.get("flags") or 0) & (allowed | allow_flags)
        mid = self._sf()
        payload: dict[str, Any] = {
            "id": mid,
            "type": msg_type,
            "channel_id": channel.id,
            "author": author.payload(),
            "content": data.get("content") or "",
            "embeds": [],
            "components": [],
            "attachments": [],
            "mentions": [],
            "mention_roles": [],
            "mention_everyone": False,
            "pinned": False,
            "tts": bool(data.get("tts", False)),
            "timestamp": _iso(snowflake_time(mid)),
            "edited_timestamp": None,
            "flags": flags,
        }
        if webhook:
            payload["webhook_id"] = self.application_id
            payload["application_id"] = self.application_id
        if data.get("nonce") is not None:
            payload["nonce"] = data["nonce"]
        if data.get("poll") is not None:
            payload["poll"] = copy.deepcopy(data["poll"])
        payload.update(extra or {})
        msg = FakeMessage(
            channel, author, payload, ephemeral_user=ephemeral_user, interaction=interaction
        )
        self._apply_content(msg, data, files, creating=True, loading=loading)
        self._messages[mid] = msg
        channel.messages.append(msg)
        if not msg.ephemeral:
            self._dispatch(
                "MESSAGE_CREATE",
                lambda s: self._gateway_message(msg, s),
                intent=INTENT_GUILD_MESSAGES,
                guild=channel.guild,
            )
        self._notify()
        return msg

    def _edit_message(
        self,
        msg: FakeMessage,
        data: dict[str, Any],
        files: dict[int, tuple[str, bytes, str | None]],
        *,
        finish_loading: bool = False,
    ) -> None:
        before = msg._snapshot()
        old_payload = copy.deepcopy(msg.payload)
        old_attachments = list(msg.attachments)
        try:
            if "flags" in data and data["flags"] is not None:
                keep = msg.flags & (FLAG_EPHEMERAL | FLAG_COMPONENTS_V2)
                changeable = FLAG_SUPPRESS_EMBEDS | FLAG_COMPONENTS_V2
                msg.payload["flags"] = keep | (int(data["flags"]) & changeable)
            if finish_loading:
                msg.payload["flags"] = msg.flags & ~FLAG_LOADING
            self._apply_content(msg, data, files, creating=False)
        except _ApiError:
            msg.payload = old_payload
            msg.attachments = old_attachments
            raise
        msg.payload["edited_timestamp"] = None if finish_loading else _iso()
        msg.edits.append(before)
        if not msg.ephemeral:
            self._dispatch(
                "MESSAGE_UPDATE",
                lambda s: self._gateway_message(msg, s),
                intent=INTENT_GUILD_MESSAGES,
                guild=msg.channel.guild,
            )
        self._notify()

    def _delete_message(self, msg: FakeMessage) -> None:
        msg.deleted = True
        if not msg.ephemeral:
            data = {"id": msg.id, "channel_id": msg.channel.id, "guild_id": msg.channel.guild.id}
            self._dispatch(
                "MESSAGE_DELETE", data, intent=INTENT_GUILD_MESSAGES, guild=msg.channel.guild
            )
        self._notify()

    def _apply_content(
        self,
        msg: FakeMessage,
        data: dict[str, Any],
        files: dict[int, tuple[str, bytes, str | None]],
        *,
        creating: bool,
        loading: bool = False,
    ) -> None:
        """Validate ``data`` (a create or edit body) and apply it to ``msg``."""
        payload = msg.payload
        if "content" in data:
            payload["content"] = data["content"] or ""
        if "embeds" in data:
            embeds = copy.deepcopy(data["embeds"] or [])
            for e in embeds:
                if isinstance(e, dict):
                    e.setdefault("type", "rich")
            payload["embeds"] = embeds
        if "components" in data:
            payload["components"] = copy.deepcopy(data["components"] or [])
        if "sticker_ids" in data:
            payload["sticker_items"] = [
                {"id": str(s), "name": "sticker", "format_type": 1} for s in data["sticker_ids"]
            ]
        errs = _Errors()
        v2 = bool(msg.flags & FLAG_COMPONENTS_V2)
        _validate_message(errs, payload, v2=v2)
        errs.raise_if_any()
        _number_components(payload["components"])
        self._apply_attachments(msg, data, files, creating=creating)
        payload["mentions"] = [
            self._users[uid].payload()
            for uid in dict.fromkeys(_MENTION_RE.findall(payload["content"]))
            if uid in self._users
        ]
        if not loading and not (
            payload["content"]
            or payload["embeds"]
            or payload["components"]
            or msg.attachments
            or payload.get("sticker_items")
            or payload.get("poll")
        ):
            raise _ApiError(400, 50006, "Cannot send an empty message")

    def _apply_attachments(
        self,
        msg: FakeMessage,
        data: dict[str, Any],
        files: dict[int, tuple[str, bytes, str | None]],
        *,
        creating: bool,
    ) -> None:
        for _name, content, _ctype in files.values():
            if len(content) > self.attachment_size_limit:
                raise _ApiError(413, 40005, "Request entity too large")
        existing = {a.id: a for a in msg.attachments}
        described = data.get("attachments")
        result: list[FakeAttachment] = []
        if isinstance(described, list):
            for i, spec in enumerate(described):
                sid = str(spec.get("id")) if isinstance(spec, dict) else ""
                if sid in existing:
                    result.append(existing[sid])
                elif sid.isdigit() and int(sid) in files:
                    name, content, ctype = files[int(sid)]
                    result.append(
                        self._attachment(
                            msg,
                            spec.get("filename") or name,
                            content,
                            ctype,
                            spec.get("description"),
                        )
                    )
                else:
                    raise _ApiError(
                        400,
                        50035,
                        "Invalid Form Body",
                        {
                            "attachments": {
                                str(i): {
                                    "_errors": [
                                        {
                                            "code": "ATTACHMENT_NOT_FOUND",
                                            "message": "Unknown attachment",
                                        }
                                    ]
                                }
                            }
                        },
                    )
        else:
            result = list(msg.attachments) if not creating else []
            for index in sorted(files):
                name, content, ctype = files[index]
                result.append(self._attachment(msg, name, content, ctype, None))
        if len(result) > 10:
            raise _ApiError(
                400,
                50035,
                "Invalid Form Body",
                {
                    "attachments": {
                        "_errors": [
                            {
                                "code": "BASE_TYPE_MAX_LENGTH",
                                "message": "Must be 10 or fewer in length.",
                            }
                        ]
                    }
                },
            )
        msg.attachments = result
        msg.payload["attachments"] = [a.payload() for a in result]

    def _attachment(
        self,
        msg: FakeMessage,
        filename: str,
        content: bytes,
        ctype: str | None,
        description: str | None,
    ) -> FakeAttachment:
        aid = self._sf()
        guessed = ctype if ctype and ctype != "application/octet-stream" else None
        guessed = guessed or mimetypes.guess_type(filename)[0]
        att = FakeAttachment(
            aid,
            filename,
            content,
            guessed,
            f"{self.base_url}/attachments/{msg.channel.id}/{aid}/{filename}",
            description,
            msg.ephemeral,
        )
        self._attachments[aid] = att
        return att

    def _gateway_message(self, msg: FakeMessage, sess: _Session) -> dict[str, Any]:
        data = self._message_payload(msg)
        data["guild_id"] = msg.channel.guild.id
        member = msg.channel.guild.members.get(msg.author.id)
        if member is not None and "webhook_id" not in data:
            mdata = member.payload()
            del mdata["user"]
            data["member"] = mdata
        mentioned = any(u["id"] == self.bot_user.id for u in data["mentions"])
        if (
            not sess.intents & INTENT_MESSAGE_CONTENT
            and msg.author is not self.bot_user
            and not mentioned
        ):
            data.update(content="", embeds=[], attachments=[], components=[])
            data.pop("poll", None)
        return data


# --------------------------------------------------------------------------------------------
# Validation of what bots send
# --------------------------------------------------------------------------------------------


def _option_value_ok(otype: int, value: Any) -> bool:
    if isinstance(value, bool):
        return otype == 5
    if otype == 3:
        return isinstance(value, str)
    if otype == 4:
        return isinstance(value, int)
    return otype == 10 and isinstance(value, int | float)


def _emoji_payload(emoji: str) -> dict[str, Any]:
    m = re.fullmatch(r"(?:a:)?(\w+):(\d+)", emoji)
    if m:
        return {"id": m.group(2), "name": m.group(1), "animated": emoji.startswith("a:")}
    return {"id": None, "name": emoji}


def _number_components(components: list[Any]) -> None:
    """Discord gives every component a numeric ``id`` (unique in the message) if it has none."""
    used: set[int] = set()
    nodes: list[dict[str, Any]] = []

    def walk(items: Iterable[Any]) -> None:
        for c in items:
            if not isinstance(c, dict):
                continue
            nodes.append(c)
            if isinstance(c.get("id"), int):
                used.add(c["id"])
            walk(c.get("components") or [])
            for key in ("accessory", "component"):
                if isinstance(c.get(key), dict):
                    walk([c[key]])

    walk(components)
    counter = itertools.count(1)
    for c in nodes:
        if not isinstance(c.get("id"), int):
            n = next(counter)
            while n in used:
                n = next(counter)
            c["id"] = n
            used.add(n)


def _validate_message(errs: _Errors, payload: dict[str, Any], *, v2: bool) -> None:
    content = payload.get("content") or ""
    embeds = payload.get("embeds") or []
    if v2:
        if content or embeds:
            errs.add(
                ["content" if content else "embeds"],
                "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                "The 'content' and 'embeds' fields cannot be used with IS_COMPONENTS_V2",
            )
    else:
        errs.length(["content"], content, 0, 2000)
        _validate_embeds(errs, embeds)
    _validate_components(errs, payload.get("components") or [], v2=v2)


def _validate_embeds(errs: _Errors, embeds: Any) -> None:
    if not isinstance(embeds, list):
        errs.add(["embeds"], "BASE_TYPE_ARRAY", "Must be an array.")
        return
    if len(embeds) > 10:
        errs.add(["embeds"], "BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer in length.")
    total = 0
    for i, e in enumerate(embeds):
        p: list[str | int] = ["embeds", i]
        if not isinstance(e, dict):
            errs.add(p, "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
            continue
        errs.length([*p, "title"], e.get("title"), 0, 256)
        errs.length([*p, "description"], e.get("description"), 0, 4096)
        total += len(e.get("title") or "") + len(e.get("description") or "")
        fields = e.get("fields") or []
        if len(fields) > 25:
            errs.add([*p, "fields"], "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
        for j, f in enumerate(fields):
            errs.length([*p, "fields", j, "name"], f.get("name"), 1, 256, required=True)
            errs.length([*p, "fields", j, "value"], f.get("value"), 1, 1024, required=True)
            total += len(f.get("name") or "") + len(f.get("value") or "")
        if isinstance(e.get("footer"), dict):
            errs.length([*p, "footer", "text"], e["footer"].get("text"), 1, 2048, required=True)
            total += len(e["footer"].get("text") or "")
        if isinstance(e.get("author"), dict):
            errs.length([*p, "author", "name"], e["author"].get("name"), 1, 256, required=True)
            total += len(e["author"].get("name") or "")
        color = e.get("color")
        if color is not None and not (isinstance(color, int) and 0 <= color <= 0xFFFFFF):
            errs.add([*p, "color"], "NUMBER_TYPE_MAX", "int value should be <= 16777215 and >= 0.")
    if total > 6000:
        errs.add(["embeds"], "MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size of 6000")


def _validate_components(errs: _Errors, components: Any, *, v2: bool) -> None:
    if not isinstance(components, list):
        errs.add(["components"], "BASE_TYPE_ARRAY", "Must be an array.")
        return
    if not v2 and len(components) > 5:
        errs.add(["components"], "BASE_TYPE_MAX_LENGTH", "Must be 5 or fewer in length.")
    custom_ids: dict[str, list[str | int]] = {}
    count = 0
    text_total = 0

    def need_custom_id(c: dict[str, Any], p: list[str | int]) -> None:
        cid = c.get("custom_id")
        errs.length([*p, "custom_id"], cid, 1, 100, required=True)
        if isinstance(cid, str):
            if cid in custom_ids:
                errs.add(
                    [*p, "custom_id"],
                    "COMPONENT_CUSTOM_ID_DUPLICATED",
                    "Component custom id cannot be duplicated",
                )
            custom_ids[cid] = p

    def visit(c: Any, p: list[str | int], allowed: Sequence[int]) -> None:
        nonlocal count, text_total
        count += 1
        if not isinstance(c, dict):
            errs.add(p, "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
            return
        t = c.get("type")
        if t not in allowed:
            errs.add(
                [*p, "type"],
                "UNION_TYPE_CHOICES",
                f'Value of field "type" must be one of {tuple(allowed)}.',
            )
            return
        if t == 1:
            kids = c.get("components") or []
            if not 1 <= len(kids) <= 5:
                errs.add(
                    [*p, "components"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length."
                )
            if (
                any(isinstance(k, dict) and k.get("type") in _SELECT_TYPES for k in kids)
                and len(kids) > 1
            ):
                errs.add(
                    [*p, "components"],
                    "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                    "The specified component exceeds the maximum width",
                )
            for j, k in enumerate(kids):
                visit(k, [*p, "components", j], (2, *_SELECT_TYPES))
        elif t == 2:
            style = c.get("style")
            if style not in (1, 2, 3, 4, 5, 6):
                errs.add(
                    [*p, "style"], "BASE_TYPE_CHOICES", "Value must be one of {1, 2, 3, 4, 5, 6}."
                )
            elif style == 5:
                errs.length([*p, "url"], c.get("url"), 1, 512, required=True)
                if c.get("custom_id") is not None:
                    errs.add(
                        [*p, "custom_id"],
                        "BUTTON_COMPONENT_CUSTOM_ID_FORBIDDEN",
                        "A custom id cannot be set on link buttons",
                    )
            elif style == 6:
                if not c.get("sku_id"):
                    errs.add([*p, "sku_id"], "BASE_TYPE_REQUIRED", "This field is required")
            else:
                need_custom_id(c, p)
            errs.length([*p, "label"], c.get("label"), 0, 80)
            if style != 6 and not c.get("label") and not c.get("emoji"):
                errs.add(
                    [*p, "label"],
                    "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED",
                    "A label or an emoji is required",
                )
        elif t in _SELECT_TYPES:
            need_custom_id(c, p)
            errs.length([*p, "placeholder"], c.get("placeholder"), 0, 150)
            lo, hi = c.get("min_values", 1), c.get("max_values", 1)
            if not (isinstance(lo, int) and 0 <= lo <= 25):
                errs.add([*p, "min_values"], "NUMBER_TYPE_MAX", "Must be between 0 and 25.")
            if not (isinstance(hi, int) and 1 <= hi <= 25):
                errs.add([*p, "max_values"], "NUMBER_TYPE_MAX", "Must be between 1 and 25.")
            if t == 3:
                options = c.get("options") or []
                if not 1 <= len(options) <= 25:
                    errs.add(
                        [*p, "options"],
                        "BASE_TYPE_BAD_LENGTH",
                        "Must be between 1 and 25 in length.",
                    )
                values: set[str] = set()
                for j, o in enumerate(options):
                    errs.length([*p, "options", j, "label"], o.get("label"), 1, 100, required=True)
                    errs.length([*p, "options", j, "value"], o.get("value"), 1, 100, required=True)
                    errs.length([*p, "options", j, "description"], o.get("description"), 0, 100)
                    if o.get("value") in values:
                        errs.add(
                            [*p, "options", j, "value"],
                            "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                            "Select component option value cannot be duplicated",
                        )
                    values.add(o.get("value"))
                if isinstance(hi, int) and options and hi > len(options):
                    errs.add(
                        [*p, "max_values"], "BASE_TYPE_MAX", f"Must be {len(options)} or less."
                    )
        elif t == 10:
            errs.length([*p, "content"], c.get("content"), 1, 4000, required=True)
            text_total += len(c.get("content") or "")
        elif t == 9:
            kids = c.get("components") or []
            if not 1 <= len(kids) <= 3:
                errs.add(
                    [*p, "components"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 3 in length."
                )
            for j, k in enumerate(kids):
                visit(k, [*p, "components", j], (10,))
            if c.get("accessory") is None:
                errs.add([*p, "accessory"], "BASE_TYPE_REQUIRED", "This field is required")
            else:
                visit(c["accessory"], [*p, "accessory"], (2, 11))
        elif t == 17:
            for j, k in enumerate(c.get("components") or []):
                visit(k, [*p, "components", j], (1, 9, 10, 12, 13, 14))

    top = _V2_TOP_LEVEL if v2 else (1,)
    for i, c in enumerate(components):
        visit(c, ["components", i], top)
    if v2 and count > 40:
        errs.add(
            ["components"],
            "COMPONENT_MAX_TOTAL_COMPONENTS_EXCEEDED",
            "The message has more than 40 components",
        )
    if text_total > 4000:
        errs.add(
            ["components"],
            "COMPONENT_MAX_TEXT_LENGTH_EXCEEDED",
            "The total text of text displays exceeds 4000 characters",
        )


def _validate_modal(data: dict[str, Any]) -> None:
    errs = _Errors()
    errs.length(["data", "custom_id"], data.get("custom_id"), 1, 100, required=True)
    errs.length(["data", "title"], data.get("title"), 1, 45, required=True)
    comps = data.get("components") or []
    if not 1 <= len(comps) <= 5:
        errs.add(
            ["data", "components"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length."
        )
    errs.raise_if_any()


def _validate_commands(commands: list[Any], *, only: int = 0) -> None:
    """Validate a full set of commands (``only``: skip the first N, already stored)."""
    errs = _Errors()
    seen: dict[tuple[int, str], int] = {}
    counts = {1: 0, 2: 0, 3: 0}
    for i, cmd in enumerate(commands):
        if not isinstance(cmd, dict):
            errs.add([i], "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
            continue
        ctype = cmd.get("type", 1)
        key = (ctype, str(cmd.get("name")))
        if key in seen:
            errs.add(
                [i, "name"],
                "APPLICATION_COMMANDS_DUPLICATE_NAME",
                f"Application command names must be unique ({cmd.get('name')})",
            )
        seen[key] = i
        if ctype in counts:
            counts[ctype] += 1
        if i < only:
            continue
        p: list[str | int] = [i]
        if ctype not in (1, 2, 3, 4):
            errs.add([*p, "type"], "BASE_TYPE_CHOICES", "Value must be one of {1, 2, 3, 4}.")
            continue
        _check_name(errs, [*p, "name"], cmd.get("name"), chat=ctype == 1)
        if ctype == 1:
            errs.length([*p, "description"], cmd.get("description"), 1, 100, required=True)
        elif cmd.get("description"):
            errs.add(
                [*p, "description"],
                "APPLICATION_COMMAND_DESCRIPTION_FORBIDDEN",
                "Context menu commands cannot have a description",
            )
        _check_localizations(
            errs,
            [*p, "name_localizations"],
            cmd.get("name_localizations"),
            lambda e, q, v, c=ctype: _check_name(e, q, v, chat=c == 1),
        )
        _check_localizations(
            errs,
            [*p, "description_localizations"],
            cmd.get("description_localizations"),
            lambda e, q, v: e.length(q, v, 1, 100, required=True),
        )
        perms = cmd.get("default_member_permissions")
        if perms is not None and not (isinstance(perms, str) and perms.isdigit()):
            errs.add(
                [*p, "default_member_permissions"],
                "BASE_TYPE_STRING",
                "Must be a string of digits.",
            )
        if cmd.get("options"):
            if ctype != 1:
                errs.add(
                    [*p, "options"],
                    "APPLICATION_COMMAND_OPTIONS_FORBIDDEN",
                    "Only chat input commands can have options",
                )
            else:
                _check_options(errs, [*p, "options"], cmd["options"], "command")
    if counts[1] > 100:
        errs.add([], "APPLICATION_COMMANDS_TOO_MANY", "Maximum number of chat input commands (100)")
    if counts[2] > 15 or counts[3] > 15:
        errs.add(
            [], "APPLICATION_COMMANDS_TOO_MANY", "Maximum number of context menu commands (15)"
        )
    errs.raise_if_any()


def _check_name(errs: _Errors, path: list[str | int], name: Any, *, chat: bool) -> None:
    if not isinstance(name, str) or not name:
        errs.add(path, "BASE_TYPE_REQUIRED", "This field is required")
    elif chat and (not _CHAT_NAME_RE.fullmatch(name) or name != name.lower()):
        errs.add(path, "APPLICATION_COMMAND_INVALID_NAME", f"Command name is invalid: {name!r}")
    else:
        errs.length(path, name, 1, 32)


def _check_localizations(
    errs: _Errors,
    path: list[str | int],
    locs: Any,
    check: Callable[[_Errors, list[str | int], Any], None],
) -> None:
    if locs is None:
        return
    if not isinstance(locs, dict):
        errs.add(path, "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
        return
    for locale, value in locs.items():
        if locale not in LOCALES:
            errs.add([*path, locale], "LOCALE_INVALID", f"Invalid locale {locale!r}")
        else:
            check(errs, [*path, locale], value)


def _check_options(errs: _Errors, path: list[str | int], options: Any, parent: str) -> None:
    if not isinstance(options, list):
        errs.add(path, "BASE_TYPE_ARRAY", "Must be an array.")
        return
    if len(options) > 25:
        errs.add(path, "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
    types = [o.get("type") for o in options if isinstance(o, dict)]
    subs = [t for t in types if t in (1, 2)]
    if subs and len(subs) != len(types):
        errs.add(
            path,
            "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
            "Sub-command and sub-command group option types are mutually exclusive "
            "to all other types",
        )
    names: set[str] = set()
    optional_seen = False
    for i, o in enumerate(options):
        p = [*path, i]
        if not isinstance(o, dict):
            errs.add(p, "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
            continue
        t = o.get("type")
        if t not in range(1, 12):
            errs.add([*p, "type"], "BASE_TYPE_CHOICES", "Value must be between 1 and 11.")
            continue
        _check_name(errs, [*p, "name"], o.get("name"), chat=True)
        if o.get("name") in names:
            errs.add(
                [*p, "name"],
                "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS",
                "Option names must be unique",
            )
        names.add(o.get("name"))
        errs.length([*p, "description"], o.get("description"), 1, 100, required=True)
        _check_localizations(
            errs,
            [*p, "name_localizations"],
            o.get("name_localizations"),
            lambda e, q, v: _check_name(e, q, v, chat=True),
        )
        _check_localizations(
            errs,
            [*p, "description_localizations"],
            o.get("description_localizations"),
            lambda e, q, v: e.length(q, v, 1, 100, required=True),
        )
        if t == 2:
            if parent != "command":
                errs.add(
                    [*p, "type"],
                    "APPLICATION_COMMAND_OPTION_TYPE_INVALID",
                    "Sub-command groups can only be nested in a command",
                )
            kids = o.get("options") or []
            if not kids or any(k.get("type") != 1 for k in kids if isinstance(k, dict)):
                errs.add(
                    [*p, "options"],
                    "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                    "A sub-command group must contain sub-commands only",
                )
            _check_options(errs, [*p, "options"], kids, "group")
        elif t == 1:
            if parent == "sub":
                errs.add(
                    [*p, "type"],
                    "APPLICATION_COMMAND_OPTION_TYPE_INVALID",
                    "Sub-commands cannot be nested in sub-commands",
                )
            _check_options(errs, [*p, "options"], o.get("options") or [], "sub")
        else:
            if parent == "group":
                errs.add(
                    [*p, "type"],
                    "APPLICATION_COMMAND_OPTION_TYPE_INVALID",
                    "A sub-command group must contain sub-commands only",
                )
            if o.get("required"):
                if optional_seen:
                    errs.add(
                        [*p, "required"],
                        "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                        "Required options must be placed before non-required options",
                    )
            else:
                optional_seen = True
            choices = o.get("choices")
            if choices:
                if t not in (3, 4, 10):
                    errs.add(
                        [*p, "choices"],
                        "APPLICATION_COMMAND_OPTION_CHOICES_FORBIDDEN",
                        "Only string, integer and number options can have choices",
                    )
                if o.get("autocomplete"):
                    errs.add(
                        [*p, "autocomplete"],
                        "APPLICATION_COMMAND_AUTOCOMPLETE_INVALID",
                        "Autocomplete cannot be used with choices",
                    )
                if len(choices) > 25:
                    errs.add(
                        [*p, "choices"], "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length."
                    )
                for j, ch in enumerate(choices):
                    q = [*p, "choices", j]
                    errs.length([*q, "name"], ch.get("name"), 1, 100, required=True)
                    _check_localizations(
                        errs,
                        [*q, "name_localizations"],
                        ch.get("name_localizations"),
                        lambda e, r, v: e.length(r, v, 1, 100, required=True),
                    )
                    value = ch.get("value")
                    if t == 3:
                        errs.length([*q, "value"], value, 1, 100, required=True)
                    elif (
                        not isinstance(value, int | float)
                        or isinstance(value, bool)
                        or (t == 4 and not isinstance(value, int))
                    ):
                        errs.add(
                            [*q, "value"], "NUMBER_TYPE_COERCE", f"Value {value!r} is not a number."
                        )
            if t == 3:
                lo, hi = o.get("min_length"), o.get("max_length")
                if lo is not None and not (isinstance(lo, int) and 0 <= lo <= 6000):
                    errs.add([*p, "min_length"], "NUMBER_TYPE_MAX", "Must be between 0 and 6000.")
                if hi is not None and not (isinstance(hi, int) and 1 <= hi <= 6000):
                    errs.add([*p, "max_length"], "NUMBER_TYPE_MAX", "Must be between 1 and 6000.")
