"""`python -m bot.analyse`: the engine's answers from the command line, for players and testers.

choices       every legal choice with its expected final points, best first
chances       each player's share of the win, everyone on the Master policy
distribution  the points still to come from the start of a turn under Master play
luck GAME     a stored game's luck against skill: each throw's and each decision's change
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

import numpy as np

from bot.dicecheck import Missing
from bot.luck import weigh
from bot.startup import StartupError
from core.boxes import ALL_BOXES, Box
from core.chances import Standing, win_shares
from core.dice import DICE_COUNT, FACES, Dice
from core.distribution import distributions, mean, std
from core.rules import BigGeneralMode, Variants, is_big_general
from core.strategy import choices


class _Parser(argparse.ArgumentParser):
    """Bad arguments: one line on stderr and exit status 2, without the usage block."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}\n")


def boxes(text: str) -> tuple[Box, ...]:
    """Comma-separated box names; `all` is every box, `none` a full sheet."""
    if text == "all":
        return ALL_BOXES
    if text == "none":
        return ()
    names = [name.strip() for name in text.split(",")]
    known = {box.value: box for box in ALL_BOXES}
    unknown = [name for name in names if name not in known]
    if unknown:
        raise argparse.ArgumentTypeError(
            f"unknown box {unknown[0]!r} (boxes: {', '.join(known)}, or all, none)"
        )
    return tuple(sorted({known[name] for name in names}, key=lambda b: b.index))


def dice(text: str) -> Dice:
    faces = [c for c in text if c not in ", "]
    if len(faces) != DICE_COUNT or any(c not in "123456"[:FACES] for c in faces):
        raise argparse.ArgumentTypeError(f"dice are {DICE_COUNT} faces 1-{FACES}, e.g. 66662")
    return tuple(int(c) for c in faces)


def player(text: str) -> Standing:
    total, colon, open_boxes = text.partition(":")
    if not colon or not total.strip().isdigit():
        raise argparse.ArgumentTypeError(f"a player is TOTAL:OPEN, e.g. 120:ones,twos: {text!r}")
    return Standing(int(total), frozenset(boxes(open_boxes)))


def _parser() -> _Parser:
    rules = _Parser(add_help=False)
    modes = [_flag(mode) for mode in BigGeneralMode]
    rules.add_argument("--big-general", choices=modes, default=_flag(Variants().big_general))
    rules.add_argument("--no-joker", action="store_true", help="no straight joker")
    rules.add_argument("--five-of-a-kind-full-house", action="store_true")
    rules.add_argument("--json", action="store_true", help="one JSON object")
    parser = _Parser(prog="python -m bot.analyse", description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    pick = commands.add_parser("choices", parents=[rules], help="the legal choices, best first")
    pick.add_argument("--open", type=boxes, required=True)
    pick.add_argument("--dice", type=dice, required=True)
    pick.add_argument("--throws", type=int, choices=(1, 2, 3), required=True)
    pick.add_argument("--total", type=int, default=0)
    odds = commands.add_parser("chances", parents=[rules], help="win shares in seating order")
    odds.add_argument("--player", type=player, action="append", required=True)
    odds.add_argument("--to-move", type=int, default=0)
    odds.add_argument("--dice", type=dice)
    odds.add_argument("--throws", type=int, choices=(1, 2, 3))
    spread = commands.add_parser("distribution", parents=[rules], help="points still to come")
    spread.add_argument("--open", type=boxes, required=True)
    luck = commands.add_parser("luck", help="a stored game's dice against its decisions")
    luck.add_argument("game", help="the game's id (as /general verify and the final message say)")
    luck.add_argument("--points", action="store_true", help="in expected points, not win chances")
    luck.add_argument("--json", action="store_true", help="one JSON object")
    return parser


def _flag(mode: BigGeneralMode) -> str:
    return mode.value.replace("_", "-")


def _variants(args: argparse.Namespace) -> Variants:
    """The rules the flags name; a variant without a flag keeps its default."""
    return Variants(
        big_general=BigGeneralMode(args.big_general.replace("-", "_")),
        five_of_a_kind_full_house=args.five_of_a_kind_full_house,
        straight_joker=not args.no_joker,
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command == "luck":
        return _luck(args)
    variants = _variants(args)
    if args.command == "choices":
        result = _choices(parser, variants, args)
    elif args.command == "chances":
        result = _chances(parser, variants, args)
    else:
        result = _distribution(parser, variants, args)
    data, text = result
    print(json.dumps(data) if args.json else text)
    return 0


def _luck(args: argparse.Namespace) -> int:
    """Read from the bot's database (its settings): a refusal is one line on stderr, exit 1."""
    try:
        data, text = weigh(args.game, points=args.points)
    except StartupError as failure:
        sys.stderr.write(failure.report())
        return failure.code
    except Missing as missing:
        sys.stderr.write(f"python -m bot.analyse luck: {missing}\n")
        return 1
    print(json.dumps(data) if args.json else text)
    return 0


def _choices(
    parser: _Parser, variants: Variants, args: argparse.Namespace
) -> tuple[dict[str, Any], str]:
    if not args.open:
        parser.error("--open: no box is open, there is nothing to choose")
    if is_big_general(args.dice, args.throws, variants):
        parser.error("a big general on the first throw has ended the game")
    found = choices(variants, args.open, args.dice, args.throws, args.total)
    rows = [
        {
            "keep": list(c.keep) if c.keep is not None else None,
            "box": c.box.value if c.box is not None else None,
            "points": c.points,
            "expected": c.expected,
        }
        for c in found
    ]
    lines = [
        f"write {c.box.value} for {c.points}".ljust(28) + f"{c.expected:9.4f}"
        if c.box is not None
        else f"keep {'-'.join(map(str, c.keep or ())) or 'nothing'}".ljust(28)
        + f"{c.expected:9.4f}"
        for c in found
    ]
    return {"choices": rows}, "choice                      expected\n" + "\n".join(lines)


def _chances(
    parser: _Parser, variants: Variants, args: argparse.Namespace
) -> tuple[dict[str, Any], str]:
    if (args.dice is None) != (args.throws is None):
        parser.error("--dice and --throws go together")
    try:
        shares = win_shares(variants, args.player, args.to_move, args.dice, args.throws or 0)
    except ValueError as error:
        parser.error(str(error))
    lines = [
        f"seat {i}{' (to move)' if i == args.to_move else ''}: {share:.4%}"
        for i, share in enumerate(shares)
    ]
    return {"shares": list(shares)}, "\n".join(lines)


def _distribution(
    parser: _Parser, variants: Variants, args: argparse.Namespace
) -> tuple[dict[str, Any], str]:
    pmf = distributions(variants).from_start(args.open)
    points = np.flatnonzero(pmf > 0)
    data = {
        "mean": mean(pmf),
        "std": std(pmf),
        "pmf": {str(int(p)): float(pmf[p]) for p in points},
    }
    given = " given no big general" if variants.big_general is BigGeneralMode.ENDS_GAME else ""
    lines = [f"points still to come{given}: mean {data['mean']:.4f}, std {data['std']:.4f}"]
    lines += [f"{int(p):4d}  {float(pmf[p]):.6f}" for p in points]
    return data, "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
