"""Commands, the lobby by command, forum topics, the command menu and a 429 from the server."""

from __future__ import annotations

from adapters.chat.catalogue import NAMES
from tests.fakes.telegram import FakeTelegram
from tests.kit import LOT_ALICE_LOW
from tests.telegram.kit import RunningBot, live_board, press


def last_text(fake: FakeTelegram, chat: object, thread_id: int | None = None) -> str:
    return fake.bot_messages(chat, thread_id)[-1].plain_text  # type: ignore[arg-type]


async def test_command_menu_is_registered(tg: RunningBot) -> None:
    """Telegram shows the menu of the chat's kind (see test_first_contact for its words)."""
    private = tg.fake.commands_for(scope={"type": "all_private_chats"})
    assert [c["command"] for c in private] == ["general", "help"]
    groups = tg.fake.commands_for(scope={"type": "all_group_chats"}, language_code="en")
    assert [c["command"] for c in groups] == ["general", "help"]


async def test_help_rules_and_unknown_argument(tg: RunningBot) -> None:
    fake = tg.fake
    alice = fake.user(1001, "Alice")
    group = fake.chat(-100600, title="Help")
    for text, expected in [
        ("/general", "/general start — Open a table of General here"),
        ("/general help", "/general stop — Cancel the game (the host only)"),
        ("/general rules", "BIG GENERAL"),
        ("/general juggle", 'I don\'t know "juggle"'),
        ("/general sheet", "There is no game at this table"),
        ("/general join", "There is no game at this table"),
    ]:
        await fake.send_message(alice, group, text)
        await fake.settle()
        assert expected in last_text(fake, group), text
        if text in ("/general", "/general help"):  # every command of the catalogue is listed
            assert all(f"/general {name}" in last_text(fake, group) for name in NAMES)


async def test_lobby_by_commands_and_host_rights(tg: RunningBot) -> None:
    fake = tg.fake
    alice, bob, cid = fake.user(1001, "Alice"), fake.user(1002, "Bob"), fake.user(1003, "Cid")
    group = fake.chat(-100601, title="Lobby")
    await fake.send_message(alice, group, "/general start")
    await fake.settle()
    lobby = live_board(fake, group)
    await fake.send_message(bob, group, "/general join")
    await fake.settle()
    assert "Bob sat down at the table." in last_text(fake, group)
    assert "Seated (2): Alice, Bob" in fake.message(group, lobby.message_id).plain_text
    await fake.send_message(bob, group, "/general join")
    await fake.settle()
    assert "You are already at the table." in last_text(fake, group)
    await fake.send_message(alice, group, "/general start")
    await fake.settle()
    assert "A game is already open at this table." in fake.bot_messages(group)[-2].plain_text
    lobby = live_board(fake, group)  # the lobby was posted again at the bottom
    assert await press(fake, bob, lobby, "Start") == "Only the host (Alice) can do that."
    assert await press(fake, cid, lobby, "Leave") == "You are not playing at this table."
    await fake.send_message(alice, group, "/general leave")
    await fake.settle()
    assert "Bob is now the host." in last_text(fake, group)
    await fake.send_message(bob, group, "/general stop")
    await fake.settle()
    assert "The game was cancelled." in last_text(fake, group)
    assert "The lobby is closed." in fake.message(group, lobby.message_id).plain_text
    assert not any(m.reply_markup for m in fake.bot_messages(group))


async def test_each_forum_topic_is_its_own_table(tg: RunningBot) -> None:
    fake = tg.fake
    alice, bob = fake.user(1001, "Alice"), fake.user(1002, "Bob")
    forum = fake.chat(-100602, title="Forum", is_forum=True)
    one = fake.create_topic(forum, "Table one", by=alice)
    two = fake.create_topic(forum, "Table two", by=bob)
    await fake.send_message(alice, forum, "/general start", thread_id=one)
    await fake.send_message(bob, forum, "/general start", thread_id=two)
    await fake.settle()
    first, second = live_board(fake, forum, one), live_board(fake, forum, two)
    assert first.thread_id == one and second.thread_id == two
    tg.roller.push([3, 3, 3, 4, 5])
    await press(fake, alice, first, "Start")
    board = live_board(fake, forum, one)
    await press(fake, alice, board, "Roll")
    assert "throw 1/3" in fake.message(forum, board.message_id).plain_text
    assert "Host: Bob" in fake.message(forum, second.message_id).plain_text  # untouched


async def test_a_429_on_an_edit_is_retried(tg: RunningBot) -> None:
    fake = tg.fake
    alice, bob = fake.user(1001, "Alice"), fake.user(1002, "Bob")
    group = fake.chat(-100603, title="Flood")
    await fake.send_message(alice, group, "/general start")
    await fake.settle()
    lobby = live_board(fake, group)
    fake.fail_next("editMessageText", status=429, retry_after=1)
    await press(fake, bob, lobby, "Join")  # answered at once; the edit waits out the 429
    await fake.wait_for(
        lambda: (
            [m for m, _ in fake.requests if m == "editMessageText"]
            == ["editMessageText", "editMessageText"]
        )
    )  # refused once with retry_after, then sent again
    assert "Seated (2): Alice, Bob" in fake.message(group, lobby.message_id).plain_text
    tg.roller.push(LOT_ALICE_LOW)
    await press(fake, alice, lobby, "Start")
    assert "Alice starts." in live_board(fake, group).plain_text
