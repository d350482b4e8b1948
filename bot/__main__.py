"""`python -m bot`: the chat front ends when tokens are set, otherwise the console game; with
a tool's name first (`python -m bot ratings --rebuild`), that tool (bot/tools.py)."""

from __future__ import annotations

import asyncio
import logging
import sys

if __name__ == "__main__":
    if sys.argv[1:] and not sys.argv[1].startswith("-"):
        from bot.tools import main as tool

        sys.exit(asyncio.run(tool(sys.argv[1:])))
    from bot.app import main

    try:
        sys.exit(asyncio.run(main()))
    except KeyboardInterrupt:
        logging.getLogger("bot").info("stopped")
