"""Frozen copies of core/strategy.py, core/simulation.py and core/distribution.py as they were at
commit d9039ab, before the faster solve of issue 20 (only their imports of each other point
here). They exist for two things only: bench.solve times them beside today's code in one run, and
tests/core/test_solve_equal.py checks that today's tables equal theirs. The bot never imports
them."""
