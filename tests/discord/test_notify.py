"""`/general notify` on Discord, through the real library and the fake: a member who takes
direct messages is written to at once and, when a table opens in the channel, gets its name and
a link to the lobby; one who takes none is told how to allow them; `off` ends it."""

from __future__ import annotations

from tests.discord.kit import RunningBot, live_board, slash


async def test_a_subscriber_hears_of_the_next_table_and_a_closed_inbox_is_told(
    dc: RunningBot,
) -> None:
    fake = dc.fake
    alice, bob = fake.member(dc.guild, "Alice"), fake.member(dc.guild, "Bob")
    carol = fake.member(dc.guild, "Carol", dms_open=False)

    asked = await slash(fake, bob, dc.channel, "notify")
    assert asked.original is not None and asked.original.ephemeral  # his alone
    assert (
        "\n".join(asked.texts()) == "🔔 Done: when a table opens here, I'll write to you privately."
    )
    (confirmed,) = fake.direct_messages(bob)
    title = f"#{dc.channel.name} ({dc.guild.name})"
    assert confirmed.content == (
        f"🔔 I'll write to you here when a table of General opens in “{title}”."
        " (/general notify off there stops it.)"
    )

    refused = "\n".join((await slash(fake, carol, dc.channel, "notify")).texts())
    assert "allow direct messages from this server's members" in refused
    assert fake.direct_messages(carol) == []

    lobby = (await slash(fake, alice, dc.channel, "start")).original
    assert lobby is not None
    await fake.wait_for(lambda: len(fake.direct_messages(bob)) == 2)
    told = fake.direct_messages(bob)[-1]
    assert told.content == (
        f"🎲 Alice opened a table of General in “{title}”: join while the lobby is open."
    )
    (join,) = told.buttons
    assert "Go to the table" in (join.label or "")
    board = live_board(fake, dc.channel)
    assert join.url == f"https://discord.com/channels/{dc.guild.id}/{dc.channel.id}/{board.id}"
    assert fake.direct_messages(alice) == []  # the host knows

    off = "\n".join((await slash(fake, bob, dc.channel, "notify", off=True)).texts())
    assert off == "🔕 Done: no more private messages about new tables here."
