"""Zinga sheet-set generator: diagonal Latin squares, CP-SAT constraints, seeding, SVG score pads."""

import xml.etree.ElementTree as ET

import pytest

from tanglekit.games.zinga.rules import BLUE9, CENTRE, LINES
from tanglekit.games.zinga.sheet import load_sheets
from tanglekit.games.zinga.generate import cell_costs, diagonal_latin_squares, generate_sheet_set, sheet_svg


def test_diagonal_latin_square_count():
    sq = diagonal_latin_squares()
    assert len(sq) == 960  # OEIS A274806(5)
    for s in sq[::97]:
        for line in LINES:
            assert sorted(s[i] for i in line) == [0, 1, 2, 3, 4]


def test_cell_costs_order():
    c = cell_costs(4)
    assert c.index(min(c)) == 5  # 6 is the easiest number with 4 players (active 11/36, passive 5/36)
    assert c.index(max(c)) == 11  # 12 is the hardest
    assert c[0] > c[6]  # 1 only for the active player


@pytest.fixture(scope="module")
def small_set():
    return generate_sheet_set(4, seed=5, verify_games=0, attempts=1, effort=0.02, tune_rounds=0)


def test_generated_set_constraints(small_set):
    sheets = small_set.sheets
    assert len(sheets) == 4 and len({s.codes for s in sheets}) == 4
    for s in sheets:
        assert s.codes[CENTRE] == BLUE9 and len(set(s.codes)) == 25
        nums = s.numbers()
        assert all(nums.count(n) == (3 if n == 9 else 2) for n in range(1, 13))
        for line in LINES:
            assert sorted(s.codes[i] // 12 for i in line) == [0, 1, 2, 3, 4]
    assert len({frozenset(s.codes) for s in sheets}) == 1
    lo, hi = small_set.report["line_cost_band"]
    for s in sheets:
        assert all(lo <= sum(cell_costs(4)[s.codes[i] % 12] for i in line) <= hi for line in LINES)
    assert load_sheets(small_set.id)[2].codes == sheets[2].codes


def test_generator_is_seeded(small_set):
    again = generate_sheet_set(4, seed=5, verify_games=0, attempts=1, effort=0.02, tune_rounds=0)
    assert [s.codes for s in again.sheets] == [s.codes for s in small_set.sheets]
    other = generate_sheet_set(4, seed=6, verify_games=0, attempts=1, effort=0.02, tune_rounds=0)
    assert [s.codes for s in other.sheets] != [s.codes for s in small_set.sheets]


def test_verification_report(small_set):
    from tanglekit.games.zinga.generate import verify_sheet_set

    rep = verify_sheet_set(small_set, 1000, seed=1)
    sim = rep["simulation"]
    assert sim["games"] == 1000 and len(sim["sheets"]) == 4
    assert all(len(r["ci95"]) == 2 for r in sim["sheets"])
    assert len(rep["best_line_focus_rolls"]) == 4


def test_svg_score_pad(small_set):
    svg = sheet_svg(small_set.sheets[0], "1")
    root = ET.fromstring(svg)
    texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert "ZINGA" in texts and "9" in texts and "PLUS +" in texts
    assert sum(1 for t in texts if t and t.isdigit()) >= 25


def test_colour_layouts_differ(small_set):
    layouts = {tuple(c // 12 for c in s.codes) for s in small_set.sheets}
    assert len(layouts) == 4


def test_tuning_keeps_constraints(small_set):
    ss = generate_sheet_set(4, seed=5, verify_games=0, attempts=1, effort=0.02, tune_rounds=6, tune_games=800,
                            band_slack=300)
    rep = ss.report
    # tuning starts from the untuned set (small_set: the same seed and screening) and each accepted
    # round swaps the numbers of two same-colour cells on one sheet
    changed = [[i for i in range(25) if a.codes[i] != b.codes[i]] for a, b in zip(small_set.sheets, ss.sheets)]
    assert rep["tune_accepted"] >= 1 and 2 <= sum(map(len, changed)) <= 2 * rep["tune_accepted"], (rep, changed)
    for a, b in zip(small_set.sheets, ss.sheets):
        assert [c // 12 for c in a.codes] == [c // 12 for c in b.codes] and sorted(a.codes) == sorted(b.codes)
    lo, hi = rep["line_cost_band"]
    lo, hi = lo - 300, hi + 300
    for s in ss.sheets:
        assert s.codes[CENTRE] == BLUE9 and len(set(s.codes)) == 25
        assert all(lo <= sum(cell_costs(4)[s.codes[i] % 12] for i in line) <= hi for line in LINES)
        for line in LINES:
            assert sorted(s.codes[i] // 12 for i in line) == [0, 1, 2, 3, 4]
    assert len({frozenset(s.codes) for s in ss.sheets}) == 1
