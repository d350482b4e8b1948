"""A person's first minutes with the bot on Telegram: /start and /help answered in their
language, menus and descriptions per scope and language, and hints that stay private."""

from __future__ import annotations

import pytest

from adapters.i18n import translator
from tests.kit import LOT_ALICE_LOW
from tests.telegram.kit import RunningBot, live_board, press

EN, RU = translator("en"), translator("ru")


@pytest.mark.parametrize("language", ["en", "ru"])
async def test_start_and_help_in_a_private_chat_welcome_in_the_persons_language(
    tg: RunningBot, language: str
) -> None:
    fake, t = tg.fake, translator(language)
    ann = fake.user(1001, "Ann", language_code=language)
    chat = fake.private_chat(ann)
    for text in ("/start", "/start from-a-link", "/help"):
        before = len(fake.bot_messages(chat))
        await fake.send_message(ann, chat, text)
        await fake.settle()
        (welcome,) = fake.bot_messages(chat)[before:]
        body = welcome.plain_text
        assert body.startswith(t("welcome-title")) and t("welcome-where") in body
        assert "/general start" in body and "/general leaderboard" in body  # the commands
        (button,) = welcome.buttons
        assert button.text == t("btn-add-to-group")
        assert button.url == f"https://t.me/{fake.bot_user.username}?startgroup=general"


async def test_start_and_help_in_a_group_answer_with_a_line(tg: RunningBot) -> None:
    fake = tg.fake
    ann = fake.user(1001, "Аня", language_code="ru")
    group = fake.chat(-100700, title="Дом")
    bot = fake.bot_user.username
    for text in (f"/start@{bot} general", f"/help@{bot}"):
        before = len(fake.bot_messages(group))
        await fake.send_message(ann, group, text)
        await fake.settle()
        (said,) = fake.bot_messages(group)[before:]
        assert said.plain_text == RU("welcome-group") and not said.buttons
    await fake.send_message(ann, group, "/start@some_other_bot")
    await fake.settle()
    assert len(fake.bot_messages(group)) == 2  # a command for another bot is not ours


async def test_menus_and_descriptions_per_scope_and_language(tg: RunningBot) -> None:
    fake = tg.fake
    for code, t in (("", EN), ("en", EN), ("ru", RU)):
        private = fake.commands_for({"type": "all_private_chats"}, code)
        groups = fake.commands_for({"type": "all_group_chats"}, code)
        assert [c["command"] for c in private] == ["general", "help"]
        assert private[0]["description"] == t("menu-general-private")
        assert groups[0]["description"] == t("menu-general-group")
        assert groups[1]["description"] == t("menu-help")
        assert fake.descriptions[("description", code)] == t("bot-description")
        assert fake.descriptions[("short_description", code)] == t("bot-short-description")
    assert EN("bot-description") != RU("bot-description")


async def _my_turn_in_a_group(tg: RunningBot) -> tuple[object, object, object]:
    fake = tg.fake
    ann, bob = fake.user(1001, "Ann"), fake.user(1002, "Bob")
    group = fake.chat(-100800, title="Dice night")
    await fake.send_message(ann, group, "/general start")
    await fake.settle()
    await press(fake, bob, live_board(fake, group), "Join")
    tg.roller.push(LOT_ALICE_LOW)
    await press(fake, ann, live_board(fake, group), "Start")
    tg.roller.push([6, 6, 6, 6, 2])
    await press(fake, ann, live_board(fake, group), "Roll")
    return ann, bob, group


async def test_a_hint_asked_in_a_group_goes_to_the_asker_alone(tg: RunningBot) -> None:
    fake = tg.fake
    ann, _, group = await _my_turn_in_a_group(tg)
    mine = fake.private_chat(ann)  # Ann has opened a chat with the bot
    before = len(fake.bot_messages(group))
    await fake.send_message(ann, group, "/general hint")
    await fake.settle()
    assert len(fake.bot_messages(group)) == before  # nothing in the group
    (hint,) = fake.bot_messages(mine)
    assert hint.plain_text.startswith(EN("hint-from", chat="Dice night"))
    assert "1." in hint.plain_text


async def test_where_the_bot_cannot_write_privately_a_button_shows_the_hint(
    tg: RunningBot,
) -> None:
    fake = tg.fake
    ann, bob, group = await _my_turn_in_a_group(tg)
    before = len(fake.bot_messages(group))
    await fake.send_message(ann, group, "/general hint")
    await fake.settle()
    (offer,) = fake.bot_messages(group)[before:]
    assert offer.plain_text == EN("hint-write-to-me")
    assert "1." not in offer.plain_text  # no hint content in the group
    shown = await press(fake, ann, offer, EN("btn-hint"))
    assert shown.startswith("1.") or "1." in shown
    refused = await press(fake, bob, offer, EN("btn-hint"))
    assert refused == EN("error-not-your-turn", player="Ann")


async def test_a_hints_refusal_goes_to_the_asker_alone_too(tg: RunningBot) -> None:
    """Bob asks for a hint on Ann's turn: he is told why privately, not the group; where the
    bot may not write to him, the group gets only that short reply."""
    fake = tg.fake
    _, bob, group = await _my_turn_in_a_group(tg)
    before = len(fake.bot_messages(group))
    await fake.send_message(bob, group, "/general hint")  # no private chat with Bob yet
    await fake.settle()
    (reply,) = fake.bot_messages(group)[before:]
    assert reply.plain_text == EN("error-not-your-turn", player="Ann")
    his = fake.private_chat(bob)
    await fake.send_message(bob, group, "/general hint")
    await fake.settle()
    assert len(fake.bot_messages(group)) == before + 1  # nothing more in the group
    (told,) = fake.bot_messages(his)
    assert told.plain_text == "\n".join(
        [EN("hint-refused-from", chat="Dice night"), EN("error-not-your-turn", player="Ann")]
    )
