"""The fake Discord's OAuth2 side, as an Activity's sign-in uses it: a test mints an authorization
code for a user (what Discord's AUTHORIZE command hands the page), the bot exchanges it at
`POST /oauth2/token` with the application's id and secret, and reads the person at `GET
/users/@me` with the bearer token it was given. Codes are single-use and short-lived, as
Discord's are; refusals are Discord's OAuth2 error bodies. A test also says which Activity
instances run where and with whom (`activity_instance`), which the bot reads with its bot token at
`GET /applications/{application.id}/activity-instances/{instance_id}`; an instance not so set up
is a 404, as Discord answers for one that does not exist."""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tests.fakes.base import FakeServer
from tests.fakes.discord.http import _Ctx
from tests.fakes.discord.model import FakeUser

CODE_LIFE = 600.0  # seconds an authorization code stays good
TOKEN_LIFE = 604_800  # seconds a bearer token stays good (Discord's: a week)


@dataclass(frozen=True)
class _Instance:
    launch_id: str
    channel_id: str
    guild_id: str | None
    users: tuple[str, ...]


@dataclass
class _Code:
    user: FakeUser
    expires: float
    used: bool = False


class OAuthRoutes(FakeServer):
    """Codes, token exchange and the bearer's `/users/@me`, mixed into FakeDiscord."""

    application_id: str
    client_secret: str
    _sf: Callable[[], str]
    _codes: dict[str, _Code]
    _bearers: dict[str, FakeUser]
    _instances: dict[str, _Instance]

    def activity_instance(
        self, instance_id: str, channel_id: str, user_ids: list[str], *, guild_id: str | None = None
    ) -> None:
        """The Activity instance `instance_id` runs in `channel_id` with `user_ids` in it (an
        empty list: everyone has left; set again to change it)."""
        self._instances[instance_id] = _Instance(self._sf(), channel_id, guild_id, tuple(user_ids))

    def oauth_code(self, user: FakeUser, *, life: float = CODE_LIFE) -> str:
        """An authorization code for `user` (scope identify), good for `life` seconds."""
        code = secrets.token_urlsafe(20)
        self._codes[code] = _Code(user, time.time() + life)
        return code

    @property
    def issued_tokens(self) -> list[str]:
        """Every bearer token handed out (a test checks none is shown or logged)."""
        return list(self._bearers)

    def bearer_for(self, header: str) -> FakeUser | None:
        """The user a `Bearer <token>` header stands for, if this fake issued the token."""
        scheme, _, token = header.partition(" ")
        return self._bearers.get(token) if scheme == "Bearer" else None

    def _r_token(self, ctx: _Ctx) -> tuple[int, Any]:
        form = ctx.body if isinstance(ctx.body, dict) else {}
        if form.get("grant_type") != "authorization_code":
            return 400, {"error": "unsupported_grant_type"}
        if form.get("client_id") != self.application_id or not secrets.compare_digest(
            str(form.get("client_secret", "")), self.client_secret
        ):
            return 401, {"error": "invalid_client"}
        found = self._codes.get(str(form.get("code", "")))
        if found is None or found.used or time.time() >= found.expires:
            return 400, {
                "error": "invalid_grant",
                "error_description": 'Invalid "code" in request.',
            }
        found.used = True
        token = secrets.token_urlsafe(24)
        self._bearers[token] = found.user
        return 200, {
            "access_token": token,
            "token_type": "Bearer",
            "expires_in": TOKEN_LIFE,
            "refresh_token": secrets.token_urlsafe(24),
            "scope": "identify",
        }

    def _r_activity_instance(self, ctx: _Ctx) -> tuple[int, Any]:
        found = self._instances.get(ctx.params["instance"])
        if ctx.params["app"] != self.application_id or found is None:
            return 404, {"message": "404: Not Found", "code": 0}
        kind = "gc" if found.guild_id else "pc"
        place = "-".join(p for p in (kind, found.guild_id, found.channel_id) if p)
        location: dict[str, Any] = {"id": place, "kind": kind, "channel_id": found.channel_id}
        if found.guild_id:
            location["guild_id"] = found.guild_id
        return 200, {
            "application_id": self.application_id,
            "instance_id": ctx.params["instance"],
            "launch_id": found.launch_id,
            "location": location,
            "users": list(found.users),
        }
