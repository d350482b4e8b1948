"""The fake Discord (REST API + gateway): its state, start and stop, URLs, and waiting."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable
from typing import Any

from aiohttp import web

from tests.fakes.base import FaultQueue
from tests.fakes.discord.actions import UserActions
from tests.fakes.discord.faults import _Fault
from tests.fakes.discord.gateway import Gateway, _Conn, _Session
from tests.fakes.discord.http import RestHttp
from tests.fakes.discord.interaction import FakeInteraction, FakeRequest
from tests.fakes.discord.limits import Limits
from tests.fakes.discord.message import FakeAttachment, FakeMessage
from tests.fakes.discord.model import FakeChannel, FakeDMChannel, FakeGuild, FakeUser
from tests.fakes.discord.oauth import OAuthRoutes
from tests.fakes.discord.protocol import (
    ALL_INTENTS,
    API_VERSION,
    DEFAULT_BOT_PERMISSIONS,
    PRIVILEGED_INTENTS,
    _Snowflakes,
)
from tests.fakes.discord.routes_app import AppRoutes
from tests.fakes.discord.routes_channels import ChannelRoutes
from tests.fakes.discord.routes_dms import DirectMessages
from tests.fakes.discord.routes_interactions import InteractionRoutes
from tests.fakes.discord.store import MessageStore
from tests.fakes.discord.world import World


class FakeDiscord(
    UserActions,
    World,
    MessageStore,
    ChannelRoutes,
    DirectMessages,
    InteractionRoutes,
    OAuthRoutes,
    AppRoutes,
    RestHttp,
    Gateway,
):
    """Fake Discord REST API + gateway; see the package docstring."""

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
        limits: Limits | None = None,
        client_secret: str = "fake-client-secret",
    ) -> None:
        super().__init__()
        self._last_activity = 0.0  # no activity before start()
        self.token = token
        self.interaction_timeout = interaction_timeout
        self.activity = True  # the application is set up as an Activity (launches it: type 12)
        self.client_secret = client_secret  # the application's OAuth2 secret (OAuthRoutes)
        self._codes = {}
        self._bearers = {}
        self._instances = {}
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
        self._channels: dict[str, FakeChannel | FakeDMChannel] = {}  # DM channels too
        self._dms: dict[str, FakeDMChannel] = {}  # by the recipient's user id
        self._messages: dict[str, FakeMessage] = {}
        self._attachments: dict[str, FakeAttachment] = {}
        self._global_commands: list[dict[str, Any]] = []
        self._guild_commands: dict[str, list[dict[str, Any]]] = {}
        self._interactions: dict[str, FakeInteraction] = {}
        self._by_token: dict[str, FakeInteraction] = {}
        self._faults: FaultQueue[_Fault] = FaultQueue()
        self._sessions: list[_Session] = []
        self._conns: list[_Conn] = []
        self._port = 0
        #: every interaction started by the test, oldest first
        self.interactions: list[FakeInteraction] = []
        #: every REST request, oldest first
        self.requests: list[FakeRequest] = []
        #: interactions the bot did not answer within ``interaction_timeout``
        self.expired: list[FakeInteraction] = []
        #: presence updates (op 3) the bot sent
        self.presences: list[dict[str, Any]] = []
        self.identifies = 0
        self.resumes = 0
        self._routes = self._route_table()
        self._init_rate_limits(limits)  # off (None) unless a test asks

    async def start(self) -> None:
        app = web.Application(client_max_size=self.attachment_size_limit * 2 + (1 << 20))
        app.router.add_get("/ws", self._gateway)
        app.router.add_get("/ws-resume", self._gateway)
        app.router.add_route("*", "/{tail:.*}", self._http)
        self._port = await self._serve(app, "127.0.0.1", handle_signals=False)
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
        await self._close_server()

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

    async def wait_for(
        self, predicate: Callable[[], Any], timeout: float = 5.0, what: str | None = None
    ) -> Any:
        """Wait until ``predicate()`` is truthy (re-checked on every change); return its value."""
        return await self._wait_until(
            predicate,
            timeout,
            poll=0.05,
            failure=lambda: f"timed out after {timeout}s waiting for {what or predicate}",
        )

    async def settle(self, quiet: float = 0.05, timeout: float = 5.0) -> None:
        """Wait until no request is in flight, no gateway event is unsent, and ``quiet`` seconds
        passed without activity."""
        await self._settle_until(
            lambda: self._inflight > 0 or not all(c.idle for c in self._conns),
            quiet,
            timeout,
            pause=min(0.01, max(quiet / 4, 0.001)),
            failure=lambda: f"fake Discord still busy after {timeout}s",
        )
