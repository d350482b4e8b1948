"""The fake Bot API's HTTP side: ``/bot<token>/<method>`` dispatched to the methods, the token
checked, parameters decoded, injected faults answered, and files served under ``/file``."""

from __future__ import annotations

import json
import re
from typing import Any

from aiohttp import web

from tests.fakes.base import abort_connection
from tests.fakes.telegram.errors import ApiError, _Unhandled
from tests.fakes.telegram.faults import Faults, _Fault
from tests.fakes.telegram.limits import FloodControl
from tests.fakes.telegram.params import _SPECS, _decode, _read_params


class BotApiHttp(Faults, FloodControl):
    """Request handling, mixed into :class:`~tests.fakes.telegram.FakeTelegram`."""

    def _json(self, status: int, payload: dict[str, Any]) -> web.Response:
        return web.Response(
            status=status,
            body=json.dumps(payload, ensure_ascii=False).encode(),
            content_type="application/json",
        )

    def _error(
        self, status: int, description: str, parameters: dict[str, Any] | None = None
    ) -> web.Response:
        payload: dict[str, Any] = {"ok": False, "error_code": status, "description": description}
        if parameters:
            payload["parameters"] = parameters
        return self._json(status, payload)

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        path = request.path
        m = re.fullmatch(r"/file/bot([^/]+)/(.+)", path)
        if m:
            return self._serve_file(m.group(1), m.group(2))
        m = re.fullmatch(r"/bot([^/]*)/([A-Za-z0-9_]*)", path)
        if not m:
            self.unhandled.append(f"{request.method} {path}: not a Bot API URL")
            return self._error(404, "Not Found")
        token, method = m.group(1), m.group(2)
        if token != self.token:
            if re.fullmatch(r"\d+:[A-Za-z0-9_-]+", token):
                return self._error(401, "Unauthorized")
            return self._error(404, "Not Found")
        canonical = {k.lower(): k for k in _SPECS}.get(method.lower())
        with self._handling_request():
            return await self._dispatch(request, canonical or method, known=canonical is not None)

    async def _dispatch(self, request: web.Request, method: str, known: bool) -> web.StreamResponse:
        try:
            raw, from_form = await _read_params(request)
        except _Unhandled as exc:
            self.requests.append((method, {}))
            self.unhandled.append(f"{method}: {exc.reason}")
            return self._error(exc.status, f"Bad Request: {exc.reason}")
        if not known:
            self.requests.append((method, dict(raw)))
            self.unhandled.append(f"{method}: unknown method (params {sorted(raw)})")
            return self._error(404, "Not Found")
        try:
            params = _decode(method, raw, from_form)
        except _Unhandled as exc:
            self.requests.append((method, {k: v for k, v in raw.items() if isinstance(v, str)}))
            self.unhandled.append(f"{method}: {exc.reason}")
            return self._error(exc.status, f"Bad Request: [fake] {exc.reason}")
        except ApiError as exc:
            self.requests.append((method, dict(raw)))
            return self._error(exc.status, exc.description, exc.parameters)
        self.requests.append((method, params))
        retry_after = self._flood_check(method, params)
        if retry_after is not None:
            desc = f"Too Many Requests: retry after {retry_after}"
            return self._error(429, desc, {"retry_after": retry_after})

        fault = self._faults.take(lambda f: f.method == method)
        if fault is not None and fault.mode == "drop":
            return self._drop(request)
        if fault is not None and fault.mode == "error":
            return self._fault_response(fault)

        handler = getattr(self, "_api_" + method)
        try:
            result = await handler(params)
        except _Unhandled as exc:
            self.unhandled.append(f"{method}: {exc.reason}")
            return self._error(exc.status, f"Bad Request: [fake] {exc.reason}")
        except ApiError as exc:
            return self._error(exc.status, exc.description, exc.parameters)
        if fault is not None:  # drop_after
            return self._drop(request)
        return self._json(200, {"ok": True, "result": result})

    def _fault_response(self, fault: _Fault) -> web.Response:
        status = fault.status
        if status == 429:
            desc = fault.description or f"Too Many Requests: retry after {fault.retry_after}"
            return self._error(429, desc, {"retry_after": fault.retry_after})
        defaults = {
            400: "Bad Request",
            403: "Forbidden: bot was blocked by the user",
            500: "Internal Server Error",
            502: "Bad Gateway",
            503: "Service Unavailable",
            504: "Gateway Timeout",
        }
        return self._error(status, fault.description or defaults.get(status, "Error"))

    @staticmethod
    def _drop(request: web.Request) -> web.StreamResponse:
        abort_connection(request)
        # aiohttp notices the dead connection and discards whatever follows
        return web.Response(status=204)

    def _serve_file(self, token: str, file_path: str) -> web.Response:
        if token != self.token:
            return self._error(401, "Unauthorized")
        for data, info in self._files.values():
            if info.get("file_path") == file_path and data is not None:
                return web.Response(body=data, content_type="application/octet-stream")
        return self._error(404, "Not Found")
