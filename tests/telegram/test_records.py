"""Leaderboards, statistics and history in a Telegram chat."""

from __future__ import annotations

from tests.telegram.kit import RunningBot, ask, quick_win


async def test_leaderboard_stats_history(tg: RunningBot) -> None:
    fake = tg.fake
    ann, bob = fake.user(1001, "Ann"), fake.user(1002, "Bob <i>")
    here, there = fake.chat(-100900, title="Here"), fake.chat(-100901, title="There")
    assert "No finished games yet." in await ask(fake, ann, here, "/general leaderboard wins")
    await quick_win(tg, here, ann)
    await quick_win(tg, here, ann)
    await quick_win(tg, there, bob)
    assert "No rated games yet" in await ask(fake, ann, here, "/general leaderboard")  # solo
    board = await ask(fake, ann, here, "/general leaderboard wins")
    assert "Top players here" in board and "1. Ann — 2 · 2 · 100% · 0.0 · 0" in board
    assert "Bob" not in board
    everywhere = await ask(fake, ann, here, "/general leaderboard global 30d wins")
    assert "The last 30 days" in everywhere and "Bob <i>" in everywhere
    assert "&lt;i&gt;" in fake.bot_messages(here)[-1].text  # escaped in the HTML
    stats = await ask(fake, ann, here, "/general stats")
    assert "2 games, 2 wins (100%)" in stats and "2 big" in stats
    assert "Bob" in await ask(fake, bob, there, "/general stats")
    assert 'Nobody called "Zed"' in await ask(fake, ann, here, "/general stats Zed")
    assert "2 games" in await ask(fake, bob, here, "/general stats ann")
    history = await ask(fake, ann, here, "/general history")
    assert history.count("🏆 Ann 0") == 2
