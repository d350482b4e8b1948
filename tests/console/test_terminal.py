"""The terminal reader on real file descriptors: lines, end of input, and Ctrl-C at once."""

from __future__ import annotations

import asyncio
import io
import os
import signal
from pathlib import Path

from adapters.console.terminal import Terminal


async def test_lines_of_a_pipe_then_none_at_its_end() -> None:
    read, write = os.pipe()
    out = io.StringIO()
    try:
        async with Terminal(read, out) as terminal:
            os.write(write, "roll\nз четвёрки\r\nlast".encode())
            os.close(write)
            answers = [await terminal.ask(f"{n}> ") for n in range(4)]
    finally:
        os.close(read)
    assert answers == ["roll", "з четвёрки", "last", None]
    assert out.getvalue() == "0> 1> 2> 3> \n"  # after the end, what follows starts a line


async def test_a_line_that_arrives_in_pieces_is_one_line_even_mid_letter() -> None:
    read, write = os.pipe()
    try:
        async with Terminal(read, io.StringIO()) as terminal:
            pending = asyncio.ensure_future(terminal.ask("> "))
            line = "Алёна\n".encode()
            os.write(write, line[:5])  # "Ал" and half of "ё"
            await asyncio.sleep(0.05)
            assert not pending.done()
            os.write(write, line[5:])
            assert await asyncio.wait_for(pending, 5) == "Алёна"
    finally:
        os.close(read)
        os.close(write)


async def test_sigint_ends_a_wait_at_once_and_every_later_one() -> None:
    read, write = os.pipe()  # open, and nothing is ever written: a player who is thinking
    try:
        async with Terminal(read, io.StringIO()) as terminal:
            pending = asyncio.ensure_future(terminal.ask("> "))
            await asyncio.sleep(0.05)
            os.kill(os.getpid(), signal.SIGINT)
            assert await asyncio.wait_for(pending, 5) is None
            assert terminal.stopped.is_set()
            assert await asyncio.wait_for(terminal.ask("> "), 5) is None
        # Leaving gave SIGINT back: Python's own handler again.
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    finally:
        os.close(read)
        os.close(write)


async def test_a_regular_file_is_read_too(tmp_path: Path) -> None:
    """`python -m bot < moves.txt`: a file the event loop cannot watch."""
    moves = tmp_path / "moves.txt"
    moves.write_text("Ann\nr\n", encoding="utf-8")
    with moves.open("rb") as file:
        async with Terminal(file.fileno(), io.StringIO()) as terminal:
            answers = [await terminal.ask("> ") for _ in range(3)]
    assert answers == ["Ann", "r", None]
