"""The layering holds by a check, not by habit: every import of every module of core/, adapters/
and bot/ (at the top, inside functions and under TYPE_CHECKING alike) against what its layer may
not import. The core knows no adapter and no bot; the chat layer and the shared adapters know no
platform and no storage; a platform knows no other platform and no storage; storage knows no
chat layer and no platform."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

PLATFORMS = {"telegram": "telegram", "discord": "discord", "console": None}  # folder → library
STORAGE = ("adapters.sqlite", "adapters.postgres")
CHAT_SIDE = ("adapters.chat", *(f"adapters.{folder}" for folder in PLATFORMS))
LIBRARIES = tuple(library for library in PLATFORMS.values() if library)


def forbidden(module: Path) -> tuple[str, ...]:
    """What a module at this place (relative to the repository) must not import: dotted
    prefixes of our packages or names of platform libraries."""
    parts = module.parts
    if parts[0] == "core":
        return ("adapters", "bot")
    if parts[0] != "adapters":
        return ()
    if len(parts) > 2 and parts[1] in PLATFORMS:
        others = tuple(f"adapters.{f}" for f in PLATFORMS if f != parts[1])
        libraries = tuple(lib for lib in LIBRARIES if lib != PLATFORMS[parts[1]])
        return (*others, *libraries, *STORAGE, "bot")
    if len(parts) > 2 and f"adapters.{parts[1]}" in STORAGE:
        return (*CHAT_SIDE, *LIBRARIES, "bot")
    # The chat layer and what every front end shares (languages, pictures, the log's context).
    return (*(f"adapters.{f}" for f in PLATFORMS), *LIBRARIES, *STORAGE, "bot")


def imported(source: str) -> list[str]:
    """Every absolute module a source imports, wherever the import statement is."""
    names: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.append(node.module)
    return names


def breaches(root: Path) -> list[str]:
    """`module imports name` for every import that crosses a layer the wrong way."""
    found: list[str] = []
    for top in ("core", "adapters", "bot"):
        for path in sorted((root / top).rglob("*.py")):
            module = path.relative_to(root)
            banned = forbidden(module)
            for name in imported(path.read_text(encoding="utf-8")):
                if any(name == prefix or name.startswith(prefix + ".") for prefix in banned):
                    found.append(f"{module} imports {name}")
    return found


def test_no_layer_imports_what_it_must_not() -> None:
    assert breaches(ROOT) == []


def test_the_check_sees_each_kind_of_breach(tmp_path: Path) -> None:
    planted = {
        "core/game.py": "from adapters.chat import cards\n",
        "adapters/chat/tables.py": "def later():\n    import telegram\n",
        "adapters/i18n/text.py": "from adapters.sqlite import repository\n",
        "adapters/telegram/draw.py": "from adapters.discord.render import KEYCAPS\n",
        "adapters/discord/calls.py": "import adapters.postgres.repository\n",
        "adapters/sqlite/saves.py": "from adapters.chat.boards import BoardRef\n",
        "adapters/console/app.py": "from bot import settings\n",
        "adapters/chat/fine.py": "from core.game import Game\nfrom adapters.i18n import t\n",
    }
    for name, source in planted.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(source, encoding="utf-8")
    assert sorted(breaches(tmp_path)) == [
        "adapters/chat/tables.py imports telegram",
        "adapters/console/app.py imports bot",
        "adapters/discord/calls.py imports adapters.postgres.repository",
        "adapters/i18n/text.py imports adapters.sqlite",
        "adapters/sqlite/saves.py imports adapters.chat.boards",
        "adapters/telegram/draw.py imports adapters.discord.render",
        "core/game.py imports adapters.chat",
    ]
