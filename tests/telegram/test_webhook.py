"""Webhook mode: Telegram pushes updates to the bot, which checks the secret on every request."""

from __future__ import annotations

import hmac
from pathlib import Path

import aiohttp
import pytest
from pydantic import SecretStr, ValidationError

from bot.settings import Settings
from core.dice import ScriptedRoller
from tests.fakes.telegram import FakeTelegram
from tests.parallel import free_port
from tests.telegram.kit import bot_settings, live_board, press, running


async def test_a_game_over_a_webhook(fake: FakeTelegram, tmp_path: Path) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}/hook/telegram"
    settings = bot_settings(fake, tmp_path / "general.db").model_copy(
        update={
            "telegram_webhook_url": url,
            "telegram_webhook_secret": SecretStr("s3cret-token"),
            "telegram_webhook_port": port,
        }
    )
    async with running(settings, ScriptedRoller([2, 2, 3, 4, 6])):
        assert fake.webhook == {"url": url, "secret_token": "s3cret-token"}
        ann = fake.user(1001, "Ann")
        chat = fake.private_chat(ann)
        await fake.send_message(ann, chat, "/general start")
        await fake.settle()
        await press(fake, ann, live_board(fake, chat), "Start")
        board = live_board(fake, chat)
        await press(fake, ann, board, "Roll")
        assert "throw 1/3" in fake.message(chat, board.message_id).plain_text
        assert not fake.calls("getUpdates")  # nothing polled
        # A request without the secret is turned away and changes nothing.
        async with aiohttp.ClientSession() as session:
            forged = {"update_id": 1, "message": {"message_id": 9, "date": 0, "text": "/x"}}
            async with session.post(url, json=forged) as response:
                assert response.status == 403
        assert {status for _, status in fake.webhook_deliveries} == {200}


async def test_a_wrong_secret_is_refused_in_constant_time(
    fake: FakeTelegram, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """PTB's own listener compares the secret with `!=`, whose time depends on how much of it
    a guess got right; ours compares every request's secret with hmac.compare_digest."""
    compared: list[tuple[bytes, bytes]] = []
    compare = hmac.compare_digest

    def spy(given: bytes, secret: bytes) -> bool:
        compared.append((given, secret))
        return compare(given, secret)

    monkeypatch.setattr("adapters.telegram.webhook.hmac.compare_digest", spy)
    port = free_port()
    url = f"http://127.0.0.1:{port}/hook"
    settings = bot_settings(fake, tmp_path / "general.db").model_copy(
        update={
            "telegram_webhook_url": url,
            "telegram_webhook_secret": SecretStr("s3cret-token"),
            "telegram_webhook_port": port,
        }
    )
    ann = fake.user(1001, "Ann")
    chat = fake.private_chat(ann)
    forged = {
        "update_id": 1,
        "message": {
            "message_id": 9,
            "date": 0,
            "chat": chat.to_api(),
            "from": ann.to_api(),
            "text": "/general start",
            "entities": [{"type": "bot_command", "offset": 0, "length": 8}],
        },
    }
    async with running(settings, ScriptedRoller()), aiohttp.ClientSession() as session:
        for guess in ("s3cret-tokeX", "s3cret", "s3cret-token-and-more"):
            headers = {"X-Telegram-Bot-Api-Secret-Token": guess}
            async with session.post(url, json=forged, headers=headers) as response:
                assert response.status == 403
        await fake.settle()
        assert not fake.bot_messages(chat)  # nothing was taken for an update
        await fake.send_message(ann, chat, "/general start")  # Telegram's, with the secret
        await fake.wait_for(lambda: fake.bot_messages(chat))
    assert (b"s3cret-tokeX", b"s3cret-token") in compared
    assert (b"s3cret-token", b"s3cret-token") in compared


def test_a_webhook_needs_a_secret() -> None:
    with pytest.raises(ValidationError, match="TELEGRAM_WEBHOOK_SECRET"):
        Settings(_env_file=None, telegram_webhook_url="https://bot.example/hook")  # type: ignore[call-arg]
