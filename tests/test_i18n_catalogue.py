"""Every message of every catalogue, in both languages, with numbers that reach every plural form
(0, 1, 2, 5, 11, 21, 22, 25 and 1.5): Fluent finds nothing wrong and leaves nothing unfilled,
each number that meets a noun takes the form CLDR wants for it as shown, numbers are written the
language's way, a person's name never has to be declined, and neither language lets in the other's
words."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache

import pytest
from babel import Locale
from babel.numbers import parse_decimal
from fluent.syntax import FluentParser
from fluent.syntax import ast as ftl
from fluent.syntax.visitor import Visitor

from adapters.i18n import LOCALES_DIR, Translator

LOCALES = ("en", "ru")
NUMBERS: tuple[int | float, ...] = (0, 1, 2, 5, 11, 21, 22, 25, 1.5)
PLATFORMS = ("telegram", "discord")
WHEN = datetime(2025, 3, 5, 14, 7, tzinfo=UTC)
# A person's name, and any other text given: letters of neither language.
PERSON, TEXT = "Ψ", "Ξ"

# Every variable of the catalogues is one of these; a new one must be told apart here.
NUMERIC = frozenset(
    {
        "accuracy", "average", "best", "big", "cap", "count", "days", "expected", "games",
        "left", "length", "limit", "loss", "lost", "mu", "n", "points", "rank", "rate",
        "round", "rounds", "sigma", "small", "throw", "throws", "total", "turn", "wins",
        "amount", "size", "table", "tables", "hours", "minutes", "score",
    }
)  # fmt: skip
PERSONS = frozenset({"host", "name", "names", "player"})
TEXTS = frozenset(
    {
        "arg", "better", "box", "boxes", "change", "chat", "choice", "chosen", "command", "dice",
        "free", "held", "order", "period", "players", "time", "value", "word", "words",
        "commitment", "file", "given", "page", "script", "seed", "short", "shown", "where",
        "decisions", "rest", "sign", "format", "deadline",
    }
)  # fmt: skip
PLATFORM, DATE = "platform", "date"

# The noun's forms: Russian (nominative singular, genitive singular, genitive plural, dative
# singular), English (singular, plural).
RU_NOUNS = (
    ("очко", "очка", "очков", "очку"),
    ("игрок", "игрока", "игроков", "игроку"),
    ("бросок", "броска", "бросков", "броску"),
    ("минута", "минуты", "минут", "минуте"),
    ("секунда", "секунды", "секунд", "секунде"),
    ("час", "часа", "часов", "часу"),
    ("игра", "игры", "игр", "игре"),
    ("победа", "победы", "побед", "победе"),
    ("день", "дня", "дней", "дню"),
    ("символ", "символа", "символов", "символу"),
    ("место", "места", "мест", "месту"),
    ("кость", "кости", "костей", "кости"),
    ("раунд", "раунда", "раундов", "раунду"),
    ("графа", "графы", "граф", "графе"),
    ("генерал", "генерала", "генералов", "генералу"),
)
EN_NOUNS = (
    ("point", "points"),
    ("player", "players"),
    ("throw", "throws"),
    ("minute", "minutes"),
    ("second", "seconds"),
    ("hour", "hours"),
    ("game", "games"),
    ("win", "wins"),
    ("day", "days"),
    ("character", "characters"),
    ("seat", "seats"),
    ("die", "dice"),
    ("round", "rounds"),
    ("box", "boxes"),
    ("general", "generals"),
)
# Which form a Russian number takes, by its CLDR category, after a word that asks for the
# genitive («не больше 5 символов»), after distributive «по» («по 21 очку», «по 22 очка»), and
# elsewhere («21 очко», «22 очка», «25 очков», «1,5 очка»).
GENITIVE_BEFORE = frozenset({"больше", "меньше", "более", "менее", "до", "от", "из", "без", "для"})
RU_FORM = {  # case → category → index into the forms above
    "gen": {"one": 1, "few": 2, "many": 2, "other": 1},
    "po": {"one": 3, "few": 1, "many": 2, "other": 1},
    "nom": {"one": 0, "few": 1, "many": 2, "other": 1},
}
PAIR = re.compile(r"(?:(\w+)\s+)?(?<![\w/.,−-])(\d+(?:[.,]\d+)?)\s+(\w+)")

# Words a Russian line keeps as they are: names of things, and commands as people type them.
LATIN_KEPT = frozenset({"UTC", "Ctrl", "Discord", "Telegram", "SHA"})
LATIN_KEPT_BY_ID = {"settings-language-en": frozenset({"English"})}
COMMAND = re.compile(r"/[a-z]+(?: [a-z]+)?")
CYRILLIC_KEPT_BY_ID = {
    "help-title": frozenset({"Генерал"}),
    "settings-language-ru": frozenset({"Русский"}),
}
# The words after which a name stands in the nominative (a verb it is the subject of).
NOMINATIVE_BEFORE = frozenset({"ходит", "делят"})


class _Variables(Visitor):
    def __init__(self) -> None:
        super().__init__()
        self.found: set[str] = set()

    def visit_VariableReference(self, node: ftl.VariableReference) -> None:
        self.found.add(node.id.name)
        self.generic_visit(node)


@dataclass(frozen=True)
class Render:
    message_id: str
    number: int | float | None
    text: str
    errors: tuple[Exception, ...]


@cache
def messages(locale: str) -> dict[str, ftl.Message]:
    """Every message of a language's catalogue files, by id; a file Fluent cannot parse fails."""
    found: dict[str, ftl.Message] = {}
    for path in sorted((LOCALES_DIR / locale).glob("*.ftl")):
        resource = FluentParser().parse(path.read_text(encoding="utf-8"))
        junk = [entry.content for entry in resource.body if isinstance(entry, ftl.Junk)]
        assert not junk, (path, junk)
        for entry in resource.body:
            if isinstance(entry, ftl.Message):
                assert entry.id.name not in found, (path, entry.id.name)
                found[entry.id.name] = entry
    return found


def variables(message: ftl.Message) -> set[str]:
    visitor = _Variables()
    visitor.visit(message)
    return visitor.found


def _arguments(names: set[str], number: int | float, platform: str) -> dict[str, object]:
    args: dict[str, object] = {}
    for name in names:
        if name in NUMERIC:
            args[name] = number
        elif name in PERSONS:
            args[name] = PERSON
        elif name == PLATFORM:
            args[name] = platform
        elif name == DATE:
            args[name] = WHEN
        else:
            args[name] = TEXT
    return args


@cache
def renders(locale: str) -> tuple[Render, ...]:
    """Each message once per number (when it has numbers) and per platform (when it asks)."""
    t = Translator(locale)
    out: list[Render] = []
    for message_id, message in messages(locale).items():
        names = variables(message)
        numbers: tuple[int | float | None, ...] = NUMBERS if names & NUMERIC else (None,)
        platforms = PLATFORMS if PLATFORM in names else PLATFORMS[:1]
        for number in numbers:
            for platform in platforms:
                args = _arguments(names, 0 if number is None else number, platform)
                text, errors = t.checked(message_id, **args)
                out.append(Render(message_id, number, text, tuple(errors)))
    return tuple(out)


def _category(locale: str, number: str) -> str:
    return str(Locale.parse(locale).plural_form(parse_decimal(number, locale=locale)))


def pairs(locale: str, text: str) -> Iterator[tuple[str, str, str]]:
    """(number as shown, the noun after it, the form CLDR wants) for each known noun."""
    nouns = RU_NOUNS if locale == "ru" else EN_NOUNS
    lemmas = {form: forms for forms in nouns for form in forms}
    for before, number, word in PAIR.findall(text):
        forms = lemmas.get(word.lower())
        if forms is None:
            continue
        category = _category(locale, number)
        if locale == "ru":
            case = "po" if before == "по" else "gen" if before in GENITIVE_BEFORE else "nom"
            wanted = forms[RU_FORM[case][category]]
        else:
            wanted = forms[0 if category == "one" else 1]
        yield number, word.lower(), wanted


def test_both_languages_have_the_same_messages_with_the_same_variables() -> None:
    english, russian = messages("en"), messages("ru")
    assert set(english) == set(russian)
    for message_id, message in english.items():
        assert variables(message) == variables(russian[message_id]), message_id


@pytest.mark.parametrize("locale", LOCALES)
def test_every_variable_is_told_a_number_or_a_text(locale: str) -> None:
    known = NUMERIC | PERSONS | TEXTS | {PLATFORM, DATE}
    for message_id, message in messages(locale).items():
        assert variables(message) <= known, (message_id, variables(message) - known)
    assert not NUMERIC & (PERSONS | TEXTS)


@pytest.mark.parametrize("locale", LOCALES)
def test_every_message_renders_whole_with_every_number(locale: str) -> None:
    assert len(renders(locale)) > len(messages(locale))
    for render in renders(locale):
        assert render.errors == (), (render.message_id, render.number, render.errors)
        assert render.text and render.text != render.message_id, render.message_id
        assert not re.search(r"[{}$]|\?\?\?", render.text), render


@pytest.mark.parametrize("locale", LOCALES)
def test_numbers_meet_nouns_in_the_cldr_plural_form(locale: str) -> None:
    seen = [(r.message_id, *pair) for r in renders(locale) for pair in pairs(locale, r.text)]
    slips = sorted(
        {f"{i}: {n} {word}, not {wanted}" for i, n, word, wanted in seen if word != wanted}
    )
    assert not slips, "\n".join(slips)
    assert len(seen) > 100


def test_numbers_are_written_the_language_s_way() -> None:
    """A decimal comma in Russian, a decimal point in English (1.5 reaches every number)."""
    for render in renders("ru"):
        assert not re.search(r"(?<![\d.])\d+\.\d(?![\d.])", render.text), render
    for render in renders("en"):
        assert not re.search(r"(?<![\d,])\d+,\d(?![\d,])", render.text), render
    assert any("1,5" in r.text for r in renders("ru"))
    assert any("1.5" in r.text for r in renders("en"))


def test_russian_has_no_english_words() -> None:
    english = {
        word.lower()
        for render in renders("en")
        for word in re.findall(r"[A-Za-z]{2,}", COMMAND.sub("", render.text))
    }
    for render in renders("ru"):
        kept = LATIN_KEPT | LATIN_KEPT_BY_ID.get(render.message_id, frozenset())
        words = set(re.findall(r"[A-Za-z]{2,}", COMMAND.sub("", render.text))) - kept
        assert not {w for w in words if w.lower() in english}, (render.message_id, words)


def test_english_has_no_cyrillic_but_the_game_s_and_the_language_s_names() -> None:
    for render in renders("en"):
        words = set(re.findall(r"[А-Яа-яЁё]+", render.text))
        assert words <= CYRILLIC_KEPT_BY_ID.get(render.message_id, frozenset()), render
    assert all(
        any(word in r.text for r in renders("en") if r.message_id == message_id)
        for message_id, kept in CYRILLIC_KEPT_BY_ID.items()
        for word in kept
    )


def test_a_russian_line_never_declines_a_name() -> None:
    """A name stands where the nominative fits: first, after punctuation («Ходит: Аня»,
    «(Аня)», «Аня: …»), or as the subject right after its verb («Ходит Аня»)."""
    for render in renders("ru"):
        for before in re.findall(rf"(\S*)\s*{PERSON}", render.text):
            word = before.lower().strip("«»()")
            assert not word or not word[-1].isalpha() or word in NOMINATIVE_BEFORE, (
                render.message_id,
                render.text,
            )
