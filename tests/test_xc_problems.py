"""The exact-cover benchmark's small problems (benchmarks/_xc_problems.py) have their published
or brute-force counts: N-queens (OEIS A000170), Langford pairs (A014552, a pair and its reverse
once), sudoku (one solution, a valid grid keeping the givens), random planted instances (the
reference solver on small ones) and colour word squares (brute force on small ones); the
benchmark's seeded instances have their pinned counts (the random one also xcover's)."""

from __future__ import annotations

import importlib.util
import itertools

import pytest
from tanglekit.benchmarks import _xc_problems as xp
from tanglekit.solver.exact_cover import count_solutions, first_solution, iter_solutions


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 6, 8, 10])
def test_queens_counts_are_oeis(n):
    ec = xp.n_queens(n)
    assert count_solutions(ec, "dlx") == (xp.QUEENS[n], True)
    if n == 6:
        for s in iter_solutions(ec, "dlx"):
            cells = [(o // n, o % n) for o in s]
            assert len({r for r, _ in cells}) == len({c for _, c in cells}) == n
            assert len({r + c for r, c in cells}) == len({r - c for r, c in cells}) == n


@pytest.mark.parametrize("n", [3, 4, 5, 7, 8, 11])
def test_langford_counts_are_oeis(n):
    ec = xp.langford(n)
    assert count_solutions(ec, "dlx") == (xp.LANGFORD[n], True)


def test_langford_solutions_are_pairs_once_with_their_reverse():
    n = 7
    ec = xp.langford(n)
    seqs = set()
    for s in iter_solutions(ec, "dlx"):
        seq = [0] * (2 * n)
        for o in s:
            k, a, b = ec.options[o]
            seq[a - n] = seq[b - n] = k + 1
        assert all(seq.index(k) + k + 1 == len(seq) - 1 - seq[::-1].index(k) for k in range(1, n + 1))
        seqs.add(tuple(seq))
    assert len(seqs) == 26 and not seqs & {s[::-1] for s in seqs}  # no reverse twice


@pytest.mark.parametrize("key", sorted(xp.SUDOKU))
def test_sudoku_has_one_valid_solution_keeping_the_givens(key):
    grid = xp.SUDOKU[key]
    ec, places = xp.sudoku(grid)
    assert count_solutions(ec, "dlx") == (1, True)
    full = xp.sudoku_grid(grid, places, first_solution(ec))
    rows = [full[9 * r:9 * r + 9] for r in range(9)]
    digits = set("123456789")
    assert all(set(r) == digits for r in rows)
    assert all({rows[r][c] for r in range(9)} == digits for c in range(9))
    assert all({rows[3 * br + r][3 * bc + c] for r in range(3) for c in range(3)} == digits
               for br in range(3) for bc in range(3))
    assert all(g == "." or g == f for g, f in zip(grid, full))


def test_random_planted_counts_equal_the_reference():
    for seed in range(4):
        ec = xp.random_planted(12, 24, size=(2, 4), plants=2, seed=seed)
        ref = count_solutions(ec, "reference")  # include / exclude each option: another search
        assert ref[0] >= 2 and count_solutions(ec, "dlx") == ref


def _squares_brute(words: list[str]) -> int:
    """Double word squares by brute force: rows from the list, columns in it, 2n words distinct."""
    n = len(words[0])
    lookup = set(words)
    total = 0
    for rows in itertools.product(words, repeat=n):
        cols = ["".join(r[j] for r in rows) for j in range(n)]
        if all(c in lookup for c in cols) and len(set(rows) | set(cols)) == 2 * n:
            total += 1
    return total


@pytest.mark.parametrize("seed", range(3))
def test_word_squares_count_equals_brute_force(seed):
    words = xp.random_words(3, 40, "abcd", plants=3, seed=seed)
    ec = xp.word_squares(words)
    assert ec.has_colours
    expected = _squares_brute(words)
    assert expected >= 1 and count_solutions(ec, "dlx") == (expected, True)
    assert count_solutions(ec, "dlx", kernel="links") == (expected, True)


def test_benchmark_seeded_counts():
    """The seeded instances of the benchmark: our counts, and xcover's when installed."""
    from tanglekit.benchmarks.exact_cover import RANDOM40_COUNT, WORDS4_COUNT, _tool, small_problem

    for key, n in (("random40", RANDOM40_COUNT), ("words4", WORDS4_COUNT)):
        ec, expected = small_problem(key)
        assert expected == n and count_solutions(ec, "dlx") == (n, True)
        if key == "random40" and importlib.util.find_spec("xcover") is not None:
            assert _tool("xcover", ec, 60)("count") == (n, True)
