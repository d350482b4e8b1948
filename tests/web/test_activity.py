"""Signing in from a Discord Activity: the page's OAuth2 code exchanged by the bot through the fake
Discord for a session of that person at that channel's table, given only where Discord (asked with
the bot's token) says the Activity's instance runs in that channel with that person in it; every
failed exchange or check a refusal in words that changes nothing and shows no secret; and in a
real browser, the page inside a frame
that plays Discord's part of the RPC signs in, shows its person's seat and plays."""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import sqlite3
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import aiohttp
import pytest
from aiohttp import web
from aiohttp.test_utils import TestServer
from pydantic import ValidationError

from adapters.i18n import translator
from bot.settings import Settings
from core.dice import ScriptedRoller
from tests.discord.conftest import _track_handled
from tests.discord.kit import button, live_board, running_bot, slash
from tests.fakes.discord import FakeChannel, FakeDiscord, FakeMember
from tests.parallel import free_port
from tests.web.kit import Page

__all__ = ["_track_handled"]  # tests/discord's record of the interactions the bot finished

EN = translator("en")
SECRET = "fake-client-secret-of-the-application"
TOKEN = "fake-discord-token"
INSTANCE = "i-1"  # the Activity's instance as the page's URL names it


@dataclass
class Activity:
    fake: FakeDiscord
    channel: FakeChannel
    ann: FakeMember
    base: str
    database: Path
    roller: ScriptedRoller


@pytest.fixture
async def discord() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(token=TOKEN, client_secret=SECRET) as server:
        yield server
        server.assert_clean()


@pytest.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as session:
        yield session


def web_settings(fake: FakeDiscord, **changes: Any) -> dict[str, Any]:
    """The live table on a free port, the Activity's sign-in set up (unless `changes` say)."""
    port = free_port()
    return {
        "general_web_url": f"http://127.0.0.1:{port}/",
        "general_web_port": port,
        "discord_activity": True,
        "discord_application_id": int(fake.application_id),
        "discord_client_secret": SECRET,
        **changes,
    }


@pytest.fixture
async def activity(
    discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[Activity]:
    """The bot on the fake Discord, and Ann's table open in #general, where Ann is in the
    Activity's instance."""
    guild = discord.guild("Dice club")
    channel = discord.text_channel(guild, "general")
    ann = discord.member(guild, "Ann")
    discord.activity_instance(INSTANCE, channel.id, [ann.user.id], guild_id=guild.id)
    database = tmp_path / "g.db"
    settings = web_settings(discord)
    async with running_bot(discord, database, monkeypatch, **settings) as (_, roller):
        await slash(discord, ann, channel, "start")
        yield Activity(discord, channel, ann, settings["general_web_url"], database, roller)


def stored(database: Path) -> list[tuple[str, int, str]]:
    with sqlite3.connect(database) as db:
        return list(db.execute("SELECT id, version, snapshot FROM games ORDER BY id"))


async def test_a_code_gives_its_person_a_session_at_that_channels_table(
    activity: Activity, http: aiohttp.ClientSession
) -> None:
    fake, channel = activity.fake, activity.channel
    bob = fake.member(channel.guild, fake.user("Bob", global_name="Bobby"))
    fake.activity_instance(INSTANCE, channel.id, [activity.ann.user.id, bob.user.id])
    async with http.get(activity.base + "api/discord") as asked:
        assert asked.status == 200 and await asked.json() == {"client_id": fake.application_id}
    page = Page(activity.base, http)
    code = fake.oauth_code(bob.user)
    given = await page.open({"discord": code, "channel": channel.id, "instance": INSTANCE})
    assert given["player"] == {"id": bob.user.id, "name": "Bobby"}
    await page.until(lambda p: bool(p.states))
    assert page.state["you"] is None and page.state["phase"] == "lobby"  # not seated yet
    await page.press("j")  # a press from the page, judged as the chat's button
    await page.until(lambda p: p.states[-1]["you"] == 1)
    assert [p["name"] for p in page.state["players"]] == ["Ann", "Bobby"]
    await fake.wait_for(lambda: "Bobby" in live_board(fake, channel).text, what="Bobby seated")
    status, again = await page.session(
        {"discord": code, "channel": channel.id, "instance": INSTANCE}
    )
    assert (status, again["error"]) == (403, "discord_refused")  # a code is good once
    await page.close()


@pytest.mark.parametrize(
    ("how", "status", "error"),
    [
        ("forged", 403, "discord_refused"),
        ("spent", 403, "discord_refused"),
        ("expired", 403, "discord_refused"),
        ("another application's", 403, "discord_refused"),
        ("token endpoint down", 502, "discord_down"),
        ("connection dropped", 502, "discord_down"),
        ("user endpoint down", 502, "discord_down"),
        ("instance endpoint down", 502, "discord_down"),
        ("the bot's token refused", 502, "discord_down"),
        ("not a channel", 400, "bad_request"),
        ("no instance", 400, "bad_request"),
        ("no code", 403, "discord_refused"),
    ],
)
async def test_a_failed_exchange_is_refused_in_words_and_changes_nothing(
    activity: Activity,
    http: aiohttp.ClientSession,
    caplog: pytest.LogCaptureFixture,
    how: str,
    status: int,
    error: str,
) -> None:
    fake, channel, ann = activity.fake, activity.channel, activity.ann
    caplog.set_level(logging.DEBUG)
    code = fake.oauth_code(ann.user, life=-1 if how == "expired" else 600)
    body = {"discord": code, "channel": channel.id, "instance": INSTANCE}
    match how:
        case "forged":
            body["discord"] = "not-a-code-Discord-gave"
        case "spent":
            await Page(activity.base, http).session(body)
        case "another application's":
            fake.client_secret = "the secret of another application"
        case "token endpoint down":
            fake.fail_next("POST", "/oauth2/token", 503)
        case "connection dropped":
            fake.fail_next("POST", "/oauth2/token", "drop")
        case "user endpoint down":
            fake.fail_next("GET", "/users/@me", 500)
        case "instance endpoint down":
            fake.fail_next(
                "GET", f"/applications/{fake.application_id}/activity-instances/{INSTANCE}", 503
            )
        case "the bot's token refused":
            fake.token = "the token of another bot"
        case "not a channel":
            body["channel"] = "general"
        case "no instance":
            del body["instance"]
        case "no code":
            body["discord"] = ""
    before = stored(activity.database)
    async with http.post(activity.base + "api/session", json=body) as refused:
        said = await refused.text()
        assert refused.status == status
        assert await refused.json() == {"error": error, "message": EN(f"web-{_key(error)}")}
    assert stored(activity.database) == before
    for secret in (SECRET, TOKEN, code, *fake.issued_tokens):  # never shown, never logged
        assert secret not in said
        assert all(secret not in r.getMessage() for r in caplog.records)


@pytest.mark.parametrize(
    "how", ["another channel", "not in the instance", "an unknown instance", "a path for an id"]
)
async def test_a_channel_the_activity_was_not_launched_in_for_that_person_is_refused(
    activity: Activity, http: aiohttp.ClientSession, caplog: pytest.LogCaptureFixture, how: str
) -> None:
    """The channel and instance come from the page's URL, which anyone can write: a person signed
    in to Discord gets nothing at a channel Discord does not show them in the Activity at."""
    fake, channel, ann = activity.fake, activity.channel, activity.ann
    caplog.set_level(logging.DEBUG)
    private = fake.text_channel(channel.guild, "private")
    await slash(fake, ann, private, "start")  # a game there to watch or join, were it given
    cat = fake.member(channel.guild, "Cat")
    code = fake.oauth_code(cat.user)
    fake.activity_instance(INSTANCE, channel.id, [ann.user.id, cat.user.id])
    body = {"discord": code, "channel": private.id, "instance": INSTANCE}
    match how:
        case "not in the instance":
            body["channel"] = channel.id
            fake.activity_instance(INSTANCE, channel.id, [ann.user.id])
        case "an unknown instance":
            body["instance"] = "i-2"
        case "a path for an id":
            body["instance"] = "../../users/@me"
    before, asked = stored(activity.database), len(fake.requests)
    async with http.post(activity.base + "api/session", json=body) as refused:
        said = await refused.text()
        assert refused.status == 403
        assert await refused.json() == {
            "error": "discord_elsewhere",
            "message": EN("web-discord-elsewhere"),
        }
    assert "session" not in said
    assert stored(activity.database) == before
    looked = [r.path for r in fake.requests[asked:] if "/activity-instances/" in r.path]
    assert looked == (
        []
        if how == "a path for an id"
        else [f"/applications/{fake.application_id}/activity-instances/{body['instance']}"]
    )
    for secret in (SECRET, TOKEN, code, *fake.issued_tokens):
        assert secret not in said
        assert all(secret not in r.getMessage() for r in caplog.records)


def _key(error: str) -> str:
    return {"bad_request": "bad-link"}.get(error, error.replace("_", "-"))


async def test_a_page_in_russian_is_refused_in_russian(
    activity: Activity, http: aiohttp.ClientSession
) -> None:
    body = {"discord": "forged", "channel": activity.channel.id, "instance": INSTANCE}
    headers = {"Accept-Language": "ru-RU,ru;q=0.9"}
    async with http.post(activity.base + "api/session", json=body, headers=headers) as refused:
        assert (await refused.json())["message"] == translator("ru")("web-discord-refused")


async def test_without_a_secret_the_activity_only_watches(
    discord: FakeDiscord,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    http: aiohttp.ClientSession,
) -> None:
    guild = discord.guild("Dice club")
    channel = discord.text_channel(guild, "general")
    ann = discord.member(guild, "Ann")
    settings = web_settings(discord, discord_application_id=None, discord_client_secret=None)
    async with running_bot(discord, tmp_path / "g.db", monkeypatch, **settings):
        base = settings["general_web_url"]
        async with http.get(base + "api/discord") as asked:
            assert asked.status == 404
            assert await asked.json() == {"error": "disabled", "message": EN("web-disabled")}
        body = {
            "discord": discord.oauth_code(ann.user),
            "channel": channel.id,
            "instance": INSTANCE,
        }
        status, said = await Page(base, http).session(body)
        assert (status, said["error"]) == (404, "disabled")
    assert not [r for r in discord.requests if r.path == "/oauth2/token"]
    assert not [r for r in discord.requests if "/activity-instances/" in r.path]


def test_the_secret_comes_with_the_application_and_is_never_written_out() -> None:
    values: dict[str, Any] = {"general_web_url": "https://t.example.org/", "general_web_port": 8081}
    with pytest.raises(ValidationError, match="DISCORD_APPLICATION_ID"):
        Settings(_env_file=None, discord_client_secret="s" * 32, **values)  # type: ignore[call-arg]
    with pytest.raises(ValidationError, match="DISCORD_CLIENT_SECRET"):
        Settings(_env_file=None, discord_application_id=42, **values)  # type: ignore[call-arg]
    with pytest.raises(ValidationError, match="GENERAL_WEB_URL"):
        Settings(  # type: ignore[call-arg]
            _env_file=None, discord_application_id=42, discord_client_secret="s" * 32
        )
    settings = Settings(  # type: ignore[call-arg]
        _env_file=None, discord_application_id=42, discord_client_secret="s" * 32, **values
    )
    assert "s" * 32 in settings.secrets and "s" * 32 not in repr(settings)


# ---------------------------------------------------------------------------- in a real browser

PARENT = """<!doctype html><meta charset="utf-8"><title>Discord</title>
<iframe id="activity" style="width:360px;height:640px;border:0" src="%(page)s"></iframe>
<script>
  // Discord's part of the Embedded App SDK's RPC: READY after the handshake, a code for AUTHORIZE.
  window.heard = [];
  const frame = document.getElementById('activity');
  window.addEventListener('message', (e) => {
    if (e.source !== frame.contentWindow || !Array.isArray(e.data)) return;
    const [op, m] = e.data;
    window.heard.push([op, m && (m.cmd || m.client_id)]);
    if (op === 0 && m.client_id === '%(client)s' && m.frame_id === 'f-1') {
      e.source.postMessage([1, {cmd: 'DISPATCH', evt: 'READY', data: {v: 1}}], '*');
    } else if (op === 1 && m.cmd === 'AUTHORIZE' && m.args.client_id === '%(client)s'
               && m.args.response_type === 'code' && m.args.scope.join() === 'identify') {
      e.source.postMessage([1, {cmd: 'AUTHORIZE', evt: null, nonce: m.nonce,
                                data: {code: '%(code)s'}}], '*');
    }
  });
</script>"""


@contextlib.asynccontextmanager
async def in_discord(
    activity: Activity, *, foreign: bool = False, **query: str
) -> AsyncIterator[Any]:
    """A browser showing Discord's window (played by the test, handing out a code for Ann) with
    the page in its frame as Discord opens it (`query` besides). The window is on the page's
    own origin, as Discord's proxy's frame is, or (`foreign`) on a site of its own."""
    chromium = shutil.which("chromium")
    if chromium is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is missing: the browser tests must run in CI")
        pytest.skip("chromium is not installed")
    from playwright.async_api import Route, async_playwright

    fake, channel = activity.fake, activity.channel
    launched = {
        "frame_id": "f-1",
        "instance_id": INSTANCE,
        "channel_id": channel.id,
        "guild_id": channel.guild.id,
        "platform": "desktop",
        **query,
    }
    html = PARENT % {
        "page": f"{activity.base}?{urlencode(launched)}",
        "client": fake.application_id,
        "code": fake.oauth_code(activity.ann.user),
    }

    async def window(route: Route) -> None:
        await route.fulfill(status=200, content_type="text/html", body=html)

    async def site(request: web.Request) -> web.Response:
        return web.Response(text=html, content_type="text/html")

    async with contextlib.AsyncExitStack() as stack:
        parent = activity.base + "discord"
        if foreign:
            app = web.Application()
            app.router.add_get("/discord", site)
            server = await stack.enter_async_context(TestServer(app, host="127.0.0.1"))
            parent = str(server.make_url("/discord"))
        playwright = await stack.enter_async_context(async_playwright())
        browser = await playwright.chromium.launch(executable_path=chromium)
        stack.push_async_callback(browser.close)
        page = await browser.new_page(
            viewport={"width": 400, "height": 700}, reduced_motion="reduce"
        )
        await page.route(activity.base + "discord", window)
        await page.goto(parent)
        yield page


async def test_the_page_inside_discord_signs_in_and_plays(activity: Activity) -> None:
    async with in_discord(activity) as page:
        table = page.frame_locator("#activity")
        await table.locator("#lobby-players li.you").wait_for(timeout=5000)
        heard = await page.evaluate("window.heard")
        assert heard == [[0, activity.fake.application_id], [1, "AUTHORIZE"]]
        await table.locator("[data-testid=action-b]").click()  # Ann starts, alone
        await table.locator("th.player.you").wait_for(timeout=5000)
        activity.roller.push([6, 5, 4, 2, 1])
        await table.locator("[data-testid=roll]").click()
        await table.locator("[data-testid=die-0][data-value='6']").wait_for(timeout=5000)


async def test_a_window_of_another_origin_is_not_heard_and_the_page_watches(
    activity: Activity,
) -> None:
    """Another site framing the page answers the handshake: unheard, the page waits out READY
    and opens its ?t= table to watch."""
    table_id = (button(live_board(activity.fake, activity.channel), "j").custom_id or "").split(
        "|"
    )[1]
    async with in_discord(activity, foreign=True, t=table_id) as page:
        table = page.frame_locator("#activity")
        await table.locator("#lobby-players li").wait_for(timeout=8000)
        assert await page.evaluate("window.heard") == [[0, activity.fake.application_id]]
        assert await table.locator("#lobby-players li.you").count() == 0
        assert await table.locator("[data-testid=actions] button").count() == 0
