"""The terminal front end: hot-seat play for 1…N players, the zero-token way to play."""

from adapters.console.app import run_console

__all__ = ["run_console"]
