"""REST routes about the bot itself: the current user, the application, the gateway URL, and
the application commands (global or per guild)."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from tests.fakes.base import FakeServer
from tests.fakes.discord.command_validation import _validate_commands
from tests.fakes.discord.errors import _ApiError, _invalid_form
from tests.fakes.discord.http import _Ctx
from tests.fakes.discord.model import FakeGuild, FakeUser
from tests.fakes.discord.protocol import _app_flags


class AppRoutes(FakeServer):
    """Bot, application and command routes, mixed into :class:`~tests.fakes.discord.FakeDiscord`."""

    bearer_for: Callable[[str], FakeUser | None]  # an OAuth2 bearer's user (OAuthRoutes)

    def _r_me(self, ctx: _Ctx) -> tuple[int, Any]:
        person = self.bearer_for(ctx.authorization)
        if person is not None:  # an Activity's sign-in: the person, scope identify
            return 200, {**person.payload(), "locale": person.locale, "mfa_enabled": False}
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
        flags = _app_flags(self.allowed_intents)
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
                raise _invalid_form([], "BASE_TYPE_ARRAY", "Not an array")
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
