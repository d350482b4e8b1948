"""Game objects in words (the modules of adapters/i18n/): numbers reach the catalogue as
numbers, so that each language writes and agrees them its own way; the lines once reported as
wrong read right."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from adapters.i18n import Translator
from adapters.i18n.dice import box_name
from adapters.i18n.hints import hint_lines
from adapters.i18n.luck import figure, luck_line
from adapters.i18n.names import NAME_WIDTH, shown_name
from adapters.i18n.records import history_lines, leaderboard_lines, stats_lines
from adapters.i18n.refusals import error_message
from adapters.i18n.review import decision_text
from adapters.i18n.settings import duration, setting_label
from core.boxes import Box
from core.chat_settings import ChatSettings
from core.errors import ErrorCode, GameError
from core.luck import Cause, Luck, Step, Unit
from core.records import PastGame, PlayerStats, Standing
from core.review import Decision
from core.strategy import Choice
from tests.test_i18n_catalogue import pairs, renders

ROOT = Path(__file__).resolve().parents[1]
EN, RU = Translator("en"), Translator("ru")
STATS = PlayerStats(
    player_id="ann",
    name="Аня",
    games=21,
    wins=2,
    average=159.84,
    best=201,
    small_generals=1,
    big_generals=0,
    box_averages={Box.FOUR: 12.5, Box.GENERAL: 60.0},
    accuracy=95.0,
)


def test_the_checker_knows_the_forms_once_reported() -> None:
    """What the catalogue test would have said of the lines people saw."""
    assert [wanted for *_, wanted in pairs("ru", "по 22 очков")] == ["очка"]
    assert [wanted for *_, wanted in pairs("ru", "(2 игроков)")] == ["игрока"]
    assert [wanted for *_, wanted in pairs("ru", "упущено в среднем 95,0 очков")] == ["очка"]
    assert [wanted for *_, wanted in pairs("ru", "не больше 21 символов")] == ["символа"]
    assert [wanted for *_, wanted in pairs("en", "1.0 point, 1 throws")] == ["points", "throw"]


def test_russian_agrees_numbers_and_needs_no_declined_name() -> None:
    assert RU("game-winners", names="Аня, Борис", total=22) == (
        "🏆 Победу делят Аня, Борис: у каждого по 22 очка."
    )
    assert RU("game-winners", names="Аня, Борис", total=21).endswith("по 21 очку.")
    assert RU("game-winner", names="Аня", total=25) == "🏆 Победитель — Аня: 25 очков."
    full = error_message(RU, GameError(ErrorCode.TABLE_FULL, cap=2))
    assert full == "Свободных мест нет: за столом уже 2 игрока."
    assert error_message(EN, GameError(ErrorCode.TABLE_FULL, cap=2)) == (
        "The table is full: it seats 2 players."
    )
    assert RU("event-timed-out", name="Аня").startswith("⏰ Аня: время хода вышло")
    assert RU("stats-none", name="Аня") == "Аня: законченных игр пока нет."
    assert RU("turn-scored", name="Аня", points=21, box=box_name(RU, Box.FOUR)) == (
        "Аня записывает 21 очко в графу «Каре»."
    )


def test_no_russian_line_reads_as_a_translation_once_reported() -> None:
    clumsy = ("в каждом каждый", "Равенство по наименьшей", "Это поле устарело", "как у бота")
    for render in renders("ru"):
        assert not any(phrase in render.text for phrase in clumsy), render.message_id


def test_fractions_are_written_and_agreed_the_language_s_way() -> None:
    """One decimal, a comma in Russian; a shown fraction takes CLDR's `other` form."""
    line = RU("review-line", name="Аня", accuracy=97.25, lost=95.5)
    assert line == "Аня: точность 97,2%, упущено в среднем 95,5 очка."
    assert RU("review-line", name="Аня", accuracy=100.0, lost=1.0).endswith("1,0 очка.")
    assert EN("review-line", name="Ann", accuracy=100.0, lost=1.0).endswith(
        "1.0 expected points given away."
    )
    options = [Choice(159.84, keep=(6, 6)), Choice(158.0, box=Box.SIXES, points=12)]
    dice = (6, 6, 1, 2, 3)
    assert hint_lines(RU, options, dice)[1:] == [
        "1. отложить 6-6 и бросить остальные → 159,8",
        "2. записать в «Шестёрки» (12) → 158,0",
    ]
    assert hint_lines(EN, options, dice)[1] == "1. keep 6-6 and roll → 159.8"
    decision = Decision(3, 2, dice, options[1], options[0])
    assert decision_text(RU, decision) == (
        "Самая дорогая ошибка — раунд 3, бросок 2, кости 6-6-1-2-3: решено записать в "
        "«Шестёрки» (12), а лучше было отложить 6-6 и бросить остальные (потеряно 1,8 очка)."
    )
    assert decision_text(EN, decision) == (
        "Costliest decision: round 3, throw 2, dice 6-6-1-2-3 — “write Sixes (12)”, where "
        "“keep 6-6 and roll” was better by 1.8 points."
    )


def test_records_in_each_language_s_numbers_and_dates() -> None:
    assert stats_lines(RU, STATS) == [
        "📊 Аня",
        "21 игра, 2 победы (10%)",
        "Средний счёт 159,8, лучший 201",
        "Генералы: малые — 1, большие — 0",
        "Средняя точность по разборам: 95,0%",
        "В среднем по графам:",
        "  Каре: 12,5",
        "  Генерал: 60,0",
    ]
    assert stats_lines(EN, STATS)[1:3] == [
        "21 games, 2 wins (10%)",
        "Average total 159.8, best 201",
    ]
    standings = [Standing("ann", "Аня", 5, 1, 120.25, 180)]
    assert leaderboard_lines(RU, standings, False, RU("board-period-recent", days=21))[1:] == [
        "За последний 21 день: победы · игры · доля побед · средний счёт · лучший",
        "1. Аня — 1 · 5 · 20% · 120,2 · 180",
    ]
    assert leaderboard_lines(EN, [], True, EN("board-period-all")) == [
        "🏆 Top players everywhere",
        EN("board-empty"),
    ]
    finished = datetime(2025, 3, 5, 14, 7, tzinfo=UTC).timestamp()
    games = [PastGame("g", finished, "finished", (("Аня", 180, True), ("Борис", 150, False)))]
    assert history_lines(RU, games)[1] == "05.03.2025, 14:07: 🏆 Аня 180, Борис 150"
    assert history_lines(EN, games)[1] == "Mar 5, 2025, 2:07\u202fPM: 🏆 Аня 180, Борис 150"


def test_settings_and_times_in_whole_words_that_agree() -> None:
    settings = ChatSettings(turn_timer=0, hints=False, computer_pause=0.5)
    assert setting_label(RU, "turn_timer", settings) == "Таймер хода: выключен"
    assert setting_label(RU, "hints", settings) == "Подсказки: выключены"
    assert setting_label(RU, "computer_pause", settings) == (
        "Пауза перед ходом компьютера: 0,5 секунды"
    )
    assert setting_label(EN, "computer_pause", ChatSettings()) == (
        "Pause before a computer's move: default"
    )
    day = ChatSettings(turn_timer=86400)
    assert setting_label(RU, "turn_timer", day) == "Таймер хода: 24 часа"
    assert setting_label(EN, "turn_timer", ChatSettings(turn_timer=60)) == "Turn timer: 1 minute"
    assert [duration(RU, s) for s in (1, 30, 60, 300, 3600, 7200)] == [
        "1 секунда", "30 секунд", "1 минута", "5 минут", "1 час", "2 часа",
    ]  # fmt: skip


def test_discord_settings_name_the_server_and_the_permission_the_code_checks() -> None:
    """On Discord the settings are a server's, for members who may manage the server."""
    assert "permissions.manage_guild" in (ROOT / "adapters/discord/answer.py").read_text()
    assert "Manage Server" in EN("settings-admins-only", platform="discord")
    assert "«Управлять сервером»" in RU("settings-admins-only", platform="discord")
    assert EN("settings-admins-only", platform="telegram") == (
        "Only the chat's administrators can change the settings."
    )
    assert EN("settings-title", platform="discord").startswith("⚙️ Settings of this server")
    assert RU("settings-title", platform="discord").startswith("⚙️ Настройки этого сервера")
    assert RU("settings-title", platform="telegram").startswith("⚙️ Настройки этого чата")


def test_four_of_a_kind_is_named_in_full() -> None:
    assert box_name(EN, Box.FOUR) == "Four of a kind" and box_name(RU, Box.FOUR) == "Каре"
    assert "Four of a kind 45/40" in EN("help-rules")
    assert len(EN("btn-box", box=box_name(EN, Box.FOUR), points=45)) <= 20  # a Telegram button


def test_names_show_shortened_and_neutralised() -> None:
    """A name of thousands of characters, or one that reorders or hides the text around it,
    shows as at most 32 visible characters in every message; the catalogue never sees it whole."""
    assert shown_name("Ann") == "Ann"
    assert shown_name("x" * 4000) == "x" * (NAME_WIDTH - 1) + "…"
    assert shown_name("\u202eevil\u202c \u200bname\u2066\ufeff") == "evil name"
    assert shown_name("\u200b\u200d") == "?"
    said = EN("stats-unknown", name="\u202e" + "y" * 4000)
    assert "{???}" not in said and "\u202e" not in said and "y" * NAME_WIDTH not in said
    assert "{???}" not in EN("lobby-players", count=50, names="z, " * 3000)


def test_luck_figures_carry_their_sign_and_the_languages_numbers() -> None:
    assert figure(EN, 0.1234, Unit.SHARE) == "+12%"
    assert figure(EN, -0.031, Unit.SHARE) == "−3%"
    assert figure(EN, -0.004, Unit.SHARE) == "+0%"  # nothing, as shown, is no loss
    assert figure(EN, -3.44, Unit.POINTS) == "−3.4 points"
    assert figure(RU, 14.25, Unit.POINTS) == "+14,2 очка"
    assert figure(RU, 1.0, Unit.POINTS) == "+1,0 очка"
    steps = (Step(Cause.DICE, 1, 1, 0.2), Step(Cause.DECISION, 1, 1, -0.05))
    luck = Luck("p", Unit.SHARE, 0.5, 0.65, steps)
    assert luck_line(EN, "Ann", luck) == "🎲 Ann: dice +20% · decisions −5%"
    with_rest = Luck("p", Unit.SHARE, 0.5, 0.0, (*steps, Step(Cause.REST, 2, 0, -0.65)))
    assert luck_line(RU, "Аня", with_rest) == (
        "🎲 Аня: кости +20% · решения −5% · игра соперников −65%"
    )
