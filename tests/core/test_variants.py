"""Each variant is declared once (core/rules.py): its JSON, the settings screen's choices and the
strategy's key follow from that. Stored rules and settings read back as they were written, with
the keys and values every older bot wrote."""

from __future__ import annotations

import itertools
import json
from dataclasses import fields
from typing import Any

from core.chat_settings import CHOICES, ROWS, ChatSettings, SheetStyle, cycled
from core.rules import BigGeneralMode, Variants, choices_of, rule_sets
from core.snapshot import game_from_dict, game_to_dict
from core.strategy import RuleKey
from tests.core.gamekit import ALICE, lobby

# Every combination of every variant's choices (the settings screen's).
EVERY = [
    Variants(**dict(zip((item.name for item in fields(Variants)), values, strict=True)))
    for values in itertools.product(*(choices_of(item) for item in fields(Variants)))
]

# What older bots stored: the default rules, and one chat's chosen settings.
WRITTEN_RULES = {
    "big_general": "ends_game",
    "five_of_a_kind_full_house": False,
    "straight_joker": True,
    "table_cap": 10,
    "hints": True,
    "turn_timer": 600,
    "chances": True,
}
WRITTEN_SETTINGS = {
    "language": "ru",
    "turn_timer": 0,
    "hints": True,
    "big_general": "scores_sixty",
    "five_of_a_kind_full_house": False,
    "straight_joker": True,
    "table_cap": 10,
    "sheet": "picture",
    "computer_pause": 0.5,
    "chances": True,
}


def stored(data: dict[str, Any]) -> dict[str, Any]:
    """What a store gives back: JSON text read again."""
    loaded: dict[str, Any] = json.loads(json.dumps(data))
    return loaded


def test_every_variant_combination_round_trips_as_rules_settings_and_snapshot() -> None:
    for rules in EVERY:
        assert Variants.from_dict(stored(rules.to_dict())) == rules
        settings = ChatSettings(**{item.name: getattr(rules, item.name) for item in fields(rules)})
        assert ChatSettings.from_dict(stored(settings.to_dict())) == settings
        assert settings.variants() == rules and type(settings.variants()) is Variants
    for rules in EVERY[:: len(EVERY) // 50]:  # a whole snapshot for a spread of them
        game = lobby(ALICE, variants=rules)
        assert game_from_dict(stored(game_to_dict(game))).variants == rules


def test_the_stored_keys_and_values_are_those_older_bots_wrote() -> None:
    """Each key and value written before stays (a variant added later adds its own)."""
    assert Variants().to_dict().items() >= WRITTEN_RULES.items()
    assert Variants.from_dict(WRITTEN_RULES) == Variants()
    chosen = ChatSettings(
        language="ru",
        turn_timer=0,
        big_general=BigGeneralMode.SCORES_SIXTY,
        sheet=SheetStyle.PICTURE,
        computer_pause=0.5,
    )
    assert chosen.to_dict().items() >= WRITTEN_SETTINGS.items()
    assert ChatSettings.from_dict(WRITTEN_SETTINGS) == chosen
    old = {"big_general": "scores_sixty", "sheet": "picture", "hints": 0, "table_cap": "4"}
    assert ChatSettings.from_dict(old) == ChatSettings(
        big_general=BigGeneralMode.SCORES_SIXTY, sheet=SheetStyle.PICTURE, hints=False, table_cap=4
    )


def test_the_settings_screen_shows_each_setting_once_in_its_order() -> None:
    assert sorted(ROWS) == sorted(item.name for item in fields(ChatSettings))
    assert list(CHOICES) == list(ROWS)
    settings = ChatSettings()
    for name, choices in CHOICES.items():  # cycling reaches every choice and comes back
        seen = []
        for _ in choices:
            seen.append(getattr(settings, name))
            settings = cycled(settings, name)
        assert sorted(map(repr, seen)) == sorted(map(repr, choices))
        assert getattr(settings, name) == getattr(ChatSettings(), name)


def test_the_strategy_key_is_the_scoring_variants_alone() -> None:
    assert {RuleKey.of(rules) for rules in EVERY} == set(map(RuleKey, rule_sets()))
    capped = Variants(table_cap=4, hints=False, turn_timer=60, chances=False)
    assert RuleKey.of(capped) == RuleKey.of(Variants())
    sixty = RuleKey.of(Variants(big_general=BigGeneralMode.SCORES_SIXTY))
    assert RuleKey.of(Variants()).big_general_ends and not sixty.big_general_ends
