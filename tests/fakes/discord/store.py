"""How the fake keeps messages: created, edited and deleted (validated first, each change
dispatched on the gateway, in guild channels and in DMs alike), their attachments, and their
payloads for REST and the gateway."""

from __future__ import annotations

import copy
import mimetypes
import re
from collections.abc import Callable
from typing import Any

from tests.fakes.base import FakeServer
from tests.fakes.discord.errors import _ApiError, _Errors, _invalid_form
from tests.fakes.discord.gateway import _Session
from tests.fakes.discord.interaction import FakeInteraction
from tests.fakes.discord.message import FakeAttachment, FakeMessage, _Files
from tests.fakes.discord.model import FakeChannel, FakeDMChannel, FakeUser
from tests.fakes.discord.protocol import (
    _MENTION_RE,
    FLAG_COMPONENTS_V2,
    FLAG_EPHEMERAL,
    FLAG_LOADING,
    FLAG_SUPPRESS_EMBEDS,
    FLAG_SUPPRESS_NOTIFICATIONS,
    INTENT_DIRECT_MESSAGES,
    INTENT_GUILD_MESSAGES,
    INTENT_MESSAGE_CONTENT,
    _iso,
    snowflake_time,
)
from tests.fakes.discord.validation import _number_components, _validate_message


def _emoji_payload(emoji: str) -> dict[str, Any]:
    m = re.fullmatch(r"(?:a:)?(\w+):(\d+)", emoji)
    if m:
        return {"id": m.group(2), "name": m.group(1), "animated": emoji.startswith("a:")}
    return {"id": None, "name": emoji}


class MessageStore(FakeServer):
    """Message storage, mixed into :class:`~tests.fakes.discord.FakeDiscord`."""

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
        channel: FakeChannel | FakeDMChannel,
        author: FakeUser,
        data: dict[str, Any],
        files: _Files,
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
            self._dispatch_message("MESSAGE_CREATE", msg)
        self._notify()
        return msg

    def _edit_message(
        self,
        msg: FakeMessage,
        data: dict[str, Any],
        files: _Files,
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
            self._dispatch_message("MESSAGE_UPDATE", msg)
        self._notify()

    def _delete_message(self, msg: FakeMessage) -> None:
        msg.deleted = True
        if not msg.ephemeral:
            data = {"id": msg.id, "channel_id": msg.channel.id}
            if msg.channel.guild is not None:
                data["guild_id"] = msg.channel.guild.id
            self._dispatch_in(msg.channel, "MESSAGE_DELETE", lambda s: copy.deepcopy(data))
        self._notify()

    def _apply_content(
        self,
        msg: FakeMessage,
        data: dict[str, Any],
        files: _Files,
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
        files: _Files,
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
                    raise _invalid_form(
                        ["attachments", i], "ATTACHMENT_NOT_FOUND", "Unknown attachment"
                    )
        else:
            result = list(msg.attachments) if not creating else []
            for index in sorted(files):
                name, content, ctype = files[index]
                result.append(self._attachment(msg, name, content, ctype, None))
        if len(result) > 10:
            raise _invalid_form(
                ["attachments"], "BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer in length."
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

    def _dispatch_message(self, event: str, msg: FakeMessage) -> None:
        """Dispatch ``event`` with ``msg`` to the sessions that receive its channel's messages."""
        self._dispatch_in(msg.channel, event, lambda s: self._gateway_message(msg, s))

    def _dispatch_in(
        self,
        channel: FakeChannel | FakeDMChannel,
        event: str,
        data: Callable[[_Session], dict[str, Any]],
    ) -> None:
        """Dispatch a message event of ``channel``: a guild's to the sessions with the guild
        messages intent (on the guild's shard), a DM's to those with the direct messages intent
        on shard 0 (where Discord sends DMs)."""
        if channel.guild is not None:
            self._dispatch(event, data, intent=INTENT_GUILD_MESSAGES, guild=channel.guild)
            return
        self._dispatch(
            event,
            lambda s: data(s) if not s.shard or s.shard[0] == 0 else None,
            intent=INTENT_DIRECT_MESSAGES,
        )

    def _gateway_message(self, msg: FakeMessage, sess: _Session) -> dict[str, Any]:
        data = self._message_payload(msg)
        guild = msg.channel.guild
        if guild is None:  # a DM: no guild, no member; content is never withheld
            return data
        data["guild_id"] = guild.id
        member = guild.members.get(msg.author.id)
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
