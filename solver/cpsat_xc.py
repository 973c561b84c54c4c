"""OR-Tools CP-SAT backend for ExactCover: one boolean per option, a linear bound per item.

Enumeration uses a solution callback with ``enumerate_all_solutions``; optimisation relaxes
primary items to at-most-once (unless asked for exact) and maximises weight or items covered.
OR-Tools is imported only inside these functions.
"""

from __future__ import annotations

import queue
import threading
from typing import Iterator

from ..errors import SolverError
from .xc_problem import ExactCover


def build_model(problem: ExactCover, relax: bool = False):
    """CP-SAT model and its option variables; ``relax`` makes primary lower bounds 0."""
    from ortools.sat.python import cp_model  # OR-Tools loads only when CP-SAT runs (start-up)

    model = cp_model.CpModel()
    xs = [model.NewBoolVar(f"o{o}") for o in range(problem.n_options)]
    by_item: list[list[tuple[int, int]]] = [[] for _ in range(problem.n_items)]
    for o, (t, c) in enumerate(zip(problem.options, problem.colours)):
        for i, ci in zip(t, c):
            by_item[i].append((o, ci))
    for i in range(problem.n_items):
        entries = by_item[i]
        if i < problem.n_primary:
            lo, hi = problem.bound(i)
            if relax:
                lo = 0
            if hi is None:
                hi = len(entries)
            if lo > len(entries) or lo > hi:
                model.AddBoolOr([])  # infeasible
                continue
            terms = [xs[o] for o, _ in entries]
            if lo == hi == 1:
                model.AddExactlyOne(terms)
            elif lo == 0 and hi == 1:
                model.AddAtMostOne(terms)
            elif terms:
                model.AddLinearConstraint(sum(terms), lo, hi)
            continue
        plain = [xs[o] for o, c in entries if c == 0]
        by_colour: dict[int, list] = {}
        for o, c in entries:
            if c:
                by_colour.setdefault(c, []).append(xs[o])
        uses = list(plain)
        for c, vs in by_colour.items():
            if len(by_colour) == 1 and not plain:
                break  # one colour only and nothing exclusive: always compatible
            y = model.NewBoolVar(f"i{i}c{c}")
            for v in vs:
                model.AddImplication(v, y)
            model.AddBoolOr(vs).OnlyEnforceIf(y)  # y is exactly "some option uses colour c"
            uses.append(y)
        if len(uses) > 1:
            model.AddAtMostOne(uses)
    return model, xs


def _solver(time_limit: float | None, workers: int | None):
    from ortools.sat.python import cp_model  # OR-Tools loads only when CP-SAT runs (start-up)

    s = cp_model.CpSolver()
    if time_limit is not None:
        s.parameters.max_time_in_seconds = float(time_limit)
    if workers is not None:
        s.parameters.num_workers = int(workers)
    return s


def cpsat_solutions(
    problem: ExactCover,
    limit: int | None = None,
    time_limit: float | None = None,
    workers: int | None = None,
) -> Iterator[list[int]]:
    """Stream solutions through a solution callback running in a worker thread."""
    from ortools.sat.python import cp_model  # OR-Tools loads only when CP-SAT runs (start-up)

    if limit is not None and limit <= 0:
        return
    model, xs = build_model(problem)
    solver = _solver(time_limit, None)
    solver.parameters.enumerate_all_solutions = True
    # enumeration requires a single worker in CP-SAT
    solver.parameters.num_workers = 1
    q: queue.Queue = queue.Queue(maxsize=1024)
    stop = threading.Event()

    class Collector(cp_model.CpSolverSolutionCallback):
        def __init__(self):
            super().__init__()
            self.n = 0

        def on_solution_callback(self):
            sol = [o for o, v in enumerate(xs) if self.BooleanValue(v)]
            while True:
                if stop.is_set():
                    self.StopSearch()
                    return
                try:
                    q.put(sol, timeout=0.1)
                    break
                except queue.Full:
                    continue
            self.n += 1
            if limit is not None and self.n >= limit:
                self.StopSearch()

    def work():
        try:
            solver.Solve(model, Collector())
        finally:
            q.put(None)

    th = threading.Thread(target=work, daemon=True)
    th.start()
    try:
        while True:
            item = q.get()
            if item is None:
                break
            yield item
    finally:
        stop.set()
        solver.stop_search()
        while th.is_alive():
            try:
                q.get(timeout=0.05)
            except queue.Empty:
                pass
        th.join()


def cpsat_count(
    problem: ExactCover,
    limit: int | None = None,
    time_limit: float | None = None,
    workers: int | None = None,
) -> tuple[int, bool]:
    """Count by enumeration; (count, complete) where complete means the search finished."""
    from ortools.sat.python import cp_model  # OR-Tools loads only when CP-SAT runs (start-up)

    model, xs = build_model(problem)
    solver = _solver(time_limit, None)
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1

    class Counter(cp_model.CpSolverSolutionCallback):
        def __init__(self):
            super().__init__()
            self.n = 0

        def on_solution_callback(self):
            self.n += 1
            if limit is not None and self.n >= limit:
                self.StopSearch()

    cb = Counter()
    status = solver.Solve(model, cb)
    complete = status in (cp_model.OPTIMAL, cp_model.INFEASIBLE) and (
        limit is None or cb.n < limit
    )
    return cb.n, complete


def cpsat_optimise(
    problem: ExactCover,
    objective: str = "weight",
    exact: bool = False,
    time_limit: float | None = 10.0,
    workers: int | None = None,
) -> tuple[list[int] | None, float | None, bool]:
    """(best solution, its objective value, proved optimal)."""
    from ortools.sat.python import cp_model  # OR-Tools loads only when CP-SAT runs (start-up)

    if objective not in ("weight", "items"):
        raise SolverError(f"unknown objective {objective!r}: expected weight or items")
    model, xs = build_model(problem, relax=not exact)
    if objective == "items" or problem.weights is None:
        coef = [sum(1 for i in t if i < problem.n_primary) for t in problem.options]
        model.Maximize(sum(c * x for c, x in zip(coef, xs)))
        scale = 1.0
    else:
        # CP-SAT wants integers: scale weights to 1e-6 resolution
        scale = 1e6
        model.Maximize(sum(int(round(w * scale)) * x for w, x in zip(problem.weights, xs)))
    solver = _solver(time_limit, workers)
    status = solver.Solve(model)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None, None, status == cp_model.INFEASIBLE
    sol = [o for o, v in enumerate(xs) if solver.BooleanValue(v)]
    return sol, problem.weight(sol) if objective == "weight" else float(
        sum(sum(1 for i in problem.options[o] if i < problem.n_primary) for o in sol)
    ), status == cp_model.OPTIMAL
