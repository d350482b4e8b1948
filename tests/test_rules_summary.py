"""The rules in brief (`/general rules`, the console's `rules`): every rule of RULES.md that
changes a decision is in it, in both languages, and it is one whole message on each platform."""

from __future__ import annotations

import html

import pytest

from adapters.chat import cards
from adapters.discord import draw as discord_draw
from adapters.discord.render import MESSAGE_LIMIT as DISCORD_LIMIT
from adapters.i18n import translator
from adapters.telegram import draw as telegram_draw
from adapters.telegram.render import MESSAGE_LIMIT as TELEGRAM_LIMIT

# What a player must know to choose well, as each language words it: the lot, stopping early,
# each box once, every box's price and what makes it, the straight's 1 (and what it cannot be),
# five of a kind not a full house, free choice and the scratch, no bonus, ties, the variants.
RULES = {
    "en": (
        "the lowest total starts",
        "or stop",
        "each box is filled once a game",
        "Ones…Sixes score the sum",
        "Straight 25/20",
        "1-2-3-4-5 or 2-3-4-5-6",
        "A 1 may stand for a 2 or a 6",
        "1-3-4-5-6 and 1-1-3-4-5 count too; 1-2-3-4-6 does not",
        "Full house 35/30: three dice of one face and two of another",
        "five of a kind is not a full house",
        "Four of a kind 45/40: at least four dice of one face",
        "General 60: five of a kind on the second or third throw",
        "BIG GENERAL: the game ends at once and the thrower wins",
        "You may write into any empty box",
        "scores 0",
        "no bonuses",
        "equal totals share the win",
        "the big general, five of a kind as a full house, and the 1 in a straight",
    ),
    "ru": (
        "первым ходит тот, у кого сумма меньше",
        "или остановиться",
        "каждую графу заполняют один раз за игру",
        "Единицы…Шестёрки — сумма",
        "Стрит — 25/20",
        "1-2-3-4-5 или 2-3-4-5-6",
        "единица может заменить двойку или шестёрку",
        "1-3-4-5-6 и 1-1-3-4-5 — тоже стрит, а 1-2-3-4-6 — нет",
        "Фулл — 35/30: три кости одного значения и две другого",
        "пять одинаковых — не фулл",
        "Каре — 45/40: хотя бы четыре одинаковые кости",
        "Генерал — 60: пять одинаковых со второго или третьего броска",
        "БОЛЬШОЙ ГЕНЕРАЛ: игра сразу кончается победой бросившего",
        "Записать можно в любую пустую графу",
        "пишется 0",
        "Бонусов нет",
        "при равенстве победу делят",
        "большой генерал, пять одинаковых как фулл и единицу в стрите",
    ),
}


@pytest.mark.parametrize("locale", ["en", "ru"])
def test_the_summary_says_every_rule_that_changes_a_decision(locale: str) -> None:
    rules = translator(locale)("help-rules")
    missing = [words for words in RULES[locale] if words not in rules]
    assert missing == []


@pytest.mark.parametrize("locale", ["en", "ru"])
def test_the_summary_is_one_whole_message_on_each_platform(locale: str) -> None:
    t = translator(locale)
    rules = t("help-rules").splitlines()
    (telegram,) = telegram_draw.draw(t, cards.Help("rules"))
    (discord,) = discord_draw.draw(t, cards.Help("rules"))
    content = discord.content or ""
    assert len(telegram.text) <= TELEGRAM_LIMIT and len(content) <= DISCORD_LIMIT
    assert html.unescape(telegram.text).splitlines()[1:] == rules  # nothing cut off
    assert content.splitlines()[1:] == rules
