"""The plain-Python paths of small tilings (start-up) against the numpy and numba ones: lattice
symmetries on tuples vs arrays, placements made in Python vs with numpy, and the plain
exact-cover count (``solver/xc_small.py``) vs the dancing-links kernels, on random instances."""

from __future__ import annotations

import random

import pytest
from tanglekit.shapes.placements import _array_placements, _plain_placements
from tanglekit.shapes.polyform import Polyform
from tanglekit.shapes.registry import get_lattice
from tanglekit.solver.exact_cover import ExactCover, count_solutions
from tanglekit.solver.tiling import TilingProblem, parse_region, piece_set, solve_tiling
from tanglekit.solver.xc_small import count_small, plain_ok


def _random_shape(rng, lat, n, spread=30):
    cells = set()
    while len(cells) < n:
        c = (rng.randint(-spread, spread), rng.randint(-spread, spread))
        if lat.cell_ok(c):
            cells.add(c)
    return Polyform(sorted(cells), lat)


@pytest.mark.parametrize("name", ["triangle", "square", "hex", "hexside"])
def test_plain_symmetries_equal_the_array_ones(name):
    lat = get_lattice(name)
    rng = random.Random(len(name))
    for _ in range(150):
        p = _random_shape(rng, lat, rng.randint(1, 12))
        assert lat.origin_shift(p.cells) == lat.translation_to_origin(p.array)
        assert p.normalized().cells == tuple(map(tuple, lat.normalize(p.array).tolist()))
        for k in range(lat.n_symmetries):
            arr = lat.transform(p.array, k)
            assert lat.transform_cells(p.cells, k) == [tuple(c) for c in arr.tolist()]
            assert p.transformed(k).cells == tuple(map(tuple, lat.normalize(arr).tolist()))


def test_polyform_input_checks_are_the_array_ones():
    import numpy as np
    from tanglekit.errors import ShapeError

    for cells in ([(0, 0), (1, 0)], [[0, 0], [0, 1]], ((2, 3),), np.array([[0, 0], [1, 0]]), {(0, 0), (2, 0)}):
        assert Polyform(cells, "square").cells == Polyform(np.asarray(list(cells)), "square").cells
    for bad, msg in (([(0, 0), (0, 0)], "duplicate cell (0, 0)"), ([], "empty shape"),
                     ([(0, 2**31)], "cell coordinates must lie between"), ([(0, 1, 2)], "cells must be pairs"),
                     (["ab"], "cells must be pairs")):
        with pytest.raises(ShapeError, match=msg.replace("(", r"\(").replace(")", r"\)")):
            Polyform(bad, "square")


@pytest.mark.parametrize("region,pieces", [("rect:5x4", "pentominoes"), ("rect:3x7", "tetrominoes"),
                                           ("parallelogram:3x2", "hexiamonds"), ("triangle:4", "tetriamonds"),
                                           ("hexagon:1", "triamonds")])
def test_plain_placements_equal_the_array_ones(region, pieces):
    reg = parse_region(region)
    for mirror in (True, False):
        for p in piece_set(pieces, reg.lattice.name):
            orients = p.orientations("free" if mirror else "one-sided")
            a = _plain_placements(p, reg, orients, None)
            b = _array_placements(p, reg, orients, None)
            assert a.rows == b.rows and a.orients == b.orients and a.offsets == b.offsets
            assert (a.cells == b.cells).all() and (a.offset == b.offset).all()
            assert [a.shape(i) for i in range(len(a))] == [b.shape(i) for i in range(len(b))]


def _random_region(rng, lattice: str) -> Polyform:
    """A random connected region of 6..20 cells."""
    lat = get_lattice(lattice)
    cells = {(0, 0)}
    target = rng.randint(6, 20)
    while len(cells) < target:
        c = rng.choice(sorted(cells))
        cells.add(rng.choice(lat.neighbours(c)))
    return Polyform(sorted(cells), lat)


def test_plain_count_equals_the_kernels_on_random_tilings():
    rng = random.Random(2026)
    sets = {"square": ["dominoes", "trominoes", "tetrominoes", "pentominoes"],
            "triangle": ["diamonds", "triamonds", "tetriamonds", "pentiamonds", "hexiamonds"]}
    checked = nonzero = 0
    for _ in range(200):
        lattice = rng.choice(["square", "triangle"])
        reg = _random_region(rng, lattice)
        shapes = piece_set(rng.choice(sets[lattice]), lattice)
        each = rng.choice(["exactly", "at-most", "any"])
        prob = TilingProblem(reg, shapes, each, mirror=rng.random() < 0.8)
        ec = prob.exact_cover
        if prob.area_mismatch() or not plain_ok(ec):
            continue
        plain = count_small(ec, max_nodes=None)
        kernel = count_solutions(ec, "dlx", kernel="links")
        assert plain == kernel, (reg.cells, each)
        checked += 1
        nonzero += plain[0] > 0
    assert checked >= 80 and nonzero >= 12


def _random_problem(rng, most_options: int) -> ExactCover:
    """1-12 primary items, 0-4 secondary ones, 1..most_options options of 1-3 primary items each."""
    n_p, n_s = rng.randint(1, 12), rng.randint(0, 4)
    opts = []
    for _ in range(rng.randint(1, most_options)):
        prim = rng.sample(range(n_p), rng.randint(1, min(3, n_p)))
        sec = rng.sample(range(n_p, n_p + n_s), rng.randint(0, n_s)) if n_s else []
        opts.append(prim + sec)
    return ExactCover(n_p, n_s, opts)


def test_plain_count_equals_the_kernels_on_random_problems():
    rng = random.Random(7)
    for _ in range(150):
        ec = _random_problem(rng, 25)
        n_p, n_s = ec.n_primary, ec.n_secondary
        if rng.random() < 0.5:
            ec.item_order = rng.sample(range(n_p + n_s), n_p + n_s)
        assert plain_ok(ec)
        assert count_small(ec, max_nodes=None) == count_solutions(ec, "dlx", kernel="links")
    # what the plain count leaves to the kernels
    assert not plain_ok(ExactCover(2, 1, [[0], [1], [2]]))  # an option without a primary item
    assert not plain_ok(ExactCover(2, 0, [[0], [1]], bounds={0: (0, 2)}))
    assert not plain_ok(ExactCover(1, 1, [[0, 1], [0, 1]], colours=[[0, 1], [0, 1]]))
    assert not plain_ok(ExactCover(2, 0, [[0], [1]]), limit=5)


def test_plain_count_gives_up_past_its_budget_and_stops_at_the_time_limit():
    reg, shapes = parse_region("rect:10x6"), piece_set("pentominoes")
    ec = TilingProblem(reg, shapes).exact_cover
    assert count_small(ec, max_nodes=500) is None
    n, complete = count_small(ec, max_nodes=None, time_limit=0.0)
    assert not complete and 0 <= n <= 9356


def test_tile_count_through_either_engine(monkeypatch):
    for engine in ("python", "kernel"):
        monkeypatch.setenv("TANGLEKIT_ENGINE", engine)
        for region, pieces, each, sym, want in (("rect:5x4", "pentominoes", "at-most", False, 200),
                                                 ("rect:5x3", "pentominoes", "exactly", True, 0),
                                                 ("rect:5x4", "tetrominoes", "any", True, None)):
            res = solve_tiling(region, pieces, each=each, query="count", up_to_symmetry=sym)
            if want is not None:
                assert res.count == want
            else:
                ref = solve_tiling(region, pieces, each=each, query="count", up_to_symmetry=sym, kernel="links")
                assert (res.count, res.count_up_to_symmetry) == (ref.count, ref.count_up_to_symmetry)


def _first_kernel(ec, kernel):
    return ec.compile(kernel).first()


def test_plain_first_solution_is_the_kernels_first_on_random_problems():
    from tanglekit.solver.xc_small import first_small

    rng = random.Random(11)
    found = 0
    for _ in range(200):
        ec = _random_problem(rng, 30)
        sol, complete = first_small(ec, max_nodes=None)
        assert complete
        for kernel in ("bitset", "links"):
            assert sol == _first_kernel(ec, kernel), (ec.n_primary, ec.n_secondary, ec.options)
        found += sol is not None
    assert found >= 40


def test_plain_first_tiling_is_the_kernels_first():
    from tanglekit.solver.xc_small import first_small

    rng = random.Random(5)
    sets = {"square": ["dominoes", "trominoes", "tetrominoes", "pentominoes"],
            "triangle": ["diamonds", "triamonds", "tetriamonds", "pentiamonds", "hexiamonds"]}
    cases = [TilingProblem(parse_region("parallelogram:6x6"), piece_set("hexiamonds")),
             TilingProblem(parse_region("rect:12x5"), piece_set("pentominoes"))]
    for _ in range(150):
        lattice = rng.choice(["square", "triangle"])
        cases.append(TilingProblem(_random_region(rng, lattice), piece_set(rng.choice(sets[lattice]), lattice),
                                   rng.choice(["exactly", "at-most", "any", "any"]), mirror=rng.random() < 0.8))
    found = 0
    for prob in cases:
        ec = prob.exact_cover
        if prob.area_mismatch() or not plain_ok(ec):
            continue
        sol, _ = first_small(ec, max_nodes=None)
        assert sol == _first_kernel(ec, "bitset") == _first_kernel(ec, "links"), prob.region.cells
        found += sol is not None
    assert found >= 20


def test_plain_first_gives_up_past_its_budget_and_the_tile_picture_is_the_same(monkeypatch):
    from tanglekit.solver.xc_small import first_small

    ec = TilingProblem(parse_region("parallelogram:6x6"), piece_set("hexiamonds")).exact_cover
    assert first_small(ec, max_nodes=3) is None
    assert first_small(ExactCover(2, 0, [[0]]), max_nodes=None) == (None, True)  # item 1 in no option
    pictures = []
    for engine in ("python", "kernel"):
        monkeypatch.setenv("TANGLEKIT_ENGINE", engine)
        res = solve_tiling("parallelogram:6x6", "hexiamonds")
        pictures.append(res.solutions[0].to_svg())
    assert pictures[0] == pictures[1]


def test_csr_summary_on_random_options():
    import numpy as np
    from tanglekit.solver.xc_problem import csr_summary

    rng = random.Random(3)
    for _ in range(300):
        n_p, n_s = rng.randint(0, 6), rng.randint(0, 3)
        n_items = n_p + n_s
        opts = [rng.sample(range(n_items), rng.randint(0, n_items)) for _ in range(rng.randint(0, 6))]
        ptr = np.zeros(len(opts) + 1, dtype=np.int64)
        ptr[1:] = np.cumsum([len(t) for t in opts])
        flat = np.array([i for t in opts for i in t], dtype=np.int64)
        prim = [sum(1 for i in t if i < n_p) for t in opts]
        want = (any(not t for t in opts), any(p == 0 for p in prim),
                any(all(i not in t for t in opts) for i in range(n_p)), max(prim, default=0))
        assert csr_summary(ptr, flat, n_p, n_items) == want, opts


def test_a_plain_first_solution_past_its_budget_leaves_the_next_ones_to_the_kernel(monkeypatch):
    from tanglekit import engines
    from tanglekit.solver import exact_cover, xc_small

    monkeypatch.delenv("TANGLEKIT_ENGINE", raising=False)
    monkeypatch.setattr(engines, "kernel_ready", lambda kernel: False)
    monkeypatch.setattr(exact_cover, "_PLAIN_GAVE_UP", False)
    monkeypatch.setattr(exact_cover, "FIRST_NODES_COLD", 3)
    calls = []
    real = xc_small.first_small
    monkeypatch.setattr(exact_cover, "first_small", lambda *a, **kw: calls.append(1) or real(*a, **kw))
    ec = TilingProblem(parse_region("parallelogram:6x6"), piece_set("hexiamonds")).exact_cover
    want = real(ec, max_nodes=None)[0]
    assert exact_cover.first_solution(ec) == want and len(calls) == 1  # gave up: the kernel's answer
    assert exact_cover.first_solution(ec) == want and len(calls) == 1  # no second plain try
