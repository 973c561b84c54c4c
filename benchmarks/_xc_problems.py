"""Exact-cover problems of the benchmark beyond tilings: N-queens, Langford pairs, sudoku,
random planted instances and colour (XCC) word squares, each with its known count.

Every builder returns an ``ExactCover`` with integer items, primary ones first; the counts are
the published ones (N-queens: OEIS A000170; Langford pairs: A014552, each pair and its reverse
counted once) or checked by brute force in ``tests/test_xc_problems.py``.
"""

from __future__ import annotations

import random

from tanglekit.solver.exact_cover import ExactCover

# OEIS A000170 (n = 1..12) and A014552 (n = 1..12)
QUEENS = {1: 1, 2: 0, 3: 0, 4: 2, 5: 10, 6: 4, 7: 40, 8: 92, 9: 352, 10: 724, 11: 2680, 12: 14200}
LANGFORD = {1: 0, 2: 0, 3: 1, 4: 1, 5: 0, 6: 0, 7: 26, 8: 150, 9: 0, 10: 0, 11: 17792, 12: 108144}

# Sudoku with one solution each: the Wikipedia example (30 givens) and Arto Inkala's 2012
# "world's hardest sudoku" (21 givens); rows top to bottom, '.' an empty cell.
SUDOKU = {
    "easy": "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
    "hard": "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
}


def n_queens(n: int) -> ExactCover:
    """N-queens as XCC: ranks and files primary (items 0..2n-1), the 2n-1 diagonals and 2n-1
    anti-diagonals secondary; option r*n + c is a queen on rank r, file c."""
    opts = [(r, n + c, 2 * n + r + c, 2 * n + (2 * n - 1) + (r - c + n - 1))
            for r in range(n) for c in range(n)]
    return ExactCover(2 * n, 2 * (2 * n - 1), opts)


def langford(n: int) -> ExactCover:
    """Langford pairs: the numbers 1..n twice in 2n positions, the two k's k positions apart
    (k numbers between them). Items: the numbers (0..n-1), then the positions. The 1s may only
    start in the first n-1 positions, so each solution and its reverse count once."""
    opts = []
    for k in range(1, n + 1):
        for i in range(2 * n - k - 1):
            if k == 1 and i > n - 2:
                continue  # the reverse of a pair with the first 1 later
            opts.append((k - 1, n + i, n + i + k + 1))
    return ExactCover(3 * n, 0, opts)


def sudoku(grid: str) -> tuple[ExactCover, list[tuple[int, int, int]]]:
    """A 9x9 sudoku (81 characters, digits or '.') as exact cover, without the givens: items
    are the empty cells and the (row, digit), (column, digit) and (box, digit) pairs the givens
    leave open, options the (row, column, digit) placements no given rules out (listed
    alongside, in option order)."""
    g = [int(ch) if ch.isdigit() and ch != "0" else 0 for ch in grid if not ch.isspace()]
    if len(g) != 81:
        raise ValueError("a sudoku has 81 cells")
    box = [[(r // 3) * 3 + c // 3 for c in range(9)] for r in range(9)]
    used = set()
    for r in range(9):
        for c in range(9):
            d = g[9 * r + c]
            if d:
                used |= {("r", r, d), ("c", c, d), ("b", box[r][c], d)}
    index: dict = {}
    places, opts = [], []
    for r in range(9):
        for c in range(9):
            if g[9 * r + c]:
                continue
            for d in range(1, 10):
                keys = [("x", r, c), ("r", r, d), ("c", c, d), ("b", box[r][c], d)]
                if any(k in used for k in keys[1:]):
                    continue
                opts.append(tuple(index.setdefault(k, len(index)) for k in keys))
                places.append((r, c, d))
    return ExactCover(len(index), 0, opts), places


def sudoku_grid(grid: str, places: list[tuple[int, int, int]], solution: list[int]) -> str:
    """The filled grid (81 digits) of a sudoku solution (option indices of ``sudoku``)."""
    g = [ch if ch.isdigit() and ch != "0" else "." for ch in grid if not ch.isspace()]
    for o in solution:
        r, c, d = places[o]
        g[9 * r + c] = str(d)
    return "".join(g)


def random_planted(n_items: int, n_options: int, size: tuple[int, int] = (2, 5), plants: int = 3,
                   seed: int = 1) -> ExactCover:
    """A seeded random exact-cover problem (primary items only) with ``plants`` planted exact
    covers, so that it has solutions: random options of ``size`` items, then each planted
    cover's options (a random partition of the items into parts of that size)."""
    rng = random.Random(seed)
    lo, hi = size
    opts = set()
    while len(opts) < n_options:
        opts.add(tuple(sorted(rng.sample(range(n_items), rng.randint(lo, hi)))))
    for _ in range(plants):
        perm = list(range(n_items))
        rng.shuffle(perm)
        k = 0
        while k < n_items:
            step = min(rng.randint(lo, hi), n_items - k)
            opts.add(tuple(sorted(perm[k:k + step])))
            k += step
    return ExactCover(n_items, 0, sorted(opts))


def random_words(n: int, count: int, letters: str, plants: int = 2, seed: int = 1) -> list[str]:
    """A seeded dictionary of ``count`` distinct words of length n over ``letters``, holding the
    rows and columns of ``plants`` random n x n letter squares (so double word squares exist)."""
    if count > len(letters) ** n:
        raise ValueError(f"only {len(letters) ** n} words of length {n} over {len(letters)} letters")
    rng = random.Random(seed)
    words: dict[str, None] = {}
    for _ in range(plants):
        sq = [[rng.choice(letters) for _ in range(n)] for _ in range(n)]
        for i in range(n):
            words.setdefault("".join(sq[i]), None)
            words.setdefault("".join(sq[j][i] for j in range(n)), None)
    while len(words) < count:
        words.setdefault("".join(rng.choice(letters) for _ in range(n)), None)
    return sorted(words)


def word_squares(words: list[str]) -> ExactCover:
    """Double word squares as XCC (Knuth, TAOCP 7.2.2.1): an n x n array of letters whose rows
    and columns are 2n different words of the list. Primary items: the rows (0..n-1) and the
    columns (n..2n-1); secondary: the cells, coloured by their letter (options that agree on a
    cell's letter share it), then the words (each used at most once). Options: row i is word
    w, for every i and w, then column j is word w."""
    n = len(words[0])
    letters = {ch: k + 1 for k, ch in enumerate(sorted(set("".join(words))))}
    cell = 2 * n
    word = cell + n * n
    opts, cols = [], []
    for i in range(n):  # rows
        for w, s in enumerate(words):
            opts.append([i, word + w] + [cell + n * i + j for j in range(n)])
            cols.append([0, 0] + [letters[ch] for ch in s])
    for j in range(n):  # columns
        for w, s in enumerate(words):
            opts.append([n + j, word + w] + [cell + n * i + j for i in range(n)])
            cols.append([0, 0] + [letters[ch] for ch in s])
    return ExactCover(2 * n, n * n + len(words), opts, cols)


__all__ = ["LANGFORD", "QUEENS", "SUDOKU", "langford", "n_queens", "random_planted", "random_words",
           "sudoku", "sudoku_grid", "word_squares"]
