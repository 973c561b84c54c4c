"""Limits that mean what they say: time limits, node limits, counts, sizes and worker counts.

One set of checks for every command and library entry point: a negative, NaN or infinite limit
is a ``UsageError`` (exit 2), ``0`` means "stop at once" (answer unknown, ``complete: false``),
``None`` means no limit. A ``Deadline`` is made when a command starts, so the time spent in
set-up counts against the limit too.
"""

from __future__ import annotations

import math
import os
import time
from dataclasses import dataclass, field

from .errors import TanglekitError


class UsageError(TanglekitError):
    """A command-line value out of range (negative limit, NaN, too large a request)."""


class LimitReached(TanglekitError):
    """Raised inside set-up or search code when its deadline or budget is spent; callers turn it
    into an answer with ``complete: false`` rather than an error."""


def check_number(name: str, value, *, minimum: float = 0, maximum: float | None = None,
                 integer: bool = False, allow_none: bool = True):
    """``value`` if it is a finite number in [minimum, maximum] (and whole if ``integer``)."""
    if value is None:
        if allow_none:
            return None
        raise UsageError(f"{name} is required")
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise UsageError(f"{name} must be a number, not {type(value).__name__}")
    if isinstance(value, float) and not math.isfinite(value):
        raise UsageError(f"{name} must be a finite number, not {value}")
    if integer and int(value) != value:
        raise UsageError(f"{name} must be a whole number, not {value}")
    if value < minimum:
        raise UsageError(f"{name} must be at least {_num(minimum)}, not {_num(value)}" if abs(value) < 1e15
                         else f"{name} must be at least {_num(minimum)}")
    if maximum is not None and value > maximum:
        raise UsageError(f"{name} must be at most {_num(maximum)}" + (f", not {_num(value)}" if abs(value) < 1e15 else ""))
    return int(value) if integer else value


def _num(v) -> str:
    """A bound as people write it: whole numbers in full with thousands separators (1,000,000)."""
    return f"{int(v):,}" if float(v).is_integer() and abs(v) < 1e18 else f"{v:g}"


def check_time_limit(value, name: str = "--time-limit"):
    """Seconds (``None`` = no limit, ``0`` = stop at once); at most a year."""
    return check_number(name, value, maximum=365 * 24 * 3600.0)


def check_count(value, name: str, *, minimum: int = 1, maximum: int | None = None, allow_none: bool = False):
    """A whole count in [minimum, maximum] (e.g. ``--count``, ``--games``, ``--deals``)."""
    return check_number(name, value, minimum=minimum, maximum=maximum, integer=True, allow_none=allow_none)


def cpu_count() -> int:
    """CPUs this process may use (the affinity mask where the OS has one)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def check_workers(value, work_items: int | None = None, name: str = "--workers") -> int:
    """Worker processes: ``None``/``0`` = every CPU; never more than the CPUs or the work items."""
    if value is None or value == 0:
        value = cpu_count()
    n = check_count(value, name, maximum=4096)
    n = min(n, cpu_count())
    if work_items is not None:
        n = min(n, max(1, int(work_items)))
    return n


@dataclass
class Deadline:
    """A wall-clock deadline started at creation; ``seconds=None`` never expires, ``0`` is
    already expired. Pass it down instead of a number so set-up and search share one budget."""

    seconds: float | None = None
    start: float = field(default_factory=time.perf_counter)

    def __post_init__(self):
        self.seconds = check_time_limit(self.seconds)

    def elapsed(self) -> float:
        return time.perf_counter() - self.start

    def remaining(self) -> float | None:
        """Seconds left (never negative), or None without a limit."""
        if self.seconds is None:
            return None
        return max(0.0, self.seconds - self.elapsed())

    def expired(self) -> bool:
        return self.seconds is not None and self.elapsed() >= self.seconds

    def check(self, what: str = "search") -> None:
        """Raise ``LimitReached`` once the deadline has passed (call between set-up steps)."""
        if self.expired():
            raise LimitReached(f"time limit of {self.seconds:g} s reached during {what}")


def as_deadline(limit) -> Deadline:
    """A Deadline from a Deadline, a number of seconds or None."""
    return limit if isinstance(limit, Deadline) else Deadline(limit)
