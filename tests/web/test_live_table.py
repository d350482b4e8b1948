"""The live table against the real bot on the fake Telegram: pages opened from launch data and
links, presses from a page judged as a chat button's, every outcome on every page, and the
chat's board edited once a turn while the turn is played on a page."""

from __future__ import annotations

import hashlib
import re
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest

from adapters.chat.metrics import REGISTRY
from tests.fakes.telegram import FakeChat, FakeUser
from tests.kit import LOT_ALICE_LOW
from tests.telegram.kit import RunningBot, live_board, open_table, press
from tests.web.kit import Page, game_id, launch_data

ALICE, BOB, CAROL = 1001, 1002, 1003


@pytest.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as session:
        yield session


def open_pages(seat: str) -> float:
    """The bot's gauge of open pages (the bot runs in this process)."""
    labels = {"platform": "telegram", "seat": seat}
    return REGISTRY.get_sample_value("general_live_pages", labels) or 0.0


def stored_version(database: Path) -> int:
    with sqlite3.connect(database) as db:
        (version,) = db.execute("SELECT MAX(version) FROM games").fetchone()
        return int(version)


async def started(web: RunningBot) -> tuple[FakeChat, FakeUser, FakeUser, str]:
    fake = web.fake
    alice, bob = fake.user(ALICE, "Alice"), fake.user(BOB, "Bob")
    group = fake.chat(-100500, type="supergroup", title="Dice night")
    await open_table(web, group, alice, bob)
    web.roller.push(LOT_ALICE_LOW)
    await press(fake, alice, live_board(fake, group), "Start")
    return group, alice, bob, game_id(live_board(fake, group))


async def test_a_turn_played_on_the_page_reaches_every_page_and_the_chat_once(
    web: RunningBot, http: aiohttp.ClientSession
) -> None:
    fake = web.fake
    group, _, bob, table = await started(web)
    base = str(web.settings.general_web_url)
    alices, bobs, watcher = Page(base, http), Page(base, http), Page(base, http)
    players, spectators = open_pages("player"), open_pages("spectator")
    given = await alices.open(
        {"telegram": launch_data(fake.token, ALICE, "Alice", start_param=table)}
    )
    assert given["player"] == {"id": str(ALICE), "name": "Alice"}
    await bobs.open({"telegram": launch_data(fake.token, BOB, "Bob", start_param=table)})
    spectator = await watcher.open({"table": table})
    assert spectator["player"] is None
    for page in (alices, bobs, watcher):
        await page.until(lambda p: bool(p.states))
    assert alices.state["to_act"] and alices.state["roll"] is not None
    assert not bobs.state["to_act"] and bobs.state["roll"] is None
    assert watcher.state["you"] is None and watcher.state["actions"] == []
    assert (open_pages("player"), open_pages("spectator")) == (players + 2, spectators + 1)
    # The turn's timer: when Alice's turn times out, the same on every page.
    left = alices.state["deadline"] - alices.state["now"]
    assert 0 < left <= 600 and watcher.state["deadline"] == alices.state["deadline"]

    board = live_board(fake, group)
    edits, sent = board.edits, len(fake.bot_messages(group))
    web.roller.push([6, 6, 1, 2, 3])
    await alices.press(alices.state["roll"]["press"])
    for page in (alices, bobs, watcher):
        await page.until(lambda p: [d["value"] for d in p.state["dice"]] == [6, 6, 1, 2, 3])
    assert alices.said("note"), alices.messages[-2:]
    hold = alices.state["dice"][0]["press"]
    assert hold is not None and watcher.state["dice"][0]["press"] is None
    await alices.press(hold)
    await watcher.until(lambda p: p.state["dice"][0]["held"])
    web.roller.push([6, 4, 5, 1])
    await alices.press(alices.state["roll"]["press"])
    await bobs.until(lambda p: p.state["throw"] == 2)
    await fake.settle()
    # Throws and holds on the page leave the chat's board as it was.
    assert fake.message(group, board.message_id).edits == edits
    assert len(fake.bot_messages(group)) == sent

    sixes = next(row for row in alices.state["sheet"] if row["box"] == "sixes")
    assert sixes["option"] == 12 and sixes["press"] is not None
    await alices.press(sixes["press"])
    await bobs.until(lambda p: p.state["to_act"])
    await fake.settle()
    # The turn's result: the board edited once, and Bob's new board.
    written = fake.message(group, board.message_id)
    assert written.edits == edits + 1 and "Alice" in written.plain_text
    assert "12" in written.plain_text and written.reply_markup == []
    assert "Bob" in live_board(fake, group).plain_text
    assert watcher.state["sheet"][5]["cells"][0] == 12
    assert stored_version(web.database) == watcher.state["version"]

    # Bob plays from the chat: every page follows.
    web.roller.push([2, 2, 2, 5, 5])
    await press(fake, bob, live_board(fake, group), "Roll")
    for page in (alices, bobs, watcher):
        await page.until(lambda p: [d["value"] for d in p.state["dice"]] == [2, 2, 2, 5, 5])
    assert stored_version(web.database) == alices.state["version"]
    for page in (alices, bobs, watcher):
        await page.close()


async def test_wrong_presses_change_nothing_and_are_answered(
    web: RunningBot, http: aiohttp.ClientSession
) -> None:
    fake = web.fake
    _, _, _, table = await started(web)
    base = str(web.settings.general_web_url)
    alices, bobs, watcher = Page(base, http), Page(base, http), Page(base, http)
    await alices.open({"telegram": launch_data(fake.token, ALICE, "Alice", start_param=table)})
    russian = launch_data(fake.token, BOB, "Bob", start_param=table, language="ru")
    await bobs.open({"telegram": russian})
    await watcher.open({"table": table})
    for page in (alices, bobs, watcher):
        await page.until(lambda p: bool(p.states))
    version = alices.state["version"]
    await watcher.press("r")  # a spectator
    await watcher.until(lambda p: bool(p.said("refused")))
    assert "watching" in watcher.said("refused")[0]
    await bobs.press("r")  # not Bob's turn: said in his language, not the table's
    await bobs.until(lambda p: bool(p.said("refused")))
    assert any("а" <= letter <= "я" for letter in bobs.said("refused")[0].lower())
    await alices.press("zz")  # made up
    await alices.until(lambda p: bool(p.said("refused")))
    await alices.socket.send_str("not json")  # type: ignore[union-attr]
    await alices.until(lambda p: len(p.said("refused")) == 2)
    assert stored_version(web.database) == version
    # A double tap: the same throw pressed twice on one state throws once.
    web.roller.push([1, 2, 3, 4, 5])
    await alices.press("r", version)
    await alices.press("r", version)
    await alices.until(lambda p: len(p.said("refused")) == 3 and p.state["throw"] == 1)
    assert stored_version(web.database) == version + 1
    assert web.roller.remaining == 0
    for page in (alices, bobs, watcher):
        await page.close()


async def test_sessions_refused_in_words(web: RunningBot, http: aiohttp.ClientSession) -> None:
    fake = web.fake
    _, _, _, table = await started(web)
    page = Page(str(web.settings.general_web_url), http)
    stale = launch_data(fake.token, ALICE, "Alice", start_param=table, auth_date=1_000_000)
    status, answer = await page.session({"telegram": stale})
    assert (status, answer["error"]) == (403, "stale")
    assert "too old" in answer["message"]
    forged = launch_data("123:another-bot", ALICE, "Alice", start_param=table)
    status, answer = await page.session({"telegram": forged})
    assert (status, answer["error"]) == (403, "bad_signature")
    status, answer = await page.session({"table": "zzzzzzzz"})
    assert (status, answer["error"]) == (404, "no_table")
    status, answer = await page.session({"link": "nonsense"})
    assert status == 400 and answer["message"]
    async with http.ws_connect(str(web.settings.general_web_url) + "api/live?session=x") as ws:
        message = await ws.receive_json()
    assert message["type"] == "error" and message["text"]


async def test_the_end_the_replay_and_the_rematch(
    web: RunningBot, http: aiohttp.ClientSession
) -> None:
    fake = web.fake
    group, _, bob, table = await started(web)
    base = str(web.settings.general_web_url)
    alices, watcher = Page(base, http), Page(base, http)
    await alices.open({"telegram": launch_data(fake.token, ALICE, "Alice", start_param=table)})
    await watcher.open({"table": table})
    await alices.until(lambda p: bool(p.states))
    web.roller.push([6, 6, 6, 6, 1])
    await alices.press("r")
    await alices.until(lambda p: p.state["throw"] == 1)
    four = next(r for r in alices.state["sheet"] if r["box"] == "four")
    await alices.press(four["press"])
    await watcher.until(lambda p: p.state["throw"] == 0 and p.state["round"] == 1)
    assert watcher.state["seal"]["revealed"] is None  # in play: the seal, never the seed
    async with http.get(base + f"api/dice?game={table}") as answer:
        assert answer.status == 404 and "still being played" in (await answer.json())["message"]
    web.roller.push([4, 4, 4, 4, 4])  # Bob's big general ends the game at once
    await press(fake, bob, live_board(fake, group), "Roll")
    await watcher.until(lambda p: p.state["phase"] == "finished")
    seal = watcher.state["seal"]
    async with http.get(base + seal["file"]["href"]) as answer:
        dice = await answer.json()
    assert hashlib.sha256(bytes.fromhex(dice["seed"])).hexdigest() == seal["commitment"]
    assert dice["seed"] in seal["revealed"] and dice["game"] == table
    assert [t["dice"] for t in dice["throws"] if t["stage"] == "turn"] == [
        [6, 6, 6, 6, 1],
        [4, 4, 4, 4, 4],
    ]
    end = watcher.state["end"]
    assert end["winners"] == [1] and any("Bob" in line for line in end["lines"])
    assert watcher.state["actions"] == []  # a spectator is offered no rematch
    await alices.until(lambda p: p.state["phase"] == "finished")
    assert [a["press"] for a in alices.state["actions"]] == ["m"]

    # A link opened after the end replays the game, turn by turn.
    later = Page(base, http)
    await later.open({"table": table})
    await later.until(lambda p: any(m["type"] == "replay" for m in p.messages))
    frames = next(m["frames"] for m in later.messages if m["type"] == "replay")
    assert [f["frame"]["index"] for f in frames] == list(range(len(frames)))
    assert frames[0]["sheet"][8]["cells"] == [None, None]  # the start: nothing written
    assert frames[1]["sheet"][8]["cells"][0] == four["option"] and frames[1]["dice"]  # Alice's four
    assert "Alice" in frames[1]["status"] and str(four["option"]) in frames[1]["status"]
    assert frames[1]["throw"] == 1 and all(row["option"] is None for row in frames[1]["sheet"])
    assert frames[-1]["phase"] == "finished" and frames[-1]["end"]["winners"] == [1]
    assert all(f["roll"] is None and not f["actions"] for f in frames)

    # The rematch from the page: every page of the table follows to the new lobby.
    await alices.press("m")
    for page in (alices, watcher, later):
        await page.until(lambda p: bool(p.states) and p.state["phase"] == "lobby")
    assert watcher.state["game"] != table
    await fake.settle()
    lobby = live_board(fake, group)  # the chat shows the rematch's lobby too
    assert "A table of General is open" in lobby.plain_text
    assert game_id(lobby) == watcher.state["game"]
    # The old game's link still replays the old game, not the new lobby.
    old = Page(base, http)
    await old.open({"table": table})
    await old.until(lambda p: any(m["type"] == "replay" for m in p.messages))
    replayed = next(m["frames"] for m in old.messages if m["type"] == "replay")
    assert replayed[-1]["game"] == table and replayed[-1]["end"]["winners"] == [1]
    await old.close()
    for page in (alices, watcher, later):
        await page.close()


async def test_a_computers_moves_reach_the_page(
    web: RunningBot, http: aiohttp.ClientSession
) -> None:
    fake = web.fake
    alice = fake.user(ALICE, "Alice")
    group = fake.chat(-100501, type="supergroup", title="Against the machine")
    await fake.send_message(alice, group, "/general start")
    await fake.settle()
    await press(fake, alice, live_board(fake, group), "+ Novice")
    table = game_id(live_board(fake, group))
    page = Page(str(web.settings.general_web_url), http)
    await page.open({"telegram": launch_data(fake.token, ALICE, "Alice", start_param=table)})
    await page.until(lambda p: bool(p.states) and len(p.state["players"]) == 2)
    assert [a["press"] for a in page.state["actions"]][-2:] == ["b", "x"]  # Start, Cancel
    web.roller.push([6, 6, 6, 6, 5, 1, 1, 1, 1, 2])  # the lot: the lower, the computer, starts
    await page.press("b")
    await page.until(lambda p: p.state["phase"] == "playing")
    web.roller.push([6, 6, 6, 5, 5] * 3)
    # The computer's throws and its box reach the page, then Alice is to move.
    await page.until(lambda p: p.state["to_act"], timeout=20)
    computer = [
        s
        for s in page.states
        if s["dice"] and any(p["computer"] and p["current"] for p in s["players"])
    ]
    assert computer, "no state of the computer's turn reached the page"
    assert sum(cell is not None for row in page.state["sheet"] for cell in row["cells"]) == 1
    await page.close()


async def test_the_page_is_served_whole_and_small(
    web: RunningBot, http: aiohttp.ClientSession
) -> None:
    base = str(web.settings.general_web_url)
    async with http.get(base, headers={"Accept-Encoding": "gzip"}) as answer:
        assert answer.status == 200 and answer.headers["Content-Encoding"] == "gzip"
        policy = answer.headers["Content-Security-Policy"]
        page = await answer.text()
    host = base.split("//")[1].rstrip("/")
    assert f"connect-src 'self' wss://{host} ws://{host};" in policy
    assert "default-src 'self'" in policy
    # Everything the page loads is the bot's own: relative addresses only.
    loaded = re.findall(r'(?:src|href)="([^"]*)"', page)
    own = [url for url in loaded if url != "data:,"]  # data:, (no icon) loads nothing
    assert own and all(":" not in url and not url.startswith("/") for url in own)
    for name in ("app.js", "app.css"):
        async with http.get(base + "static/" + name) as answer:
            assert answer.status == 200
            assert "https://" not in await answer.text()
    async with http.get(base + "static/nothing.js") as answer:
        assert answer.status == 404
    async with http.get(base + "static/..%2Fserver.py") as answer:
        assert answer.status == 404
    forged = {"Host": "evil.example; script-src *"}
    async with http.get(base, headers=forged) as answer:
        assert "connect-src 'self';" in answer.headers["Content-Security-Policy"]
