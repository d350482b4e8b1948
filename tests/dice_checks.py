"""What the fake platforms' whole games check of their dice beside the bot: `python -m bot
verify` and `export` run as an operator runs them (while the bot runs), the stand-alone verifier
on the export, and the same on a copy of the database with one throw changed."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import sys
from pathlib import Path

from tests.process import ROOT, tool

VERIFIER = ROOT / "verifier" / "verify_dice.py"


async def standalone(export: Path) -> tuple[int, str]:
    """The verifier as a sceptic runs it: an isolated interpreter, the standard library only."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-I", str(VERIFIER), str(export), stdout=asyncio.subprocess.PIPE
    )
    out, _ = await process.communicate()
    assert process.returncode is not None
    return process.returncode, out.decode()


def tampered_copy(database: Path, into: Path) -> Path:
    """A copy of the database whose third throw shows one die changed."""
    copy = into / "tampered.db"
    with sqlite3.connect(database) as source, sqlite3.connect(copy) as target:
        source.backup(target)
    with sqlite3.connect(copy) as db:
        sql = "SELECT seq, data FROM events WHERE data LIKE '%dice_rolled%' ORDER BY seq"
        seq, data = db.execute(sql).fetchall()[2]
        event = json.loads(data)
        event["dice"][0] = event["dice"][0] % 6 + 1
        db.execute("UPDATE events SET data = ? WHERE seq = ?", (json.dumps(event), seq))
    return copy


async def check_beside_the_bot(database: Path, game_id: str, throws: int, tmp: Path) -> None:
    """verify and export agree with the stand-alone verifier, and all three fail a copy with
    one throw changed."""
    said = f"all {throws} throws match the seed committed to"
    code, out, err = await tool(database, "verify", game_id)
    assert (code, err) == (0, "") and out.startswith(f"{said} ("), out
    code, out, err = await tool(database, "export", game_id)
    assert (code, err) == (0, "") and json.loads(out)["game"] == game_id
    export = tmp / "game.json"
    export.write_text(out)
    assert await standalone(export) == (0, f"{said}\n")
    bad = tampered_copy(database, tmp)
    code, out, _ = await tool(bad, "verify", game_id)
    assert code == 1 and out.startswith("throw ") and " shows " in out, out
    bad_export = tmp / "tampered.json"
    bad_export.write_text((await tool(bad, "export", game_id))[1])
    code, out = await standalone(bad_export)
    assert code == 1 and out.startswith("throw ") and "the seed gives" in out, out
