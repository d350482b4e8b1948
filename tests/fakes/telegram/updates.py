"""How updates reach the bot: real long polling through ``getUpdates`` (updates forgotten only
once confirmed through ``offset``, a newer poll ending an older one with 409 Conflict), or
delivery to a webhook, retried until it is taken."""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

import aiohttp

from tests.fakes.base import FakeServer
from tests.fakes.telegram.errors import CONFLICT, ApiError


class Updates(FakeServer):
    """Update delivery, mixed into :class:`~tests.fakes.telegram.FakeTelegram`."""

    @property
    def pending_updates(self) -> list[dict[str, Any]]:
        """Updates not yet confirmed by the bot through getUpdates' offset."""
        return list(self._updates)

    def _push_update(self, payload: dict[str, Any]) -> None:
        update = {"update_id": next(self._update_ids), **payload}
        self._updates.append(update)
        self._update_arrived.set()
        self._notify()
        if self.webhook is not None:
            self._deliver(update)

    def _deliver(self, update: dict[str, Any]) -> None:
        task = asyncio.create_task(self._post_update(update))
        self._deliveries.add(task)
        task.add_done_callback(self._deliveries.discard)

    async def _post_update(self, update: dict[str, Any]) -> None:
        """POST one update to the webhook, again after a pause until it is taken (as Telegram)."""
        while self.webhook is not None and not self._stopping:
            url, secret = self.webhook["url"], self.webhook.get("secret_token")
            headers = {"X-Telegram-Bot-Api-Secret-Token": secret} if secret else {}
            if self._webhook_session is None:
                self._webhook_session = aiohttp.ClientSession()
            self._inflight += 1
            try:
                async with self._webhook_session.post(url, json=update, headers=headers) as resp:
                    delivered = resp.status == 200
                    self.webhook_deliveries.append((update["update_id"], resp.status))
            except aiohttp.ClientError:
                delivered = False
                self.webhook_deliveries.append((update["update_id"], 0))
            finally:
                self._inflight -= 1
            if delivered:
                self._updates = [u for u in self._updates if u is not update]
                self._notify()
                return
            await asyncio.sleep(0.2)

    async def _api_setWebhook(self, p: dict[str, Any]) -> Any:
        url = p.get("url") or ""
        if not url:
            return await self._api_deleteWebhook(p)
        if not url.startswith(("http://", "https://")):
            raise ApiError("Bad Request: bad webhook: An HTTPS URL must be provided for webhook")
        if p.get("drop_pending_updates"):
            self._updates.clear()
        self.webhook = {"url": url, "secret_token": p.get("secret_token")}
        for update in list(self._updates):
            self._deliver(update)
        return True

    async def _api_getWebhookInfo(self, p: dict[str, Any]) -> Any:
        return {
            "url": self.webhook["url"] if self.webhook else "",
            "has_custom_certificate": False,
            "pending_update_count": len(self._updates),
        }

    async def _api_deleteWebhook(self, p: dict[str, Any]) -> Any:
        self.webhook_deleted += 1
        self.webhook = None
        if p.get("drop_pending_updates"):
            self._updates.clear()
        return True

    async def _api_getUpdates(self, p: dict[str, Any]) -> Any:
        if self.webhook is not None:
            raise ApiError(
                "Conflict: can't use getUpdates method while webhook is active; "
                "use deleteWebhook to delete the webhook first",
                409,
            )
        offset = p.get("offset")
        limit = p.get("limit") or 100
        limit = min(max(limit, 1), 100)
        timeout = max(p.get("timeout") or 0, 0)
        if "allowed_updates" in p and p["allowed_updates"] is not None:
            allowed = p["allowed_updates"]
            if not isinstance(allowed, list):
                raise ApiError("Bad Request: can't parse allowed_updates JSON array")
            self._allowed_updates = list(allowed) or None
        self._poll_generation += 1
        generation = self._poll_generation
        self._update_arrived.set()  # wakes an older poll, which then answers 409
        self._update_arrived = asyncio.Event()
        self._confirm(offset)
        if not self._deliverable() and timeout > 0 and not self._stopping:
            deadline = time.monotonic() + timeout
            self._inflight -= 1  # an idle long poll is not "in flight" for settle()
            try:
                while True:
                    remaining = deadline - time.monotonic()
                    if remaining <= 0 or self._stopping:
                        break
                    event = self._update_arrived
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(event.wait(), remaining)
                    if generation != self._poll_generation:
                        self.conflicts += 1
                        raise ApiError(CONFLICT, 409)
                    if self._deliverable():
                        break
                    self._update_arrived = asyncio.Event()
            finally:
                self._inflight += 1
        return [dict(u) for u in self._deliverable()[:limit]]

    def _confirm(self, offset: int | None) -> None:
        if not offset:
            return
        if offset > 0:
            self._updates = [u for u in self._updates if u["update_id"] >= offset]
        else:
            self._updates = self._updates[offset:]
        self._notify()

    def _deliverable(self) -> list[dict[str, Any]]:
        if self._allowed_updates:
            self._updates = [u for u in self._updates if any(k in u for k in self._allowed_updates)]
        return self._updates
