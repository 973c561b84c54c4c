"""Polyform enumeration: kernels against published OEIS counts and the plain-Python reference."""

import functools
import random
import subprocess
import sys

import numpy as np
import pytest

from tanglekit.errors import ShapeError
from tanglekit.shapes import enumerate as enum_mod
from tanglekit.shapes.enumerate import (
    _run_count,
    count_polyforms,
    count_polyforms_by_size,
    iter_polyforms,
    reference_count_polyforms,
    reference_fixed_polyforms,
    reference_polyforms,
)
from tanglekit.shapes.polyform import Polyform
from tanglekit.shapes.registry import get_lattice

# Published values, n = 1..16 (1..14 for A000105) from oeis.org; the kernels must reproduce them.
OEIS = {
    # A001420: fixed polyiamonds
    ("triangle", "fixed"): [2, 3, 6, 14, 36, 94, 250, 675, 1838, 5053, 14016, 39169, 110194,
                            311751, 886160, 2529260],
    # A006534: one-sided polyiamonds
    ("triangle", "one-sided"): [1, 1, 1, 4, 6, 19, 43, 120, 307, 866, 2336, 6588, 18373, 52119,
                                147700, 422016],
    # A000577: free polyiamonds
    ("triangle", "free"): [1, 1, 1, 3, 4, 12, 24, 66, 160, 448, 1186, 3334, 9235, 26166, 73983,
                           211297],
    # A001168: fixed polyominoes
    ("square", "fixed"): [1, 2, 6, 19, 63, 216, 760, 2725, 9910, 36446, 135268, 505861, 1903890,
                          7204874, 27394666, 104592937],
    # A000988: one-sided polyominoes
    ("square", "one-sided"): [1, 1, 2, 7, 18, 60, 196, 704, 2500, 9189, 33896, 126759, 476270,
                              1802312, 6849777, 26152418],
    # A000105: free polyominoes
    ("square", "free"): [1, 1, 2, 5, 12, 35, 108, 369, 1285, 4655, 17073, 63600, 238591, 901971],
}
CASES = sorted(OEIS)
ids = [f"{lat}-{kind}" for lat, kind in CASES]


@pytest.fixture(autouse=True)
def _kernels(monkeypatch):
    """These tests check the kernels: no plain-Python run of small sizes (``enumerate._kernels``)."""
    monkeypatch.setenv("TANGLEKIT_ENGINE", "kernel")


@pytest.mark.parametrize("lat,kind", CASES, ids=ids)
def test_plain_run_of_small_sizes_gives_the_kernels_shapes_in_their_order(lat, kind, monkeypatch):
    """A process that would compile the kernels first enumerates sizes up to PLAIN_MAX_N with
    the same functions in plain Python: the same shapes in the same order, the same counts."""
    kernel = {n: (list(iter_polyforms(n, lat, kind)), count_polyforms_by_size(n, lat, kind)) for n in range(1, 9)}
    monkeypatch.setenv("TANGLEKIT_ENGINE", "python")
    assert enum_mod._kernels(8) is not enum_mod._kernels(9)  # plain for small sizes only
    for n in range(1, 9):
        assert (list(iter_polyforms(n, lat, kind, batch_size=7)), count_polyforms_by_size(n, lat, kind)) == kernel[n]
    assert count_polyforms_by_size(8, lat, kind) == OEIS[lat, kind][:8]


@pytest.mark.parametrize("lat,kind", CASES, ids=ids)
def test_kernel_matches_oeis_up_to_10(lat, kind):
    expected = OEIS[lat, kind][:10]
    assert count_polyforms_by_size(10, lat, kind) == expected
    assert [count_polyforms(n, lat, kind) for n in range(1, 11)] == expected


def test_fixed_counts_match_oeis_up_to_16():
    assert count_polyforms_by_size(16, "triangle", "fixed") == OEIS["triangle", "fixed"]
    assert count_polyforms_by_size(15, "square", "fixed") == OEIS["square", "fixed"][:15]
    assert count_polyforms(16, "triangle", "fixed") == 2529260


@functools.lru_cache(maxsize=None)
def _reference_levels(top: int, lat: str):
    """The plain-Python fixed animals by size (made once per lattice for the three kinds)."""
    return reference_fixed_polyforms(top, lat)


@pytest.mark.parametrize("lat,kind", CASES, ids=ids)
def test_kernel_matches_reference(lat, kind):
    top = 8 if lat == "triangle" else 7
    expected = [
        len(level) if kind == "fixed" else len({Polyform(c, lat).key(kind) for c in level})
        for level in _reference_levels(top, lat)
    ]
    assert count_polyforms_by_size(top, lat, kind) == expected


def test_reference_matches_oeis_and_is_normalised():
    for lat in ("triangle", "square"):
        levels = reference_fixed_polyforms(7, lat)
        assert [len(s) for s in levels] == OEIS[lat, "fixed"][:7]
        for shape in levels[-1]:
            p = Polyform(shape, lat)
            assert p.cells == shape and p.normalized() == p and p.is_connected()
    assert reference_count_polyforms(7, "triangle", "free") == 24
    assert reference_count_polyforms(6, "square", "one-sided") == 60


def test_fixed_counts_without_bulk_last_level():
    # the per-animal path must agree with the bulk leaf count it replaces
    for lat, n in (("triangle", 12), ("square", 10)):
        lattice = get_lattice(lat)
        assert _run_count(lattice, n, "fixed", all_sizes=True, bulk=False) == OEIS[lat, "fixed"][:n]


def test_counts_resume_across_short_kernel_calls(monkeypatch):
    # a long count returns to Python every _COUNT_STEPS steps; the result must not change
    monkeypatch.setattr(enum_mod, "_COUNT_STEPS", 7)
    assert count_polyforms_by_size(9, "triangle", "free") == OEIS["triangle", "free"][:9]
    assert count_polyforms_by_size(8, "square", "fixed") == OEIS["square", "fixed"][:8]
    assert count_polyforms(8, "square", "one-sided") == OEIS["square", "one-sided"][7]


def _sums_key(p: Polyform):
    """The counting kernel's order on normal forms, in plain Python."""
    sy = sum(y for _, y in p.cells)
    sx = sum(x for x, _ in p.cells)
    return (sy, sx, sum(x * y for x, y in p.cells), p.cells)


@pytest.mark.parametrize("lat,kind", [c for c in CASES if c[1] != "fixed"], ids=lambda c: str(c))
def test_canonical_check_helpers_match_python_on_random_animals(lat, kind):
    enum_mod._jit()
    n = 9
    grid = enum_mod._grids(lat, n, kind)[0]
    index = {tuple(c): i for i, c in enumerate(grid.cells.tolist())}
    rng = random.Random(f"{lat}-{kind}")
    running = np.empty((n, 6, grid.tf.shape[1]), dtype=np.int64)
    keys0 = np.empty(n, dtype=np.int64)
    keys1 = np.empty(n, dtype=np.int64)
    lattice = get_lattice(lat)
    seen = {True: 0, False: 0}
    for _ in range(400):
        m = rng.randint(1, n)
        cells = [tuple(grid.cells[grid.origin])]
        while len(cells) < m:  # random animal inside the grid, grown from the origin
            nbr = rng.choice(lattice.neighbours(rng.choice(cells)))
            if nbr not in cells and grid.mark[index[nbr]] == 0:
                cells.append(nbr)
        animal = np.array([index[c] for c in cells], dtype=np.int32)
        for d, c in enumerate(animal):
            enum_mod._update_running(grid.tf, c, running, d)
        p = Polyform(cells, lat)
        images = p.images(kind)
        for by_sums, order in ((False, lambda q: q.cells), (True, _sums_key)):
            expected = order(images[0]) == min(order(q) for q in images)
            full = enum_mod._full_check(animal, m, grid.tf, grid.prm, keys0, keys1, by_sums)
            verdict = enum_mod._precheck(running, m - 1, m, grid.prm, by_sums)
            assert full == expected
            assert verdict == 2 or verdict == int(expected)
            seen[expected] += 1
    assert seen[True] > 20 and seen[False] > 20


@pytest.mark.parametrize("lat,kind", CASES, ids=ids)
def test_iter_polyforms_yields_each_shape_once(lat, kind):
    n = 7 if lat == "triangle" else 6
    shapes = list(iter_polyforms(n, lat, kind))
    assert len(shapes) == OEIS[lat, kind][n - 1]
    assert len(set(shapes)) == len(shapes)
    for p in shapes:
        assert p.area == n and p.lattice.name == lat and p.is_connected()
        assert p == (p.normalized() if kind == "fixed" else p.canonical(kind))
    assert set(shapes) == reference_polyforms(n, lat, kind)
    # deterministic order, independent of how the kernel batches its output
    assert list(iter_polyforms(n, lat, kind, batch_size=3)) == shapes


@pytest.mark.parametrize(
    "lat,kind", [("triangle", "fixed"), ("triangle", "free"), ("square", "free")]
)
def test_iter_polyforms_size_10(lat, kind):
    shapes = list(iter_polyforms(10, lat, kind))
    assert len(shapes) == len(set(shapes)) == OEIS[lat, kind][9]
    assert all(p.is_connected() for p in shapes)


def test_size_one_and_two():
    assert [p.cells for p in iter_polyforms(1, "triangle", "fixed")] == [((0, 0),), ((1, 0),)]
    assert [p.cells for p in iter_polyforms(1, "triangle", "free")] == [((0, 0),)]
    # Polyform.canonical compares cell tuples x first, so the upright domino is the representative
    assert [p.cells for p in iter_polyforms(2, "square", "free")] == [((0, 0), (0, 1))]
    assert sorted(p.cells for p in iter_polyforms(2, "square", "fixed")) == [
        ((0, 0), (0, 1)),
        ((0, 0), (1, 0)),
    ]


@pytest.mark.parametrize(
    "args",
    [
        (0, "triangle", "free"),
        (-3, "square", "fixed"),
        (2.5, "square", "fixed"),
        (True, "square", "free"),
        (4, "hexagon", "free"),
        (4, "triangle", "mirror"),
    ],
)
def test_bad_arguments_raise_shape_error(args):
    with pytest.raises(ShapeError):
        count_polyforms(*args)
    with pytest.raises(ShapeError):
        iter_polyforms(*args)
    with pytest.raises(ShapeError):
        reference_count_polyforms(*args)


def test_import_does_not_load_numba():
    code = "import sys, tanglekit.shapes.enumerate; print('numba' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_benchmark_script_runs_small(capsys, monkeypatch):
    from tanglekit.benchmarks import enumerate as bench
    from tanglekit.benchmarks._table import measure

    # one call per row, in this process: the counts and their OEIS check are what is tested here
    monkeypatch.setattr(bench, "measure_row", lambda fn, *a, min_cpu=0.0, **kw: measure(fn, *a, fork=False, **kw))
    bench.main(["--tri", "6", "--sq", "5", "--ref-seconds", "0.5"])
    out = capsys.readouterr().out
    assert "n = 6: 94, OEIS yes" in out and "n = 5: 63, OEIS yes" in out
    assert "OEIS NO" not in out and "DIFFERS" not in out


@pytest.mark.parametrize("lat,kind", [c for c in CASES if c[1] != "fixed"], ids=lambda c: str(c))
def test_one_sided_and_free_match_oeis_to_the_end_of_the_table(lat, kind):
    expected = OEIS[lat, kind] if lat == "triangle" else OEIS[lat, kind][:14]
    assert count_polyforms_by_size(len(expected), lat, kind) == expected


@pytest.mark.slow
def test_larger_sizes_match_oeis():
    assert count_polyforms(18, "triangle", "free") == 1736328  # A000577
    assert count_polyforms(17, "triangle", "one-sided") == 1207477  # A006534
    assert count_polyforms(16, "square", "one-sided") == 26152418  # A000988
    assert count_polyforms(16, "square", "fixed") == 104592937  # A001168
    assert count_polyforms(20, "triangle", "fixed") == 173338962  # A001420
