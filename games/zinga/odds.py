"""Zinga exact odds: all 6^6 rolls enumerated (vectorised numpy), claim chances and per-sheet analysis.

A roll is six dice (red, orange, yellow, green, blue, white). The active player may claim
(colour c, n) when die c shows n or die c + white = n; a passive player only the sum.
Per-sheet analysis uses a stated solo model: every roll the player is active with probability
``active_share`` (1/players), is never beaten to the bell, and ticks one new claimable cell.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from .bots import greedy_pick
from .rules import COLOURS, LINE_MASKS, LINES, N_NUMBERS, WHITE
from .sheet import Sheet

N_ROLLS = 6 ** 6


@lru_cache(maxsize=1)
def all_rolls() -> np.ndarray:
    """All 46656 rolls as a (46656, 6) uint8 array of die values 1..6 (die order R O Y G B W)."""
    grid = np.indices((6,) * 6).reshape(6, -1).T + 1
    grid = grid.astype(np.uint8)
    grid.setflags(write=False)
    return grid


def claim_masks(rolls: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per roll, the claimable codes as uint64 bit masks (bit colour*12+n-1): (active, passive)."""
    rolls = np.asarray(rolls, dtype=np.int64)
    white = rolls[:, WHITE]
    active = np.zeros(len(rolls), dtype=np.uint64)
    passive = np.zeros(len(rolls), dtype=np.uint64)
    one = np.uint64(1)
    for c in range(len(COLOURS)):
        base = c * N_NUMBERS
        single = (one << (base + rolls[:, c] - 1).astype(np.uint64))
        summed = (one << (base + rolls[:, c] + white - 1).astype(np.uint64))
        passive |= summed
        active |= single | summed
    return active, passive


@lru_cache(maxsize=1)
def _all_masks() -> tuple[np.ndarray, np.ndarray]:
    a, p = claim_masks(all_rolls())
    a.setflags(write=False)
    p.setflags(write=False)
    return a, p


def odds_counts() -> dict[str, dict[str, list[int]]]:
    """Exact counts (out of 46656 rolls) that (colour, n) may be claimed, n = 1..12."""
    out: dict[str, dict[str, list[int]]] = {}
    for role, masks in zip(("active", "passive"), _all_masks()):
        bits = ((masks[:, None] >> np.arange(60, dtype=np.uint64)[None, :]) & np.uint64(1)).astype(np.int64)
        counts = bits.sum(axis=0)
        out[role] = {col: [int(counts[c * 12 + k]) for k in range(12)] for c, col in enumerate(COLOURS)}
    return out


def odds_table() -> dict[str, dict[str, list[float]]]:
    """The chance per roll that (colour, n) may be claimed: {"active": {"red": [p1..p12], ...}, "passive": ...}."""
    return {role: {col: [v / N_ROLLS for v in vals] for col, vals in t.items()}
            for role, t in odds_counts().items()}


# --- per-sheet -------------------------------------------------------------------------------


def sheet_roll_masks(sheet: Sheet) -> tuple[np.ndarray, np.ndarray]:
    """Per roll, the sheet cells (25-bit int64 masks) the active / a passive player may claim."""
    out = []
    for masks in _all_masks():
        cells = np.zeros(N_ROLLS, dtype=np.int64)
        for i, code in enumerate(sheet.codes):
            cells |= ((masks >> np.uint64(code)) & np.uint64(1)).astype(np.int64) << i
        out.append(cells)
    return out[0], out[1]


def mask_distribution(sheet: Sheet, active_share: float) -> tuple[np.ndarray, np.ndarray]:
    """Distinct claimable-cell masks and their probabilities per roll for the solo model."""
    a, p = sheet_roll_masks(sheet)
    ua, ca = np.unique(a, return_counts=True)
    up, cp = np.unique(p, return_counts=True)
    masks = np.concatenate([ua, up])
    probs = np.concatenate([ca * active_share, cp * (1.0 - active_share)]) / N_ROLLS
    um, inv = np.unique(masks, return_inverse=True)
    pr = np.zeros(len(um))
    np.add.at(pr, inv, probs)
    keep = pr > 0
    return um[keep], pr[keep]


def tick_chance(sheet: Sheet, ticked: int = 0, role: str = "active") -> float:
    """Exact chance per roll that the player (role active/passive) can tick a cell not in ``ticked``."""
    a, p = sheet_roll_masks(sheet)
    m = {"active": a, "passive": p}.get(role)
    if m is None:
        raise ValueError(f"role must be 'active' or 'passive', not {role!r}")
    return float(np.count_nonzero(m & ~np.int64(ticked)) / N_ROLLS)


def line_focus_expectation(sheet: Sheet, line: int, active_share: float = 0.25) -> float:
    """Exact expected rolls to complete one line when the player only ticks cells of it.

    Markov chain over the 32 subsets of the line, solved backwards; when several line cells
    are claimable the one with the smallest remaining expectation is ticked (optimal in-line).
    """
    masks, probs = mask_distribution(sheet, active_share)
    cells = LINES[line]
    local = np.zeros(len(masks), dtype=np.int64)  # claimable cells as 5-bit masks over the line
    for j, i in enumerate(cells):
        local |= ((masks >> i) & 1) << j
    lm, inv = np.unique(local, return_inverse=True)
    lp = np.zeros(len(lm))
    np.add.at(lp, inv, probs)
    E = np.zeros(32)
    for s in sorted(range(32), key=lambda s: -bin(s).count("1")):
        if s == 31:
            continue
        stay = 0.0
        acc = 1.0
        for m, pr in zip(lm, lp):
            opts = int(m) & ~s
            if not opts:
                stay += pr
                continue
            acc += pr * min(E[s | (1 << j)] for j in range(5) if opts >> j & 1)
        if stay >= 1.0 - 1e-15:
            E[s] = math.inf
        else:
            E[s] = acc / (1.0 - stay)
    return float(E[0])


def greedy_choice(ticked: int, options: int) -> int:
    """The greedy policy's pick (the bots' favourite: lines nearest completion, then lowest index)."""
    return greedy_pick(ticked, options)


def line_complete(ticked: int) -> bool:
    return any(ticked & m == m for m in LINE_MASKS)


@dataclass
class MonteCarloEstimate:
    mean: float
    ci95: float  # half-width of the 95% normal confidence interval
    runs: int

    def to_json(self) -> dict:
        return {"mean": self.mean, "ci95": self.ci95, "runs": self.runs}


def greedy_first_line(sheet: Sheet, active_share: float = 0.25, runs: int = 2000, seed: int = 0
                      ) -> tuple[MonteCarloEstimate, MonteCarloEstimate]:
    """Monte Carlo of the greedy policy in the solo model: (rolls, own ticks) to a first line."""
    masks, probs = mask_distribution(sheet, active_share)
    rng = np.random.default_rng(seed)
    rolls_out = np.empty(runs)
    ticks_out = np.empty(runs)
    cdf = np.cumsum(probs)
    cdf[-1] = 1.0
    block = 256
    for r in range(runs):
        ticked, n_rolls, n_ticks = 0, 0, 0
        done = False
        while not done:
            draws = np.searchsorted(cdf, rng.random(block), side="right")
            for d in draws:
                n_rolls += 1
                opts = int(masks[d]) & ~ticked
                if opts:
                    ticked |= 1 << greedy_choice(ticked, opts)
                    n_ticks += 1
                    if line_complete(ticked):
                        done = True
                        break
        rolls_out[r] = n_rolls
        ticks_out[r] = n_ticks

    def est(x):
        return MonteCarloEstimate(float(x.mean()), float(1.96 * x.std(ddof=1) / math.sqrt(len(x))) if len(x) > 1 else math.inf, len(x))

    return est(rolls_out), est(ticks_out)


def analyze_sheet(sheet: Sheet, players: int = 4, runs: int = 2000, seed: int = 0) -> dict:
    """Per-sheet figures: tick chances, exact line-focus expectations, greedy Monte Carlo."""
    share = 1.0 / players
    a, p = sheet_roll_masks(sheet)
    lines = [line_focus_expectation(sheet, k, share) for k in range(len(LINES))]
    rolls, ticks = greedy_first_line(sheet, share, runs, seed)
    best = int(np.argmin(lines))
    return {
        "sheet": sheet.name,
        "players": players,
        "tick_chance": {"active": float(np.count_nonzero(a) / N_ROLLS),
                        "passive": float(np.count_nonzero(p) / N_ROLLS),
                        "per_roll": float(share * np.count_nonzero(a) / N_ROLLS
                                          + (1 - share) * np.count_nonzero(p) / N_ROLLS)},
        "line_focus_rolls": lines,
        "best_line": best,
        "exact_first_line_rolls": lines[best],
        "greedy_first_line_rolls": rolls.to_json(),
        "greedy_first_line_ticks": ticks.to_json(),
    }
