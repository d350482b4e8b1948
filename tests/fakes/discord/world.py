"""The test side of the fake Discord for building the world (users, guilds, channels, threads,
roles, members) and reading what the bot did (commands, messages, ephemeral replies)."""

from __future__ import annotations

import copy
import time
from collections.abc import Iterable
from typing import Any

from tests.fakes.base import FakeServer
from tests.fakes.discord.gateway import _Session
from tests.fakes.discord.message import FakeMessage
from tests.fakes.discord.model import (
    FakeChannel,
    FakeDMChannel,
    FakeGuild,
    FakeMember,
    FakeRole,
    FakeUser,
)
from tests.fakes.discord.protocol import (
    DEFAULT_EVERYONE_PERMISSIONS,
    INTENT_GUILD_MEMBERS,
    INTENT_GUILDS,
    PERMISSIONS,
    _iso,
)


class World(FakeServer):
    """World building and reading, mixed into :class:`~tests.fakes.discord.FakeDiscord`."""

    def user(
        self,
        name: str,
        *,
        locale: str = "en-US",
        global_name: str | None = None,
        bot: bool = False,
        dms_open: bool = True,
    ) -> FakeUser:
        """A new user; ``dms_open=False``: one who refuses direct messages."""
        user = FakeUser(
            self._sf(), name.lower().replace(" ", "_"), global_name or name, bot, locale, dms_open
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

    def threads_of(self, channel: FakeChannel) -> list[FakeChannel]:
        """The threads under ``channel``, oldest first (made by the bot or by a test)."""
        return [ch for ch in channel.guild.channels if ch.is_thread and ch.parent_id == channel.id]

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
        dms_open: bool | None = None,
        **permission_flags: bool,
    ) -> FakeMember:
        """A user (new, by name, or existing) as a member of ``guild``.

        Extra permissions come from ``permissions`` bits and/or flags named as in
        ``PERMISSIONS`` (``manage_channels=True``); they are given through a role of their own.
        ``dms_open=False`` makes the user refuse direct messages (``member.dms_open`` changes
        it later; it is the user's, in every guild).
        """
        if isinstance(user, FakeMember):
            user = user.user
        if isinstance(user, str):
            user = self.user(user, locale=locale or "en-US")
        elif locale is not None:
            user.locale = locale
        if dms_open is not None:
            user.dms_open = dms_open
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

    def commands(self, guild: FakeGuild | None = None) -> list[dict[str, Any]]:
        """Registered application commands (global, or of ``guild``), as Discord stores them."""
        stored = self._global_commands if guild is None else self._guild_commands.get(guild.id, [])
        return copy.deepcopy(stored)

    def channel_messages(
        self,
        channel: FakeChannel | FakeDMChannel,
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
