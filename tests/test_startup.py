"""A failed start is one line that names the setting, a documented exit code, no traceback, no
secret and nothing left open: the real `python -m bot`, started with each bad setting.

The processes run in a temporary directory (so no `.env` is read), all at once: one start is a
few seconds of imports, and a dozen in a row would be most of a minute.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import socket
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from adapters.sqlite import SqliteRepository
from tests.fakes.discord import FakeDiscord
from tests.fakes.telegram import FakeTelegram

ROOT = Path(__file__).resolve().parents[1]
TELEGRAM_SECRET = "987654:SECRET-telegram-token"
DISCORD_SECRET = "SECRET-discord-token"
HOOK_SECRET = "SECRET-webhook-secret"
PASSWORD = "SECRETPW"
# Root writes wherever it likes; without these capabilities it obeys file modes like anyone.
AS_NOBODY_SPECIAL = ["setpriv", "--bounding-set=-dac_override,-dac_read_search,-fowner", "--"]


@dataclass
class Case:
    env: dict[str, str]
    setting: str
    code: int
    secret: str = ""
    output: str = ""
    returncode: int | None = None
    prefix: list[str] = field(default_factory=list)


def cases(
    tmp: Path, telegram: FakeTelegram, discord: FakeDiscord, busy_port: int
) -> dict[str, Case]:
    readonly = tmp / "readonly"
    readonly.mkdir(mode=0o500)
    (tmp / "notes.txt").write_text("not a database\n" * 100)
    hook = {
        "TELEGRAM_TOKEN": telegram.token,
        "TELEGRAM_BASE_URL": telegram.base_url,
        "TELEGRAM_WEBHOOK_URL": f"http://127.0.0.1:{busy_port}/hook",
        "TELEGRAM_WEBHOOK_SECRET": HOOK_SECRET,
    }
    as_nobody_special = AS_NOBODY_SPECIAL if os.geteuid() == 0 and shutil.which("setpriv") else []
    return {
        "telegram token rejected": Case(
            {"TELEGRAM_TOKEN": TELEGRAM_SECRET, "TELEGRAM_BASE_URL": telegram.base_url},
            "TELEGRAM_TOKEN", 1, TELEGRAM_SECRET,
        ),
        "discord token rejected": Case(
            {
                "DISCORD_TOKEN": DISCORD_SECRET,
                "DISCORD_API_BASE_URL": discord.api_base,
                "DISCORD_GATEWAY_URL": discord.gateway_url,
            },
            "DISCORD_TOKEN", 1, DISCORD_SECRET,
        ),
        "database directory missing": Case(
            {"GENERAL_DATABASE": str(tmp / "missing" / "general.db")}, "GENERAL_DATABASE", 2
        ),
        "database not writable": Case(
            {"GENERAL_DATABASE": str(readonly / "general.db")}, "GENERAL_DATABASE", 2,
            prefix=as_nobody_special,
        ),
        "database not a database": Case(
            {"GENERAL_DATABASE": str(tmp / "notes.txt")}, "GENERAL_DATABASE", 2
        ),
        "postgresql unreachable": Case(
            {"GENERAL_DATABASE_URL": f"postgresql://u:{PASSWORD}@127.0.0.1:1/x"},
            "GENERAL_DATABASE_URL", 1, PASSWORD,
        ),
        "database url scheme": Case(
            {"GENERAL_DATABASE_URL": f"mysql://u:{PASSWORD}@127.0.0.1:1/x"},
            "GENERAL_DATABASE_URL", 2, PASSWORD,
        ),
        "log level": Case({"GENERAL_LOG_LEVEL": "LOUD"}, "GENERAL_LOG_LEVEL", 2),
        "language": Case({"GENERAL_LANGUAGE": "de"}, "GENERAL_LANGUAGE", 2),
        "webhook without a secret": Case(
            {**hook, "TELEGRAM_WEBHOOK_SECRET": ""}, "TELEGRAM_WEBHOOK_SECRET", 2
        ),
        "webhook secret Telegram refuses": Case(
            {**hook, "TELEGRAM_WEBHOOK_SECRET": f"with spaces {HOOK_SECRET}"},
            "TELEGRAM_WEBHOOK_SECRET", 2, HOOK_SECRET,
        ),
        "database used by another process": Case(
            {"GENERAL_DATABASE": str(tmp / "held.db")}, "GENERAL_DATABASE", 2,
        ),
        "webhook port taken": Case(
            {**hook, "TELEGRAM_WEBHOOK_PORT": str(busy_port)}, "TELEGRAM_WEBHOOK_PORT", 1,
            HOOK_SECRET,
        ),
    }  # fmt: skip


def clean_env(tmp: Path) -> dict[str, str]:
    """The environment without any setting of the bot's, and this checkout importable."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("GENERAL_", "TELEGRAM_", "DISCORD_"))
    }
    return {**env, "PYTHONPATH": str(ROOT), "NO_PROXY": "127.0.0.1,localhost", "HOME": str(tmp)}


async def start(case: Case, cwd: Path, base: dict[str, str]) -> None:
    proc = await asyncio.create_subprocess_exec(
        *case.prefix, sys.executable, "-m", "bot",
        cwd=cwd, env={**base, "GENERAL_DATABASE": str(cwd / "general.db"), **case.env},
        stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )  # fmt: skip
    try:
        out, _ = await asyncio.wait_for(proc.communicate(), 60)
    except TimeoutError:
        proc.kill()
        out, _ = await proc.communicate()
    case.output, case.returncode = out.decode(errors="replace"), proc.returncode


async def run_all(tmp: Path) -> dict[str, Case]:
    telegram, discord = FakeTelegram(), FakeDiscord()
    await telegram.start()
    await discord.start()
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        all_cases = cases(tmp, telegram, discord, busy.getsockname()[1])
        base = clean_env(tmp)
        folders = [tmp / f"run{i}" for i in range(len(all_cases))]
        for folder in folders:
            folder.mkdir()
        held = await SqliteRepository.open(tmp / "held.db")  # this process holds the file
        try:
            await asyncio.gather(
                *(start(c, f, base) for c, f in zip(all_cases.values(), folders, strict=True))
            )
        finally:
            await held.close()
            await telegram.stop()
            await discord.stop()
    return all_cases


@pytest.fixture(scope="module")
def started(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Case]:
    return asyncio.run(run_all(tmp_path_factory.mktemp("startup")))


NAMES = [
    "telegram token rejected",
    "discord token rejected",
    "database directory missing",
    "database not writable",
    "database not a database",
    "postgresql unreachable",
    "database url scheme",
    "log level",
    "language",
    "webhook without a secret",
    "webhook secret Telegram refuses",
    "webhook port taken",
    "database used by another process",
]


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.slow
def test_a_bad_setting_is_one_line_naming_it(started: dict[str, Case], name: str) -> None:
    case = started[name]
    if name == "database not writable" and os.geteuid() == 0 and not case.prefix:
        pytest.skip("root without setpriv writes every file")
    out = case.output
    failures = [line for line in out.splitlines() if line.startswith("cannot start: ")]
    assert len(failures) == 1 and case.setting in failures[0], out
    assert case.returncode == case.code, out
    assert "Traceback" not in out and "Unclosed" not in out, out
    if case.secret:
        assert case.secret not in out, out


@pytest.mark.slow
def test_every_case_is_checked(started: dict[str, Case]) -> None:
    assert sorted(started) == sorted(NAMES)


def python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=30
    )


def test_an_uncaught_traceback_is_redacted() -> None:
    """The last resort: what Python itself prints for an exception nobody caught."""
    done = python(
        "from bot.logs import configure\n"
        f"configure('INFO', [{TELEGRAM_SECRET!r}])\n"
        f"raise RuntimeError('POST /bot{TELEGRAM_SECRET}/getMe failed')\n"
    )
    assert done.returncode == 1
    assert "Traceback" in done.stderr and "RuntimeError: POST /bot[redacted]/getMe" in done.stderr
    assert TELEGRAM_SECRET not in done.stderr + done.stdout


def test_an_asyncio_report_is_redacted() -> None:
    """A task's exception never retrieved is printed by asyncio's handler, through the log."""
    done = python(
        "import asyncio, gc\n"
        "from bot.logs import configure\n"
        f"configure('INFO', [{PASSWORD!r}])\n"
        "async def fail():\n"
        f"    raise RuntimeError('postgresql://u:{PASSWORD}@db/x')\n"
        "async def main():\n"
        "    task = asyncio.ensure_future(fail())\n"
        "    await asyncio.sleep(0.01)\n"
        "    del task\n"
        "    gc.collect()\n"
        "asyncio.run(main())\n"
    )
    assert "Task exception was never retrieved" in done.stderr, done.stderr
    assert "RuntimeError: postgresql://u:[redacted]@db/x" in done.stderr
    assert PASSWORD not in done.stderr + done.stdout
