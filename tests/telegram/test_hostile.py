"""Hostile input through the fake Telegram: garbage data, long and strange commands, names full of
markup, right-to-left text and emoji. Never a crash, always an answer, never broken markup."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adapters.i18n.names import shown_name
from core.dice import SeededRoller
from tests.fakes.telegram import FakeTelegram
from tests.telegram.kit import bot_settings, running

TRICKY = ["<b>", "</i>", "&amp;", "&", "<a href='x'>", "\u202eevil", "👨‍👩‍👧", "\u200f", "`", "*_~"]
names = st.one_of(
    st.sampled_from(TRICKY),
    st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=40),
).filter(lambda s: s.strip() != "")
payloads = st.one_of(
    st.text(max_size=64).filter(lambda s: len(s.encode()) <= 64),
    st.sampled_from(["g1|aaaaaaaa|1|r", "g1|abcdefgh|999999999|s9", "cfg|hints", "cfg|../x", ""]),
)
arguments = st.text(st.characters(blacklist_categories=("Cs", "Cc")), max_size=300)


@settings(
    max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(people=st.lists(names, min_size=2, max_size=3), data=st.lists(payloads, max_size=6),
       argument=arguments)  # fmt: skip
@pytest.mark.slow
def test_hostile_input_is_answered_and_changes_nothing(
    tmp_path_factory: pytest.TempPathFactory, people: list[str], data: list[str], argument: str
) -> None:
    asyncio.run(scenario(tmp_path_factory.mktemp("hostile"), people, data, argument))


async def scenario(directory: Path, people: list[str], data: list[str], argument: str) -> None:
    async with (
        FakeTelegram() as fake,
        running(bot_settings(fake, directory / "general.db"), SeededRoller(1)),
    ):
        users = [fake.user(7000 + n, name[:64]) for n, name in enumerate(people)]
        group = fake.chat(-102000, title="<Hostile & co>")
        await fake.send_message(users[0], group, "/general start")
        await fake.settle()
        lobby = fake.bot_messages(group)[-1]
        for user in users[1:]:
            await fake.wait_answer(await fake.press(user, lobby, "Join"))
        await fake.settle()
        shown = fake.message(group, lobby.message_id).plain_text
        for user in users:
            assert shown_name(user.first_name) in shown  # names shown, neutralised and cut
        before = len(fake.bot_messages(group))
        await fake.send_message(users[1], group, f"/general {argument}")
        await fake.settle()
        assert len(fake.bot_messages(group)) > before  # every command gets an answer
        for raw in data:
            query = await fake.press(users[1], lobby, data=raw)
            text, _ = await fake.wait_answer(query)
            assert text  # a polite refusal, never silence
        await fake.settle()
        assert "Seated" in fake.message(group, lobby.message_id).plain_text
        assert fake.unhandled == []
