"""Who hears of a chat's new tables (`/general notify`), on every backend: asked once, asked
again in another language, taken back; carried along when the chat moves to a new id; gone
when the person is forgotten."""

from __future__ import annotations

from core.forget import new_alias
from core.subscriptions import Subscriber
from tests.storage.conftest import Repository


async def test_a_subscription_is_kept_once_in_the_last_language_asked(
    repository: Repository,
) -> None:
    assert await repository.subscribers("tg", "-100") == []
    assert await repository.subscribe("tg", "-100", "1", "en") is True
    assert await repository.subscribe("tg", "-100", "2", "ru") is True
    assert await repository.subscribe("tg", "-100", "1", "ru") is False  # asked again
    assert await repository.subscribe("tg", "-200", "1", "en") is True  # another chat
    assert await repository.subscribe("dc", "-100", "3", "en") is True  # another platform
    assert await repository.subscribers("tg", "-100") == [
        Subscriber("1", "ru"),
        Subscriber("2", "ru"),
    ]
    assert await repository.unsubscribe("tg", "-100", "1") is True
    assert await repository.unsubscribe("tg", "-100", "1") is False
    assert await repository.subscribers("tg", "-100") == [Subscriber("2", "ru")]
    assert await repository.subscribers("tg", "-200") == [Subscriber("1", "en")]
    assert await repository.subscribers("dc", "-100") == [Subscriber("3", "en")]


async def test_a_chat_that_moves_takes_its_subscribers(repository: Repository) -> None:
    await repository.subscribe("tg", "-100", "1", "en")
    await repository.subscribe("tg", "-100", "2", "ru")
    await repository.subscribe("tg", "-300", "2", "en")  # already asked in the new chat
    await repository.move_chat("tg", "-100", "-300")
    assert await repository.subscribers("tg", "-100") == []
    moved = await repository.subscribers("tg", "-300")
    assert sorted(moved, key=lambda s: s.player_id) == [
        Subscriber("1", "en"),
        Subscriber("2", "en"),
    ]


async def test_a_forgotten_person_hears_of_nothing_more(repository: Repository) -> None:
    await repository.subscribe("tg", "-100", "1", "en")
    await repository.subscribe("tg", "-200", "1", "en")
    await repository.subscribe("tg", "-100", "2", "en")
    await repository.subscribe("dc", "-100", "1", "en")  # the same id on another platform
    await repository.forget_player("tg", "1", new_alias())
    assert await repository.subscribers("tg", "-100") == [Subscriber("2", "en")]
    assert await repository.subscribers("tg", "-200") == []
    assert await repository.subscribers("dc", "-100") == [Subscriber("1", "en")]
