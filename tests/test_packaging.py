"""The deployment files agree with the project (images cannot be built on these machines): the
Python version, the entry command, every setting they name, the health path, the user."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from bot.settings import Settings

ROOT = Path(__file__).resolve().parents[1]
FILES = ("Dockerfile", "compose.yaml", "deploy/general.service")
SETTING = re.compile(r"\b((?:GENERAL|TELEGRAM|DISCORD)_[A-Z0-9_]+)\b")


def text(name: str) -> str:
    return (ROOT / name).read_text()


def test_every_setting_the_files_name_is_one_of_the_bots() -> None:
    known = {name.upper() for name in Settings.model_fields}
    for name in FILES:
        named = set(SETTING.findall(text(name)))
        assert named, name
        assert named <= known, (name, sorted(named - known))


def test_the_image_runs_the_projects_python_and_entry_command_as_a_user() -> None:
    project = tomllib.loads(text("pyproject.toml"))
    wanted = project["project"]["requires-python"].removeprefix(">=")
    assert project["tool"]["mypy"]["python_version"] == wanted
    docker = text("Dockerfile")
    (base,) = re.findall(r"^FROM python:(\d+\.\d+)-slim$", docker, re.M)
    assert base == wanted
    assert "uv sync --locked --no-dev" in docker
    assert re.search(r'^CMD \["python", "-m", "bot"\]$', docker, re.M)
    assert (ROOT / "bot" / "__main__.py").exists()
    (user,) = re.findall(r"^USER (\S+)$", docker, re.M)
    assert user not in ("root", "0")
    (volume,) = re.findall(r"^VOLUME (\S+)$", docker, re.M)
    assert f"GENERAL_DATABASE={volume}/" in docker  # the database lives on the volume
    for source in ("bot", "adapters", "core"):  # everything `python -m bot` imports
        assert f"COPY {source} ./{source}" in docker
    unit = text("deploy/general.service")
    (start,) = re.findall(r"^ExecStart=(.+)$", unit, re.M)
    assert start.endswith("/.venv/bin/python -m bot")
    assert re.search(r"^User=general$", unit, re.M) and "NoNewPrivileges=true" in unit


def test_the_health_checks_ask_the_port_the_bot_serves() -> None:
    docker = text("Dockerfile")
    (port,) = re.findall(r"GENERAL_HTTP_PORT=(\d+)", docker)
    (checked,) = re.findall(r"http://127\.0\.0\.1:(\d+)/healthz", docker)
    assert checked == port and f"EXPOSE {port}" in docker
    compose = text("compose.yaml")
    assert f'GENERAL_HTTP_PORT: "{port}"' in compose and f"127.0.0.1:{port}:{port}" in compose
    assert "GENERAL_DATABASE_URL: postgresql://" in compose


async def test_the_health_path_the_files_check_is_the_one_the_bot_serves() -> None:
    from adapters.sqlite import SqliteRepository
    from bot.http import Health, routes
    from core.service import GameService

    repository = await SqliteRepository.open(":memory:")
    try:
        served = {route.path for route in routes(Health(GameService(repository)))}
    finally:
        await repository.close()
    for name in ("Dockerfile", "compose.yaml"):
        for path in re.findall(r"http://127\.0\.0\.1:\d+(/\w+)", text(name)):
            assert path in served, (name, path)
    assert "/healthz" in served and "/healthz" in text("Dockerfile")
