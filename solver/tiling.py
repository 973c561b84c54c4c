"""Polyform tiling puzzles ("tile region R with pieces S") on top of the exact-cover engine.

Named regions (``rect:WxH``, ``parallelogram:AxB``, ``triangle:N``, ``hexagon:N``) and piece
sets (``pentominoes``, ``hexiamonds``, ... or a JSON file), counting up to the region's
symmetry (by fixing one piece to a fundamental domain when that is exact, else by
canonicalising every solution), and solutions as lists of placed Polyforms.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Iterable, Sequence

from ..errors import ShapeError, SolverError
from ..shapes.catalogue import (  # noqa: F401  (re-exported: the catalogue's old home)
    PIECE_SETS,
    big_triangle,
    free_polyforms,
    grow_free,
    hexagon,
    load_piece_file,
    load_region_file,
    parallelogram,
    parse_region,
    piece_set,
    rectangle,
)
from ..shapes.placements import Placements, placements
from ..shapes.polyform import Polyform
from ..shapes.render import svg_shape, svg_tiling
from .exact_cover import ExactCover, count_solutions, iter_solutions, pick_backend

EACH = ("exactly", "at-most", "any")

# The catalogues (named piece sets and regions, the free-polyform generator, the readers of
# region and piece files) live in shapes/catalogue.py; these names stay importable from here.
_grow_free = grow_free
load_pieces = load_piece_file


# --- the problem ------------------------------------------------------------------------
@dataclass
class TilingSolution:
    """One tiling: (piece index, placed Polyform) pairs, in the region's coordinates."""

    region: Polyform
    pieces: list[tuple[int, Polyform]]

    @property
    def placed(self) -> list[Polyform]:
        """The placed pieces, ready for shapes.render."""
        return [p for _, p in self.pieces]

    @property
    def labels(self) -> list[int]:
        return [k for k, _ in self.pieces]

    def problems(
        self, shapes: Sequence[Polyform] | None = None, each: str = "exactly", mirror: bool = True
    ) -> list[str]:
        """What is wrong, cell by cell (empty list: a valid tiling)."""
        errs = []
        owner: dict = {}
        for k, p in self.pieces:
            if p.lattice is not self.region.lattice:
                errs.append(f"piece {k} is on another lattice")
            for c in p.cells:
                if c not in self.region.cellset:
                    errs.append(f"cell {c} of piece {k} lies outside the region")
                if c in owner:
                    errs.append(f"cell {c} covered by pieces {owner[c]} and {k}")
                owner[c] = k
        for c in self.region.cells:
            if c not in owner:
                errs.append(f"cell {c} is not covered")
        if shapes is not None:
            kind = "free" if mirror else "one-sided"
            uses: dict[int, int] = {}
            for k, p in self.pieces:
                uses[k] = uses.get(k, 0) + 1
                if not 0 <= k < len(shapes):
                    errs.append(f"piece index {k} out of range")
                elif not p.congruent(shapes[k], kind):
                    errs.append(f"placed piece {k} is not a {kind} image of its shape")
            for k in range(len(shapes)):
                n = uses.get(k, 0)
                if each == "exactly" and n != 1:
                    errs.append(f"piece {k} used {n} times, expected once")
                if each == "at-most" and n > 1:
                    errs.append(f"piece {k} used {n} times, expected at most once")
        return errs

    def is_valid(self, shapes=None, each: str = "exactly", mirror: bool = True) -> bool:
        return not self.problems(shapes, each, mirror)

    def to_svg(self) -> str:
        """The region with its placed pieces (shapes.render.svg_tiling)."""
        return svg_tiling(self.region, self.placed)

    def _repr_svg_(self) -> str:  # Jupyter shows the picture
        return self.to_svg()

    def to_json(self) -> dict:
        return {
            "pieces": [{"piece": k, "cells": [list(c) for c in p.cells]} for k, p in self.pieces]
        }


@dataclass
class TilingResult:
    """What ``solve_tiling`` found. ``count`` is the raw count (None if not asked),
    ``count_up_to_symmetry`` the number of orbits under ``symmetry_order`` region symmetries."""

    region: Polyform
    pieces: list[Polyform]
    query: str
    backend: str
    solutions: list[TilingSolution] = field(default_factory=list)
    count: int | None = None
    count_up_to_symmetry: int | None = None
    symmetry_order: int = 1
    symmetry_method: str | None = None
    complete: bool = True
    seconds: float = 0.0

    def to_svg(self) -> str:
        """The first tiling found (or the bare region when none was asked for or found)."""
        if self.solutions:
            return self.solutions[0].to_svg()

        return svg_shape(self.region, fill="#dddddd")

    def _repr_svg_(self) -> str:  # Jupyter shows the picture
        return self.to_svg()

    def summary(self) -> dict:
        """The ``--count --json`` record: count, count_up_to_symmetry, backend, seconds, and
        ``complete`` (false when a limit stopped the count: the counts are then lower bounds,
        or null where not even that is known)."""
        return {
            "count": self.count,
            "count_up_to_symmetry": self.count_up_to_symmetry,
            "backend": self.backend,
            "seconds": round(self.seconds, 4),
            "complete": self.complete,
        }

    def to_json(self) -> dict:
        return {
            "count": self.count,
            "count_up_to_symmetry": self.count_up_to_symmetry,
            "backend": self.backend,
            "seconds": round(self.seconds, 4),
            "complete": self.complete,
            "symmetry_order": self.symmetry_order,
            "solutions": [s.to_json() for s in self.solutions],
        }


def _short_side_order(region, n_items: int) -> list[int]:
    """Cells ordered across the region's short side first (columns of a wide region), then the
    piece items: the order in which a first-empty-cell search keeps its frontier short. The
    columns run along a lattice direction (x or y; on the triangle lattice also the slanted
    x - y and x + y), whichever gives the shortest columns (then the most of them)."""
    cells = list(region.cells)
    if not cells:
        return list(range(n_items))
    keys = [lambda c: (c[0], c[1]), lambda c: (c[1], c[0])]
    if region.lattice.name == "triangle":
        keys += [lambda c: (c[0] - c[1], c[1]), lambda c: (c[0] + c[1], c[1])]

    def shape(key):
        columns = Counter(key(c)[0] for c in cells)
        return max(columns.values()), len(cells) / len(columns)

    best = min(range(len(keys)), key=lambda k: (*shape(keys[k]), k))
    key = keys[best]
    return sorted(range(len(cells)), key=lambda k: key(cells[k])) + list(range(len(cells), n_items))


def _cell_graph(region) -> tuple[int, list[int], list[int]]:
    """(cells, ptr, idx): the neighbours in the region of cell c (in the region's cell order)
    are idx[ptr[c]:ptr[c + 1]] (plain lists; ``ExactCover.cell_graph`` makes them arrays)."""
    index = {c: i for i, c in enumerate(region.cells)}
    lat = region.lattice
    nbrs = [[index[n] for n in map(tuple, lat.neighbours(c)) if n in index] for c in region.cells]
    ptr = [0]
    for b in nbrs:
        ptr.append(ptr[-1] + len(b))
    return len(nbrs), ptr, [b for bs in nbrs for b in bs]


class TilingProblem:
    """The exact-cover form of a tiling puzzle: items = region cells (+ piece items)."""

    def __init__(
        self,
        region: Polyform,
        pieces: Sequence[Polyform],
        each: str = "exactly",
        mirror: bool = True,
        deadline=None,
    ):
        if each not in EACH:
            raise SolverError(f"unknown piece rule {each!r}: expected one of {', '.join(EACH)}")
        if not pieces:
            raise ShapeError("no pieces given")
        self.region, self.each, self.mirror = region, each, mirror
        self.pieces = list(pieces)
        kind = "free" if mirror else "one-sided"
        for k, p in enumerate(self.pieces):
            if p.lattice is not region.lattice:
                raise ShapeError(
                    f"piece {k} is on the {p.lattice.name} lattice, the region on the "
                    f"{region.lattice.name} one"
                )
        # with "any", congruent pieces are the same piece type: keep the first
        self.active = list(range(len(self.pieces)))
        if each == "any":
            seen: set = set()
            self.active = []
            for k, p in enumerate(self.pieces):
                key = p.key(kind)
                if key not in seen:
                    seen.add(key)
                    self.active.append(k)
        self.placements: dict[int, Placements] = {
            k: placements(self.pieces[k], region, mirror, deadline) for k in self.active
        }
        self.n_cells = region.area
        n_piece_items = len(self.pieces) if each != "any" else 0
        opts: list[tuple[int, ...]] = []
        self.option_piece: list[int] = []
        self.option_index: list[int] = []  # placement number within the piece
        for k in self.active:
            pl = self.placements[k]
            for i, row in enumerate(pl.rows):
                opts.append(row + ((self.n_cells + k,) if n_piece_items else ()))
                self.option_piece.append(k)
                self.option_index.append(i)
        if each == "exactly":
            n_p, n_s = self.n_cells + n_piece_items, 0
        else:
            n_p, n_s = self.n_cells, n_piece_items
        self.exact_cover = ExactCover(n_p, n_s, opts)
        self.exact_cover.item_order = _short_side_order(region, n_p)
        if all(self.pieces[k].is_connected() for k in self.active):  # region pruning needs it
            self.exact_cover.cell_graph = _cell_graph(region)
        self._group = None

    def area_mismatch(self) -> bool:
        """True when areas alone show there is no solution (saves a hopeless search)."""
        total = sum(p.area for p in self.pieces)
        if self.each == "exactly":
            return total != self.n_cells
        if self.each == "at-most":
            return total < self.n_cells
        return False

    def solution(self, options: Iterable[int]) -> TilingSolution:
        out = []
        for o in options:
            k = self.option_piece[o]
            out.append((k, self.placements[k].shape(self.option_index[o])))
        out.sort(key=lambda kp: (kp[0], kp[1].cells))
        return TilingSolution(self.region, out)

    # --- symmetry ---
    def group(self) -> list[tuple[int, ...]]:
        """Cell permutations of the region symmetries that map every piece's placements onto
        themselves (all region symmetries when mirrors are allowed). Identity first."""
        if self._group is not None:
            return self._group
        reg = self.region
        lat = reg.lattice
        base = reg.normalized().cells
        x0, y0 = lat.origin_shift(reg.cells)
        index = {c: i for i, c in enumerate(reg.cells)}
        perms = []
        for k in range(lat.n_symmetries):
            t = lat.transform_cells(reg.cells, k)
            if lat.normalize_cells(t) != base:
                continue
            sx, sy = lat.origin_shift(t)
            sx, sy = sx - x0, sy - y0
            perm = tuple(index[(x + sx, y + sy)] for x, y in t)
            ok = True
            for pk in self.active:
                rows = self.placements[pk].rows
                have = set(rows)
                mapped = {tuple(sorted(perm[i] for i in r)) for r in rows}
                if mapped != have:
                    ok = False
                    break
            if ok:
                perms.append(perm)
        self._group = perms
        return perms

    def canonical_key(self, options: Iterable[int]) -> tuple:
        """The least image of a solution under the group (equal keys <=> same orbit)."""
        parts = []
        for o in options:
            k = self.option_piece[o]
            parts.append((k, self.placements[k].rows[self.option_index[o]]))
        best = None
        for perm in self.group():
            key = tuple(sorted((k, tuple(sorted(perm[i] for i in c))) for k, c in parts))
            if best is None or key < best:
                best = key
        return best

    def fundamental_piece(self) -> tuple[int, list[int]] | None:
        """A piece used exactly once whose placements the group permutes freely, with one
        placement (option index) per orbit: fixing it to those counts each solution orbit
        exactly once. Picks the piece with the fewest orbits; None if there is none."""
        grp = self.group()
        if self.each != "exactly" or len(grp) == 1:
            return None
        best = None
        start = 0
        for k in self.active:
            keys = self.placements[k].rows
            n = len(keys)
            pos = {key: i for i, key in enumerate(keys)}
            free = True
            reps = []
            seen: set[int] = set()
            for i, key in enumerate(keys):
                if i in seen:
                    continue
                orbit = {i}
                for perm in grp[1:]:
                    j = pos[tuple(sorted(perm[c] for c in key))]
                    if j == i:
                        free = False
                        break
                    orbit.add(j)
                if not free:
                    break
                seen |= orbit
                reps.append(start + i)
            if free and (best is None or len(reps) < len(best[1])):
                best = (k, reps)
            start += n
        return best


def _dropping(ec: ExactCover, option_piece: list[int], piece: int, keep: set[int]) -> ExactCover:
    """Copy of ``ec`` without the options of ``piece`` outside ``keep``; ``sub.kept`` maps the
    copy's option numbers back."""
    kept = [o for o in range(ec.n_options) if option_piece[o] != piece or o in keep]
    sub = ExactCover(ec.n_primary, ec.n_secondary, [ec.options[o] for o in kept])
    sub.item_order = ec.item_order  # same items
    sub.cell_graph = ec.cell_graph
    sub.kept = kept  # type: ignore[attr-defined]
    return sub


def _sub_to_orig(sub: ExactCover, sol: list[int]) -> list[int]:
    return [sub.kept[o] for o in sol]  # type: ignore[attr-defined]


def solve_tiling(
    region: Polyform | str,
    pieces: Sequence[Polyform] | str,
    each: str = "exactly",
    mirror: bool = True,
    query: str = "first",
    limit: int | None = None,
    up_to_symmetry: bool = False,
    backend: str = "auto",
    time_limit: float | None = None,
    workers: int | None = None,
    kernel: str = "auto",
    deadline=None,
) -> TilingResult:
    """Tile ``region`` with ``pieces`` (each exactly / at-most once / any number of times).

    query "first" / "all" / "count". With ``up_to_symmetry`` solutions are one per orbit of the
    region's symmetry group and the result gives both counts. Raises ShapeError/FormatError on
    bad shapes or names, SolverError on a bad query/backend. ``deadline`` (a
    ``limits.Deadline`` started by the caller) makes ``time_limit`` cover set-up too: placement
    generation checks it (``LimitReached``) and the search gets what is left.
    """
    t0 = time.perf_counter()
    if query not in ("first", "all", "count"):
        raise SolverError(f"unknown query {query!r}: expected first, all or count")
    reg = parse_region(region)
    shapes = piece_set(pieces) if isinstance(pieces, str) else list(pieces)
    chosen = pick_backend(backend, query)
    prob = TilingProblem(reg, shapes, each, mirror, deadline)
    if deadline is not None:  # the search gets what set-up left of the time limit
        deadline.check("set-up")
        time_limit, t0 = deadline.remaining(), time.perf_counter()
    res = TilingResult(reg, shapes, query, chosen)
    if prob.area_mismatch():
        if query != "first":
            res.count = 0
            if up_to_symmetry:
                res.count_up_to_symmetry = 0
        if up_to_symmetry:
            res.symmetry_order = len(prob.group())
        res.seconds = time.perf_counter() - t0
        return res
    ec = prob.exact_cover
    lim = 1 if query == "first" else limit
    if not up_to_symmetry:
        if query == "count":
            res.count, res.complete = count_solutions(
                ec, chosen, limit, time_limit, workers, kernel
            )
        else:
            sols = list(iter_solutions(ec, chosen, lim, time_limit, workers, kernel))
            res.solutions = [prob.solution(s) for s in sols]
            res.complete = _complete(query, lim, len(sols), t0, time_limit)
            res.count = len(sols) if query == "all" else None
        res.seconds = time.perf_counter() - t0
        return res
    grp = prob.group()
    res.symmetry_order = len(grp)
    fp = prob.fundamental_piece()
    if fp is not None:
        # one placement per orbit of a freely permuted piece: every orbit of solutions is
        # met exactly once and has exactly |G| members
        res.symmetry_method = f"fixed piece {fp[0]}"
        sub = _dropping(ec, prob.option_piece, fp[0], set(fp[1]))
        if query == "count":
            n, res.complete = count_solutions(sub, chosen, limit, time_limit, workers, kernel)
        else:
            sols = list(iter_solutions(sub, chosen, lim, time_limit, workers, kernel))
            res.solutions = [prob.solution(_sub_to_orig(sub, s)) for s in sols]
            n = len(sols)
            res.complete = _complete(query, lim, n, t0, time_limit)
        if query != "first":
            res.count_up_to_symmetry = n
            res.count = n * len(grp) if res.complete else None
    else:
        res.symmetry_method = "canonical forms" if len(grp) > 1 else "trivial group"
        reps: dict = {}
        n = 0
        stopped = False
        for s in iter_solutions(ec, chosen, None, time_limit, workers, kernel):
            n += 1
            key = prob.canonical_key(s) if len(grp) > 1 else n
            if key not in reps:
                reps[key] = s
                if lim is not None and len(reps) >= lim:
                    stopped = True
                    break
        timed_out = time_limit is not None and time.perf_counter() - t0 > time_limit
        res.complete = query == "first" or not (stopped or timed_out)
        if query != "count":
            res.solutions = [prob.solution(s) for s in reps.values()]
        if query != "first":
            res.count_up_to_symmetry = len(reps)
            res.count = n if res.complete else None
    res.seconds = time.perf_counter() - t0
    return res


def _complete(query: str, lim: int | None, found: int, t0: float, time_limit: float | None) -> bool:
    if query == "first":
        return True
    if lim is not None and found >= lim:
        return False
    return time_limit is None or time.perf_counter() - t0 <= time_limit
