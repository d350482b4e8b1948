"""Spectators of one outcome are sent one state, made once (adapters/web/live.py): the same as
each would have been made, their clocks their own; a player's own state is never shared."""

from __future__ import annotations

import aiohttp

from adapters.web import live
from tests.telegram.kit import RunningBot
from tests.web.kit import Page, launch_data
from tests.web.test_live_table import ALICE, http, started

__all__ = ["http"]


async def test_spectators_share_a_state_and_the_player_has_their_own(
    web: RunningBot, http: aiohttp.ClientSession
) -> None:
    _, _, _, table = await started(web)
    base = str(web.settings.general_web_url)
    alices, first, second = Page(base, http), Page(base, http), Page(base, http)
    launch = launch_data(web.fake.token, ALICE, "Alice", start_param=table)
    await alices.open({"telegram": launch})
    await first.open({"table": table})
    await second.open({"table": table})
    for page in (alices, first, second):
        await page.until(lambda p: bool(p.states))
    web.roller.push([6, 6, 1, 2, 3])
    await alices.press("r")
    for page in (alices, first, second):
        await page.until(lambda p: p.state["throw"] == 1)
    mine, seen, also = alices.state, first.state, second.state
    assert {**seen, "now": 0} == {**also, "now": 0}
    assert seen["you"] is None and all(d["press"] is None for d in seen["dice"])
    assert mine["you"] == 0 and all(d["press"] is not None for d in mine["dice"])
    assert mine["version"] == seen["version"] and mine["dice"] != seen["dice"]
    kept = [key for key in live._shared if key[0] == table and key[1] == seen["version"]]
    assert len(kept) == 1  # made once for both spectators
    for page in (alices, first, second):
        await page.close()
