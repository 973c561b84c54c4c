"""Worker processes that cannot hang the caller: every pool of the package starts here.

- **Start method**: ``fork`` only while this process runs no other Python thread (a thread that
  holds a lock at the moment of the fork leaves that lock held for ever in the child: a web
  server, a progress bar, a test runner's timer); ``forkserver`` otherwise, whose workers start
  from a clean single-threaded server (tasks and their functions must then be picklable).
- **Deadline**: results are awaited against a deadline; past it the workers are killed and
  :class:`PoolTimeout` is raised (a ``LimitReached``).
- **Dead workers**: a worker that dies (killed, out of memory, a crash in a kernel) breaks the
  pool at once (``concurrent.futures`` notices; ``multiprocessing.Pool`` waited for ever): a
  one-line ``SolverError``.
- **Early answers and Ctrl-C**: leaving the ``with`` block (a decisive result, an exception,
  KeyboardInterrupt) kills the workers still running instead of waiting for them.
"""

from __future__ import annotations

import multiprocessing as mp
import threading
import time
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Callable, Iterable, Iterator

from .errors import SolverError
from .limits import LimitReached

__all__ = ["PoolTimeout", "WorkerPool", "start_method", "stop_workers"]


class PoolTimeout(LimitReached):
    """The workers did not finish before the deadline (they were stopped)."""


def start_method() -> str:
    """``fork`` when this process runs no other Python thread, else ``forkserver`` (or ``spawn``
    where there is no forkserver)."""
    methods = mp.get_all_start_methods()
    if "fork" in methods and threading.active_count() == 1:
        return "fork"
    return "forkserver" if "forkserver" in methods else "spawn"


def stop_workers(pool: ProcessPoolExecutor) -> None:
    """Kill the worker processes of ``pool`` and shut it down without waiting for their tasks
    (``ProcessPoolExecutor`` has no ``terminate()``: its processes are stopped directly)."""
    procs = list((getattr(pool, "_processes", None) or {}).values())
    for p in procs:
        if p.is_alive():
            p.kill()
    pool.shutdown(wait=False, cancel_futures=True)
    for p in procs:
        p.join(5)


class WorkerPool:
    """``with WorkerPool(workers, deadline) as pool: for result in pool.map_unordered(fn, tasks)``.

    ``deadline`` is a ``time.monotonic()`` value or None; ``initializer`` runs in each worker."""

    def __init__(self, workers: int, deadline: float | None = None,
                 initializer: Callable[..., Any] | None = None, initargs: tuple = ()):
        self.deadline = deadline
        self.method = start_method()
        self._pool = ProcessPoolExecutor(max_workers=max(1, workers), mp_context=mp.get_context(self.method),
                                         initializer=initializer, initargs=initargs)

    def __enter__(self) -> "WorkerPool":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close(kill=True)

    def close(self, kill: bool = False) -> None:
        """Shut the pool down; with ``kill`` the workers still running are stopped first."""
        if not kill:
            self._pool.shutdown(wait=True, cancel_futures=True)
            return
        stop_workers(self._pool)

    def map_unordered(self, fn: Callable[[Any], Any], tasks: Iterable[Any]) -> Iterator[Any]:
        """``fn(task)`` for every task in worker processes, each result as soon as it is ready."""
        try:
            pending: set[Future] = {self._pool.submit(fn, t) for t in tasks}
        except BrokenProcessPool:
            raise SolverError("a worker process died before it started (out of memory?)") from None
        while pending:
            left = None if self.deadline is None else self.deadline - time.monotonic()
            if left is not None and left <= 0:
                raise PoolTimeout("the worker processes did not finish in time")
            done, pending = wait(pending, timeout=left, return_when=FIRST_COMPLETED)
            for f in done:
                try:
                    yield f.result()
                except BrokenProcessPool:
                    raise SolverError("a worker process died (killed or out of memory); no result") from None
