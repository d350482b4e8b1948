"""Who opened the table inside Discord: an Activity's OAuth2 authorization code, exchanged.

Discord hands the page a code (its AUTHORIZE command, scope `identify`); the bot trades it at
Discord's token endpoint with the application's id and secret, then asks who the token's owner
is. The page's URL names the Activity's instance and channel, which the page could forge: the bot
asks Discord, with its own bot token, where that instance runs and who is in it. Only the bot ever
sees the secret and the tokens: none is kept, logged or answered with, and every failure is a
`DiscordRefused` with a machine code, whatever Discord (or the way to it) did.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

import aiohttp

log = logging.getLogger(__name__)
DISCORD_API = "https://discord.com/api/v10"
TIMEOUT = 10.0  # seconds for the whole exchange: a person is waiting for the page
MAX_CODE = 256  # Discord's codes are 30 characters; anything far longer is not one
_SNOWFLAKE = re.compile(r"[0-9]{1,20}")
# An instance id goes into a path: Discord's are like "i-<launch>-gc-<guild>-<channel>".
_INSTANCE = re.compile(r"[A-Za-z0-9_-]{1,128}")


class Failure(StrEnum):
    """Why no person came of a code: Discord said no, or Discord could not be asked."""

    REFUSED = "discord_refused"
    DOWN = "discord_down"
    ELSEWHERE = "discord_elsewhere"  # the person is not in that instance, in that channel


class DiscordRefused(Exception):
    """No person for this code; the text is the code alone, so logging it leaks nothing."""

    def __init__(self, failure: Failure) -> None:
        super().__init__(failure.value)
        self.failure = failure


@dataclass(frozen=True)
class DiscordPerson:
    """The person a code was issued to: their id, the name they show, their language."""

    id: str
    name: str
    locale: str


@dataclass(frozen=True)
class ActivityInstance:
    """Where a running Activity is, as Discord knows it: its channel and who is in it now."""

    channel_id: str
    users: frozenset[str]


class DiscordOAuth:
    """Trades an Activity's authorization codes for the people they were issued to, and asks
    Discord (as the bot) where an Activity's instance runs."""

    __slots__ = ("_bot_token", "_secret", "api", "client_id", "timeout")

    def __init__(
        self,
        client_id: str,
        secret: str,
        bot_token: str,
        *,
        api: str | None = None,
        timeout: float = TIMEOUT,
    ) -> None:
        if not secret:
            raise ValueError("no client secret: no code can be exchanged")
        if not bot_token:
            raise ValueError("no bot token: no instance can be checked")
        self.client_id, self._secret, self._bot_token = client_id, secret, bot_token
        self.api, self.timeout = (api or DISCORD_API).rstrip("/"), timeout

    def __repr__(self) -> str:
        return f"DiscordOAuth(client_id={self.client_id!r}, api={self.api!r})"

    async def person(self, code: str) -> DiscordPerson:
        """The person `code` was issued to, the code spent. Raises DiscordRefused only."""
        if not code or len(code) > MAX_CODE or not code.isascii():
            raise DiscordRefused(Failure.REFUSED)
        form = {
            "client_id": self.client_id,
            "client_secret": self._secret,
            "grant_type": "authorization_code",
            "code": code,
        }
        try:
            timeout = aiohttp.ClientTimeout(total=self.timeout)
            async with aiohttp.ClientSession(timeout=timeout) as http:
                async with http.post(f"{self.api}/oauth2/token", data=form) as answer:
                    granted = await _answer(answer, "token")
                token = granted.get("access_token")
                if not isinstance(token, str) or not token:
                    raise DiscordRefused(Failure.DOWN)
                bearer = {"Authorization": f"Bearer {token}"}
                async with http.get(f"{self.api}/users/@me", headers=bearer) as answer:
                    user = await _answer(answer, "user")
        except (aiohttp.ClientError, TimeoutError, OSError) as error:
            log.warning("discord sign-in: Discord not reached (%s)", type(error).__name__)
            raise DiscordRefused(Failure.DOWN) from None
        return _person(user)

    async def instance(self, instance_id: str) -> ActivityInstance:
        """Where the Activity's instance `instance_id` runs and who is in it (Discord's Get
        Application Activity Instance). Raises DiscordRefused only: ELSEWHERE where Discord knows
        no such instance (ended, or never was)."""
        if not _INSTANCE.fullmatch(instance_id):
            raise DiscordRefused(Failure.ELSEWHERE)
        url = f"{self.api}/applications/{self.client_id}/activity-instances/{instance_id}"
        bot = {"Authorization": f"Bot {self._bot_token}"}
        try:
            timeout = aiohttp.ClientTimeout(total=self.timeout)
            async with (
                aiohttp.ClientSession(timeout=timeout) as http,
                http.get(url, headers=bot) as answer,
            ):
                if answer.status == 404:
                    log.info("discord sign-in: no such activity instance (HTTP 404)")
                    raise DiscordRefused(Failure.ELSEWHERE)
                if answer.status != 200:  # the bot's token refused is not the person's fault
                    log.warning("discord sign-in: instance failed (HTTP %d)", answer.status)
                    raise DiscordRefused(Failure.DOWN)
                found = await _answer(answer, "instance")
        except (aiohttp.ClientError, TimeoutError, OSError) as error:
            log.warning("discord sign-in: Discord not reached (%s)", type(error).__name__)
            raise DiscordRefused(Failure.DOWN) from None
        return _instance(found)


async def _answer(answer: aiohttp.ClientResponse, step: str) -> dict[str, Any]:
    """A JSON object from Discord; a 4xx is Discord saying no, anything else a failure."""
    if 400 <= answer.status < 500 and answer.status != 429:
        log.info("discord sign-in: %s refused (HTTP %d)", step, answer.status)
        raise DiscordRefused(Failure.REFUSED)
    if answer.status != 200:
        log.warning("discord sign-in: %s failed (HTTP %d)", step, answer.status)
        raise DiscordRefused(Failure.DOWN)
    try:
        body = await answer.json(content_type=None)
    except ValueError:
        body = None
    if not isinstance(body, dict):
        log.warning("discord sign-in: %s answered no JSON object", step)
        raise DiscordRefused(Failure.DOWN)
    return body


def _instance(found: dict[str, Any]) -> ActivityInstance:
    """The instance's channel and users; an answer without them is Discord answering nonsense."""
    location, users = found.get("location"), found.get("users")
    channel = location.get("channel_id") if isinstance(location, dict) else None
    if not isinstance(channel, str) or not _SNOWFLAKE.fullmatch(channel):
        raise DiscordRefused(Failure.DOWN)
    if not isinstance(users, list) or not all(isinstance(u, str) for u in users):
        raise DiscordRefused(Failure.DOWN)
    return ActivityInstance(channel, frozenset(users))


def _person(user: dict[str, Any]) -> DiscordPerson:
    user_id, username = user.get("id"), user.get("username")
    if not isinstance(user_id, str) or not _SNOWFLAKE.fullmatch(user_id):
        raise DiscordRefused(Failure.DOWN)
    shown = user.get("global_name")
    name = shown if isinstance(shown, str) and shown else username
    locale = user.get("locale")
    return DiscordPerson(
        user_id,
        name if isinstance(name, str) else user_id,
        locale if isinstance(locale, str) and locale.isascii() else "",
    )
