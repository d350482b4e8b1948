"""A page served by one bot process shows what another process does at its table (PostgreSQL's
notices): the page's bot runs as production runs it, the other is a service on a pool of its own
acting as a second bot process would."""

from __future__ import annotations

from pathlib import Path

import aiohttp

from adapters.postgres import PostgresRepository
from core.actions import Roll
from core.dice import ScriptedRoller
from core.identity import ChannelKey, PlayerRef
from core.service import GameService
from tests.conftest import needs_postgres
from tests.fakes.telegram import FakeTelegram
from tests.kit import LOT_ALICE_LOW
from tests.telegram.kit import RunningBot, live_board, open_table, press, running
from tests.web.kit import Page, game_id, launch_data, web_settings

pytestmark = needs_postgres
ALICE, BOB = 1001, 1002


async def test_a_page_shows_what_another_process_saves(
    fake: FakeTelegram, tmp_path: Path, postgres_url: str
) -> None:
    settings = web_settings(fake, tmp_path / "unused.db", general_database_url=postgres_url)
    roller = ScriptedRoller()
    async with running(settings, roller), aiohttp.ClientSession() as http:
        bot = RunningBot(fake, roller, tmp_path / "unused.db", settings)
        alice, bob = fake.user(ALICE, "Alice"), fake.user(BOB, "Bob")
        group = fake.chat(-100600, type="supergroup", title="Two processes")
        await open_table(bot, group, alice, bob)
        roller.push(LOT_ALICE_LOW)
        await press(fake, alice, live_board(fake, group), "Start")
        table = game_id(live_board(fake, group))
        page = Page(str(settings.general_web_url), http)
        await page.open({"telegram": launch_data(fake.token, BOB, "Bob", start_param=table)})
        await page.until(lambda p: bool(p.states))
        shown = page.state["version"]

        other = GameService(
            await PostgresRepository.open(postgres_url), ScriptedRoller([5, 5, 5, 5, 6])
        )
        try:
            channel = ChannelKey("tg", str(group.id))
            rolled = await other.act(channel, PlayerRef(str(ALICE), "Alice"), Roll())
        finally:
            await other.close()
            await other.records.close()  # type: ignore[attr-defined]
        await page.until(lambda p: p.state["version"] == rolled.game.version)
        assert rolled.game.version == shown + 1
        assert [d["value"] for d in page.state["dice"]] == [5, 5, 5, 5, 6]
        assert page.state["throw"] == 1 and not page.state["to_act"]
        await page.close()
