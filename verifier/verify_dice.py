#!/usr/bin/env python3
"""Check a General game's dice without trusting the bot: python3 verify_dice.py game.json

The file is what `python -m bot export GAME` writes. Only Python's standard library is used;
DICE.md (beside this folder) defines the dice this recomputes. Exit 0 when every throw is the
seed's, 1 naming the first that is not (or when the seed is not the one committed to)."""

import hashlib
import hmac
import json
import sys

SCHEME = "general-hmac-sha256-v1"


def face(key: bytes, stage: str, round_: int, seat: int, throw: int, die: int) -> int:
    """The first byte below 252 of HMAC-SHA256(seed, "stage round seat throw die attempt"),
    mod 6, plus 1; a block of only rejected bytes moves on to the next attempt."""
    attempt = 0
    while True:
        message = f"{stage} {round_} {seat} {throw} {die} {attempt}".encode()
        for byte in hmac.new(key, message, hashlib.sha256).digest():
            if byte < 252:
                return byte % 6 + 1
        attempt += 1


def check(game: dict) -> tuple[bool, str]:
    if game.get("scheme") != SCHEME:
        return False, f"unknown scheme {game.get('scheme')!r}: this checks {SCHEME}"
    key = bytes.fromhex(game["seed"])
    if hashlib.sha256(key).hexdigest() != game["commitment"]:
        return False, "the seed revealed is not the one committed to: its SHA-256 differs"
    before, seen = None, set()
    for number, t in enumerate(game["throws"], 1):
        turn = (t["stage"], t["round"], t["seat"])
        follows = before is not None and t["stage"] == "turn" and before[0] == turn
        if t["throw"] != (before[1] + 1 if follows else 1) or (not follows and turn in seen):
            return False, f"throw {number} ({describe(t)}) is out of order"
        seen.add(turn)
        expected = [
            (before[2][die] if follows else 0)
            if t["held"][die]
            else face(key, t["stage"], t["round"], t["seat"], t["throw"], die)
            for die in range(5)
        ]
        if expected != t["dice"]:
            shown = "-".join(map(str, t["dice"]))
            wanted = "-".join(map(str, expected))
            return False, f"throw {number} ({describe(t)}) shows {shown}; the seed gives {wanted}"
        before = (turn, t["throw"], t["dice"])
    return True, f"all {len(game['throws'])} throws match the seed committed to"


def describe(t: dict) -> str:
    if t["stage"] == "lot":
        return f"the lot, round {t['round']}, {t['player']}"
    return f"round {t['round']}, {t['player']}, throw {t['throw']}"


def main() -> int:
    if len(sys.argv) != 2:
        print("usage: verify_dice.py GAME.json  (made by: python -m bot export GAME)")
        return 2
    with open(sys.argv[1], encoding="utf-8") as file:
        ok, said = check(json.load(file))
    print(said)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
