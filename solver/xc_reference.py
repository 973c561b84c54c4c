"""Plain-Python reference solver for ExactCover: include/exclude each option in index order.

Deliberately a different algorithm from the dlx kernel (no item choice, no dancing, bounds and
colours checked directly), so tests comparing the two catch errors in either. Small problems
only: it is exponential in the number of options.
"""

from __future__ import annotations

import sys
from typing import Iterator

from .xc_problem import ExactCover


def reference_solutions(problem: ExactCover) -> Iterator[list[int]]:
    """Every solution, as sorted lists of option indices, in lexicographic order."""
    n_opt = problem.n_options
    n_p = problem.n_primary
    lo = [problem.bound(i)[0] for i in range(problem.n_items)]
    hi = [problem.bound(i)[1] for i in range(problem.n_items)]
    # after[k][i]: options with index >= k that contain primary item i
    after = [[0] * n_p for _ in range(n_opt + 1)]
    for k in range(n_opt - 1, -1, -1):
        row = list(after[k + 1])
        for i in problem.options[k]:
            if i < n_p:
                row[i] += 1
        after[k] = row
    count = [0] * problem.n_items
    colour = [0] * problem.n_items  # colour of a shared secondary item, -1 when exclusive
    chosen: list[int] = []

    def fits(k: int) -> bool:
        for i, c in zip(problem.options[k], problem.colours[k]):
            if i < n_p:
                if hi[i] is not None and count[i] + 1 > hi[i]:
                    return False
            elif count[i] > 0 and (c == 0 or colour[i] != c):
                return False
        return True

    def feasible(k: int) -> bool:
        rest = after[k]
        return all(count[i] + rest[i] >= lo[i] for i in range(n_p))

    def rec(k: int) -> Iterator[list[int]]:
        if not feasible(k):
            return
        if k == n_opt:
            yield list(chosen)
            return
        if fits(k):
            for i, c in zip(problem.options[k], problem.colours[k]):
                count[i] += 1
                if i >= n_p:
                    colour[i] = c if c else -1
            chosen.append(k)
            yield from rec(k + 1)
            chosen.pop()
            for i in problem.options[k]:
                count[i] -= 1
                if i >= n_p and count[i] == 0:
                    colour[i] = 0
        yield from rec(k + 1)

    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 4 * n_opt + 1000))
    try:
        yield from rec(0)
    finally:
        sys.setrecursionlimit(old)
