"""CP-SAT solves that Ctrl-C stops at once: ``Solve`` runs in a helper thread while the main thread
waits, so the interrupt reaches Python at once, asks the solver to stop (``StopSearch``), waits
for it and is raised again. (CP-SAT's own SIGINT handler stopped only the current search, which
a retry loop then started again: ``zinga sheets generate`` went on 25 s after Ctrl-C.)"""

from __future__ import annotations

import threading
from typing import Any

#: seconds between the main thread's checks for an interrupt while the solver runs
POLL = 0.05


def solve(solver: Any, model: Any, callback: Any = None) -> int:
    """``solver.Solve(model[, callback])``, stopped by Ctrl-C (KeyboardInterrupt is raised again
    once the solver has stopped); the status as Solve returns it."""
    out: dict[str, Any] = {}
    done = threading.Event()
    # CP-SAT's own SIGINT handler would swallow Ctrl-C (it stops this search only, and a caller's
    # retry loop searches again): Python takes the signal and stops the search itself
    solver.parameters.catch_sigint_signal = False

    def run() -> None:
        try:
            out["status"] = solver.Solve(model) if callback is None else solver.Solve(model, callback)
        except BaseException as e:  # noqa: BLE001 - handed to the waiting thread
            out["error"] = e
        finally:
            done.set()

    # waited for with an Event, not Thread.join(timeout): an interrupted join can mark a running
    # thread as finished (CPython before 3.13), and the process would then exit under the solver
    threading.Thread(target=run, name="tanglekit-cpsat", daemon=True).start()
    try:
        while not done.wait(POLL):
            pass
    except KeyboardInterrupt:
        while True:
            solver.StopSearch()
            try:
                while not done.wait(POLL):
                    pass
                break
            except KeyboardInterrupt:  # pressed again: keep stopping, then raise once
                continue
        raise
    if "error" in out:
        raise out["error"]
    return out["status"]
