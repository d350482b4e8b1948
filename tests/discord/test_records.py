"""Leaderboards, statistics and history in Discord channels."""

from __future__ import annotations

from tests.discord.kit import RunningBot, ask, quick_win


async def test_leaderboard_stats_history(dc: RunningBot) -> None:
    fake = dc.fake
    ann = fake.member(dc.guild, "Ann")
    bob = fake.member(dc.guild, "Bob", nick="Bob `*b*` @everyone")
    cid = fake.member(dc.guild, "Cid")
    here, there = dc.channel, fake.text_channel(dc.guild, "there")
    assert "No finished games yet." in await ask(dc, ann, here, "leaderboard", order="wins")
    await quick_win(dc, here, ann)
    await quick_win(dc, here, ann)
    await quick_win(dc, there, bob)
    # Solo games rate no one: the board by rating says so, the board by wins counts them.
    assert "No rated games yet" in await ask(dc, ann, here, "leaderboard")
    board = await ask(dc, ann, here, "leaderboard", order="wins")
    assert board.startswith("**🏆 Top players here**\n```")
    assert "1. Ann — 2 · 2 · 100% · 0.0 · 0" in board and "Bob" not in board
    everywhere = await ask(
        dc, ann, here, "leaderboard", scope="global", period="recent", order="wins"
    )
    assert "The last 30 days" in everywhere and "Ann — 2" in everywhere
    # Inside the monospace block a name is shown as it is; it cannot close the block.
    assert "Bob ˋ*b*ˋ @everyone — 1 · 1" in everywhere and everywhere.count("```") == 2
    stats = await ask(dc, ann, here, "stats")
    assert stats.startswith("**📊 Ann**") and "2 games, 2 wins (100%)" in stats
    assert "2 big" in stats
    assert "1 game, 1 win" in await ask(dc, ann, here, "stats", player=bob)
    assert "No finished games for Cid yet." in await ask(dc, ann, here, "stats", player=cid)
    history = await ask(dc, ann, here, "history")
    assert (
        history.startswith("**📜 Recent games here (times in UTC)**")
        and history.count("🏆 Ann 0") == 2
    )
    assert "Bob" not in history
    assert "No finished games here yet." in await ask(dc, ann, fake.thread(here, "new"), "history")
