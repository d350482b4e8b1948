"""What fake users do: run slash commands (with options, checked against the registered
schema), type into autocomplete, press buttons, pick in select menus, submit modals, post."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Sequence
from typing import Any

from tests.fakes.base import FakeServer
from tests.fakes.discord.interaction import FakeInteraction
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
    _AUTOCOMPLETE,
    _COMMAND,
    _COMPONENT,
    _MODAL_SUBMIT,
    _SELECT_TYPES,
    ALL_PERMISSIONS,
)


def _option_value_ok(otype: int, value: Any) -> bool:
    if isinstance(value, bool):
        return otype == 5
    if otype == 3:
        return isinstance(value, str)
    if otype == 4:
        return isinstance(value, int)
    return otype == 10 and isinstance(value, int | float)


class UserActions(FakeServer):
    """What users do, mixed into :class:`~tests.fakes.discord.FakeDiscord`."""

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
        msg, channel = self._usable_message(member, message)
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
        return await self._start_interaction(_COMPONENT, member, channel, data, message=msg)

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
        msg, channel = self._usable_message(member, message)
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
        return await self._start_interaction(_COMPONENT, member, channel, data, message=msg)

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

    def _usable_message(
        self, member: FakeMember, message: FakeMessage | str
    ) -> tuple[FakeMessage, FakeChannel]:
        """The message ``member`` uses a component of, and its (guild) channel."""
        msg = message if isinstance(message, FakeMessage) else self._messages[str(message)]
        channel = msg.channel
        if isinstance(channel, FakeDMChannel):
            raise NotImplementedError(f"the fake has no interactions in DMs (message {msg.id})")
        if msg.deleted:
            raise AssertionError(f"message {msg.id} was deleted")
        if msg.ephemeral and (msg.ephemeral_user is None or msg.ephemeral_user.id != member.id):
            raise AssertionError(f"{member.name} cannot see ephemeral message {msg.id}")
        if member.id not in channel.guild.members:
            raise AssertionError(f"{member.name} is not a member of {channel.guild.name}")
        return msg, channel

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
