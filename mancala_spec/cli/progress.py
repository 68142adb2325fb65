"""A one-line progress bar for long commands (``solve``)."""
from __future__ import annotations

import sys
import time
from typing import TextIO


class ProgressBar:
    """A one-line progress bar on *stream* (stderr by default), redrawn in place.

    Call it with (phase, done, total); *total* ``None`` means not known yet,
    shown as a block sweeping to and fro. On a stream that is not a terminal it
    writes one line as each phase ends instead.
    """

    def __init__(self, stream: TextIO | None = None, width: int = 30,
                 every: float = 0.1) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.width = width
        self.every = every
        self.live = bool(getattr(self.stream, "isatty", lambda: False)())
        self.phase: str | None = None
        self.last = 0.0
        self.ticks = 0
        self.shown = ""

    def __call__(self, phase: str, done: int, total: int | None) -> None:
        if phase != self.phase:
            self._end_phase()
            self.phase = phase
        finished = total is not None and done >= total
        now = time.monotonic()
        if not finished and now - self.last < self.every:
            return
        self.last = now
        self.shown = self._line(phase, done, total)
        if self.live:
            self.stream.write("\r" + self.shown)
            self.stream.flush()

    def _line(self, phase: str, done: int, total: int | None) -> str:
        if total:
            filled = round(self.width * min(done, total) / total)
            bar = "#" * filled + "-" * (self.width - filled)
            return f"{phase:<12} [{bar}] {100 * done / total:5.1f}%  {done:,}/{total:,}"
        self.ticks += 1
        at = self.ticks % (2 * self.width - 6)
        at = at if at < self.width - 3 else 2 * self.width - 6 - at
        bar = "-" * at + "###" + "-" * (self.width - 3 - at)
        return f"{phase:<12} [{bar}]  {done:,}"

    def _end_phase(self) -> None:
        if self.phase is None:
            return
        self.stream.write(("\r" if self.live else "") + self.shown + "\n")
        self.stream.flush()
        self.phase = None

    def close(self) -> None:
        """End the bar's last line."""
        self._end_phase()
