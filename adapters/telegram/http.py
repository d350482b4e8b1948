"""The Bot API over aiohttp (here already for discord.py) instead of PTB's default httpx.

Measured on a busy bot, httpx with httpcore and anyio spent most of the process's CPU on each
request's bookkeeping (walking the pool, asking anyio about every socket); aiohttp's C parser
and plain pool do the same request for a fraction of it (BENCHMARKS.md). A call without files
goes as one JSON body (orjson), which the Bot API takes as it takes a form: URL-encoding every
parameter, each JSON-encoded on its own, cost more than the rest of the request.
"""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace
from typing import Any, cast

import aiohttp
import orjson
from telegram.error import NetworkError, TimedOut
from telegram.request import BaseRequest, RequestData

# What PTB passes where a call sets no timeout of its own.
DEFAULT = BaseRequest.DEFAULT_NONE
# Told each answer's HTTP status, or None where no answer came (metrics, health).
Observer = Callable[[int | None], None]
JSON = {"Content-Type": "application/json"}


class AiohttpRequest(BaseRequest):
    """One pool of `connections` to the Bot API; PTB's timeouts mapped onto aiohttp's.
    `observe` is told how each request went, `sent` that one reached the server (a long poll
    then waits there for its answer)."""

    def __init__(
        self,
        connections: int,
        *,
        read_timeout: float | None = 5.0,
        connect_timeout: float | None = 5.0,
        pool_timeout: float | None = 10.0,
        observe: Observer | None = None,
        sent: Callable[[], None] | None = None,
    ) -> None:
        self._observe = observe
        self._sent = sent
        self._connections = connections
        self._read = read_timeout
        self._connect = connect_timeout
        self._pool = pool_timeout
        self._session: aiohttp.ClientSession | None = None

    @property
    def read_timeout(self) -> float | None:
        return self._read

    async def initialize(self) -> None:
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(limit=self._connections),
                headers={"User-Agent": self.USER_AGENT},
                trace_configs=[self._trace()] if self._sent is not None else None,
            )

    def _trace(self) -> aiohttp.TraceConfig:
        trace = aiohttp.TraceConfig()

        async def sent(
            session: aiohttp.ClientSession,
            context: SimpleNamespace,
            params: aiohttp.TraceRequestHeadersSentParams,
        ) -> None:
            if self._sent is not None:
                self._sent()

        trace.on_request_headers_sent.append(sent)
        return trace

    async def shutdown(self) -> None:
        if self._session is not None and not self._session.closed:
            await self._session.close()

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: float | object | None = DEFAULT,
        write_timeout: float | object | None = DEFAULT,
        connect_timeout: float | object | None = DEFAULT,
        pool_timeout: float | object | None = DEFAULT,
    ) -> tuple[int, bytes]:
        """aiohttp has no write timeout: a stalled upload ends at the read timeout instead."""
        if self._session is None or self._session.closed:
            raise RuntimeError("AiohttpRequest is not initialized")
        timeout = aiohttp.ClientTimeout(
            connect=_seconds(pool_timeout, self._pool),
            sock_connect=_seconds(connect_timeout, self._connect),
            sock_read=_seconds(read_timeout, self._read),
        )
        data, headers = request_body(request_data)
        try:
            async with self._session.request(
                method, url, data=data, headers=headers, timeout=timeout
            ) as response:
                body = await response.read()
        except TimeoutError as error:
            self._told(None)
            raise TimedOut from error
        except aiohttp.ClientError as error:
            self._told(None)
            raise NetworkError(f"aiohttp.{type(error).__name__}: {error}") from error
        self._told(response.status)
        return response.status, body

    def _told(self, status: int | None) -> None:
        if self._observe is not None:
            self._observe(status)


def _seconds(given: float | object | None, default: float | None) -> float | None:
    if given is DEFAULT:
        return default
    assert given is None or isinstance(given, int | float)
    return given


class JsonBody:
    """A call's parameters as the Bot API takes them, in place of a RequestData: what
    python-telegram-bot's Bot would build from them, one RequestParameter object each, for
    `request_body` to read back as this same dict. PTB hands a request's data on to
    `do_request` untouched, and `request_body` reads only these two attributes."""

    contains_files = False

    def __init__(self, parameters: dict[str, Any]) -> None:
        self.parameters = parameters

    def data(self) -> RequestData:
        """As the request's methods are typed: what they pass on is this."""
        return cast(RequestData, self)


def request_body(
    request_data: RequestData | None,
) -> tuple[aiohttp.FormData | bytes | None, dict[str, str] | None]:
    """The parameters and their content type: JSON, or a multipart form with files."""
    if request_data is None:
        return None, None
    if not request_data.contains_files:
        return orjson.dumps(request_data.parameters), JSON
    form = aiohttp.FormData()
    for name, value in request_data.json_parameters.items():
        form.add_field(name, value)
    for name, (filename, content, mimetype) in request_data.multipart_data.items():
        form.add_field(name, content, filename=filename, content_type=mimetype)
    return form, None
