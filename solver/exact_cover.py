"""Exact-cover front end: answer an ``ExactCover`` with one of the backends.

``ExactCover`` (``xc_problem``) describes a problem once; ``solve`` / ``iter_solutions`` /
``first_solution`` / ``count_solutions`` / ``optimise`` answer it with the numba dancing-links
backend (``dlx``: the problem compiled once into kernel state, ``ExactCover.compile``, and
reused by every later query), OR-Tools CP-SAT (``cpsat``) or the plain-Python reference
(``reference``, for tests). Small counts in a process without numba run in plain Python
(``xc_small``). numba and OR-Tools are imported only when a query needs them, so importing
this module costs nothing heavy.

Semantics: primary items are covered exactly once, or between ``lo`` and ``hi`` times when
given bounds; secondary items at most once, except that options giving a secondary item the
same colour (> 0) may share it. A solution is a sorted list of option indices.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Iterator

from ..engines import plain_budget, plain_first, requested
from ..errors import SolverError
from .cpsat_xc import cpsat_count, cpsat_optimise, cpsat_solutions
from .parallel import count_parallel
from .xc_problem import KERNELS, CompiledCover, ExactCover, Reduced, _reduce_plain, reduce_multiplicities  # noqa: F401 (re-exported)
from .xc_reference import reference_solutions
from .xc_small import FIRST_NODES, FIRST_NODES_COLD, FIRST_SECONDS, PLAIN_NODES, count_small, first_small, plain_ok

BACKENDS = ("auto", "dlx", "cpsat", "reference")
SEARCH_KERNEL = ("tanglekit.solver.dlx_bitset", "bitset_search")  # what finds one solution of a small problem
QUERIES = ("first", "all", "count", "optimise")


@dataclass
class Result:
    """Answer of ``solve``: solutions (sorted option lists), count, and how it was obtained.

    ``complete`` is False when a limit (solution limit or time limit) stopped the search, so
    ``count`` is then a lower bound. For ``optimise``, ``objective`` holds the best value and
    ``optimal`` says whether CP-SAT proved it.
    """

    query: str
    backend: str
    solutions: list[list[int]] = field(default_factory=list)
    count: int | None = None
    complete: bool = True
    seconds: float = 0.0
    objective: float | None = None
    optimal: bool | None = None


def pick_backend(backend: str, query: str) -> str:
    if backend not in BACKENDS:
        raise SolverError(f"unknown backend {backend!r}: expected one of {', '.join(BACKENDS)}")
    if query not in QUERIES:
        raise SolverError(f"unknown query {query!r}: expected one of {', '.join(QUERIES)}")
    if query == "optimise":
        if backend in ("dlx", "reference"):
            raise SolverError("optimise needs the cpsat backend (or auto)")
        return "cpsat"
    return "dlx" if backend == "auto" else backend


def iter_solutions(
    problem: ExactCover,
    backend: str = "auto",
    limit: int | None = None,
    time_limit: float | None = None,
    workers: int | None = None,
    kernel: str = "auto",
) -> Iterator[list[int]]:
    """Stream solutions (sorted lists of option indices), at most ``limit`` of them.

    ``kernel`` (dlx backend only): "links" (dancing links), "bitset" or "auto" (bitsets for
    small colourless problems, which is faster there).
    """
    backend = pick_backend(backend, "all")
    if limit is not None and limit <= 0:
        return
    if backend == "dlx" and limit == 1 and kernel == "auto":
        found = _first_plain(problem, time_limit)
        if found is not None:
            if found[0] is not None:
                yield found[0]
            return
    if backend == "dlx":
        yield from problem.compile(kernel).solutions(limit, time_limit)
    elif backend == "cpsat":
        yield from cpsat_solutions(problem, limit=limit, time_limit=time_limit, workers=workers)
    else:
        n = 0
        for s in reference_solutions(problem):
            yield s
            n += 1
            if limit is not None and n >= limit:
                return


def first_solution(problem: ExactCover, backend: str = "auto", time_limit: float | None = None,
                   workers: int | None = None, kernel: str = "auto") -> list[int] | None:
    """One solution, or None when there is none."""
    if pick_backend(backend, "first") == "dlx":
        found = _first_plain(problem, time_limit) if kernel == "auto" else None
        if found is not None:
            return found[0]
        return problem.compile(kernel).first(time_limit)
    for s in iter_solutions(problem, backend, 1, time_limit, workers, kernel):
        return s
    return None


_PLAIN_GAVE_UP = False  # a plain first solution ran out of its budget in this process


def _first_plain(problem: ExactCover, time_limit: float | None) -> tuple[list[int] | None, bool] | None:
    """The kernels' first solution found in plain Python (``xc_small.first_small``) when numba is
    not loaded or the search kernel would compile first, within a node budget: (solution or None,
    complete), or None to leave it to the kernel."""
    global _PLAIN_GAVE_UP
    if (_PLAIN_GAVE_UP and requested() != "python") or not plain_first(kernel=SEARCH_KERNEL) or not plain_ok(problem):
        return None
    t0 = time.perf_counter()
    budget = plain_budget(FIRST_NODES, cold=FIRST_NODES_COLD, kernel=SEARCH_KERNEL)
    out = first_small(problem, budget, time_limit, None if budget is None else FIRST_SECONDS)
    if out is None:
        # past the budget once: the kernels from now on in this process (a large problem may go
        # to the dancing-links kernel and leave the bitset one uncompiled, so plain_first would
        # keep saying yes and every later call would lose its budget again)
        _PLAIN_GAVE_UP = True
        if time_limit is not None and time.perf_counter() - t0 >= time_limit:
            return None, False  # the time limit passed too: nothing found in time
    return out


def count_solutions(
    problem: ExactCover,
    backend: str = "auto",
    limit: int | None = None,
    time_limit: float | None = None,
    workers: int | None = None,
    kernel: str = "auto",
    memo: bool = True,
) -> tuple[int, bool]:
    """(number of solutions, complete); complete is False if a limit cut the count short.

    ``memo``: on the bitset kernel, reuse the count below nodes that cover the same items.
    ``workers``: CP-SAT search workers, or for dlx the processes a full count is split over
    (``solver.parallel``; the same count as one process).
    """
    backend = pick_backend(backend, "count")
    if backend == "dlx" and kernel == "auto":
        # a small count in plain Python (no numba, no numpy), the kernel past a node budget
        if plain_first() and plain_ok(problem, limit):
            out = count_small(problem, plain_budget(PLAIN_NODES), time_limit)
            if out is not None:
                return out
    if backend == "dlx":
        c = problem.compile(kernel)
        if (workers is not None and workers > 1 and limit is None and not problem.bounds
                and not c.reduced.infeasible and not c.uses_firstcell(limit)):
            # a first slice of the search in this process; only a count it does not finish
            # is split over a process pool (the pool costs ~0.1 s to start)
            t0 = time.perf_counter()
            n, done = c.count(time_limit=0.0, memo=memo)
            if done:
                return n, True
            left = None if time_limit is None else max(0.0, time_limit - (time.perf_counter() - t0))
            return count_parallel(problem, workers, left, kernel, memo)
        return c.count(limit, time_limit, memo, workers)
    if backend == "cpsat":
        return cpsat_count(problem, limit=limit, time_limit=time_limit, workers=workers)
    n = 0
    for _ in iter_solutions(problem, backend="reference", limit=limit):
        n += 1
    return n, limit is None or n < limit


def optimise(
    problem: ExactCover,
    objective: str = "weight",
    exact: bool = False,
    time_limit: float | None = 10.0,
    workers: int | None = None,
) -> Result:
    """Best set of options by CP-SAT: maximise total weight, or the number of primary items
    covered (``objective="items"``). Unless ``exact``, primary items become at-most-once so a
    best partial cover exists even when no exact cover does.
    """
    t0 = time.perf_counter()
    sol, value, optimal = cpsat_optimise(problem, objective, exact, time_limit, workers)
    return Result(
        "optimise", "cpsat", [sol] if sol is not None else [], 1 if sol is not None else 0,
        True, time.perf_counter() - t0, value, optimal,
    )


def solve(
    problem: ExactCover,
    query: str = "first",
    backend: str = "auto",
    limit: int | None = None,
    time_limit: float | None = None,
    workers: int | None = None,
    objective: str = "weight",
) -> Result:
    """Answer one query (first / all / count / optimise) and time it."""
    chosen = pick_backend(backend, query)
    t0 = time.perf_counter()
    if query == "optimise":
        return optimise(problem, objective, time_limit=time_limit, workers=workers)
    if query == "count":
        n, complete = count_solutions(problem, chosen, limit, time_limit, workers)
        return Result(query, chosen, [], n, complete, time.perf_counter() - t0)
    lim = 1 if query == "first" else limit
    sols = list(iter_solutions(problem, chosen, lim, time_limit, workers))
    complete = query == "first" or lim is None or len(sols) < lim
    if time_limit is not None and time.perf_counter() - t0 > time_limit:
        complete = False
    return Result(query, chosen, sols, len(sols), complete, time.perf_counter() - t0)


__all__ = ["BACKENDS", "KERNELS", "QUERIES", "CompiledCover", "ExactCover", "Reduced", "Result", "count_solutions",
           "first_solution", "iter_solutions", "optimise", "pick_backend", "reduce_multiplicities", "solve"]
