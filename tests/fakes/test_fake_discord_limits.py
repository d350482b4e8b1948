"""The fake Discord's rate limits, seen through the real discord.py (whose own rate-limit
handling waits them out) and through bare HTTP (the exact 429s and headers)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import aiohttp
import discord
import pytest

from tests.fakes.discord import DEFERRED_CHANNEL_MESSAGE, FakeChannel, FakeDiscord
from tests.fakes.discord.limits import Bucket, Limits

TOKEN = "fake-token"
# STRICT's shape with short windows, so discord.py's real waits stay short
QUICK = Limits(
    message_create=Bucket(5, 0.4),
    message_edit=Bucket(5, 0.4),
    followup=Bucket(5, 0.4),
    everything=Bucket(50, 1.0),
)


@pytest.fixture
async def fake(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[FakeDiscord]:
    server = FakeDiscord(token=TOKEN, limits=QUICK)
    await server.start()
    monkeypatch.setattr(discord.http.Route, "BASE", server.api_base)
    try:
        yield server
    finally:
        await server.stop()


@pytest.fixture
def channels(fake: FakeDiscord) -> list[FakeChannel]:
    guild = fake.guild(name="Dice club")
    return [fake.text_channel(guild, name=f"table-{i}") for i in range(60)]


@asynccontextmanager
async def client(**options: Any) -> AsyncIterator[discord.Client]:
    """A logged-in discord.py client with no gateway: REST is all these tests need."""
    bot = discord.Client(intents=discord.Intents.none(), **options)
    await bot.login(TOKEN)
    try:
        yield bot
    finally:
        await bot.close()


def send(bot: discord.Client, channel: FakeChannel, text: str) -> Any:
    return bot.get_partial_messageable(int(channel.id)).send(text)


async def first_burst(bot: discord.Client, channel: FakeChannel) -> None:
    for i in range(5):
        await send(bot, channel, f"roll {i}")


async def test_off_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    async with FakeDiscord(token=TOKEN) as fake:
        monkeypatch.setattr(discord.http.Route, "BASE", fake.api_base)
        chan = fake.text_channel(fake.guild(name="Dice club"), name="general")
        async with client() as bot:
            for i in range(50):
                await send(bot, chan, f"roll {i}")
        assert len(fake.channel_messages(chan)) == 50
        assert fake.rate_limited == [] and fake.unhandled == []


async def test_a_burst_is_refused_with_discords_headers(
    fake: FakeDiscord, channels: list[FakeChannel]
) -> None:
    chan, other = channels[0], channels[1]
    url = f"{fake.api_base}/channels/{chan.id}/messages"
    auth = {"Authorization": f"Bot {TOKEN}"}
    async with aiohttp.ClientSession(headers=auth) as http:
        remaining = []
        for i in range(5):
            async with http.post(url, json={"content": f"roll {i}"}) as response:
                assert response.status == 200
                remaining.append(response.headers["X-RateLimit-Remaining"])
                assert response.headers["X-RateLimit-Limit"] == "5"
                bucket = response.headers["X-RateLimit-Bucket"]
                reset_after = float(response.headers["X-RateLimit-Reset-After"])
                reset = float(response.headers["X-RateLimit-Reset"])
                assert 0 < reset_after <= 0.4 and abs(reset - time.time() - reset_after) < 0.1
        assert remaining == ["4", "3", "2", "1", "0"]
        async with http.post(url, json={"content": "one too many"}) as response:
            assert response.status == 429
            body = await response.json()
            assert body.keys() == {"message", "retry_after", "global"}
            assert body["message"] == "You are being rate limited." and body["global"] is False
            assert 0 < body["retry_after"] <= 0.4
            headers = response.headers
            assert (headers["Retry-After"], headers["X-RateLimit-Scope"]) == ("1", "user")
            assert headers["Via"] and headers["X-RateLimit-Bucket"] == bucket
            assert headers["X-RateLimit-Remaining"] == "0"
        async with http.post(
            f"{fake.api_base}/channels/{other.id}/messages", json={"content": "hi"}
        ) as response:  # another channel has a bucket of its own
            assert response.status == 200 and response.headers["X-RateLimit-Remaining"] == "4"
    assert len(fake.channel_messages(chan)) == 5  # the refused one did nothing
    assert [(r.reason, r.channel_id) for r in fake.rate_limited] == [("message_create", chan.id)]
    assert (fake.rate_limited_in(chan), fake.rate_limited_in(other)) == (1, 0)


async def test_discord_py_waits_before_it_would_be_refused(
    fake: FakeDiscord, channels: list[FakeChannel]
) -> None:
    chan = channels[0]
    async with client() as bot:
        start = time.monotonic()
        sent = [await send(bot, chan, f"roll {i}") for i in range(12)]
        for message in sent[:6]:
            await message.edit(content="rolled")
        elapsed = time.monotonic() - start
    assert len(fake.channel_messages(chan)) == 12
    assert fake.rate_limited == []  # it read Remaining 0 and waited each window out
    assert elapsed >= 2 * 0.4 + 0.4  # two full create windows, one edit window


async def test_discord_py_sleeps_out_a_429_and_succeeds(
    fake: FakeDiscord, channels: list[FakeChannel]
) -> None:
    # two processes of the same bot share its buckets; the second learns of them by a 429
    chan = channels[0]
    async with client() as first, client() as second:
        # the first one's fifth send returns only once it has slept out the spent window
        burst = asyncio.create_task(first_burst(first, chan))
        await fake.wait_for(lambda: len(fake.channel_messages(chan)) == 5)
        start = time.monotonic()
        await send(second, chan, "after the wait")
        waited = time.monotonic() - start
        await burst
    (refusal,) = fake.rate_limited
    assert refusal.reason == "message_create" and waited >= refusal.retry_after
    assert len(fake.channel_messages(chan)) == 6


async def test_the_global_limit(fake: FakeDiscord, channels: list[FakeChannel]) -> None:
    async with client() as bot:
        await asyncio.gather(*(send(bot, chan, "roll") for chan in channels))
    assert all(len(fake.channel_messages(chan)) == 1 for chan in channels)
    refusals = fake.rate_limited
    assert refusals and {r.reason for r in refusals} == {"global"}
    # the login's GET /users/@me counts too: 49 of the 60 sends fit in the first second
    assert len(refusals) >= 11


async def test_a_storm_holds_a_channel_then_lifts(
    fake: FakeDiscord, channels: list[FakeChannel]
) -> None:
    chan, other = channels[0], channels[1]
    fake.limits = None  # storms need no limits
    async with client() as bot:
        fake.storm(chan, 0.5)
        start = time.monotonic()
        held = asyncio.create_task(send(bot, chan, "through the storm"))
        await send(bot, other, "calm here")
        assert not held.done()
        await held
        assert time.monotonic() - start >= 0.5
    assert fake.rate_limited_in(chan) >= 1 and fake.rate_limited_in(other) == 0
    assert {r.reason for r in fake.rate_limited} == {"storm"}
    assert [m.content for m in fake.channel_messages(chan)] == ["through the storm"]


async def test_discord_py_raises_rate_limited_over_its_max_timeout(
    fake: FakeDiscord, channels: list[FakeChannel]
) -> None:
    chan = channels[0]
    fake.storm(chan, 60)
    async with client(max_ratelimit_timeout=30) as bot:
        with pytest.raises(discord.RateLimited) as err:
            await send(bot, chan, "never sent")
    assert 59 < err.value.retry_after <= 60
    assert fake.channel_messages(chan) == []


async def test_follow_ups_per_interaction_and_storms(
    fake: FakeDiscord, channels: list[FakeChannel]
) -> None:
    chan = channels[0]
    alice = fake.member(chan.guild, "Alice")
    app = fake.application_id
    async with aiohttp.ClientSession() as http:
        command = {"name": "general", "description": "Dice game General", "type": 1}
        auth = {"Authorization": f"Bot {TOKEN}"}
        async with http.put(
            f"{fake.api_base}/applications/{app}/commands", json=[command], headers=auth
        ) as response:
            assert response.status == 200
        inter = await fake.slash(alice, chan, "general")
        callback = f"{fake.api_base}/interactions/{inter.id}/{inter.token}/callback"
        async with http.post(callback, json={"type": DEFERRED_CHANNEL_MESSAGE}) as response:
            assert response.status in (200, 204)  # callbacks have no bucket
        hook = f"{fake.api_base}/webhooks/{app}/{inter.token}"
        statuses = []
        for i in range(6):
            async with http.post(hook, json={"content": f"follow-up {i}"}) as response:
                statuses.append(response.status)
        assert statuses == [204] * 5 + [429]  # no ?wait=true: no body
        await asyncio.sleep(0.4)  # the window opens again
        fake.storm(chan, 5)
        async with http.post(hook, json={"content": "in the storm"}) as response:
            assert response.status == 429 and (await response.json())["retry_after"] > 4
    assert [r.reason for r in fake.rate_limited] == ["followup", "storm"]
    assert fake.rate_limited_in(chan) == 2
