"""`python -m bot`: the chat front ends when tokens are set, otherwise the console game."""

from __future__ import annotations

import asyncio
import logging
import sys

from bot.app import main

if __name__ == "__main__":
    try:
        sys.exit(asyncio.run(main()))
    except KeyboardInterrupt:
        logging.getLogger("bot").info("stopped")
