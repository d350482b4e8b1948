"""A page's hands on the live table without a browser: its HTTP and WebSocket calls, and
Telegram launch data signed as Telegram signs it (written out here, not taken from the bot)."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import aiohttp

from bot.settings import Settings
from tests.fakes.telegram import FakeMessage, FakeTelegram
from tests.parallel import free_port
from tests.telegram.kit import bot_settings

State = dict[str, Any]


def launch_data(
    token: str,
    user_id: int,
    first_name: str,
    *,
    start_param: str | None = None,
    auth_date: float | None = None,
    language: str = "en",
) -> str:
    """initData as Telegram makes it: the fields, sorted, joined by newlines, signed with
    HMAC-SHA256 under HMAC-SHA256("WebAppData", token)."""
    user = {"id": user_id, "first_name": first_name, "language_code": language}
    fields = {
        "query_id": "AAE-test",
        "user": json.dumps(user, separators=(",", ":"), ensure_ascii=False),
        "auth_date": str(int(auth_date if auth_date is not None else time.time())),
    }
    if start_param is not None:
        fields["start_param"] = start_param
    checked = "\n".join(f"{key}={fields[key]}" for key in sorted(fields))
    secret = hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()
    fields["hash"] = hmac.new(secret, checked.encode(), hashlib.sha256).hexdigest()
    return urlencode(fields)


def web_settings(fake: FakeTelegram, database: Path, **changes: Any) -> Settings:
    """The bot on the fake Telegram with its live table on a free port of 127.0.0.1."""
    port = free_port()
    settings = bot_settings(fake, database)
    return settings.model_copy(
        update={
            "general_web_url": f"http://127.0.0.1:{port}/",
            "general_web_port": port,
            **changes,
        }
    )


def game_id(board: FakeMessage) -> str:
    """The game a chat board shows, from its buttons' payloads."""
    data = next(b.callback_data for b in board.buttons if b.callback_data)
    return data.split("|")[1]


@dataclass
class Page:
    """One open page: what its socket was sent, in order, and its presses."""

    base: str
    http: aiohttp.ClientSession
    socket: aiohttp.ClientWebSocketResponse | None = None
    messages: list[dict[str, Any]] = field(default_factory=list)
    arrived: asyncio.Event = field(default_factory=asyncio.Event)
    reader: asyncio.Task[None] | None = None

    async def session(self, body: dict[str, str]) -> tuple[int, dict[str, Any]]:
        async with self.http.post(self.base + "api/session", json=body) as answer:
            return answer.status, await answer.json()

    async def open(self, body: dict[str, str]) -> dict[str, Any]:
        status, given = await self.session(body)
        assert status == 200, given
        query = urlencode({"session": given["session"], "table": given["table"]})
        self.socket = await self.http.ws_connect(self.base + "api/live?" + query)
        self.reader = asyncio.create_task(self._read())
        return given

    async def _read(self) -> None:
        assert self.socket is not None
        async for message in self.socket:
            if message.type is aiohttp.WSMsgType.TEXT:
                self.messages.append(json.loads(message.data))
                self.arrived.set()

    @property
    def states(self) -> list[State]:
        return [m["state"] for m in self.messages if m["type"] == "state"]

    @property
    def state(self) -> State:
        assert self.states, self.messages
        return self.states[-1]

    def said(self, kind: str) -> list[str]:
        return [m["text"] for m in self.messages if m["type"] == kind]

    async def until(self, check: Callable[[Page], bool], timeout: float = 10.0) -> None:
        """Wait until what the page was sent passes `check`."""
        deadline = asyncio.get_running_loop().time() + timeout
        while not check(self):
            left = deadline - asyncio.get_running_loop().time()
            assert left > 0, f"the page was not sent what was awaited: {self.messages[-3:]}"
            self.arrived.clear()
            try:
                await asyncio.wait_for(self.arrived.wait(), left)
            except TimeoutError:
                continue

    async def press(self, code: str, version: int | None = None) -> None:
        assert self.socket is not None
        shown = self.state["version"] if version is None else version
        await self.socket.send_str(json.dumps({"press": code, "version": shown}))

    async def close(self) -> None:
        if self.socket is not None:
            await self.socket.close()
        if self.reader is not None:
            await self.reader
