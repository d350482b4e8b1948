"""The fake Discord's REST side: the route table, authorization, bodies (JSON or multipart
with files), rate-limit headers, injected faults answered, attachments served."""

from __future__ import annotations

import asyncio
import json
import math
import re
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from tests.fakes.base import abort_connection
from tests.fakes.discord.errors import _ApiError
from tests.fakes.discord.faults import Faults, _Fault
from tests.fakes.discord.interaction import FakeRequest
from tests.fakes.discord.limits import RateLimits
from tests.fakes.discord.message import _Files
from tests.fakes.discord.model import FakeUser
from tests.fakes.discord.protocol import API_VERSION

BEARER_PATHS = frozenset({"/users/@me"})  # what an OAuth2 bearer token (scope identify) reads


@dataclass
class _Ctx:
    method: str
    params: dict[str, str]
    body: Any
    files: _Files
    query: dict[str, str]
    authorization: str = ""


class RestHttp(Faults, RateLimits):
    """REST plumbing, mixed into :class:`~tests.fakes.discord.FakeDiscord`."""

    bearer_for: Callable[[str], FakeUser | None]  # an OAuth2 bearer's user (OAuthRoutes)

    def _route_table(self) -> list[tuple[set[str], re.Pattern[str], Callable[..., Any], bool]]:
        app = r"/applications/(?P<app>\d+)(?:/guilds/(?P<guild>\d+))?/commands"
        hook = r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)"
        chan = r"/channels/(?P<cid>\d+)"
        table: list[tuple[str, str, Callable[..., Any], bool]] = [
            ("GET", r"/users/@me", self._r_me, True),
            ("POST", r"/users/@me/channels", self._r_create_dm, True),
            ("GET", r"/users/(?P<uid>\d+)", self._r_user, True),
            ("GET", r"/oauth2/applications/@me", self._r_app, True),
            ("POST", r"/oauth2/token", self._r_token, False),
            (
                "GET",
                r"/applications/(?P<app>\d+)/activity-instances/(?P<instance>[^/]+)",
                self._r_activity_instance,
                True,
            ),
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

    async def _read_body(self, request: web.Request) -> tuple[Any, _Files]:
        ctype = request.headers.get("Content-Type", "")
        files: _Files = {}
        if ctype.startswith("application/x-www-form-urlencoded"):  # OAuth2's token exchange
            return dict(await request.post()), files
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
        with self._handling_request():
            record = FakeRequest(method, sub or path, dict(request.query), None, [])
            self.requests.append(record)
            response = await self._http_inner(request, method, sub, record)
            record.status = response.status
            return response

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
        rate: dict[str, str] = {}  # the headers of a bucketed route, when limits are on
        try:
            body, files = await self._read_body(request)
            record.body = body
            record.files = [(f"files[{i}]", name, data) for i, (name, data, _) in files.items()]
            header = request.headers.get("Authorization", "")
            bearer = sub in BEARER_PATHS and self.bearer_for(header) is not None
            if auth and header != f"Bot {self.token}" and not bearer:
                return self._json(401, {"message": "401: Unauthorized", "code": 0}, bucket)
            refused, rate = self._rate_limit(method, sub, pattern, match.groupdict(), auth, bucket)
            if refused is not None:
                return refused
            fault = self._take_fault(method, sub)
            if fault is not None and not fault.applied:
                return await self._fault_response(request, fault, bucket)
            ctx = _Ctx(
                method,
                {k: v for k, v in match.groupdict().items() if v is not None},
                body,
                files,
                dict(request.query),
                header,
            )
            status, out = handler(ctx)
            if fault is not None:
                return await self._fault_response(request, fault, bucket)
            return self._json(status, out, bucket, **rate)
        except _ApiError as exc:
            return self._json(exc.status, exc.body(), bucket, **rate)

    async def _fault_response(
        self, request: web.Request, fault: _Fault, bucket: str
    ) -> web.StreamResponse:
        if fault.status == "drop":
            abort_connection(request)
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
