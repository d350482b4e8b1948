"""Who is who on Telegram: a command sent as a chat or a channel plays for nobody (all who write
so share one account); `/general kick` finds the player it means by a mention or a reply,
and asks where a name is shared; a group upgraded to a supergroup keeps its table."""

from __future__ import annotations

import aiohttp
from telegram import User

from adapters.telegram.people import Usernames
from tests.kit import LOT_ALICE_LOW, game_rows
from tests.telegram.kit import RunningBot, ask, live_board, open_table, press, quick_win

AS_YOURSELF = "This was sent on behalf of a chat or a channel, so I cannot tell who is playing."


async def test_commands_sent_as_a_chat_or_a_channel_play_for_nobody(tg: RunningBot) -> None:
    fake = tg.fake
    ann, bob = fake.user(1001, "Ann"), fake.user(1002, "Bob")
    group = fake.chat(-100700, title="Dice")
    news = fake.chat(-100701, type="channel", title="News")
    # As a channel (from Channel_Bot) and as the group's anonymous administrator
    # (GroupAnonymousBot): neither opens a table.
    for sender in (news, group):
        await fake.send_message(bob, group, "/general start", sender_chat=sender)
        await fake.settle()
        assert AS_YOURSELF in fake.bot_messages(group)[-1].plain_text
    assert game_rows(tg.database) == []
    await fake.send_message(ann, group, "/general start")
    await fake.settle()
    lobby = live_board(fake, group)
    # Nor do they join, nor cancel someone else's lobby.
    for words in ("/general join", "/general stop"):
        await fake.send_message(bob, group, words, sender_chat=news)
        await fake.settle()
        assert AS_YOURSELF in fake.bot_messages(group)[-1].plain_text
    assert "Seated (1): Ann" in fake.message(group, lobby.message_id).plain_text
    # A button press always comes from the person: it plays as them.
    await press(fake, bob, lobby, "Join")
    assert "Seated (2): Ann, Bob" in fake.message(group, lobby.message_id).plain_text


async def test_the_host_kicks_by_mention_or_reply_and_a_shared_name_is_asked(
    tg: RunningBot,
) -> None:
    fake = tg.fake
    ann = fake.user(1001, "Ann")
    bobby = fake.user(1002, "Bob", username="bobby")
    quiet = fake.user(1003, "Bob")  # no username: a client mentions them by a text mention
    third = fake.user(1004, "Bob")
    group = fake.chat(-100800, title="Bobs")
    await open_table(tg, group, ann, bobby, quiet, third)
    lobby = live_board(fake, group)
    shared = await ask(fake, ann, group, "/general kick Bob")
    assert shared.startswith("More than one player at this table goes by Bob, so no one was")
    assert "Reply with /general kick to a message of the one to remove" in shared
    assert "Seated (4)" in fake.message(group, lobby.message_id).plain_text
    removed = "The host removed Bob from the table."
    assert removed in await ask(fake, ann, group, "/general kick @bobby")
    mention = "/general kick Bob"
    await fake.send_message(ann, group, mention, text_mentions={"Bob": quiet})
    await fake.settle()
    assert removed in fake.bot_messages(group)[-1].plain_text
    said = await fake.send_message(third, group, "wait, which Bob?")
    await fake.send_message(ann, group, "/general kick", reply_to=said)
    await fake.settle()
    assert removed in fake.bot_messages(group)[-1].plain_text
    assert "Seated (1): Ann" in fake.message(group, lobby.message_id).plain_text
    gone = await ask(fake, ann, group, "/general kick @bobby")
    assert "@bobby is not playing at this table." in gone


async def test_a_group_upgraded_to_a_supergroup_plays_on_there(tg: RunningBot) -> None:
    fake = tg.fake
    ann, bob = fake.user(1001, "Ann"), fake.user(1002, "Bob")
    group = fake.chat(-4001, type="group", title="Dice", creator=ann)
    await quick_win(tg, group, ann)  # a record of this chat
    await open_table(tg, group, ann, bob)
    tg.roller.push(LOT_ALICE_LOW)
    await press(fake, ann, live_board(fake, group), "Start")
    board = live_board(fake, group)
    assert "tg://user?id=1001" in board.text  # Ann's turn
    supergroup = await fake.migrate(group, -1004001, by=ann)
    await fake.settle()
    assert fake.calls("getUpdates")  # both service messages were taken
    moved = live_board(fake, supergroup)  # the board, posted anew where the table now is
    assert "Ann's turn" in moved.plain_text
    tg.roller.push([2, 3, 3, 5, 6])
    await press(fake, ann, moved, "Roll")
    assert "throw 1/3" in fake.message(supergroup, moved.message_id).plain_text
    assert "1. Ann" in await ask(fake, ann, supergroup, "/general leaderboard wins")
    assert "Ann" in await ask(fake, ann, supergroup, "/general sheet text")
    # The group's id is answered as Telegram does, naming the supergroup.
    async with aiohttp.ClientSession() as session:
        url = f"{fake.base_url}{fake.token}/sendMessage"
        async with session.post(url, json={"chat_id": group.id, "text": "hi"}) as response:
            answer = await response.json()
    assert response.status == 400 and answer["parameters"] == {"migrate_to_chat_id": -1004001}
    assert "group chat was upgraded to a supergroup chat" in answer["description"]


def test_usernames_remember_the_latest_people_only() -> None:
    """A bounded memory: the oldest seen is forgotten first; a new owner of a name wins."""
    usernames = Usernames(memory=2)
    for user_id, name in ((1, "ann_1"), (2, "bob_2"), (3, "cid_3"), (4, "BOB_2")):
        usernames.saw(User(user_id, "X", is_bot=False, username=name))
    assert usernames.get("@ann_1") is None
    assert (usernames.get("@Bob_2"), usernames.get("cid_3")) == ("4", "3")
    usernames.saw(User(5, "Bot", is_bot=True, username="some_bot"))  # never a player
    assert usernames.get("some_bot") is None and usernames.get("cid_3") == "3"
