"""The project's promises about itself: every setting documented where people look for it."""

from __future__ import annotations

from pathlib import Path

from adapters.chat.catalogue import readme_table
from bot.settings import Settings

ROOT = Path(__file__).resolve().parents[1]


def test_every_setting_is_in_env_example_and_readme() -> None:
    example = (ROOT / ".env.example").read_text()
    readme = (ROOT / "README.md").read_text()
    for name in Settings.model_fields:
        assert f"\n{name.upper()}=" in example, name
        assert f"| `{name.upper()}` |" in readme, name


def test_quick_start_is_two_commands() -> None:
    readme = (ROOT / "README.md").read_text()
    block = readme.split("## Quick start", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    commands = [line.split("#")[0].strip() for line in block.strip().splitlines()]
    assert commands == ["uv run python -m bot", "uv run pytest"]


def test_empty_token_means_console() -> None:
    settings = Settings(_env_file=None, telegram_token="", discord_token=" ")  # type: ignore[call-arg]
    assert settings.console_mode
    assert not Settings(_env_file=None, telegram_token="x").console_mode  # type: ignore[call-arg]


def test_rules_copy_matches_the_contract() -> None:
    contract = ROOT.parent / "shared" / "RULES.md"
    if contract.exists():  # shared/ lies beside the checkout on the project's machines and in CI
        assert (ROOT / "RULES.md").read_text() == contract.read_text()
    assert "big general" in (ROOT / "RULES.md").read_text()


def test_readme_command_tables_are_the_catalogue() -> None:
    readme = (ROOT / "README.md").read_text()
    for platform, typed in (("telegram", True), ("discord", False)):
        assert readme_table(typed=typed) in readme, platform
