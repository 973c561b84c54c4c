"""Tanglung census batch path: solve a chunk of standard-layout ranks inside one numba kernel.

The kernel (``_tanglung_kernels.census_batch``) unranks each layout, skips the ones that are not
the canonical representative under the diagonal symmetries (the rule of
``Layout.canonical(DIAGONAL_SYMMETRIES)``), builds the move graph from a per-(card kind, cell)
table computed here with :func:`games.tanglung.moves.destinations` (standard layouts have no
empty space, so a card's moves depend only on its kind, its cell and the rule options), and
solves it as :func:`tanglung_solo.solve_solo` does. Most layouts have a no-revisit tour: the
kernel counts those tours with a subset DP instead of the general A* search, which it keeps for
the rest. Results are exactly those of solve_solo (tests compare them on random chunks).
"""

from __future__ import annotations

import dataclasses
from math import factorial

import numpy as np

from ...errors import SolverError
from .cards import ROOSTER, CardSet, default_card_set
from .layout import DIAGONAL_SYMMETRIES, N_CELLS, lantern_kinds, unrank_standard_layout
from .moves import destinations
from .rules import TanglungOptions
from .solo_search import _workspace

#: rule options the batch path honours (the move table and the start lighting cover them) or
#: that do not touch solo play; any other option with a non-default value makes
#: :func:`batch_supported` false so callers fall back to the per-layout solver
BATCH_OPTIONS = frozenset(
    {"literal_blocking", "roosters_start_lit", "not_so_zen", "horse_fan_route", "match_starter",
     "max_turns", "max_matches"}
)
ROOSTER_CELLS = (0, N_CELLS - 1)


def batch_supported(options: TanglungOptions, card_set: CardSet) -> bool:
    """Whether the batch kernel reproduces solve_solo for these options and card set."""
    default = TanglungOptions()
    for f in dataclasses.fields(TanglungOptions):
        if f.name not in BATCH_OPTIONS and getattr(options, f.name) != getattr(default, f.name):
            return False
    return card_set.count(ROOSTER) == 2


def move_table(kinds: list[str], options: TanglungOptions) -> np.ndarray:
    """``table[j, p]``: move mask of a card of kind ``kinds[j]`` (last row: Rooster) on cell p of
    a full grid (no empty space), from the engine's own :func:`destinations`."""
    full = (ROOSTER,) * N_CELLS
    letters = list(kinds) + [ROOSTER]
    table = np.zeros((len(letters), N_CELLS), dtype=np.int64)
    for j, k in enumerate(letters):
        for p in range(N_CELLS):
            table[j, p] = sum(1 << q for q in destinations(full, p, k, options))
    return table


class _Tables:
    """Per (options, card set) constants of the kernel."""

    def __init__(self, options: TanglungOptions, card_set: CardSet) -> None:
        kinds, counts = lantern_kinds(card_set)
        self.kinds = kinds
        self.counts = np.array(counts, dtype=np.int64)
        self.fact = np.array([factorial(i) for i in range(N_CELLS + 1)], dtype=np.int64)
        self.table = move_table(kinds, options)
        self.order = np.array([ord(k) for k in kinds] + [ord(ROOSTER)], dtype=np.int64)
        inv = []
        for perm in DIAGONAL_SYMMETRIES[1:]:
            row = [0] * N_CELLS
            for i, j in enumerate(perm):
                row[j] = i
            inv.append(row)
        self.inv_syms = np.array(inv, dtype=np.int64)
        rooster_mask = sum(1 << c for c in ROOSTER_CELLS)
        self.lit0 = rooster_mask if options.roosters_start_lit else 0
        self.noflip = rooster_mask
        self.ndark = N_CELLS - bin(self.lit0).count("1")


_DP = None


def _dp_workspace():
    """The DPWork bundle of count_no_revisit, reused across chunks."""
    global _DP
    if _DP is None:
        from ...kernelargs import kernel_bundle  # loads numpy (only when this runs)
        from .kernels import DPWork  # loads numba (only when this runs)

        _DP = kernel_bundle(DPWork, shapes={"cnt": 1 << 20, "flag": 1 << 16, "cov": 1 << 16})
    return _DP


def solve_ranks(
    ranks, options: TanglungOptions | None = None, card_set: CardSet | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Batch-solve standard layouts by rank: (keep, moves, tours) arrays, one entry per rank;
    keep = 1 for canonical layouts (the only ones solved), moves = -1 when unsolvable."""
    from ...kernelargs import kernel_bundle  # loads numpy (only when this runs)
    from .kernels import OUT_OF_SPACE, CensusChunk, CensusOut, census_batch  # loads numba (only when this runs)

    options = options or TanglungOptions()
    card_set = card_set or default_card_set()
    if not batch_supported(options, card_set):
        raise SolverError("the census batch path needs 2 Roosters and solo rule options it knows")
    tb = _Tables(options, card_set)
    if isinstance(ranks, range) and ranks.step == 1:
        r = np.arange(ranks.start, ranks.stop, dtype=np.int64)
    else:
        r = np.asarray(list(ranks) if not isinstance(ranks, np.ndarray) else ranks, dtype=np.int64)
    n = r.shape[0]
    keep = np.zeros(n, dtype=np.int8)
    moves = np.full(n, -1, dtype=np.int64)
    tours = np.zeros(n, dtype=np.int64)
    if n == 0:
        return keep, moves, tours
    total = int(tb.fact[int(tb.counts.sum())] // np.prod([factorial(int(c)) for c in tb.counts]))
    if r.min() < 0 or r.max() >= total:
        raise SolverError(f"layout ranks must lie in 0..{total - 1}")
    work, _ = _workspace()
    chunk = kernel_bundle(CensusChunk, ranks=r, counts=tb.counts, fact=tb.fact, table=tb.table, order=tb.order,
                          inv_syms=tb.inv_syms, lit0=tb.lit0, noflip=tb.noflip)
    out = kernel_bundle(CensusOut, keep=keep, moves=moves, tours=tours)  # the same arrays, filled in
    if census_batch(chunk, _dp_workspace(), work, out) == OUT_OF_SPACE:
        raise SolverError("solo search ran out of bucket space")
    return keep, moves, tours


def census_summary(
    key, ranks, options: TanglungOptions | None = None, card_set: CardSet | None = None
) -> dict:
    """The per-chunk census summary (same dict as games.tanglung.generate.census_chunk) from the
    batch kernel; example layouts are the first in the given rank order."""
    from .kernels import census_accumulate  # loads numba (only when this runs)
    from .solo_plain import FMAX as MOVES_HIST  # the search keeps fewest moves below FMAX

    options = options or TanglungOptions()
    card_set = card_set or default_card_set()
    ranks = ranks if isinstance(ranks, range) else list(ranks)
    keep, moves, tours = solve_ranks(ranks, options, card_set)
    ndark = N_CELLS - (2 if options.roosters_start_lit else 0)
    hist_moves = np.zeros(MOVES_HIST + 1, dtype=np.int64)
    hist_bins = np.zeros(65, dtype=np.int64)
    agg = np.zeros(8, dtype=np.int64)
    census_accumulate(keep, moves, tours, np.int64(ndark), hist_moves, hist_bins, agg)
    mv = {str(m): int(c) for m, c in enumerate(hist_moves[:MOVES_HIST]) if c}
    if hist_moves[MOVES_HIST]:
        mv["unsolvable"] = int(hist_moves[MOVES_HIST])

    def example(i: int):
        return str(unrank_standard_layout(int(ranks[i]), card_set)) if i >= 0 else None

    return {
        "key": key,
        "layouts": int(agg[0]),
        "no_revisit": int(agg[1]),
        "unsolvable": int(agg[2]),
        "tours_total": int(agg[3]),
        "max_tours": [int(agg[4]), example(int(agg[5]))],
        "min_tours": [None if agg[6] < 0 else int(agg[6]), example(int(agg[7]))],
        "moves": mv,
        "tour_bins": {str(b): int(c) for b, c in enumerate(hist_bins) if c},
    }


# --- plain-Python references ----------------------------------------------------------------
def count_no_revisit_reference(adj_lists: list[list[int]], start: int, lit0: int) -> int:
    """Tours from ``start`` that only move onto dark cards and light all 16 (dict DP)."""
    full = (1 << N_CELLS) - 1
    level = {(start, lit0): 1}
    while level and not any(lit == full for _, lit in level):
        nxt: dict[tuple[int, int], int] = {}
        for (p, lit), c in level.items():
            for q in adj_lists[p]:
                if not lit >> q & 1:
                    key = (q, lit | 1 << q)
                    nxt[key] = nxt.get(key, 0) + c
        level = nxt
    return sum(c for (_, lit), c in level.items() if lit == full)
