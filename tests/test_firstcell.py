"""The first-cell bitboard kernel counts exactly what the plain-Python reference counts, in any
item order, resumed in small node budgets, and on published tiling counts."""

import random

import numpy as np
import pytest

from tanglekit.solver.dlx_firstcell import FirstCellMatrix, reference_firstcell_count
from tanglekit.solver.exact_cover import ExactCover, count_solutions, reduce_multiplicities
from tanglekit.solver.tiling import TilingProblem, parse_region, piece_set, solve_tiling


def _random_plain(rng, n_items, sparse=False):
    """Random options plus planted covers; ``sparse``: large options only (few covers)."""
    opts = set()
    for _ in range(rng.randint(1, 3 * n_items)):
        k = rng.randint(1, min(4, n_items)) if not sparse else rng.randint(n_items // 6 + 1, n_items // 3 + 1)
        opts.add(tuple(sorted(rng.sample(range(n_items), k))))
    # plant one cover so some problems have solutions
    perm = list(range(n_items))
    rng.shuffle(perm)
    i = 0
    while i < n_items:
        k = rng.randint(1, 4) if not sparse else rng.randint(n_items // 6 + 1, n_items // 3 + 1)
        opts.add(tuple(sorted(perm[i:i + k])))
        i += k
    return ExactCover(n_items, 0, sorted(opts))


def _kernel_count(ec, order=None, budget=0):
    red = reduce_multiplicities(ec)
    m = FirstCellMatrix(ec.n_items, red.ptr, red.items, order)
    while not m.finished:
        m.count(max_nodes=budget)
    return int(m.state[1])


def test_firstcell_equals_reference_on_random_problems():
    rng = random.Random(5)
    nonzero = 0
    for k in range(150):
        n = rng.choice([1, 3, 8, 12, 63, 64, 65, 100, 128]) if k % 5 == 0 else rng.randint(1, 12)
        ec = _random_plain(rng, n, sparse=n > 12)
        if n <= 12:
            ref = count_solutions(ec, "reference")[0]
        else:
            ref = count_solutions(ec, "dlx", kernel="links")[0]
        order = list(range(n))
        rng.shuffle(order)
        assert reference_firstcell_count(n, ec.options, order) == ref
        assert _kernel_count(ec) == ref
        assert _kernel_count(ec, order, budget=rng.choice([0, 1, 7])) == ref
        assert count_solutions(ec, "dlx", kernel="firstcell") == (ref, True)
        nonzero += ref > 0
    assert nonzero > 50


@pytest.mark.parametrize("region,pieces,count", [
    ("parallelogram:6x6", "hexiamonds", 624), ("rect:20x3", "pentominoes", 8), ("parallelogram:4x9", "hexiamonds", 148),
])
def test_firstcell_tiling_counts(region, pieces, count):
    prob = TilingProblem(parse_region(region), piece_set(pieces))
    ec = prob.exact_cover
    assert ec.item_order is not None
    assert count_solutions(ec, "dlx") == (count, True)  # auto picks firstcell for a tiling
    assert count_solutions(ec, "dlx", kernel="bitset") == (count, True)
    assert solve_tiling(parse_region(region), piece_set(pieces), query="count").count == count


def test_firstcell_refuses_colours_and_secondaries():
    from tanglekit.errors import SolverError

    with pytest.raises(SolverError):
        count_solutions(ExactCover(1, 1, [[0, 1]]), "dlx", kernel="firstcell")
    # auto falls back to the other kernels for such problems
    assert count_solutions(ExactCover(1, 1, [[0, 1], [0]]), "dlx") == (2, True)
    assert np.int64(-1) == np.int64(-1)


def test_firstcell_parallel_equals_one_process():
    from tanglekit.solver.dlx_firstcell import _firstcell_frontier, firstcell_count_from, firstcell_count_parallel

    prob = TilingProblem(parse_region("parallelogram:6x6"), piece_set("hexiamonds"))
    red = reduce_multiplicities(prob.exact_cover)
    m = FirstCellMatrix(prob.exact_cover.n_items, red.ptr, red.items, prob.exact_cover.item_order)
    boards, found = _firstcell_frontier(m, 40)
    assert len(boards) >= 40
    assert found + sum(firstcell_count_from(m, x, y) for x, y in boards) == 624
    assert firstcell_count_parallel(m, 2) == 624
    assert count_solutions(prob.exact_cover, "dlx", workers=2) == (624, True)
    rng = random.Random(9)
    for _ in range(20):
        ec = _random_plain(rng, rng.randint(2, 12))
        red = reduce_multiplicities(ec)
        m = FirstCellMatrix(ec.n_items, red.ptr, red.items)
        assert firstcell_count_parallel(m, 1) == count_solutions(ec, "reference")[0]


def test_firstcell_groups_of_more_than_64_candidates():
    """Every subset of 1..4 of 10 items is an option: item 0 has 130 candidates (three groups
    of look-up tables); the count is the number of partitions of a 10-set into blocks of at most
    4, 99146 (OEIS A001681; the recurrence a(n) = sum_k C(n-1, k-1) a(n-k), k <= 4)."""
    from itertools import combinations

    n = 10
    opts = [c for k in range(1, 5) for c in combinations(range(n), k)]
    ec = ExactCover(n, 0, opts)
    ref = reference_firstcell_count(n, opts)
    red = reduce_multiplicities(ec)
    m = FirstCellMatrix(n, red.ptr, red.items)
    assert int(m.args.gfirst[1] - m.args.gfirst[0]) == 3
    assert m.count() == ref == count_solutions(ec, "dlx", kernel="links")[0] == 99146
    for budget in (1, 5, 50):
        m = FirstCellMatrix(n, red.ptr, red.items, list(range(n))[::-1])
        while not m.finished:
            m.count(max_nodes=budget)
        assert m.count() == ref
