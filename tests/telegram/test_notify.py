"""`/general notify` on Telegram, through the real library and the fake: a member who never
opened a private chat with the bot is told how (a button to it), one who did is written to at
once and, when a table opens, gets the group's name and a link to the lobby, in Russian."""

from __future__ import annotations

from tests.fakes.telegram import FakeMessage
from tests.telegram.kit import RunningBot, ask, live_board


def last_private(tg: RunningBot, user_id: int) -> FakeMessage:
    chat = tg.fake.chats[user_id]
    return tg.fake.bot_messages(chat)[-1]


async def test_a_subscriber_hears_of_the_next_table_with_a_link_to_it(tg: RunningBot) -> None:
    fake = tg.fake
    group = fake.chat(-1001234500, title="Кости по пятницам")
    anna = fake.user(2001, "Анна", language_code="ru")
    boris = fake.user(2002, "Борис", language_code="ru")

    answer = await ask(fake, boris, group, "/general notify")
    assert "Готово: когда здесь откроется стол" in answer
    assert "откройте личный чат со мной и нажмите «Запустить»" in answer
    (button,) = fake.bot_messages(group)[-1].buttons
    assert button.text == "💬 Открыть личный чат"
    assert button.url == f"https://t.me/{fake.bot_user.username}?start=notify"

    private = fake.private_chat(boris)  # he opens it from the button: Telegram sends /start notify
    await fake.send_message(boris, private, "/start notify")
    await fake.settle()
    first, *_ = [m.plain_text for m in fake.bot_messages(private)]
    assert first.startswith("🔔 Теперь я могу писать вам сюда")
    answer = await ask(fake, boris, group, "/general notify")
    assert "Вы уже в списке" in answer and "Запустить" not in answer
    said = last_private(tg, boris.id).plain_text
    assert said.startswith("🔔 Я напишу вам сюда, когда в чате «Кости по пятницам»")

    await fake.send_message(anna, group, "/general start")
    await fake.settle()
    lobby = live_board(fake, group)
    await fake.wait_for(lambda: "открывает стол" in last_private(tg, boris.id).plain_text)
    told = last_private(tg, boris.id)
    assert told.plain_text == (
        "🎲 Анна открывает стол «Генерала» в чате «Кости по пятницам»:"
        " присоединяйтесь, пока идёт набор."
    )
    (join,) = told.buttons
    assert join.text == "🎲 К столу"
    assert join.url == f"https://t.me/c/1234500/{lobby.message_id}"

    answer = await ask(fake, boris, group, "/general notify выкл")
    assert answer == "🔕 Готово: больше не буду писать вам о новых столах здесь."
