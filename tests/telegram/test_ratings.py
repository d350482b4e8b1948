"""Ratings on Telegram, through the real library and the fake: the final message's new ratings
and the plain word on a big general, the leaderboard by rating and by wins, the rating in the
statistics, in English and in Russian."""

from __future__ import annotations

from openskill.models import PlackettLuce

from core.ratings import Skill
from tests.fakes.telegram import FakeChat
from tests.telegram.kit import RunningBot, ask, live_board, press

BIG = [3, 3, 3, 3, 3]
LOT_BOB_LOW = [6, 6, 6, 6, 5, 1, 1, 1, 1, 2, 5, 5, 5, 5, 4]  # Alice, Bob, Novice: Bob starts


def shown(ranks: list[int]) -> list[int]:
    """openskill's ratings of newcomers after one game of these ranks, as the bot shows them."""
    model = PlackettLuce()
    rated = model.rate([[model.rating()] for _ in ranks], ranks=ranks)
    return [Skill(team[0].mu, team[0].sigma).shown for team in rated]


async def big_general_by_bob(tg: RunningBot, chat: FakeChat, alice_language: str = "en") -> str:
    """Alice, Bob and a Novice; Bob starts and throws a big general: the final message."""
    fake = tg.fake
    alice = fake.user(1001, "Alice", language_code=alice_language)
    bob = fake.user(1002, "Bob", language_code=alice_language)
    await fake.send_message(alice, chat, "/general start")
    await fake.settle()
    lobby = live_board(fake, chat)
    await press(fake, bob, lobby, "Join" if alice_language == "en" else "Сесть")
    await press(fake, alice, lobby, "+ Novice" if alice_language == "en" else "+ Новичок")
    tg.roller.push(LOT_BOB_LOW)
    await press(fake, alice, lobby, "Start" if alice_language == "en" else "Начать")
    tg.roller.push(BIG)
    await press(fake, bob, live_board(fake, chat), "Roll" if alice_language == "en" else "Бросить")
    word = "Ratings here" if alice_language == "en" else "Рейтинг здесь"
    await fake.wait_for(lambda: any(word in m.plain_text for m in fake.bot_messages(chat)))
    return next(m.plain_text for m in fake.bot_messages(chat) if word in m.plain_text)


async def test_the_final_message_leaderboard_and_stats_speak_of_ratings(tg: RunningBot) -> None:
    fake = tg.fake
    group = fake.chat(-100900, title="Rated")
    final = await big_general_by_bob(tg, group)
    alice, bob, novice = shown([2, 1, 2])  # Bob's big general first, Alice and Novice level
    assert (
        f"📈 Ratings here: Bob {bob}? (+{bob - 1000}) · 🤖 Novice {novice}? (−{1000 - novice})"
        f" · Alice {alice}? (−{1000 - alice})" in final  # level: in their seats' order
    )
    assert "⚡ The game ended early, in round 1 of 10: Bob threw a big general" in final
    assert "🏆 Winner: Bob, with a big general." in final and "0 points" not in final

    alice_user = fake.user(1001, "Alice")
    board = await ask(fake, alice_user, group, "/general leaderboard all")
    assert "All time, by rating: rating · games · best" in board
    assert board.index(f"Bob — {bob}? · 1") < board.index(f"Alice — {alice}? · 1")
    assert f"🤖 Novice — {novice}? · 1" in board  # computers are rated like anyone
    by_wins = await ask(fake, alice_user, group, "/general leaderboard wins")
    assert "wins · games · win rate" in by_wins and "1. Bob — 1 · 1 · 100%" in by_wins
    assert "🤖 Novice — 0 · 1 · 0%" in by_wins  # both boards count the same players
    luckiest = await ask(fake, alice_user, group, "/general leaderboard luck")
    assert "🍀 The luckiest dice here" in luckiest
    assert "Nobody here has 3 reviewed games yet" in luckiest  # one game played
    wisest = await ask(fake, alice_user, group, "/general leaderboard global decisions")
    assert "🎯 The best decisions everywhere" in wisest
    stats = await ask(fake, alice_user, group, "/general stats Bob")
    assert f"Rating (every chat): {bob}?, best {bob}" in stats
    assert "Provisional: 1 of the first 5 games played." in stats
    for name in ("🤖 Novice", "novice"):  # a computer by the name the chat shows it under
        stats = await ask(fake, alice_user, group, f"/general stats {name}")
        assert "📊 🤖 Novice" in stats and f"Rating (every chat): {novice}?" in stats


async def test_in_russian(tg: RunningBot) -> None:
    fake = tg.fake
    group = fake.chat(-100901, title="Рейтинг")
    final = await big_general_by_bob(tg, group, "ru")
    _, bob, _ = shown([2, 1, 2])
    assert f"📈 Рейтинг здесь: Bob {bob}? (+{bob - 1000})" in final
    assert "🤖 Новичок" in final
    assert "⚡ Досрочно: в раунде 1 из 10 Bob выбрасывает большой генерал" in final
    assert "🏆 Победитель — Bob: большой генерал." in final
    alice = fake.user(1001, "Alice", language_code="ru")
    board = await ask(fake, alice, group, "/general leaderboard")  # this season's
    assert "Этот сезон (" in board and "), по рейтингу: рейтинг · игры · лучший" in board
    assert "Предварительный рейтинг (игр пока меньше 5):" in board
    by_wins = await ask(fake, alice, group, "/general leaderboard победы всё")
    assert "За всё время: победы · игры" in by_wins and "🤖 Новичок" in by_wins
    stats = await ask(fake, alice, group, "/general stats Новичок")
    assert "📊 🤖 Новичок" in stats and "Рейтинга пока нет" not in stats
