"""The catalogues: complete in every language, and every message id the code asks for exists."""

from __future__ import annotations

import re
from pathlib import Path

from adapters.i18n import Translator, available_locales, message_ids, normalize_locale
from core.boxes import ALL_BOXES
from core.errors import ErrorCode
from core.levels import Level

ROOT = Path(__file__).resolve().parents[1]
LITERAL = re.compile(r"""\bt\(\s*["']([a-z][a-z0-9_-]+)["']""")


def test_every_language_has_every_message() -> None:
    english = message_ids("en")
    for locale in available_locales():
        assert message_ids(locale) == english, locale


def test_every_message_the_code_names_exists() -> None:
    used: set[str] = set()
    for path in [*ROOT.glob("adapters/**/*.py"), *ROOT.glob("bot/**/*.py")]:
        used |= set(LITERAL.findall(path.read_text()))
    used |= {f"box-{box.value}" for box in ALL_BOXES}
    used |= {f"error-{code.value}" for code in ErrorCode}
    used |= {f"computer-{level.value}" for level in Level} | {f"btn-add-{lv.value}" for lv in Level}
    assert used - message_ids("en") == set()


def test_russian_plurals_and_fallback() -> None:
    ru = Translator("ru")
    assert ru("chat-throws-left", left=1).startswith("Остался 1 бросок")
    assert ru("chat-throws-left", left=2).startswith("Осталось 2 броска")
    assert ru("box-general") == "Генерал"
    assert Translator("xx")("box-general") == "General"
    assert normalize_locale("ru-RU") == "ru" and normalize_locale("pt-BR") == "en"
