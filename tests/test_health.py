"""/healthz and /metrics of the real process (`python -m bot` with GENERAL_HTTP_PORT), read
over HTTP while a game is played on the fake Telegram and one on the fake Discord: the counters
move by exactly what was done, and /healthz turns 503 while the fake Telegram is down and 200
once it is back."""

from __future__ import annotations

import asyncio
import signal
import socket
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families
from pydantic import SecretStr

from bot.app import serve
from bot.startup import StartupError
from core.dice import ScriptedRoller
from tests.discord.kit import TOKEN
from tests.fakes.discord import FakeDiscord
from tests.fakes.telegram import FakeTelegram
from tests.parallel import free_port
from tests.process import Bot, on_discord, on_telegram
from tests.telegram.kit import bot_settings, live_board, press, running
from tests.telegram.test_rematch import SEED_ALICE_BIG, ended


class Scrapes:
    """/healthz and /metrics of the bot on `port`."""

    def __init__(self, session: aiohttp.ClientSession, port: int) -> None:
        self.session, self.base = session, f"http://127.0.0.1:{port}"

    async def health(self) -> tuple[int, dict[str, Any]]:
        async with self.session.get(f"{self.base}/healthz") as response:
            assert response.content_type == "application/json"
            return response.status, await response.json()

    async def metrics(self) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
        async with self.session.get(f"{self.base}/metrics") as response:
            assert response.status == 200
            assert response.headers["Content-Type"].startswith("text/plain; version=")
            text = await response.text()
        return {
            (sample.name, frozenset(sample.labels.items())): sample.value
            for family in text_string_to_metric_families(text)
            for sample in family.samples
        }

    async def until(
        self, wanted: Callable[[int, dict[str, Any]], bool], timeout: float = 15
    ) -> tuple[int, dict[str, Any]]:
        """/healthz read again until its answer is the one wanted."""
        deadline = time.monotonic() + timeout
        status, body = 0, {}
        while time.monotonic() < deadline:
            try:
                status, body = await self.health()
            except aiohttp.ClientConnectionError:  # not listening yet
                status, body = 0, {}
            if wanted(status, body):
                return status, body
            await asyncio.sleep(0.05)
        raise AssertionError(f"/healthz never answered as wanted; last: {status} {body}")


def value(samples: dict[Any, float], name: str, **labels: str) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


def moved(before: dict[Any, float], after: dict[Any, float], name: str, **labels: str) -> float:
    return value(after, name, **labels) - value(before, name, **labels)


@pytest.mark.slow
async def test_health_and_metrics_of_the_real_process(tmp_path: Path) -> None:
    tg, dc = FakeTelegram(), FakeDiscord(token=TOKEN)
    await tg.start()
    await dc.start()
    guild = dc.guild(name="Health")
    port, log = free_port(), tmp_path / "bot.log"
    settings = {
        **on_telegram(tg),
        **on_discord(dc),
        "GENERAL_DATABASE": str(tmp_path / "general.db"),
        "GENERAL_DICE_SEED": SEED_ALICE_BIG,
        "GENERAL_HTTP_PORT": str(port),
        "TELEGRAM_CHAT_RATE": "0",  # the fake sets no limits here
    }
    proc = (await Bot.launch(settings, log)).process
    try:
        async with aiohttp.ClientSession() as session:
            scrape = Scrapes(session, port)
            status, body = await scrape.until(lambda status, _: status == 200, timeout=30)
            assert body["status"] == "ok" and body["reasons"] == [] and body["storage"]["ok"]
            assert body["platforms"]["telegram"]["connected"]
            assert body["platforms"]["telegram"]["mode"] == "polling"
            assert body["platforms"]["discord"]["connected"]
            assert body["platforms"]["discord"]["mode"] == "gateway"
            assert body["platforms"]["telegram"]["last_update"] is None  # nothing came yet
            before = await scrape.metrics()
            assert value(before, "general_platform_connected", platform="telegram") == 1
            assert value(before, "general_platform_connected", platform="discord") == 1
            assert value(before, "process_cpu_seconds_total") > 0
            assert any(name == "python_info" for name, _ in before)

            # Telegram: Alice opens a table and seats a Novice; Bob, who does not play,
            # presses Roll and is refused; Alice's first throw is a big general.
            alice, bob = tg.user(1001, "Alice"), tg.user(1002, "Bob")
            group = tg.chat(-100900, title="Health")
            await tg.send_message(alice, group, "/general start")
            await tg.settle()
            lobby = live_board(tg, group)
            opened = await scrape.metrics()
            assert value(opened, "general_active_tables", platform="telegram", phase="lobby") == 1
            await press(tg, alice, lobby, "+ Novice")
            await press(tg, alice, lobby, "Start")
            board = live_board(tg, group)
            refused = await press(tg, bob, board, "Roll")
            assert refused == "It's Alice's turn."
            await press(tg, alice, board, "Roll")
            assert "Winner: Alice" in (await ended(tg, group)).plain_text

            # Discord: Carol opens a table, begins it alone, throws once and stops it.
            carol = dc.member(guild, "Carol")
            channel = dc.text_channel(guild, name="health")
            started = await dc.slash(carol, channel, "general", "start")
            await started.wait_response()
            await dc.settle()
            for code in ("b", "r"):
                board = [m for m in dc.channel_messages(channel) if m.buttons][-1]
                button = next(b for b in board.buttons if (b.custom_id or "").endswith(f"|{code}"))
                pressed = await dc.press(carol, board, custom_id=button.custom_id)
                await pressed.wait_response()
                await dc.settle()
            stopped = await dc.slash(carol, channel, "general", "stop")
            await stopped.wait_response()
            await dc.settle()

            after = await scrape.metrics()
            status, body = await scrape.health()
            assert status == 200
            telegram = body["platforms"]["telegram"]
            assert telegram["last_update"] is not None and telegram["last_update"].endswith("Z")
            assert body["platforms"]["discord"]["last_update"] is not None

        def by(name: str, **labels: str) -> float:
            return moved(before, after, name, **labels)

        applied, tg_, dc_ = "applied", "telegram", "discord"
        assert (
            by("general_commands_total", platform=tg_, command="start", outcome=applied, code="")
            == 1
        )
        assert by("general_presses_total", platform=tg_, outcome=applied, code="") == 3
        assert (
            by("general_presses_total", platform=tg_, outcome="refused", code="not-your-turn") == 1
        )
        assert by("general_games_finished_total", platform=tg_, reason="big_general") == 1
        assert by("general_action_seconds_count", platform=tg_, kind="press") == 4
        assert by("general_action_seconds_count", platform=tg_, kind="command") == 1
        assert by("general_updates_received_total", platform=tg_) == 5
        assert (
            by("general_commands_total", platform=dc_, command="start", outcome=applied, code="")
            == 1
        )
        assert (
            by("general_commands_total", platform=dc_, command="stop", outcome=applied, code="")
            == 1
        )
        assert by("general_presses_total", platform=dc_, outcome=applied, code="") == 2
        assert by("general_games_finished_total", platform=dc_, reason="cancelled") == 1
        assert by("general_action_seconds_count", platform=dc_, kind="press") == 2
        assert by("general_action_seconds_count", platform=dc_, kind="command") == 2
        assert by("general_updates_received_total", platform=dc_) == 4
        # Saves: open, seat the Novice, start, the big general; open, start, roll, stop.
        assert by("general_storage_save_seconds_count") == 8
        assert by("general_timers_fired_total", platform=tg_, kind="remind") == 0
        assert by("general_computer_turns_total", platform=tg_, level="novice") == 0
        for platform in (tg_, dc_):
            for phase in ("lobby", "playing"):
                assert value(after, "general_active_tables", platform=platform, phase=phase) == 0
        counted = [name for name, _ in after if name == "general_platform_errors_total"]
        assert counted == []  # nothing failed

        # Telegram goes away: /healthz says so, naming it, and Discord is still connected.
        async with aiohttp.ClientSession() as session:
            scrape = Scrapes(session, port)
            await tg.stop()
            status, body = await scrape.until(lambda status, _: status == 503)
            assert any(reason.startswith("telegram: getUpdates") for reason in body["reasons"])
            assert body["status"] == "unavailable"
            assert not body["platforms"]["telegram"]["connected"]
            assert body["platforms"]["discord"]["connected"] and body["storage"]["ok"]
            down = await scrape.metrics()
            assert value(down, "general_platform_connected", platform="telegram") == 0
            assert value(down, "general_platform_errors_total", platform=tg_, kind="network") >= 1
            await tg.start()  # the same port again
            status, body = await scrape.until(lambda status, _: status == 200)
            assert body["platforms"]["telegram"]["connected"] and body["reasons"] == []
    finally:
        if proc.returncode is None:
            proc.send_signal(signal.SIGTERM)
            assert await asyncio.wait_for(proc.wait(), 15) == 0
        await dc.stop()
        await tg.stop()
    output = log.read_text()
    assert " ERROR " not in output and "Traceback" not in output, output


async def test_in_webhook_mode_the_webhooks_port_serves_both(tmp_path: Path) -> None:
    """GENERAL_HTTP_PORT the webhook's own port: its server answers /healthz and /metrics too
    (in the test's process: serve() as production runs it)."""
    port = free_port()
    url = f"http://127.0.0.1:{port}/hook/telegram"
    async with FakeTelegram() as fake:
        settings = bot_settings(fake, tmp_path / "general.db").model_copy(
            update={
                "telegram_webhook_url": url,
                "telegram_webhook_secret": SecretStr("s3cret-token"),
                "telegram_webhook_port": port,
                "general_http_port": port,
            }
        )
        async with running(settings, ScriptedRoller()), aiohttp.ClientSession() as session:
            scrape = Scrapes(session, port)
            status, body = await scrape.health()
            assert status == 200 and body["platforms"]["telegram"]["mode"] == "webhook"
            before = await scrape.metrics()
            ann = fake.user(1001, "Ann")
            await fake.send_message(ann, fake.private_chat(ann), "/general start")
            await fake.settle()
            after = await scrape.metrics()
            labels = {"platform": "telegram", "command": "start", "outcome": "applied", "code": ""}
            assert moved(before, after, "general_commands_total", **labels) == 1
            status, body = await scrape.health()
            assert status == 200 and body["platforms"]["telegram"]["last_update"] is not None


async def test_a_port_taken_is_a_start_up_failure_naming_the_settings(tmp_path: Path) -> None:
    async with FakeTelegram() as fake:
        with socket.socket() as taken:
            taken.bind(("127.0.0.1", 0))
            taken.listen()
            port = taken.getsockname()[1]
            settings = bot_settings(fake, tmp_path / "general.db").model_copy(
                update={"general_http_port": port}
            )
            with pytest.raises(StartupError) as failure:
                await serve(settings, asyncio.Event())
    assert failure.value.code == 1  # as for the webhook's address: another process has it
    assert failure.value.line.startswith(
        f"GENERAL_HTTP_LISTEN, GENERAL_HTTP_PORT: cannot listen on 127.0.0.1:{port}: "
    )
    assert not fake.calls("getUpdates")  # it stopped before Telegram was asked for anything
