"""Exact-cover counts over a process pool: the search's top levels become independent subproblems.

Forcing one option of the item with the fewest options splits a problem into disjoint parts
whose counts add up to the whole (every solution uses exactly one option of that item). The
parts are split again until there are several per worker, then counted by the ordinary
single-process kernels in a pool; the sum equals the one-worker count.
"""

from __future__ import annotations

import os
import time

from .xc_problem import ExactCover


def force_option(problem: ExactCover, o: int) -> tuple[ExactCover, int]:
    """The subproblem left after choosing option ``o`` and the factor its count is multiplied by.

    ``o``'s items are removed and clashing options dropped. A secondary item that ``o`` gives
    colour c stays usable by options giving it the same colour; those options lose this item.
    An option left with no item at all may be taken or not: each such option doubles the count.
    """
    chosen = problem.options[o]
    taken = {i: c for i, c in zip(chosen, problem.colours[o])}
    keep_opts = []
    free = 0
    for q, (opt, col) in enumerate(zip(problem.options, problem.colours)):
        if q == o:
            continue
        ok = True
        items, cols = [], []
        for i, c in zip(opt, col):
            if i in taken:
                if i < problem.n_primary or c == 0 or c != taken[i]:
                    ok = False
                    break
                continue  # same colour on a secondary item: compatible, item no longer needed
            items.append(i)
            cols.append(c)
        if ok:
            if items:
                keep_opts.append((items, cols))
            else:
                free += 1
    prim = [i for i in range(problem.n_primary) if i not in taken]
    sec = [i for i in range(problem.n_primary, problem.n_items) if i not in taken]
    index = {old: new for new, old in enumerate(prim + sec)}
    opts = [tuple(index[i] for i in items) for items, _ in keep_opts]
    sub = ExactCover(len(prim), len(sec), opts, [tuple(c) for _, c in keep_opts])
    if problem.cell_graph is not None:  # the uncovered cells keep their order: cells 0.. first
        sub.cell_graph = _cell_subgraph(problem.cell_graph, index)
    return sub, 1 << free


def _cell_subgraph(graph, index: dict[int, int]):
    """The cell graph (n_cells, ptr, idx) on the cells kept by ``index`` (old -> new item)."""
    import numpy as np  # only tilings split with a cell graph need it (start-up)

    n_cells, ptr, idx = graph
    kept = [c for c in range(n_cells) if c in index]
    nbrs = [[index[b] for b in idx[ptr[c]:ptr[c + 1]].tolist() if b in index] for c in kept]
    new_ptr = np.zeros(len(kept) + 1, dtype=np.int64)
    new_ptr[1:] = np.cumsum([len(b) for b in nbrs])
    return len(kept), new_ptr, np.array([b for bs in nbrs for b in bs], dtype=np.int64)


def _branch_options(problem: ExactCover) -> list[int] | None:
    """The options of the primary item with the fewest options (None without primaries)."""
    if problem.n_primary == 0:
        return None
    by_item: list[list[int]] = [[] for _ in range(problem.n_primary)]
    for o, opt in enumerate(problem.options):
        for i in opt:
            if i < problem.n_primary:
                by_item[i].append(o)
    return min(by_item, key=len)


def split_problem(problem: ExactCover, min_parts: int, max_rounds: int = 4) -> list[tuple[ExactCover, int]]:
    """Disjoint (subproblem, factor) parts: the problem's count is the sum of factor x count."""
    parts = [(problem, 1)]
    for _ in range(max_rounds):
        if len(parts) >= min_parts:
            break
        nxt: list[tuple[ExactCover, int]] = []
        for k, (p, f) in enumerate(sorted(parts, key=lambda q: -q[0].n_options)):
            br = None if len(nxt) + len(parts) - k >= 4 * min_parts else _branch_options(p)
            if br is None:
                nxt.append((p, f))
                continue
            for o in br:
                sub, g = force_option(p, o)
                nxt.append((sub, f * g))
        parts = nxt
    return parts


def _count_part(args) -> tuple[int, bool]:
    problem, factor, t_end, kernel, memo = args
    left = None
    if t_end is not None:
        left = t_end - time.perf_counter()  # a monotonic clock shared by forked workers
        if left <= 0:
            return 0, False
    n, complete = problem.compile(kernel).count(None, left, memo)
    return n * factor, complete


def default_workers() -> int:
    """Worker processes to use by default: the CPUs this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def count_parallel(problem: ExactCover, workers: int, time_limit: float | None = None,
                   kernel: str = "auto", memo: bool = True) -> tuple[int, bool]:
    """(count, complete) of an XCC problem without multiplicity bounds, over ``workers``
    processes. Equal to ``count_solutions(problem, "dlx")``; a time limit applies to the whole."""
    from ..pools import PoolTimeout, WorkerPool  # the pool's modules load only for a pooled count (start-up)

    t_end = None if time_limit is None else time.perf_counter() + time_limit
    parts = split_problem(problem, 8 * workers)
    if t_end is not None and time.perf_counter() >= t_end:
        return 0, False
    total, complete = 0, True
    # largest parts first, so the pool does not end waiting on one big part
    order = sorted(parts, key=lambda q: -q[0].n_options)
    # the pool's own deadline: the parts' (a few seconds later), for a part that cannot stop
    deadline = None if t_end is None else time.monotonic() + (t_end - time.perf_counter()) + 5.0
    try:
        with WorkerPool(min(workers, len(parts)), deadline) as pool:
            for n, ok in pool.map_unordered(_count_part, [(p, f, t_end, kernel, memo) for p, f in order]):
                total += n
                complete = complete and ok
    except PoolTimeout:
        return total, False
    return total, complete


__all__ = ["count_parallel", "default_workers", "force_option", "split_problem"]
