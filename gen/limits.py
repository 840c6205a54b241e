# SPDX-License-Identifier: MIT
"""How much work one compilation may do: states, memory, time.

A grammar can ask for more than any machine has (`a = 100000000"x"`, or
repetitions inside repetitions). The compiler checks its budget as the
automata grow and stops with FILE:LINE:COL naming the rule, and the counted
repetition in it, that made them grow, instead of running for hours or
until the kernel kills it.
"""

import resource
import sys
import time

DEFAULT_STATES = 1_000_000   # of the NFA or of any DFA: `a = 100000"x"` needs ~200 000
DEFAULT_MEMORY_MB = 2048     # peak resident size of the generator
DEFAULT_SECONDS = 300

CHECK_EVERY = 1024           # states (or steps) between time and memory checks


def _peak_mb():
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1 << 20) if sys.platform == "darwin" else peak / 1024  # bytes / KiB


class Budget:
    """The limits of one compilation, with the clock started at creation.
    A limit of 0 is no limit."""

    def __init__(self, states=DEFAULT_STATES, memory_mb=DEFAULT_MEMORY_MB,
                 seconds=DEFAULT_SECONDS):
        self.states, self.memory_mb, self.seconds = states, memory_mb, seconds
        self.t0 = time.monotonic()
        self.steps = 0

    def count(self, n, what, blame):
        """n states of `what` exist now; blame() gives (rule name, Pos) to
        name in the error. Checks time and memory every CHECK_EVERY calls."""
        if self.states and n > self.states:
            self._fail(blame, f"{what} passed {self.states} states (--max-states)")
        self.tick(blame)

    def tick(self, blame):
        self.steps += 1
        if self.steps % CHECK_EVERY:
            return
        if self.seconds and time.monotonic() - self.t0 > self.seconds:
            self._fail(blame, f"compiling took more than {self.seconds} s (--max-seconds)")
        if self.memory_mb and _peak_mb() > self.memory_mb:
            self._fail(blame, f"compiling used more than {self.memory_mb} MB of memory "
                              "(--max-memory)")

    @staticmethod
    def _fail(blame, what):
        name, pos, copies = blame()
        here = f"; the repetition here makes {copies} copies" if copies > 1 else ""
        raise pos.error(f"rule {name!r} is too big to compile: {what}{here}")
