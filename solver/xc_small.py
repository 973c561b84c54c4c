"""Exact-cover counting in plain Python for small problems: a count without numba or numpy.

A single ``tanglekit tile --count`` of a small region would spend most of its time loading the
dancing-links kernel (numba and numpy: about 0.5 s of CPU) for a search of a few milliseconds.
``count_small`` answers such counts here: Knuth's Algorithm X on bitmasks (the options as
integers over the items), branching on the first uncovered primary item in the problem's item
order (tilings: cells along the region's short side), with a memo of the count below each set
of covered items (the completions depend on nothing else). Counts are exact, so they equal the
kernels' (``tests/test_xc_small.py`` compares them on random tilings and random problems).

It takes plain problems only: primary items covered once (no bounds), secondary items at most
once (no colours), a primary item in every option, no solution limit. It gives up (returns
None) past ``max_nodes`` search nodes, so the caller can hand a count that turns out large to
the kernels having lost only that budget.

``first_small`` finds one solution of such a problem: the kernels' first (Algorithm C's order:
the first primary item with the fewest live options, its options in index order), so a tiling
picture drawn before the kernels are compiled is the one drawn after (``tests/test_xc_small.py``
compares them). The live options are one Python integer used as a bitset, as in the bitset
kernel, so a node costs a few microseconds per primary item.
"""

from __future__ import annotations

import sys
import time

from .xc_problem import ExactCover

PLAIN_NODES = 3_000  # search nodes a plain count may take (about 30 ms of CPU) before the kernel takes over
PLAIN_OPTIONS = 20_000  # larger problems go to the kernel at once
FIRST_NODES = 2_000  # search nodes a plain first solution may take while numba is not loaded yet
FIRST_NODES_COLD = 40_000  # ... when the kernel would compile first (well under its compile on a small problem)
FIRST_SECONDS = 1.0  # and at most this long (a node of a large problem costs more)


def plain_ok(problem: ExactCover, limit: int | None = None) -> bool:
    """Whether ``count_small`` can count this problem (its form and size, not its search)."""
    if limit is not None or problem.bounds or problem.n_options > PLAIN_OPTIONS or problem.has_colours:
        return False
    n_p = problem.n_primary
    return all(any(i < n_p for i in t) for t in problem.options)


def count_small(problem: ExactCover, max_nodes: int | None = PLAIN_NODES,
                time_limit: float | None = None) -> tuple[int, bool] | None:
    """(number of solutions, complete) of a plain problem (``plain_ok``), or None when the
    search needs more than ``max_nodes`` nodes. Past ``time_limit`` seconds the count found so
    far is returned with ``complete`` False (a lower bound, as the kernels give)."""
    n_p = problem.n_primary
    if n_p == 0:
        return (1, True) if not problem.options else None
    order = [i for i in (problem.item_order or range(n_p)) if i < n_p]
    by_item: list[list[int]] = [[] for _ in range(n_p)]
    for t in problem.options:
        m = 0
        for i in t:
            m |= 1 << i
        for i in t:
            if i < n_p:
                by_item[i].append(m)
    if any(not lst for lst in by_item):
        return 0, True  # an item no option covers
    full = (1 << n_p) - 1
    memo: dict[int, int] = {}
    state = [0, False]  # nodes, stopped by the time limit
    t_end = None if time_limit is None else time.perf_counter() + time_limit

    class _Budget(Exception):
        pass

    def count(used: int, start: int) -> int:
        if used & full == full:
            return 1
        hit = memo.get(used)
        if hit is not None:
            return hit
        state[0] += 1
        if max_nodes is not None and state[0] > max_nodes:
            raise _Budget
        if t_end is not None and not state[0] & 1023 and time.perf_counter() > t_end:
            state[1] = True
        if state[1]:
            return 0
        while used >> order[start] & 1:
            start += 1
        total = 0
        for m in by_item[order[start]]:
            if not m & used:
                total += count(used | m, start + 1)
        if not state[1]:
            memo[used] = total
        return total

    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 2 * n_p + 1000))
    try:
        n = count(0, 0)
    except _Budget:
        return None
    finally:
        sys.setrecursionlimit(old)
    return n, not state[1]


def first_small(problem: ExactCover, max_nodes: int | None = FIRST_NODES,
                time_limit: float | None = None, max_seconds: float | None = None) -> tuple[list[int] | None, bool] | None:
    """(the kernels' first solution or None when there is none, complete) of a plain problem
    (``plain_ok``), or None when the search needs more than ``max_nodes`` nodes or
    ``max_seconds`` (a node of a large problem costs more). Past ``time_limit`` seconds: (None,
    False)."""
    n_p, n_opt = problem.n_primary, problem.n_options
    if n_p == 0:
        return ([], True) if n_opt == 0 else None
    item_opts = [0] * problem.n_items
    for k, t in enumerate(problem.options):
        for i in t:
            item_opts[i] |= 1 << k
    if any(not item_opts[i] for i in range(n_p)):
        return None, True  # an item no option covers
    kills: dict[int, int] = {}  # option -> the options it excludes (itself included)

    def kill(k: int) -> int:
        m = kills.get(k)
        if m is None:
            m = 0
            for i in problem.options[k]:
                m |= item_opts[i]
            kills[k] = m
        return m

    primary = item_opts[:n_p]
    t0 = time.perf_counter()
    t_end = None if time_limit is None else t0 + time_limit
    t_give_up = None if max_seconds is None else t0 + max_seconds
    nodes = 0
    chosen: list[int] = []
    # an explicit stack of (live options, uncovered primary items as a list, options left to try)
    stack: list[tuple[int, list[int], int]] = []
    uncovered = list(range(n_p))
    live = (1 << n_opt) - 1
    while True:
        # a node: choose the item (the kernels' MRV: the first with the fewest live options)
        if not uncovered:
            return sorted(chosen), True
        nodes += 1
        if max_nodes is not None and nodes > max_nodes:
            return None
        if not nodes & 255 and (t_end is not None or t_give_up is not None):
            now = time.perf_counter()
            if t_give_up is not None and now > t_give_up:
                return None
            if t_end is not None and now > t_end:
                return None, False
        best, bi = n_opt + 1, -1
        for i in uncovered:
            c = (primary[i] & live).bit_count()
            if c < best:
                best, bi = c, i
                if c == 0:
                    break
        todo = primary[bi] & live if best else 0
        while True:
            if todo:
                low = todo & -todo
                k = low.bit_length() - 1
                rest = todo ^ low
                stack.append((live, uncovered, rest))
                chosen.append(k)
                covered = {i for i in problem.options[k] if i < n_p}
                live = live & ~kill(k)
                uncovered = [i for i in uncovered if i not in covered]
                break
            if not stack:
                return None, True
            live, uncovered, todo = stack.pop()
            chosen.pop()


__all__ = ["FIRST_NODES", "FIRST_NODES_COLD", "FIRST_SECONDS", "PLAIN_NODES", "count_small", "first_small", "plain_ok"]
