"""Ratings on Discord, through the real library and the fake: the final message's new ratings
and the plain word on a big general, the leaderboard by rating and by wins, the rating in the
statistics."""

from __future__ import annotations

from tests.discord.kit import RunningBot, ask, bot_messages, live_board, open_table, press
from tests.telegram.test_ratings import BIG, LOT_BOB_LOW, shown


async def test_the_final_message_leaderboard_and_stats_speak_of_ratings(dc: RunningBot) -> None:
    fake = dc.fake
    alice, bob = fake.member(dc.guild, "Alice"), fake.member(dc.guild, "Bob")
    lobby = await open_table(dc, dc.channel, alice, bob)
    await press(fake, alice, lobby, "an")
    dc.roller.push(LOT_BOB_LOW)
    await press(fake, alice, lobby, "b")
    dc.roller.push(BIG)
    await press(fake, bob, live_board(fake, dc.channel), "r")
    final = bot_messages(fake, dc.channel)[-1].content
    alice_rating, bob_rating, novice = shown([2, 1, 2])
    lost = 1000 - alice_rating
    assert (
        f"📈 Ratings here: Bob {bob_rating}? (+{bob_rating - 1000})"
        f" · 🤖 Novice {novice}? (−{1000 - novice}) · Alice {alice_rating}? (−{lost})" in final
    ), final
    assert "⚡ The game ended early, in round 1 of 10: Bob threw a big general" in final
    assert "🏆 Winner: Bob, with a big general." in final and "0 points" not in final

    board = await ask(dc, alice, dc.channel, "leaderboard", period="all")
    assert "All time, by rating: rating · games · best" in board
    assert board.index(f"Bob — {bob_rating}? · 1") < board.index(f"Alice — {alice_rating}? · 1")
    assert "🤖 Novice" in board
    by_wins = await ask(dc, alice, dc.channel, "leaderboard", order="wins")
    assert "1. Bob — 1 · 1 · 100%" in by_wins and "🤖 Novice — 0 · 1 · 0%" in by_wins
    luckiest = await ask(dc, alice, dc.channel, "leaderboard", order="luck")
    assert "🍀 The luckiest dice here" in luckiest
    assert "Nobody here has 3 reviewed games yet" in luckiest  # one game played
    wisest = await ask(dc, alice, dc.channel, "leaderboard", scope="global", order="skill")
    assert "🎯 The best decisions everywhere" in wisest
    stats = await ask(dc, alice, dc.channel, "stats", player=bob)
    assert f"Rating (every chat): {bob_rating}?, best {bob_rating}" in stats
    assert "The last game: ▁█ +" in stats
