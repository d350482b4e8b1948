"""The fake Discord's world as tests see it: users, roles, guilds, members (with their
permissions), channels and the bot's direct-message channels, each with the payload Discord sends
for it."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from tests.fakes.discord.protocol import ALL_PERMISSIONS, PERMISSIONS, _iso

if TYPE_CHECKING:
    from tests.fakes.discord.message import FakeMessage


@dataclass(eq=False)
class FakeUser:
    """A Discord user (or the bot itself, ``bot``); ids are snowflakes, as strings.

    ``dms_open`` False: the user takes no direct messages (from server members, so from the
    bot); the bot may open a DM channel with them, but posting in it fails with 403 / 50007."""

    id: str
    username: str
    global_name: str | None = None
    bot: bool = False
    locale: str = "en-US"
    dms_open: bool = True

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
    """A guild role; ``permissions`` are bits as in ``PERMISSIONS``."""

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
    """A guild the bot is in, with its roles, channels and members."""

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
    """A user as a member of a guild, with the roles that give them permissions."""

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
    def dms_open(self) -> bool:
        """Whether the user takes direct messages (a setting of the user, in every guild)."""
        return self.user.dms_open

    @dms_open.setter
    def dms_open(self, value: bool) -> None:
        self.user.dms_open = value

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
    """A guild channel (type 0: text) or thread (types 10-12), with its messages."""

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
    # minutes without a message before a thread archives (a channel's: its threads' default)
    auto_archive_duration: int = 1440
    default_auto_archive_duration: int = 1440

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
                    "auto_archive_duration": self.auto_archive_duration,
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
                default_auto_archive_duration=self.default_auto_archive_duration,
            )
        return data

    def __repr__(self) -> str:
        return f"<FakeChannel id={self.id} name={self.name!r} type={self.type}>"


@dataclass(eq=False)
class FakeDMChannel:
    """The bot's direct-message channel (type 1) with one user, with its messages; it belongs to
    no guild (``guild`` is None)."""

    id: str
    recipient: FakeUser
    created: float = field(default_factory=time.time)
    messages: list[FakeMessage] = field(default_factory=list)

    type: ClassVar[int] = 1
    is_thread: ClassVar[bool] = False

    @property
    def guild(self) -> None:
        return None

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    @property
    def last_message_id(self) -> str | None:
        visible = [m for m in self.messages if not m.ephemeral]
        return visible[-1].id if visible else None

    def payload(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "type": self.type,
            "last_message_id": self.last_message_id,
            "flags": 0,
            "recipients": [self.recipient.payload()],
        }

    def __repr__(self) -> str:
        return f"<FakeDMChannel id={self.id} recipient={self.recipient.username!r}>"
