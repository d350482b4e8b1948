"""`python -m bot.analyse`: its three commands give the engine's numbers, in text and JSON, and
bad arguments are refused with one line and exit status 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.analyse import main
from core.boxes import ALL_BOXES, Box
from core.chances import Standing, win_shares
from core.rules import BigGeneralMode, Variants
from core.strategy import choices

ROOT = Path(__file__).resolve().parent.parent


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> Any:
    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_choices_in_json_are_the_engines(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "choices", "--open", "all", "--dice", "62666", "--throws", "1")
    expected = choices(Variants(), ALL_BOXES, (6, 6, 6, 6, 2), 1)
    assert len(data["choices"]) == len(expected)
    best = data["choices"][0]
    assert best == {
        "keep": [6, 6, 6, 6],
        "box": None,
        "points": 0,
        "expected": expected[0].expected,
    }
    four = next(c for c in data["choices"] if c["box"] == "four")
    assert four["points"] == 45 and four["keep"] is None


def test_choices_take_the_total_and_the_rules(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["choices", "--open", "ones,general", "--dice", "3 3 3 3 3", "--throws", "1"]
    data = run_json(capsys, *argv, "--total", "40", "--big-general", "scores-sixty")
    sixty = Variants(big_general=BigGeneralMode.SCORES_SIXTY)
    expected = choices(sixty, [Box.ONES, Box.GENERAL], (3,) * 5, 1, 40)
    assert [c["expected"] for c in data["choices"]] == [c.expected for c in expected]
    assert data["choices"][0]["box"] == "general" and data["choices"][0]["points"] == 60
    no_joker = run_json(capsys, "choices", "--open", "straight", "--dice", "13456", "--throws", "3")
    assert no_joker["choices"][0]["points"] == 20
    plain = run_json(capsys, "choices", "--open", "straight", "--dice", "13456", "--throws", "3",
                     "--no-joker")  # fmt: skip
    assert plain["choices"][0]["points"] == 0


def test_choices_as_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["choices", "--open", "all", "--dice", "24652", "--throws", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].split()[:4] == ["write", "twos", "for", "4"]
    assert lines[1].split()[-1] == "148.1317"


def test_chances(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["chances", "--player", "120:ones,twos", "--player", "95:ones,twos,threes"]
    data = run_json(capsys, *argv, "--to-move", "1", "--dice", "12345", "--throws", "2")
    standings = [
        Standing(120, frozenset({Box.ONES, Box.TWOS})),
        Standing(95, frozenset({Box.ONES, Box.TWOS, Box.THREES})),
    ]
    assert data == {"shares": list(win_shares(Variants(), standings, 1, (1, 2, 3, 4, 5), 2))}
    assert main([*argv, "--to-move", "0"]) == 0
    text = capsys.readouterr().out
    assert "seat 0 (to move): " in text and text.count("%") == 2


def test_distribution(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "distribution", "--open", "general", "--big-general", "scores-sixty")
    assert set(data["pmf"]) == {"0", "60"}
    assert data["pmf"]["60"] == pytest.approx(2783176 / 60466176, abs=1e-15)
    assert data["mean"] == pytest.approx(60 * 2783176 / 60466176, abs=1e-12)
    full = run_json(capsys, "distribution", "--open", "none")
    assert full == {"mean": 0.0, "std": 0.0, "pmf": {"0": 1.0}}
    assert main(["distribution", "--open", "sixes,fives"]) == 0
    assert "given no big general: mean" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["choices", "--open", "onez", "--dice", "66662", "--throws", "1"], "unknown box"),
        (["choices", "--open", "all", "--dice", "6666", "--throws", "1"], "5 faces"),
        (["choices", "--open", "all", "--dice", "66667", "--throws", "1"], "5 faces"),
        (["choices", "--open", "all", "--dice", "66662", "--throws", "4"], "invalid choice"),
        (["choices", "--open", "all", "--dice", "66666", "--throws", "1"], "big general"),
        (["choices", "--open", "none", "--dice", "66662", "--throws", "2"], "nothing to choose"),
        (["chances", "--player", "120"], "TOTAL:OPEN"),
        (["chances", "--player", "120:ones", "--dice", "12345"], "go together"),
        (["chances", "--player", "1:ones", "--to-move", "3"], "to move"),
        (["distribution"], "--open"),
        (["guess"], "invalid choice"),
    ],
)
def test_bad_arguments(capsys: pytest.CaptureFixture[str], argv: list[str], says: str) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and says in captured.err


def test_a_real_run() -> None:
    argv = ["choices", "--open", "general", "--dice", "66662", "--throws", "2", "--json"]
    command = [sys.executable, "-m", "bot.analyse", *argv]
    done = subprocess.run(command, capture_output=True, text=True, check=True, timeout=60, cwd=ROOT)
    best = json.loads(done.stdout)["choices"][0]
    assert best["keep"] == [6, 6, 6, 6]
    assert best["expected"] == pytest.approx(60 / 6, abs=1e-12)  # one die, one throw left
