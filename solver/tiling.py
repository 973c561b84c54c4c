"""Polyform tiling puzzles ("tile region R with pieces S") on top of the exact-cover engine.

Named regions (``rect:WxH``, ``parallelogram:AxB``, ``triangle:N``, ``hexagon:N``) and piece
sets (``pentominoes``, ``hexiamonds``, ... or a JSON file), counting up to the region's
symmetry (by fixing one piece to a fundamental domain when that is exact, else by
canonicalising every solution), and solutions as lists of placed Polyforms.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Sequence

import numpy as np

from ..errors import FormatError, ShapeError, SolverError
from ..jsonio import read_json_file
from ..shapes.lattice import get_lattice
from ..shapes.placements import Placements, placements
from ..shapes.polyform import Polyform
from .exact_cover import ExactCover, count_solutions, iter_solutions, pick_backend

EACH = ("exactly", "at-most", "any")

# name -> (cells per piece, lattice)
PIECE_SETS: dict[str, tuple[int, str]] = {
    "monominoes": (1, "square"),
    "dominoes": (2, "square"),
    "trominoes": (3, "square"),
    "tetrominoes": (4, "square"),
    "pentominoes": (5, "square"),
    "hexominoes": (6, "square"),
    "moniamonds": (1, "triangle"),
    "diamonds": (2, "triangle"),
    "triamonds": (3, "triangle"),
    "tetriamonds": (4, "triangle"),
    "pentiamonds": (5, "triangle"),
    "hexiamonds": (6, "triangle"),
    "heptiamonds": (7, "triangle"),
}


# --- piece sets -------------------------------------------------------------------------
def _grow_free(n: int, lattice: str) -> list[Polyform]:
    """Free polyforms of n cells by growing canonical forms cell by cell (small n only)."""
    current = {Polyform([(0, 0)], lattice).canonical("free")}
    for _ in range(n - 1):
        nxt: set[Polyform] = set()
        for p in current:
            cells = p.cellset
            for c in p.cells:
                for nb in p.lattice.neighbours(c):
                    if nb not in cells:
                        nxt.add(Polyform(p.cells + (nb,), lattice).canonical("free"))
        current = nxt
    return sorted(current, key=lambda p: p.cells)


def free_polyforms(n: int, lattice: str) -> list[Polyform]:
    """Free polyforms of ``n`` cells in canonical form, sorted by cells.

    Up to 7 cells the local grower takes milliseconds, while the shared numba enumerator
    (shapes.enumerate) costs a compile or cache load; larger sizes use the enumerator.
    """
    if n <= 7:
        return _grow_free(n, lattice)
    try:
        from ..shapes.enumerate import iter_polyforms
    except ImportError:  # pragma: no cover - the enumerator ships with tanglekit
        return _grow_free(n, lattice)
    shapes = {
        Polyform(p.cells, lattice).canonical("free") for p in iter_polyforms(n, lattice, "free")
    }
    return sorted(shapes, key=lambda p: p.cells)


def load_pieces(path: str | Path, lattice: str = "triangle") -> list[Polyform]:
    """Pieces from a JSON file: a list of shapes (each a list of [x, y]), or an object
    ``{"lattice": "square", "pieces": [...]}``."""
    data = read_json_file(path, "piece file")
    if isinstance(data, dict):
        lattice = data.get("lattice", lattice)
        data = data.get("pieces", data.get("shapes"))
    if not isinstance(data, list) or not data:
        raise FormatError(f"{path}: expected a non-empty list of shapes")
    out = []
    for k, shape in enumerate(data):
        if not isinstance(shape, list) or not all(
            isinstance(c, list) and len(c) == 2 and all(isinstance(v, int) for v in c)
            for c in shape
        ):
            raise FormatError(f"{path}: shape {k} is not a list of [x, y] integer pairs")
        try:
            out.append(Polyform(shape, lattice))
        except ShapeError as e:
            raise ShapeError(f"{path}: shape {k}: {e}") from None
    return out


def piece_set(name: str, lattice: str | None = None) -> list[Polyform]:
    """A named set of free pieces (``pentominoes``, ``hexiamonds``, ...) or a JSON file path."""
    key = name.strip().lower()
    if key in PIECE_SETS:
        n, lat = PIECE_SETS[key]
        if lattice is not None and get_lattice(lattice).name != lat:
            raise ShapeError(f"piece set {name!r} lives on the {lat} lattice, not {lattice}")
        return free_polyforms(n, lat)
    if key.endswith(".json") or Path(name).is_file():
        return load_pieces(name, lattice or "triangle")
    raise FormatError(
        f"unknown piece set {name!r}: expected one of {', '.join(PIECE_SETS)} or a .json file"
    )


# --- regions ----------------------------------------------------------------------------
def rectangle(w: int, h: int) -> Polyform:
    return Polyform([(x, y) for y in range(h) for x in range(w)], "square")


def parallelogram(a: int, b: int) -> Polyform:
    """``a`` rhombi along the horizontal side, ``b`` rows; 2ab triangles, angle 60 degrees."""
    cells = [(x, y) for y in range(b) for x in range(-y, -y + 2 * a)]
    return Polyform(cells, "triangle").normalized()


def big_triangle(n: int) -> Polyform:
    """Up-pointing triangle of side ``n``: n^2 cells."""
    cells = [(x, y) for y in range(n) for x in range(-y, y + 1)]
    return Polyform(cells, "triangle").normalized()


def hexagon(n: int) -> Polyform:
    """Regular hexagon of side ``n``: 6n^2 cells."""
    cells = []
    x0 = 0
    for y in range(n):  # top half widens
        cells.extend((x, y) for x in range(x0 - y, x0 - y + 2 * n + 1 + 2 * y))
    start = x0 - (n - 1)
    for k in range(n):  # bottom half narrows
        y = n + k
        cells.extend((x, y) for x in range(start + k, start + k + 4 * n - 1 - 2 * k))
    return Polyform(cells, "triangle").normalized()


_REGION_RE = re.compile(r"^(rect|parallelogram|triangle|hexagon):(\d+)(?:x(\d+))?$")


def parse_region(spec: str | Polyform) -> Polyform:
    """A region from ``rect:WxH``, ``parallelogram:AxB``, ``triangle:N``, ``hexagon:N``, a
    JSON file (list of [x, y] on the triangle lattice, or {"lattice":, "cells":}), or a Polyform."""
    if isinstance(spec, Polyform):
        return spec
    s = spec.strip()
    m = _REGION_RE.match(s.lower())
    if m:
        kind, a, b = m.group(1), int(m.group(2)), m.group(3)
        two = kind in ("rect", "parallelogram")
        if two != (b is not None):
            form = f"{kind}:AxB" if two else f"{kind}:N"
            raise FormatError(f"region {spec!r}: expected {form}")
        sizes = (a, int(b)) if two else (a,)
        if min(sizes) < 1:
            raise ShapeError(f"region {spec!r}: sizes must be at least 1")
        if kind == "rect":
            return rectangle(*sizes)
        if kind == "parallelogram":
            return parallelogram(*sizes)
        if kind == "triangle":
            return big_triangle(a)
        return hexagon(a)
    if s.lower().endswith(".json") or Path(s).is_file():
        try:
            data = json.loads(Path(s).read_text())
        except OSError as e:
            raise FormatError(f"cannot read region file {s}: {e.strerror}") from None
        except json.JSONDecodeError as e:
            raise FormatError(f"{s}: not valid JSON ({e.msg} at line {e.lineno})") from None
        lattice = "triangle"
        if isinstance(data, dict):
            lattice = data.get("lattice", lattice)
            data = data.get("cells")
        if not isinstance(data, list):
            raise FormatError(f"{s}: expected a list of [x, y] cells")
        return Polyform(data, lattice)
    raise FormatError(
        f"unknown region {spec!r}: expected rect:WxH, parallelogram:AxB, triangle:N, "
        "hexagon:N or a .json file"
    )


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
        from ..shapes.render import svg_tiling

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
        from ..shapes.render import svg_shape

        return svg_shape(self.region, fill="#dddddd")

    def _repr_svg_(self) -> str:  # Jupyter shows the picture
        return self.to_svg()

    def summary(self) -> dict:
        """The ``--count --json`` record: count, count_up_to_symmetry, backend, seconds."""
        return {
            "count": self.count,
            "count_up_to_symmetry": self.count_up_to_symmetry,
            "backend": self.backend,
            "seconds": round(self.seconds, 4),
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
    """Cells ordered along the region's short side first (columns of a wide region), then the
    piece items: the order in which a first-empty-cell search keeps its frontier short."""
    cells = list(region.cells)
    xs = [c[0] for c in cells]
    ys = [c[1] for c in cells]
    wide = (max(xs) - min(xs)) >= (max(ys) - min(ys)) if cells else True
    key = (lambda k: (cells[k][0], cells[k][1])) if wide else (lambda k: (cells[k][1], cells[k][0]))
    return sorted(range(len(cells)), key=key) + list(range(len(cells), n_items))


class TilingProblem:
    """The exact-cover form of a tiling puzzle: items = region cells (+ piece items)."""

    def __init__(
        self,
        region: Polyform,
        pieces: Sequence[Polyform],
        each: str = "exactly",
        mirror: bool = True,
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
            k: placements(self.pieces[k], region, mirror) for k in self.active
        }
        self.n_cells = region.area
        n_piece_items = len(self.pieces) if each != "any" else 0
        opts: list[tuple[int, ...]] = []
        self.option_piece: list[int] = []
        self.option_index: list[int] = []  # placement number within the piece
        for k in self.active:
            pl = self.placements[k]
            for i, row in enumerate(pl.cells.tolist()):
                opts.append(tuple(row) + ((self.n_cells + k,) if n_piece_items else ()))
                self.option_piece.append(k)
                self.option_index.append(i)
        if each == "exactly":
            n_p, n_s = self.n_cells + n_piece_items, 0
        else:
            n_p, n_s = self.n_cells, n_piece_items
        self.exact_cover = ExactCover(n_p, n_s, opts)
        self.exact_cover.item_order = _short_side_order(region, n_p)
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
    def group(self) -> list[np.ndarray]:
        """Cell permutations of the region symmetries that map every piece's placements onto
        themselves (all region symmetries when mirrors are allowed). Identity first."""
        if self._group is not None:
            return self._group
        reg = self.region
        lat = reg.lattice
        base = reg.normalized()
        d0 = np.array(lat.translation_to_origin(reg.array))
        index = {c: i for i, c in enumerate(reg.cells)}
        perms = []
        for k in range(lat.n_symmetries):
            t = lat.transform(reg.array, k)
            if Polyform._trusted(lat.normalize(t), lat) != base:
                continue
            shift = np.array(lat.translation_to_origin(t)) - d0
            img = t + shift
            perm = np.array([index[(int(x), int(y))] for x, y in img], dtype=np.int64)
            ok = True
            for pk in self.active:
                rows = self.placements[pk].cells
                have = {tuple(r) for r in rows.tolist()}
                mapped = {tuple(sorted(r)) for r in perm[rows].tolist()}
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
            parts.append((k, self.placements[k].cells[self.option_index[o]]))
        best = None
        for perm in self.group():
            key = tuple(sorted((k, tuple(sorted(perm[c].tolist()))) for k, c in parts))
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
            rows = self.placements[k].cells
            n = len(rows)
            keys = [tuple(r) for r in rows.tolist()]
            pos = {key: i for i, key in enumerate(keys)}
            free = True
            reps = []
            seen: set[int] = set()
            for i, key in enumerate(keys):
                if i in seen:
                    continue
                orbit = {i}
                for perm in grp[1:]:
                    j = pos[tuple(sorted(perm[list(key)].tolist()))]
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
) -> TilingResult:
    """Tile ``region`` with ``pieces`` (each exactly / at-most once / any number of times).

    query "first" / "all" / "count". With ``up_to_symmetry`` solutions are one per orbit of the
    region's symmetry group and the result gives both counts. Raises ShapeError/FormatError on
    bad shapes or names, SolverError on a bad query/backend.
    """
    t0 = time.perf_counter()
    if query not in ("first", "all", "count"):
        raise SolverError(f"unknown query {query!r}: expected first, all or count")
    reg = parse_region(region)
    shapes = piece_set(pieces) if isinstance(pieces, str) else list(pieces)
    chosen = pick_backend(backend, query)
    prob = TilingProblem(reg, shapes, each, mirror)
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
