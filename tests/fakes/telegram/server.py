"""The fake Telegram Bot API server: its state, start and stop, what the bot did, and waiting."""

from __future__ import annotations

import asyncio
import inspect
import itertools
import re
from collections.abc import Callable
from typing import Any

from aiohttp import web

from tests.fakes.base import FaultQueue
from tests.fakes.telegram.api_chats import ChatMethods
from tests.fakes.telegram.api_messages import MessageMethods
from tests.fakes.telegram.faults import _Fault
from tests.fakes.telegram.http import BotApiHttp
from tests.fakes.telegram.limits import Limits
from tests.fakes.telegram.model import CallbackAnswer, FakeChat, FakeMessage, FakeUser
from tests.fakes.telegram.updates import Updates
from tests.fakes.telegram.validation import _scope_key
from tests.fakes.telegram.world import World


class FakeTelegram(World, MessageMethods, ChatMethods, Updates, BotApiHttp):
    """A fake Telegram Bot API server plus a test-side API that reads like a user."""

    def __init__(
        self,
        token: str = "123456:TEST",
        *,
        username: str = "general_test_bot",
        first_name: str = "General Test Bot",
        strict_html: bool = True,
        privacy_mode: bool = False,
        host: str = "127.0.0.1",
        limits: Limits | None = None,
    ) -> None:
        if not re.fullmatch(r"\d+:[A-Za-z0-9_-]+", token):
            raise ValueError(f"malformed bot token {token!r}")
        super().__init__()
        self.token = token
        self.strict_html = strict_html
        self.privacy_mode = privacy_mode
        self.host = host
        self.bot_user = FakeUser(
            int(token.split(":")[0]), first_name, username=username, is_bot=True
        )
        self.users: dict[int, FakeUser] = {self.bot_user.id: self.bot_user}
        self.chats: dict[int, FakeChat] = {}
        self.requests: list[tuple[str, dict[str, Any]]] = []
        self.commands: dict[tuple[str, str], list[dict[str, str]]] = {}
        # The bot's description and short description, by language ("" for every other).
        self.descriptions: dict[tuple[str, str], str] = {}
        self.callback_queries: dict[str, CallbackAnswer] = {}
        self.chat_actions: list[tuple[int, str, int | None]] = []
        #: whether the bot still holds writes back for its pace (set by the test kit): a bot
        #: waiting for its slot is not settled, though the fake hears nothing meanwhile
        self.bot_holding: Callable[[], bool] = lambda: False
        self.webhook_deleted = 0
        self.webhook: dict[str, Any] | None = None
        self.webhook_deliveries: list[tuple[int, int]] = []  # (update_id, status; 0: none)
        self._deliveries: set[asyncio.Task[None]] = set()
        self._webhook_session: Any = None
        self.conflicts = 0
        self._messages: dict[int, list[FakeMessage]] = {}
        self._by_id: dict[tuple[int, int], FakeMessage] = {}
        self._next_message_id: dict[int, int] = {}
        self._topics: dict[tuple[int, int], FakeMessage] = {}
        self._members: dict[tuple[int, int], dict[str, Any]] = {}
        self._seen_in_chat: set[tuple[int, int]] = set()
        self._blocked: set[int] = set()
        self._migrated: dict[int, int] = {}  # a group upgraded → its supergroup
        self._files: dict[str, tuple[bytes | None, dict[str, Any]]] = {}
        self._faults: FaultQueue[_Fault] = FaultQueue()
        self._updates: list[dict[str, Any]] = []
        self._update_ids = itertools.count(700_000_001)
        self._query_ids = itertools.count(4_300_000_000_000_000_001)
        self._allowed_updates: list[str] | None = None
        self._update_arrived = asyncio.Event()
        self._poll_generation = 0
        self._stopping = False
        self._port: int | None = None
        self._init_flood_control(limits)  # off (None) unless a test asks

    async def start(self) -> None:
        """Serve on a free port; started again after `stop`, on the same one (an outage)."""
        self._stopping = False
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("*", "/{tail:.*}", self._handle)
        self._port = await self._serve(
            app, self.host, self._port or 0, handler_cancellation=True, shutdown_timeout=1.0
        )

    async def stop(self) -> None:
        self._stopping = True
        self._update_arrived.set()
        for task in list(self._deliveries):
            task.cancel()
        await asyncio.gather(*self._deliveries, return_exceptions=True)
        if self._webhook_session is not None:
            await self._webhook_session.close()
        await self._close_server()

    @property
    def port(self) -> int:
        if self._port is None:
            raise RuntimeError("FakeTelegram is not started")
        return self._port

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}/bot"

    @property
    def base_file_url(self) -> str:
        return f"http://{self.host}:{self.port}/file/bot"

    def messages(self, chat: FakeChat, thread_id: int | None = None) -> list[FakeMessage]:
        """All messages in ``chat`` in order (service messages excluded). ``thread_id``: only
        that forum topic / thread; 0 means messages outside any thread; None means all."""
        result = [m for m in self._messages.get(chat.id, []) if not m.is_service]
        if thread_id is None:
            return result
        if thread_id == 0:
            return [m for m in result if m.thread_id is None]
        return [m for m in result if m.thread_id == thread_id]

    def bot_messages(self, chat: FakeChat, thread_id: int | None = None) -> list[FakeMessage]:
        """Messages the bot sent in ``chat``, in order, deleted ones included (``.deleted``)."""
        return [m for m in self.messages(chat, thread_id) if m.is_bot]

    def last_bot_message(self, chat: FakeChat, thread_id: int | None = None) -> FakeMessage:
        sent = self.bot_messages(chat, thread_id)
        if not sent:
            where = f" thread {thread_id}" if thread_id is not None else ""
            raise AssertionError(
                f"the bot sent no message in chat {chat.id}{where}; "
                f"recent requests: {self._recent_requests()}"
            )
        return sent[-1]

    def message(self, chat: FakeChat, message_id: int) -> FakeMessage:
        return self._by_id[(chat.id, message_id)]

    def calls(self, method: str) -> list[dict[str, Any]]:
        """Parameters of every request for ``method``, in order."""
        return [params for m, params in self.requests if m == method]

    def commands_for(
        self, scope: dict[str, Any] | None = None, language_code: str = ""
    ) -> list[dict[str, str]]:
        return self.commands.get((_scope_key(scope), language_code), [])

    async def wait_for(
        self,
        predicate: Callable[[], Any],
        timeout: float = 5.0,
        message: str | None = None,
    ) -> Any:
        """Wait until ``predicate()`` is truthy and return its value."""
        return await self._wait_until(
            predicate,
            timeout,
            poll=0.1,
            failure=lambda: (
                f"wait_for timed out after {timeout}s: {message or self._describe(predicate)}"
                f"\n  unhandled: {self.unhandled}\n  recent requests: "
                f"{self._recent_requests()}"
            ),
        )

    async def settle(self, quiet: float = 0.05, timeout: float = 5.0) -> None:
        """Wait until no request is in flight, every update was confirmed by getUpdates, the
        bot holds nothing back for its pace, and nothing happened for ``quiet`` seconds."""
        await self._settle_until(
            lambda: self._inflight > 0 or bool(self._updates) or self.bot_holding(),
            quiet,
            timeout,
            pause=min(quiet / 4, 0.01),
            failure=lambda: (
                f"settle timed out after {timeout}s: {self._inflight} requests in flight, "
                f"{len(self._updates)} updates not confirmed through getUpdates "
                f"(is the bot polling?)\n  recent requests: {self._recent_requests()}"
            ),
        )

    @staticmethod
    def _describe(predicate: Callable[[], Any]) -> str:
        try:
            return inspect.getsource(predicate).strip()
        except (OSError, TypeError):
            return repr(predicate)

    def _recent_requests(self, n: int = 8) -> list[str]:
        recent = [(m, p) for m, p in self.requests if m != "getUpdates"][-n:]
        return [f"{m}({p})" for m, p in recent]
