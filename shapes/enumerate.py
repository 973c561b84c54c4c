"""Polyform enumeration: Redelmeier's algorithm as numba kernels (counts, shapes) and a reference.

``count_polyforms`` counts fixed, one-sided or free polyiamonds / polyominoes of one size
(``count_polyforms_by_size``: every size up to n in one run); ``iter_polyforms`` yields the
shapes themselves; ``reference_count_polyforms`` / ``reference_polyforms`` are the slow,
obviously correct set-growing versions the tests compare the kernels against.

How the kernels work. A fixed animal is counted once, at the translation that puts its least
cell in (y, x) order on an origin; cells before the origin are blocked. Triangle cells come in
two kinds (up and down) that no translation exchanges, so there are two origins whose counts
add up. Redelmeier's algorithm grows animals from the origin keeping an "untried" list of
reachable cells; each cell joins the list once per branch (a mark), so each animal is made
exactly once. The untried lists of all levels share one array: a level tries its entries in
increasing order and appends newly reached cells at the end, so a child's list is always the
contiguous tail ``[next untried, end)`` and nothing is copied. Fixed counts at the last level
are the list lengths, with no per-animal work. One-sided / free counts keep the fixed animals
that are the least of their images under the lattice symmetries (per-cell transform tables,
computed with ``Lattice.transform``). Running per-level minima and coordinate sums of every
image decide almost all comparisons in O(1) per symmetry; only ties normalise and sort cells.
Counting orders normal forms by (sum y, sum x, sum xy, cells), which has few ties; listing
uses ``Polyform.canonical``'s order, so the shapes yielded are exactly its representatives.

numba is imported and the kernels compiled (or loaded from the on-disk cache) on first use, so
importing this module stays cheap.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Iterator, NamedTuple

import numpy as np

from ..engines import plain_first
from ..errors import ShapeError
from ..kernelargs import kernel_bundle
from .lattice import Lattice
from .polyform import Polyform
from .registry import get_lattice

# Lattices the kernels know: their origins (one per class of cells under translation) and
# whether the translation normal form needs the triangle parity fix (dx + dy even).
_ORIGINS = {"triangle": ((0, 0), (1, 0)), "square": ((0, 0),)}
_PARITY = {"triangle": 1, "square": 0}


# --- kernel arguments: bundles and the indices shared by packer and kernels -----------------
STATE_LEVEL = 0  # Search.state[STATE_LEVEL]: the search's level; -1 once it is over
PRM_PARITY, PRM_WIDTH, PRM_SPAN, PRM_XMIN = 0, 1, 2, 3  # KernelGrid.prm
TF_X, TF_Y, TF_KEY = 0, 1, 2  # KernelGrid.tf[TF_*, symmetry, cell]: image x, y and (y, x) key
# Search.running[level, RUN_*, symmetry]: running minima of x, y, key and sums of x, y, xy
RUN_MINX, RUN_MINY, RUN_MINKEY, RUN_SX, RUN_SY, RUN_SXY = 0, 1, 2, 3, 4, 5
N_RUN = 6


class KernelGrid(NamedTuple):
    """A lattice patch as the kernels see it: neighbour table, symmetry images, parameters."""

    DTYPES = {"nb": np.int32}
    nb: np.ndarray  # (cells, neighbours) grid indices
    tf: np.ndarray  # (3, symmetries, cells), see TF_*
    prm: np.ndarray  # see PRM_*


class Search(NamedTuple):
    """A resumable Redelmeier search: marks, the shared untried list, each level's position and
    end in it, the animal's cells, the running minima / sums and the level (``state``)."""

    DTYPES = {"mark": np.uint8, "untried": np.int32, "animal": np.int32}
    mark: np.ndarray
    untried: np.ndarray
    pos: np.ndarray
    end: np.ndarray
    animal: np.ndarray
    running: np.ndarray
    state: np.ndarray


class CountJob(NamedTuple):
    """What _count_kernel counts: size n, only canonical animals (``check``), at every size
    (``all_sizes``), the last level from list lengths (``bulk``), steps per call (``budget``)."""

    n: int
    check: bool
    all_sizes: bool
    bulk: bool
    budget: int


class EmitJob(NamedTuple):
    """What _emit_kernel writes: animals of size n, only canonical ones with ``check``."""

    n: int
    check: bool


# --- numba kernels (plain Python until _jit() compiles them) ----------------------------------


def _normal_keys(animal, m, tf, k, parity, width, keys):
    """Sorted keys ``y * width + x`` of symmetry ``k`` of the animal: its normal form."""
    minx = 1 << 30
    miny = 1 << 30
    for i in range(m):
        c = animal[i]
        minx = min(minx, tf[TF_X, k, c])
        miny = min(miny, tf[TF_Y, k, c])
    dx = -minx
    dy = -miny
    if parity != 0 and ((dx + dy) & 1) != 0:
        dx += 1
    for i in range(m):
        c = animal[i]
        key = (tf[TF_Y, k, c] + dy) * width + (tf[TF_X, k, c] + dx)
        j = i
        while j > 0 and keys[j - 1] > key:  # insertion sort: m is small
            keys[j] = keys[j - 1]
            j -= 1
        keys[j] = key
    return 0


def _update_running(tf, c, running, d):
    """Level d's running minima of each image's x, y and (y, x) key, and sums of x, y and xy."""
    for k in range(tf.shape[1]):
        x = tf[TF_X, k, c]
        y = tf[TF_Y, k, c]
        r = tf[TF_KEY, k, c]
        if d == 0:
            running[d, RUN_MINX, k] = x
            running[d, RUN_MINY, k] = y
            running[d, RUN_MINKEY, k] = r
            running[d, RUN_SX, k] = x
            running[d, RUN_SY, k] = y
            running[d, RUN_SXY, k] = x * y
        else:
            running[d, RUN_MINX, k] = min(x, running[d - 1, RUN_MINX, k])
            running[d, RUN_MINY, k] = min(y, running[d - 1, RUN_MINY, k])
            running[d, RUN_MINKEY, k] = min(r, running[d - 1, RUN_MINKEY, k])
            running[d, RUN_SX, k] = running[d - 1, RUN_SX, k] + x
            running[d, RUN_SY, k] = running[d - 1, RUN_SY, k] + y
            running[d, RUN_SXY, k] = running[d - 1, RUN_SXY, k] + x * y
    return 0


def _precheck(running, d, m, prm, by_sums):
    """Decide from the running minima whether the m-cell animal is the least of its images.

    Returns 0 (an image is less), 1 (every image is greater) or 2 (a tie: call _full_check).
    The order compares the first cell's x (Polyform.canonical's order starts so) or, with
    ``by_sums``, the sums of y, x and xy over the normal form (fewer ties, for counting).
    A leaf function on purpose: numba calls that pass arrays on cost refcounting per call.
    """
    verdict = 1
    a0 = 0
    b0 = 0
    e0 = 0
    for k in range(running.shape[2]):
        dx = -running[d, RUN_MINX, k]
        dy = -running[d, RUN_MINY, k]
        if prm[PRM_PARITY] != 0 and ((dx + dy) & 1) != 0:
            dx += 1
        if by_sums:
            sx = running[d, RUN_SX, k]
            sy = running[d, RUN_SY, k]
            a = sy + m * dy
            b = sx + m * dx
            e = running[d, RUN_SXY, k] + dy * sx + dx * sy + m * dx * dy
        else:
            # x of the first cell, which is in row 0
            a = running[d, RUN_MINKEY, k] % prm[PRM_SPAN] + prm[PRM_XMIN] + dx
            b = 0
            e = 0
        if k == 0:
            a0 = a
            b0 = b
            e0 = e
        elif a != a0:
            if a < a0:
                return 0
        elif b != b0:
            if b < b0:
                return 0
        elif e != e0:
            if e < e0:
                return 0
        else:
            verdict = 2
    return verdict


def _full_check(animal, m, tf, prm, keys0, keys1, by_sums):
    """The same decision as _precheck, comparing whole normal forms (cells x before y on ties)."""
    parity = prm[PRM_PARITY]
    width = prm[PRM_WIDTH]
    _normal_keys(animal, m, tf, 0, parity, width, keys0)
    sx0 = 0
    sy0 = 0
    sxy0 = 0
    if by_sums:
        for i in range(m):
            sx0 += keys0[i] % width
            sy0 += keys0[i] // width
            sxy0 += (keys0[i] % width) * (keys0[i] // width)
    for k in range(1, tf.shape[1]):
        _normal_keys(animal, m, tf, k, parity, width, keys1)
        if by_sums:
            sx = 0
            sy = 0
            sxy = 0
            for i in range(m):
                sx += keys1[i] % width
                sy += keys1[i] // width
                sxy += (keys1[i] % width) * (keys1[i] // width)
            if sy != sy0:
                if sy < sy0:
                    return False
                continue
            if sx != sx0:
                if sx < sx0:
                    return False
                continue
            if sxy != sxy0:
                if sxy < sxy0:
                    return False
                continue
        for i in range(m):
            a = keys1[i]
            b = keys0[i]
            if a != b:
                xa = a % width
                xb = b % width
                if xa < xb or (xa == xb and a < b):
                    return False
                break
    return True


def _count_kernel(grid, search, job, counts):
    """Add to ``counts[s]`` the animals of size s <= n grown from the search state's origin
    (``grid`` a KernelGrid, ``search`` a Search, ``job`` a CountJob).

    ``mark`` is 1 on blocked and reached cells. With ``check`` only the least animal of each
    symmetry class counts (at every size if ``all_sizes``, else only at size n). ``bulk``
    counts the last level of fixed animals from list lengths instead of visiting each animal.
    Resumable like _emit_kernel: returns after about ``budget`` steps, so a long count gives
    control back to Python (and Ctrl-C) now and then; done when the level is -1.
    """
    nb = grid.nb
    tf = grid.tf
    prm = grid.prm
    mark = search.mark
    untried = search.untried
    pos = search.pos
    end = search.end
    animal = search.animal
    running = search.running
    state = search.state
    n = job.n
    check = job.check
    all_sizes = job.all_sizes
    bulk = job.bulk
    budget = job.budget
    deg = nb.shape[1]
    keys0 = np.empty(n, dtype=np.int64)
    keys1 = np.empty(n, dtype=np.int64)
    steps = 0
    d = state[STATE_LEVEL]
    while d >= 0:
        steps += 1
        if steps > budget:
            break
        if pos[d] == end[d]:
            # level exhausted: drop the cells its parent's last choice had reached
            d -= 1
            if d >= 0:
                for j in range(end[d], end[d + 1]):
                    mark[untried[j]] = 0
            continue
        c = untried[pos[d]]
        pos[d] += 1
        animal[d] = c
        size = d + 1
        if check:
            _update_running(tf, c, running, d)
            if size == n or all_sizes:
                verdict = _precheck(running, d, size, prm, True)
                if verdict == 2:
                    if _full_check(animal, size, tf, prm, keys0, keys1, True):
                        verdict = 1
                if verdict == 1:
                    counts[size] += 1
            if size == n:
                continue
        else:
            counts[size] += 1
            if bulk and size == n - 1:
                # every remaining untried cell and every fresh neighbour makes one size-n animal
                extra = end[d] - pos[d]
                for t in range(deg):
                    if mark[nb[c, t]] == 0:
                        extra += 1
                counts[n] += extra
                continue
            if size == n:
                continue
        top = end[d]
        for t in range(deg):
            v = nb[c, t]
            if mark[v] == 0:
                mark[v] = 1
                untried[top] = v
                top += 1
        d += 1
        pos[d] = pos[d - 1]
        end[d] = top
    state[STATE_LEVEL] = d
    return 0


def _emit_kernel(grid, search, job, out):
    """Write size-n animals (normal forms; if ``check`` only Polyform.canonical ones) to ``out``
    (``grid`` a KernelGrid, ``search`` a Search, ``job`` an EmitJob).

    Resumable: the search state lives in the arrays (its level is -1 when done), so the caller
    drains ``out`` and calls again until the state says done. Returns how many animals were
    written.
    """
    nb = grid.nb
    tf = grid.tf
    prm = grid.prm
    mark = search.mark
    untried = search.untried
    pos = search.pos
    end = search.end
    animal = search.animal
    running = search.running
    state = search.state
    n = job.n
    check = job.check
    deg = nb.shape[1]
    width = prm[PRM_WIDTH]
    keys0 = np.empty(n, dtype=np.int64)
    keys1 = np.empty(n, dtype=np.int64)
    cap = out.shape[0]
    nout = 0
    d = state[STATE_LEVEL]
    while d >= 0:
        if nout == cap:
            break
        if pos[d] == end[d]:
            d -= 1
            if d >= 0:
                for j in range(end[d], end[d + 1]):
                    mark[untried[j]] = 0
            continue
        c = untried[pos[d]]
        pos[d] += 1
        animal[d] = c
        if check:
            _update_running(tf, c, running, d)
        if d + 1 == n:
            verdict = 1
            if check:
                verdict = _precheck(running, d, n, prm, False)
                if verdict == 2:
                    if _full_check(animal, n, tf, prm, keys0, keys1, False):
                        verdict = 1
            if verdict == 1:
                _normal_keys(animal, n, tf, 0, prm[PRM_PARITY], width, keys0)
                for i in range(n):
                    out[nout, i, 0] = keys0[i] % width
                    out[nout, i, 1] = keys0[i] // width
                nout += 1
            continue
        top = end[d]
        for t in range(deg):
            v = nb[c, t]
            if mark[v] == 0:
                mark[v] = 1
                untried[top] = v
                top += 1
        d += 1
        pos[d] = pos[d - 1]
        end[d] = top
    state[STATE_LEVEL] = d
    return nout


# helpers before the kernels that call them, so the kernels bind to compiled dispatchers
_KERNEL_NAMES = (
    "_normal_keys", "_update_running", "_precheck", "_full_check", "_count_kernel", "_emit_kernel"
)
_compiled = False


def _jit() -> None:
    """Replace the kernels by numba dispatchers (compiled on first call, cached on disk)."""
    global _compiled
    if _compiled:
        return
    import numba  # start-up: numba loads (and compiles) only when a kernel first runs

    from .. import numba_cache  # noqa: F401  start-up: loads numba; its cache locator, before the kernels are made

    g = globals()
    for name in _KERNEL_NAMES:
        g[name] = numba.njit(cache=True)(g[name])
    _compiled = True


PLAIN_MAX_N = 8  # sizes a process that would compile the kernels first enumerates in plain Python
_KERNEL = ("tanglekit.shapes.enumerate", "_emit_kernel")  # compiled with the others, in one go
_plain: dict | None = None


def _kernels(n: int) -> dict:
    """The kernels to run for size ``n``: this module's (compiled on first call), or for a small
    size in a process without them compiled or cached (``engines.plain_first``) the same
    functions run as plain Python over the same arrays, so the shapes and counts and their order
    are the kernels' (tests compare them). Both as a name -> function dict."""
    if n <= PLAIN_MAX_N and plain_first(kernel=_KERNEL):
        global _plain
        if _plain is None:
            import types

            ns = dict(globals())  # the kernels call each other through this namespace: plain there
            for name in _KERNEL_NAMES:
                f = getattr(ns[name], "py_func", ns[name])
                ns[name] = types.FunctionType(f.__code__, ns, name, f.__defaults__, f.__closure__)
            _plain = ns
        return _plain
    _jit()
    return globals()


# --- lattice grids ----------------------------------------------------------------------------


class _Grid:
    """A bounded lattice patch around one origin: neighbour table, blocked cells, transforms."""

    __slots__ = ("cells", "nb", "mark", "origin", "tf", "prm", "kernel")

    def __init__(self, lat: Lattice, n: int, origin: tuple[int, int], kind: str):
        ox, oy = origin
        # Animals of size n anchored at the origin stay within n - 1 steps of it, and only
        # reach rows at or below it; one extra ring of blocked cells spares bounds checks.
        xs = np.arange(ox - n, ox + n + 1)
        ys = np.arange(oy - 1, oy + n + 1)
        w = len(xs)
        gx, gy = np.meshgrid(xs, ys)
        gx = gx.ravel()
        gy = gy.ravel()
        ncells = len(gx)
        border = (gx == xs[0]) | (gx == xs[-1]) | (gy == ys[0]) | (gy == ys[-1])
        before = (gy < oy) | ((gy == oy) & (gx < ox))
        self.mark = (border | before).astype(np.uint8)
        nb = np.zeros((ncells, lat.n_neighbours), dtype=np.int32)
        for i in np.flatnonzero(~border):
            for t, (x, y) in enumerate(lat.neighbours((int(gx[i]), int(gy[i])))):
                nb[i, t] = (y - ys[0]) * w + (x - xs[0])
        self.nb = nb
        self.origin = (oy - ys[0]) * w + (ox - xs[0])
        cells = np.stack([gx, gy], axis=1)
        self.cells = cells  # grid index -> lattice cell (x, y)
        syms = lat.symmetries(kind)
        # tf[TF_X], tf[TF_Y]: x and y of each cell's image under each symmetry of the kind;
        # tf[TF_KEY]: a key ordering the images by (y, x), so its minimum is an image's first cell
        tf = np.empty((3, len(syms), ncells), dtype=np.int64)
        for k in syms:
            t = lat.transform(cells, k)
            tf[TF_X, k], tf[TF_Y, k] = t[:, 0], t[:, 1]
        xmin, ymin = tf[TF_X].min(), tf[TF_Y].min()
        span = tf[TF_X].max() - xmin + 1
        tf[TF_KEY] = (tf[TF_Y] - ymin) * span + (tf[TF_X] - xmin)
        self.tf = tf
        prm = np.zeros(4, dtype=np.int64)
        prm[PRM_PARITY] = _PARITY[lat.name]
        # normal forms have 0 <= x <= n + 1, so base 2n + 4 keeps (y, x) keys ordered and decodable
        prm[PRM_WIDTH] = 2 * n + 4
        prm[PRM_SPAN] = span
        prm[PRM_XMIN] = xmin
        self.prm = prm
        self.kernel = kernel_bundle(KernelGrid, nb=self.nb, tf=self.tf, prm=self.prm)


def _check_args(n: int, lattice, kind: str) -> tuple[Lattice, str]:
    """Validate size, lattice and kind (ShapeError with a one-line reason)."""
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise ShapeError(f"size must be a positive integer, got {n!r}")
    lat = get_lattice(lattice)
    lat.symmetries(kind)  # raises ShapeError on an unknown kind
    if lat.name not in _ORIGINS:
        raise ShapeError(f"enumeration is not implemented on the {lat.name} lattice")
    return lat, kind


@lru_cache(maxsize=64)
def _grids(lat_name: str, n: int, kind: str) -> tuple[_Grid, ...]:
    """One grid per origin (cell class) of the lattice, built once per (lattice, n, kind)."""
    lat = get_lattice(lat_name)
    return tuple(_Grid(lat, n, o, kind) for o in _ORIGINS[lat_name])


# --- public API -------------------------------------------------------------------------------


def count_polyforms_by_size(
    n: int, lattice: str | Lattice = "triangle", kind: str = "free"
) -> list[int]:
    """Counts of the polyforms of every size 1..n (index i is size i + 1), in one kernel run."""
    lat, kind = _check_args(n, lattice, kind)
    n = int(n)
    return _run_count(lat, n, kind, all_sizes=True)


def count_polyforms(n: int, lattice: str | Lattice = "triangle", kind: str = "free") -> int:
    """Number of polyforms of size n on ``lattice`` up to ``kind`` (fixed, one-sided, free)."""
    lat, kind = _check_args(n, lattice, kind)
    n = int(n)
    return _run_count(lat, n, kind, all_sizes=False)[-1]


_COUNT_STEPS = 1 << 25  # kernel steps per call: well under a second, so Ctrl-C gets through


def _run_count(lat: Lattice, n: int, kind: str, all_sizes: bool, bulk: bool = True) -> list[int]:
    """Run the count kernel over the lattice's origins; ``bulk=False`` visits every animal."""
    count_kernel = _kernels(n)["_count_kernel"]
    counts = np.zeros(n + 1, dtype=np.int64)
    check = kind != "fixed"
    job = kernel_bundle(CountJob, n=n, check=check, all_sizes=all_sizes, bulk=bulk, budget=_COUNT_STEPS)
    for g in _grids(lat.name, n, kind):
        search = _search_state(g, n)
        while search.state[STATE_LEVEL] >= 0:
            count_kernel(g.kernel, search, job, counts)
    return [int(c) for c in counts[1:]]


def _search_state(g: _Grid, n: int) -> Search:
    """Fresh search state at a grid's origin: mark, untried, pos, end, animal, running, state."""
    search = kernel_bundle(Search, mark=g.mark.copy(), shapes={
        "untried": 1 + n * g.nb.shape[1], "pos": n + 1, "end": n + 1, "animal": n,
        "running": (n, N_RUN, g.tf.shape[1]), "state": 1})
    search.untried[0] = g.origin
    search.mark[g.origin] = 1
    search.end[0] = 1
    search.state[STATE_LEVEL] = 0
    return search


def iter_polyforms(
    n: int, lattice: str | Lattice = "triangle", kind: str = "free", *, batch_size: int = 1 << 14
) -> Iterator[Polyform]:
    """Yield every polyform of size n once: normalised for fixed, canonical for one-sided / free.

    The order is the kernel's search order (deterministic, not sorted); the kernel fills
    batches of ``batch_size`` shapes, so memory stays bounded for large n.
    """
    lat, kind = _check_args(n, lattice, kind)
    if batch_size < 1:
        raise ShapeError("batch_size must be at least 1")
    return _iter(lat, int(n), kind, int(batch_size))


def _iter(lat: Lattice, n: int, kind: str, batch_size: int) -> Iterator[Polyform]:
    """The generator behind iter_polyforms (arguments already checked)."""
    emit_kernel = _kernels(n)["_emit_kernel"]
    check = kind != "fixed"
    out = np.empty((batch_size, n, 2), dtype=np.int64)
    job = kernel_bundle(EmitJob, n=n, check=check)
    for g in _grids(lat.name, n, kind):
        search = _search_state(g, n)
        while search.state[STATE_LEVEL] >= 0:
            k = emit_kernel(g.kernel, search, job, out)
            for cells in out[:k].tolist():
                yield Polyform._trusted(cells, lat)


# --- plain-Python reference -------------------------------------------------------------------


def _ref_normalize(cells, lat: Lattice) -> tuple[tuple[int, int], ...]:
    """Translation normal form of a cell collection, by the rule Lattice.normalize documents."""
    dx = -min(x for x, _ in cells)
    dy = -min(y for _, y in cells)
    if not lat.is_translation(dx, dy):
        dx += 1
    return tuple(sorted(((x + dx, y + dy) for x, y in cells), key=lambda c: (c[1], c[0])))


def reference_fixed_polyforms(n: int, lattice: str | Lattice = "triangle") -> list[set[tuple]]:
    """Normal forms of all fixed polyforms of sizes 1..n, grown cell by cell (slow, simple)."""
    lat, _ = _check_args(n, lattice, "fixed")
    # one cell of each translation class: the triangle's up and down cells, the one square cell
    level = {_ref_normalize([(x, y)], lat) for x in range(2) for y in range(2)}
    levels = [level]
    for _ in range(1, n):
        nxt = set()
        for shape in level:
            cells = set(shape)
            for c in shape:
                for nbr in lat.neighbours(c):
                    if nbr not in cells:
                        nxt.add(_ref_normalize(cells | {nbr}, lat))
        level = nxt
        levels.append(level)
    return levels


def reference_polyforms(
    n: int, lattice: str | Lattice = "triangle", kind: str = "free"
) -> set[Polyform]:
    """All polyforms of size n as Polyforms (normalised / canonical), from the reference growth."""
    lat, kind = _check_args(n, lattice, kind)
    fixed = reference_fixed_polyforms(n, lat)[-1]
    return {Polyform(cells, lat).canonical(kind) for cells in fixed}


def reference_count_polyforms(
    n: int, lattice: str | Lattice = "triangle", kind: str = "free"
) -> int:
    """Plain-Python count of the polyforms of size n (set growth + Polyform.canonical)."""
    lat, kind = _check_args(n, lattice, kind)
    fixed = reference_fixed_polyforms(n, lat)[-1]
    if kind == "fixed":
        return len(fixed)
    return len({Polyform(cells, lat).key(kind) for cells in fixed})
