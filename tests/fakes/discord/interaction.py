"""Interactions a fake user started and what the bot did with them (the response, follow-ups,
a modal, autocomplete choices), and the record of a REST request."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tests.fakes.discord.message import FakeMessage
from tests.fakes.discord.model import FakeChannel, FakeMember, FakeUser

if TYPE_CHECKING:
    from tests.fakes.discord.server import FakeDiscord


@dataclass
class FakeResponse:
    """The initial response the bot gave to an interaction (the callback)."""

    type: int
    data: dict[str, Any] | None
    message: FakeMessage | None
    at: float


@dataclass
class FakeRequest:
    """A REST request made to the fake, and the status it was answered with."""

    method: str
    path: str  # without the /api/v10 prefix
    query: dict[str, str]
    body: Any
    files: list[tuple[str, str, bytes]]
    status: int | None = None
    at: float = field(default_factory=time.monotonic)


class FakeInteraction:
    """An interaction a fake user started, and everything the bot did with it."""

    def __init__(
        self,
        fake: FakeDiscord,
        *,
        id: str,
        token: str,
        type: int,
        member: FakeMember,
        channel: FakeChannel,
        data: dict[str, Any],
        payload: dict[str, Any],
        message: FakeMessage | None = None,
    ) -> None:
        self._fake = fake
        self.id = id
        self.token = token
        self.type = type
        self.member = member
        self.channel = channel
        self.data = data
        self.payload = payload
        self.message = message  # the message whose component was used
        self.response: FakeResponse | None = None
        self.followups: list[FakeMessage] = []
        self.expired = False
        self.modal: dict[str, Any] | None = None
        self.choices: list[dict[str, Any]] | None = None
        self._original: FakeMessage | None = None
        self._loading_replaced = False
        self._answered = asyncio.Event()
        self._timer: asyncio.TimerHandle | None = None

    @property
    def user(self) -> FakeUser:
        return self.member.user

    @property
    def original(self) -> FakeMessage | None:
        """The current state of the original response message (``@original``)."""
        return self._original

    @property
    def responded(self) -> bool:
        return self.response is not None

    @property
    def messages(self) -> list[FakeMessage]:
        out = [self._original] if self._original is not None else []
        out += [m for m in self.followups if m not in out]
        return [m for m in out if not m.deleted]

    def texts(self) -> list[str]:
        return [m.text for m in self.messages if m.text]

    def ephemeral_texts(self) -> list[str]:
        return [m.text for m in self.messages if m.ephemeral and m.text]

    async def wait_response(self, timeout: float | None = None) -> FakeResponse:
        """Wait for the initial response; fails when the interaction expired (3 s)."""
        if timeout is None:
            timeout = self._fake.interaction_timeout + 1.0

        def answered() -> bool:
            if self.response is None and self.expired:
                raise AssertionError(
                    f"interaction {self.id} was not answered in time: "
                    "the user sees 'This interaction failed'"
                )
            return self.response is not None

        await self._fake._wait_until(
            answered,
            timeout,
            poll=0.05,
            failure=lambda: f"no response to interaction {self.id} within {timeout}s",
        )
        assert self.response is not None
        return self.response

    async def wait_followups(self, count: int = 1, timeout: float = 5.0) -> list[FakeMessage]:
        await self._fake.wait_for(
            lambda: len(self.followups) >= count, timeout, f"{count} follow-up(s) to {self.id}"
        )
        return self.followups

    def __repr__(self) -> str:
        rtype = self.response.type if self.response else None
        return f"<FakeInteraction id={self.id} type={self.type} response={rtype}>"
