"""GENERAL_LOG_FORMAT=json on the real process: every line one JSON object with time, level,
logger and message; a record made while an action is handled names its platform, chat and
game; the token never shows."""

from __future__ import annotations

import asyncio
import json
import signal
from pathlib import Path

import pytest

from tests.fakes.telegram import FakeTelegram
from tests.process import Bot, on_telegram


@pytest.mark.slow
async def test_json_lines_name_where_they_happened_and_hide_the_token(
    fake: FakeTelegram, tmp_path: Path
) -> None:
    log = tmp_path / "bot.log"
    settings = {**on_telegram(fake), "GENERAL_DATABASE": str(tmp_path / "general.db")}
    proc = (await Bot.launch({**settings, "GENERAL_LOG_FORMAT": "json"}, log)).process
    try:
        await fake.wait_for(lambda: bool(fake.calls("getUpdates")), timeout=20)
        alice, group = fake.user(1001, "Alice"), fake.chat(-100700, title="Logged")
        # The lobby cannot be posted: the bot logs that, in the command's context.
        fake.fail_next("sendMessage", 403, description="Forbidden: bot was kicked", times=3)
        await fake.send_message(alice, group, "/general start")
        await fake.wait_for(lambda: '"chat": "-100700"' in log.read_text(), timeout=10)
    finally:
        proc.send_signal(signal.SIGINT)
        assert await asyncio.wait_for(proc.wait(), 20) == 0
    text = log.read_text()
    assert fake.token not in text
    lines = [json.loads(line) for line in text.splitlines()]  # each line is one object
    assert all({"time", "level", "logger", "message"} <= set(line) for line in lines)
    assert all(line["time"].endswith("+00:00") for line in lines)
    (where,) = [line for line in lines if line.get("chat") == "-100700"][:1]
    assert where["platform"] == "telegram" and len(where["game"]) == 8, where
    assert where["level"] in ("WARNING", "INFO") and "Forbidden" in where["message"]
