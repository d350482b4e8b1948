"""REST routes of channels and guilds: channel messages (posted, read, edited, deleted; in DM
channels too), reactions, typing, threads, and what the bot may read of guilds, roles and
members."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.fakes.base import FakeServer
from tests.fakes.discord.errors import _ApiError, _Errors, _invalid_form
from tests.fakes.discord.gateway import _Session
from tests.fakes.discord.http import _Ctx
from tests.fakes.discord.message import FakeMessage
from tests.fakes.discord.model import FakeChannel, FakeDMChannel, FakeGuild
from tests.fakes.discord.protocol import PERMISSIONS

ARCHIVE_DURATIONS = (60, 1440, 4320, 10080)  # the minutes a thread may archive after


class ChannelRoutes(FakeServer):
    """Channel and guild routes, mixed into :class:`~tests.fakes.discord.FakeDiscord`."""

    _dm_allows: Callable[[FakeDMChannel, tuple[str, ...]], None]  # (DirectMessages)

    def _channel(self, ctx: _Ctx) -> FakeChannel | FakeDMChannel:
        ch = self._channels.get(ctx.params["cid"])
        if ch is None:
            raise _ApiError(404, 10003, "Unknown Channel")
        return ch

    def _bot_can(self, ch: FakeChannel | FakeDMChannel, *names: str) -> None:
        if isinstance(ch, FakeDMChannel):
            self._dm_allows(ch, names)
            return
        perms = ch.guild.members[self.bot_user.id].permissions
        if not all(perms & PERMISSIONS[n] for n in names):
            raise _ApiError(403, 50013, "Missing Permissions")

    def _channel_msg(self, ctx: _Ctx, ch: FakeChannel | FakeDMChannel) -> FakeMessage:
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
                    raise _invalid_form(
                        ["message_reference"],
                        "MESSAGE_REFERENCE_UNKNOWN_MESSAGE",
                        "Unknown message",
                    )
            else:
                msg_type = 19
                extra["message_reference"] = {
                    "type": 0,
                    "message_id": target.id,
                    "channel_id": target.channel.id,
                }
                if target.channel.guild is not None:
                    extra["message_reference"]["guild_id"] = target.channel.guild.id
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
        """A thread from a message (public, sharing the message's id) or without one (``type``
        11 public or 12 private, 12 when not given, as in API v9 and v10), under a text
        channel: not in a DM or a thread, and only with the bot's right to create that kind.
        Its name is 1-100 characters; it archives after ``auto_archive_duration`` minutes,
        one of Discord's four. Announcement threads (10, of announcement channels, which this
        fake has none of) are not simulated."""
        ch = self._channel(ctx)
        body = ctx.body if isinstance(ctx.body, dict) else {}
        mid = ctx.params.get("mid")
        errs = _Errors()
        errs.length(["name"], body.get("name"), 1, 100, required=True)
        archive = body.get("auto_archive_duration")
        if archive is not None and archive not in ARCHIVE_DURATIONS:
            errs.add(
                ["auto_archive_duration"],
                "BASE_TYPE_CHOICES",
                f"Value must be one of {set(ARCHIVE_DURATIONS)}.",
            )
        given = body.get("type")
        ttype = 11 if mid else 12 if given is None else given
        if ttype == 10:
            self.unhandled.append(f"announcement thread in channel {ch.id}: not simulated")
            raise _ApiError(400, 50024, "Cannot execute action on this channel type")
        if ttype not in (11, 12):
            errs.add(["type"], "BASE_TYPE_CHOICES", "Value must be one of {10, 11, 12}.")
        errs.raise_if_any()
        if isinstance(ch, FakeDMChannel):
            raise _ApiError(403, 50003, "Cannot execute action on a DM channel")
        if ch.is_thread:
            raise _ApiError(400, 50024, "Cannot execute action on this channel type")
        self._bot_can(ch, "create_public_threads" if ttype == 11 else "create_private_threads")
        if mid:
            start = self._channel_msg(ctx, ch)
            if any(c.id == start.id for c in self._channels.values()):
                raise _ApiError(400, 160004, "A thread has already been created for this message")
            tid = start.id  # a thread started from a message shares its id
        else:
            tid = self._sf()
        thread = FakeChannel(tid, ch.guild, body["name"], ttype, ch.id, self.bot_user.id)
        thread.auto_archive_duration = archive or ch.default_auto_archive_duration
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
