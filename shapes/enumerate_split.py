"""Polyform counts split into independent subproblems: the subtrees below the first growth steps.

Redelmeier's search (``shapes.enumerate``) is a tree: a node at depth L is one fixed animal of L
cells grown from an origin, and the animals counted below distinct nodes are distinct. A
*prefix* names such a node by the untried-list positions chosen at each level. ``count_prefix``
rebuilds the search state at that node (the same arrays the kernel keeps) with the levels above
marked exhausted, and runs the ordinary count kernel from there, so the kernel stops when it
would climb out of the subtree. Summing over every prefix of one depth gives the plain count
(for sizes above the depth; the sizes up to it are the prefixes themselves).

``reference_prefix_animals`` grows the prefixes' cells in plain Python for the tests.
"""

from __future__ import annotations

import numpy as np

from ..errors import ShapeError
from . import enumerate as _en

Prefix = tuple  # (origin index, (untried position at level 0, level 1, ...))


def _replay(g, n: int, prefix_steps: tuple[int, ...], check: bool) -> tuple[np.ndarray, ...]:
    """The kernel's search state just after choosing ``prefix_steps`` from the origin, with
    the levels above made exhausted so that the search ends on leaving the subtree."""
    search = _en._search_state(g, n)
    mark, untried, pos, end, animal, running, state = search
    deg = g.nb.shape[1]
    d = 0
    for i in prefix_steps:
        if not pos[d] <= i < end[d]:
            raise ShapeError(f"prefix step {i} is outside level {d}'s untried cells")
        c = untried[i]
        pos[d] = i + 1
        animal[d] = c
        if check:
            _update_running_py(g.tf, c, running, d)
        top = end[d]
        for t in range(deg):
            v = g.nb[c, t]
            if mark[v] == 0:
                mark[v] = 1
                untried[top] = v
                top += 1
        d += 1
        pos[d] = pos[d - 1]
        end[d] = top
    for j in range(d):
        pos[j] = end[j]  # exhausted: climbing back only unwinds
    state[_en.STATE_LEVEL] = d
    return search


def _update_running_py(tf, c, running, d) -> None:
    """Plain copy of the kernel's running minima / sums update for one chosen cell."""
    x = tf[_en.TF_X, :, c]
    y = tf[_en.TF_Y, :, c]
    r = tf[_en.TF_KEY, :, c]
    if d == 0:
        running[0, _en.RUN_MINX], running[0, _en.RUN_MINY], running[0, _en.RUN_MINKEY] = x, y, r
        running[0, _en.RUN_SX], running[0, _en.RUN_SY], running[0, _en.RUN_SXY] = x, y, x * y
    else:
        running[d, _en.RUN_MINX] = np.minimum(x, running[d - 1, _en.RUN_MINX])
        running[d, _en.RUN_MINY] = np.minimum(y, running[d - 1, _en.RUN_MINY])
        running[d, _en.RUN_MINKEY] = np.minimum(r, running[d - 1, _en.RUN_MINKEY])
        running[d, _en.RUN_SX] = running[d - 1, _en.RUN_SX] + x
        running[d, _en.RUN_SY] = running[d - 1, _en.RUN_SY] + y
        running[d, _en.RUN_SXY] = running[d - 1, _en.RUN_SXY] + x * y


def _children(g, n: int, prefix_steps: tuple[int, ...]) -> range:
    """Untried positions a node may choose next (its level's list)."""
    search = _en._search_state(g, n)
    mark, untried, pos, end, _, _, _ = search
    deg = g.nb.shape[1]
    d = 0
    for i in prefix_steps:
        c = untried[i]
        pos[d] = i + 1
        top = end[d]
        for t in range(deg):
            v = g.nb[c, t]
            if mark[v] == 0:
                mark[v] = 1
                untried[top] = v
                top += 1
        d += 1
        pos[d] = pos[d - 1]
        end[d] = top
    return range(int(pos[d]), int(end[d]))


def prefixes(n: int, lattice: str = "triangle", kind: str = "free", depth: int = 1) -> list[Prefix]:
    """Every prefix of ``depth`` growth steps, in the kernel's search order (depth 0: one per
    origin, the whole search). One prefix per fixed animal of ``depth`` cells."""
    lat, kind = _en._check_args(n, lattice, kind)
    n = int(n)
    if not 0 <= depth <= max(0, n - 2):
        raise ShapeError(f"split depth must be between 0 and {max(0, n - 2)} for size {n}")
    out: list[Prefix] = []
    for gi, g in enumerate(_en._grids(lat.name, n, kind)):
        level = [()]
        for _ in range(depth):
            level = [p + (i,) for p in level for i in _children(g, n, p)]
        out.extend((gi, p) for p in level)
    return out


def split_prefixes(n: int, lattice: str = "triangle", kind: str = "free",
                   min_parts: int = 64) -> tuple[int, list[Prefix]]:
    """(depth, prefixes): the least depth giving at least ``min_parts`` prefixes (at most
    n - 2, so the kernel's last-level shortcut stays inside every subproblem)."""
    depth = 0
    best = prefixes(n, lattice, kind, 0)
    while len(best) < min_parts and depth + 1 <= int(n) - 2:
        depth += 1
        best = prefixes(n, lattice, kind, depth)
    return depth, best


def prefix_key(prefix: Prefix) -> str:
    """A short stable name of a prefix: origin, then the steps (``"0:0.2.5"``)."""
    gi, steps = prefix
    return f"{gi}:" + ".".join(str(int(s)) for s in steps)


def count_prefix(n: int, lattice: str, kind: str, prefix: Prefix, all_sizes: bool = False) -> list[int]:
    """Counts (index s is size s + 1) of the polyforms grown below one prefix: every size
    above the prefix's depth with ``all_sizes``, else only size n (the last entry)."""
    lat, kind = _en._check_args(n, lattice, kind)
    n = int(n)
    gi, steps = prefix
    steps = tuple(int(s) for s in steps)
    if len(steps) > max(0, n - 2):
        raise ShapeError(f"a prefix of {len(steps)} steps is too deep for size {n}")
    grids = _en._grids(lat.name, n, kind)
    if not 0 <= gi < len(grids):
        raise ShapeError(f"origin {gi} does not exist on the {lat.name} lattice")
    _en._jit()
    g = grids[gi]
    check = kind != "fixed"
    search = _replay(g, n, steps, check)
    counts = np.zeros(n + 1, dtype=np.int64)
    job = _en.kernel_bundle(_en.CountJob, n=n, check=check, all_sizes=all_sizes, bulk=True,
                            budget=_en._COUNT_STEPS)
    while search.state[_en.STATE_LEVEL] >= 0:
        _en._count_kernel(g.kernel, search, job, counts)
    return [int(c) for c in counts[1:]]


def count_polyforms_split(n: int, lattice: str = "triangle", kind: str = "free",
                          min_parts: int = 64) -> int:
    """count_polyforms(n, lattice, kind) as a sum over the prefixes of split_prefixes (in
    this process; generators.executors.count_polyforms runs the parts on a cluster)."""
    _, ps = split_prefixes(n, lattice, kind, min_parts)
    return sum(count_prefix(n, lattice, kind, p)[-1] for p in ps)


def reference_prefix_animals(n: int, lattice: str, kind: str, depth: int) -> list[frozenset]:
    """The lattice cells of each prefix's animal (plain Python, for tests): distinct
    prefixes must be distinct fixed animals, as many as the fixed count of that size."""
    lat, kind = _en._check_args(n, lattice, kind)
    out = []
    for gi, steps in prefixes(n, lattice, kind, depth):
        g = _en._grids(lat.name, int(n), kind)[gi]
        search = _replay(g, int(n), steps, False)
        animal = search.animal
        out.append(frozenset(tuple(int(v) for v in g.cells[animal[i]]) for i in range(len(steps))))
    return out


__all__ = ["count_polyforms_split", "count_prefix", "prefix_key", "prefixes", "reference_prefix_animals",
           "split_prefixes"]
