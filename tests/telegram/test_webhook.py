"""Webhook mode: Telegram pushes updates to the bot, which checks the secret on every request."""

from __future__ import annotations

import socket
from pathlib import Path

import aiohttp
import pytest
from pydantic import SecretStr, ValidationError

from bot.settings import Settings
from core.dice import ScriptedRoller
from tests.fakes.telegram import FakeTelegram
from tests.telegram.kit import bot_settings, live_board, press, running


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


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


def test_a_webhook_needs_a_secret() -> None:
    with pytest.raises(ValidationError, match="TELEGRAM_WEBHOOK_SECRET"):
        Settings(_env_file=None, telegram_webhook_url="https://bot.example/hook")  # type: ignore[call-arg]
