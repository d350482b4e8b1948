"""The fake Discord gateway: sessions and their connections (compressed as discord.py asks),
IDENTIFY / RESUME / heartbeats, and the events dispatched to each session's shard."""

from __future__ import annotations

import asyncio
import contextlib
import copy
import json
import secrets
import zlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from tests.fakes.base import FakeServer
from tests.fakes.discord.model import FakeGuild
from tests.fakes.discord.protocol import ALL_INTENTS, API_VERSION, INTENT_GUILDS, _app_flags

if TYPE_CHECKING:
    from tests.fakes.discord.server import FakeDiscord

try:  # discord.py asks for zstd-stream when zstandard is importable
    import zstandard
except ImportError:  # pragma: no cover - depends on the environment
    zstandard = None


class _Session:
    def __init__(self, session_id: str, intents: int, shard: list[int] | None) -> None:
        self.id = session_id
        self.intents = intents
        self.shard = shard
        self.seq = 0
        self.log: list[dict[str, Any]] = []
        self.conn: _Conn | None = None
        self.alive = True
        self.ready = False


class _Conn:
    def __init__(
        self, fake: FakeDiscord, ws: web.WebSocketResponse, request: web.Request, compress: str
    ) -> None:
        self.fake = fake
        self.ws = ws
        self.request = request
        self.compress = compress
        self.session: _Session | None = None
        self.closed = False
        self.dropped = False
        self.busy = False
        self.queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self._zlib = zlib.compressobj() if compress == "zlib-stream" else None
        self._zstd = (
            zstandard.ZstdCompressor().compressobj()
            if compress == "zstd-stream" and zstandard is not None
            else None
        )
        self.writer = asyncio.create_task(self._write())

    @property
    def idle(self) -> bool:
        return self.closed or (self.queue.empty() and not self.busy)

    def send(self, msg: dict[str, Any]) -> None:
        if not self.closed:
            self.queue.put_nowait(msg)

    def _encode(self, text: str) -> bytes | str:
        if self._zlib is not None:
            return self._zlib.compress(text.encode()) + self._zlib.flush(zlib.Z_SYNC_FLUSH)
        if self._zstd is not None and zstandard is not None:
            return self._zstd.compress(text.encode()) + self._zstd.flush(
                zstandard.COMPRESSOBJ_FLUSH_BLOCK
            )
        return text

    async def _write(self) -> None:
        while True:
            msg = await self.queue.get()
            if msg is None or self.closed:
                return
            self.busy = True
            try:
                frame = self._encode(json.dumps(msg, separators=(",", ":"), ensure_ascii=False))
                if isinstance(frame, bytes):
                    await self.ws.send_bytes(frame)
                else:
                    await self.ws.send_str(frame)
            except (ConnectionError, RuntimeError):
                return
            finally:
                self.busy = False
                if msg.get("op") != 11:
                    self.fake._notify()


class Gateway(FakeServer):
    """The gateway, mixed into :class:`~tests.fakes.discord.FakeDiscord`."""

    async def wait_ready(self, timeout: float = 5.0) -> None:
        """Wait until a live gateway session got READY and its GUILD_CREATEs."""
        await self.wait_for(
            lambda: any(
                s.alive and s.ready and s.conn is not None and s.conn.idle for s in self._sessions
            ),
            timeout,
            "the bot to identify on the gateway",
        )

    def _dispatch(
        self,
        event: str,
        data: dict[str, Any] | Callable[[_Session], dict[str, Any] | None],
        *,
        intent: int | None = None,
        guild: FakeGuild | None = None,
        ready_only: bool = False,
    ) -> None:
        """Send a DISPATCH to every live session (queued in its log when disconnected)."""
        for sess in self._sessions:
            if not sess.alive or (ready_only and not sess.ready):
                continue
            if intent is not None and not sess.intents & intent:
                continue
            if guild is not None and not self._in_shard(guild, sess):
                continue
            d = data(sess) if callable(data) else copy.deepcopy(data)
            if d is not None:
                self._send_dispatch(sess, event, d)

    def _send_dispatch(self, sess: _Session, event: str, data: dict[str, Any]) -> None:
        sess.seq += 1
        msg = {"op": 0, "s": sess.seq, "t": event, "d": data}
        sess.log.append(msg)
        if sess.conn is not None:
            sess.conn.send(msg)

    @staticmethod
    def _in_shard(guild: FakeGuild, sess: _Session) -> bool:
        if not sess.shard:
            return True
        shard_id, count = sess.shard
        return (int(guild.id) >> 22) % count == shard_id

    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(compress=False, max_msg_size=1 << 20)
        await ws.prepare(request)
        query = request.query
        compress = query.get("compress", "")
        conn = _Conn(self, ws, request, compress)
        self._conns.append(conn)
        try:
            if query.get("v") != str(API_VERSION):
                self.unhandled.append(f"gateway: API version {query.get('v')!r}")
                await ws.close(code=4012, message=b"Invalid API version")
                return ws
            if query.get("encoding", "json") != "json":
                self.unhandled.append(f"gateway: encoding {query.get('encoding')!r}")
                await ws.close(code=4002, message=b"Decode error")
                return ws
            if compress not in ("", "zlib-stream", "zstd-stream") or (
                compress == "zstd-stream" and zstandard is None
            ):
                self.unhandled.append(f"gateway: compress {compress!r}")
                await ws.close(code=4000, message=b"Unknown compression")
                return ws
            conn.send(
                {
                    "op": 10,
                    "s": None,
                    "t": None,
                    "d": {
                        "heartbeat_interval": self.heartbeat_interval_ms,
                        "_trace": ["fake-discord"],
                    },
                }
            )
            async for msg in ws:
                if msg.type == WSMsgType.TEXT:
                    try:
                        payload = json.loads(msg.data)
                    except ValueError:
                        self.unhandled.append(f"gateway: undecodable {msg.data[:80]!r}")
                        await ws.close(code=4002, message=b"Decode error")
                        break
                    await self._gateway_op(conn, payload)
                else:
                    self.unhandled.append(f"gateway: unexpected {msg.type.name} frame")
                    await ws.close(code=4002, message=b"Decode error")
                    break
        finally:
            conn.closed = True
            conn.queue.put_nowait(None)
            sess = conn.session
            if sess is not None and sess.conn is conn:
                sess.conn = None
                if not conn.dropped and ws.close_code in (1000, 1001):
                    sess.alive = False  # a clean close ends the session
            self._notify()
        return ws

    async def _gateway_op(self, conn: _Conn, payload: dict[str, Any]) -> None:
        op = payload.get("op")
        d = payload.get("d")
        if op == 1:
            conn.send({"op": 11, "d": None, "s": None, "t": None})
            return
        self._notify()
        if op == 2:
            await self._identify(conn, d or {})
        elif op == 6:
            await self._resume(conn, d or {})
        elif op == 3:
            self.presences.append(d or {})
        elif op == 8:
            self._request_members(conn, d or {})
        elif op == 4:
            self.unhandled.append(f"gateway: voice state update {d}")
        else:
            self.unhandled.append(f"gateway: op {op}")
            await conn.ws.close(code=4001, message=b"Unknown opcode")

    def _token_ok(self, token: Any) -> bool:
        token = str(token or "")
        return token.removeprefix("Bot ") == self.token

    async def _identify(self, conn: _Conn, d: dict[str, Any]) -> None:
        if conn.session is not None:
            await conn.ws.close(code=4005, message=b"Already authenticated")
            return
        if not self._token_ok(d.get("token")):
            await conn.ws.close(code=4004, message=b"Authentication failed")
            return
        intents = d.get("intents")
        if not isinstance(intents, int) or intents & ~ALL_INTENTS:
            await conn.ws.close(code=4013, message=b"Invalid intent(s)")
            return
        if intents & ~self.allowed_intents:
            await conn.ws.close(code=4014, message=b"Disallowed intent(s)")
            return
        shard = d.get("shard")
        sess = _Session(secrets.token_hex(16), intents, shard)
        self._sessions.append(sess)
        sess.conn = conn
        conn.session = sess
        self.identifies += 1
        guilds = [g for g in self._guilds.values() if self._in_shard(g, sess)]
        flags = _app_flags(self.allowed_intents)
        user = {
            **self.bot_user.payload(),
            "verified": True,
            "mfa_enabled": False,
            "flags": 0,
            "email": None,
        }
        ready: dict[str, Any] = {
            "v": API_VERSION,
            "user": user,
            "guilds": [{"id": g.id, "unavailable": True} for g in guilds],
            "session_id": sess.id,
            "session_type": "normal",
            "resume_gateway_url": self.resume_gateway_url,
            "application": {"id": self.application_id, "flags": flags},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "user_settings": {},
            "geo_ordered_rtc_regions": ["fake"],
            "_trace": ["fake-discord"],
        }
        if shard:
            ready["shard"] = shard
        self._send_dispatch(sess, "READY", ready)
        if intents & INTENT_GUILDS:
            for g in guilds:
                self._send_dispatch(sess, "GUILD_CREATE", self._guild_create_payload(g, sess))
        sess.ready = True

    async def _resume(self, conn: _Conn, d: dict[str, Any]) -> None:
        sess = next((s for s in self._sessions if s.id == d.get("session_id")), None)
        if not self._token_ok(d.get("token")):
            await conn.ws.close(code=4004, message=b"Authentication failed")
            return
        if sess is None or not sess.alive:
            conn.send({"op": 9, "d": False, "s": None, "t": None})
            return
        old = sess.conn
        if old is not None and old is not conn:
            old.session = None
            old.closed = True
            old.queue.put_nowait(None)
            with contextlib.suppress(Exception):
                await old.ws.close(code=4000, message=b"Session resumed elsewhere")
        sess.conn = conn
        conn.session = sess
        seq = d.get("seq") or 0
        for msg in sess.log:
            if msg["s"] > seq:
                conn.send(msg)
        self._send_dispatch(sess, "RESUMED", {"_trace": ["fake-discord"]})
        self.resumes += 1

    def _request_members(self, conn: _Conn, d: dict[str, Any]) -> None:
        sess = conn.session
        guild = self._guilds.get(str(d.get("guild_id")))
        if sess is None or guild is None:
            self.unhandled.append(f"gateway: request members {d}")
            return
        members = list(guild.members.values())
        if d.get("user_ids"):
            ids = {str(u) for u in d["user_ids"]}
            members = [m for m in members if m.id in ids]
        elif d.get("query"):
            members = [m for m in members if m.name.startswith(str(d["query"]).lower())]
        if d.get("limit"):
            members = members[: int(d["limit"])]
        data = {
            "guild_id": guild.id,
            "members": [m.payload() for m in members],
            "chunk_index": 0,
            "chunk_count": 1,
            "presences": [],
        }
        if d.get("nonce") is not None:
            data["nonce"] = d["nonce"]
        self._send_dispatch(sess, "GUILD_MEMBERS_CHUNK", data)
