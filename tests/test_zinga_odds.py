"""Zinga exact odds: enumeration against brute-force loops, hand-computed values, sheet analysis."""

import random

import numpy as np
import pytest

from tanglekit.games.zinga.engine import available_cells, available_codes
from tanglekit.games.zinga.rules import COLOURS, LINES
from tanglekit.games.zinga.sheet import Sheet
from tanglekit.games.zinga import odds as zo

ROWS_A = [["yellow 6", "blue 3", "red 2", "orange 3", "green 10"],
          ["green 4", "red 9", "orange 9", "yellow 10", "blue 8"],
          ["orange 1", "green 1", "blue 9", "red 7", "yellow 7"],
          ["blue 5", "orange 5", "yellow 2", "green 11", "red 11"],
          ["red 12", "yellow 12", "green 8", "blue 6", "orange 4"]]
SHEET = Sheet.from_json({"rows": ROWS_A}, "A")


def brute_count(colour: int, n: int, active: bool) -> int:
    """Count rolls the slow way: loop over die c and white only (the other dice are free: x 6^4)."""
    k = 0
    for d in range(1, 7):
        for w in range(1, 7):
            if d + w == n or (active and d == n):
                k += 1
    return k * 6 ** 4


def test_all_rolls_enumerated():
    r = zo.all_rolls()
    assert r.shape == (46656, 6) and r.min() == 1 and r.max() == 6
    assert len({tuple(x) for x in r[::97]}) == len(r[::97])


@pytest.mark.parametrize("colour,n", [(0, 1), (1, 4), (2, 7), (3, 9), (4, 12), (4, 9), (0, 2)])
def test_odds_match_brute_force(colour, n):
    counts = zo.odds_counts()
    name = COLOURS[colour]
    assert counts["active"][name][n - 1] == brute_count(colour, n, True)
    assert counts["passive"][name][n - 1] == brute_count(colour, n, False)


def test_hand_values():
    t = zo.odds_table()
    assert t["active"]["red"][0] == pytest.approx(1 / 6)  # red 1: only the red die alone
    assert t["passive"]["red"][0] == 0.0  # a passive player can never claim a 1
    assert t["active"]["blue"][3] == pytest.approx(1 / 4)  # 4 alone (6/36) or 1+3, 2+2, 3+1 (3/36)
    assert t["active"]["green"][6] == pytest.approx(1 / 6)  # 7 only as a sum
    assert t["passive"]["yellow"][11] == pytest.approx(1 / 36)
    assert t["active"]["orange"][5] == pytest.approx(11 / 36)  # 6 alone or 1..5 + white
    for role in t:
        for col in COLOURS:
            assert t[role][col] == t[role]["red"]  # colours are alike by symmetry
    assert sum(t["passive"]["red"]) == pytest.approx(1.0)  # the sum takes exactly one value


def test_claim_masks_agree_with_engine_on_random_rolls():
    rng = random.Random(3)
    rolls = np.array([[rng.randint(1, 6) for _ in range(6)] for _ in range(300)], dtype=np.uint8)
    a, p = zo.claim_masks(rolls)
    for r, ma, mp in zip(rolls, a, p):
        dice = tuple(int(x) for x in r)
        assert {k for k in range(60) if int(ma) >> k & 1} == available_codes(dice, True)
        assert {k for k in range(60) if int(mp) >> k & 1} == available_codes(dice, False)


def test_sheet_masks_and_tick_chance_against_loop():
    a, p = zo.sheet_roll_masks(SHEET)
    rolls = zo.all_rolls()
    for idx in range(0, 46656, 4999):
        dice = tuple(int(x) for x in rolls[idx])
        assert int(a[idx]) == available_cells(SHEET, dice, True)
        assert int(p[idx]) == available_cells(SHEET, dice, False)
    # only orange 1 (cell 10) and red 12 (cell 20) left: passive needs red + white = 12
    ticked = ((1 << 25) - 1) & ~((1 << 10) | (1 << 20))
    assert zo.tick_chance(SHEET, ticked, "passive") == pytest.approx(1 / 36)
    assert zo.tick_chance(SHEET, ticked, "active") == pytest.approx(1 / 6 + 1 / 36 - 1 / 216)  # independent dice
    assert zo.tick_chance(SHEET, (1 << 25) - 1) == 0.0


def _value_iteration(sheet, line, share):
    """Independent check: plain value iteration over the 32 subsets, from the roll masks directly."""
    a, p = zo.sheet_roll_masks(sheet)
    cells = LINES[line]
    local = {}
    for masks, weight in ((a, share), (p, 1 - share)):
        for m in masks.tolist():
            key = sum(1 << j for j, i in enumerate(cells) if m >> i & 1)
            local[key] = local.get(key, 0.0) + weight / 46656
    E = [0.0] * 32
    for _ in range(5000):  # until converged (a few hundred sweeps)
        new = [0.0 if s == 31 else 1.0 + sum(
            pr * (min(E[s | 1 << j] for j in range(5) if m >> j & 1 and not s >> j & 1)
                  if m & ~s else E[s]) for m, pr in local.items()) for s in range(32)]
        done = max(abs(x - y) for x, y in zip(new, E)) < 1e-12
        E = new
        if done:
            break
    return E[0]


def test_line_focus_chain_matches_value_iteration():
    for line, share in [(2, 0.25), (10, 1.0)]:
        exact = zo.line_focus_expectation(SHEET, line, share)
        assert exact == pytest.approx(_value_iteration(SHEET, line, share), rel=1e-6)


def test_line_focus_last_cell_hand_value():
    # with four cells of row 2 ticked, only yellow 7 is left: geometric with p = 1/6 (active or not)
    masks, probs = zo.mask_distribution(SHEET, 0.25)
    p7 = sum(pr for m, pr in zip(masks, probs) if int(m) >> 14 & 1)
    assert p7 == pytest.approx(1 / 6)
    e = zo.line_focus_expectation(SHEET, 2, 0.25)
    assert e > 5.0


def test_greedy_monte_carlo_is_seeded_and_consistent():
    r1, t1 = zo.greedy_first_line(SHEET, 0.25, runs=200, seed=5)
    r2, t2 = zo.greedy_first_line(SHEET, 0.25, runs=200, seed=5)
    assert (r1.mean, t1.mean) == (r2.mean, t2.mean)
    assert 5 <= t1.mean <= r1.mean  # at least five ticks; one tick per roll at most
    best = min(zo.line_focus_expectation(SHEET, k, 0.25) for k in range(12))
    assert r1.mean < best  # greedy (any line) beats committing to one line


def test_analyze_sheet_fields():
    r = zo.analyze_sheet(SHEET, players=4, runs=100, seed=1)
    assert r["tick_chance"]["active"] > r["tick_chance"]["passive"]
    assert len(r["line_focus_rolls"]) == 12
    assert r["exact_first_line_rolls"] == min(r["line_focus_rolls"])
