"""Direct messages: the bot opens a DM channel with a user (``POST /users/@me/channels``) and
posts in it through the ordinary channel-message routes; users who take no DMs (``dms_open``
False), bots, and users who share no guild with the bot refuse them (403 / 50007), as on Discord.
Tests read what the bot wrote to someone privately with :meth:`DirectMessages.direct_messages`."""

from __future__ import annotations

from typing import Any

from tests.fakes.base import FakeServer
from tests.fakes.discord.errors import _ApiError, _invalid_form
from tests.fakes.discord.http import _Ctx
from tests.fakes.discord.message import FakeMessage
from tests.fakes.discord.model import FakeDMChannel, FakeMember, FakeUser


class DirectMessages(FakeServer):
    """DM channels and their test side, mixed into :class:`~tests.fakes.discord.FakeDiscord`."""

    _dms: dict[str, FakeDMChannel]  # by the recipient's user id

    def dm_channel(self, user: FakeUser | FakeMember) -> FakeDMChannel | None:
        """The DM channel the bot opened with ``user``; None while it opened none."""
        return self._dms.get(user.id)

    def direct_messages(
        self, user: FakeUser | FakeMember, *, include_deleted: bool = False
    ) -> list[FakeMessage]:
        """What the bot wrote to ``user`` privately (its messages in their DM channel), oldest
        first; empty when it wrote nothing (or opened no DM channel)."""
        ch = self._dms.get(user.id)
        if ch is None:
            return []
        return [
            m
            for m in ch.messages
            if m.author is self.bot_user and (include_deleted or not m.deleted)
        ]

    def _r_create_dm(self, ctx: _Ctx) -> tuple[int, Any]:
        """``POST /users/@me/channels`` ``{"recipient_id": ...}``: the DM channel with that user,
        opened on the first call and the same one ever after."""
        body = ctx.body if isinstance(ctx.body, dict) else {}
        rid = body.get("recipient_id")
        if rid is None:
            raise _invalid_form(["recipient_id"], "BASE_TYPE_REQUIRED", "This field is required")
        if isinstance(rid, bool) or not (
            isinstance(rid, int) or (isinstance(rid, str) and rid.isdigit())
        ):
            raise _invalid_form(
                ["recipient_id"], "NUMBER_TYPE_COERCE", f'Value "{rid}" is not snowflake.'
            )
        user = self._users.get(str(rid))
        if user is None:
            raise _ApiError(400, 50033, "Invalid Recipient(s)")
        ch = self._dms.get(user.id)
        if ch is None:  # Discord sends bots no CHANNEL_CREATE for a DM
            ch = FakeDMChannel(self._sf(), user)
            self._dms[user.id] = ch
            self._channels[ch.id] = ch
            self._notify()
        return 200, ch.payload()

    def _dm_allows(self, ch: FakeDMChannel, names: tuple[str, ...]) -> None:
        """What the bot may do in a DM channel: anything but moderating it; posting only when
        the recipient takes DMs from it."""
        if "manage_messages" in names:
            raise _ApiError(403, 50003, "Cannot execute action on a DM channel")
        if "send_messages" in names:
            user = ch.recipient
            shares_guild = any(user.id in g.members for g in self._guilds.values())
            if user.bot or not user.dms_open or not shares_guild:
                raise _ApiError(403, 50007, "Cannot send messages to this user")
