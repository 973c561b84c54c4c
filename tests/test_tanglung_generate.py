"""Tanglung solo generator (graded, verified, seeded, IDs) and the census (sample, checkpoint)."""

import json

import pytest
from tanglekit.errors import FormatError, SolverError
from tanglekit.games.tanglung import Layout, TanglungOptions
from tanglekit.games.tanglung.generate import (
    GRADE_THRESHOLDS,
    WALK_BUDGET,
    WALKERS,
    census,
    generate_challenge,
    grade_of,
    walker_success,
)
from tanglekit.games.tanglung.render import svg_grid
from tanglekit.games.tanglung.solo_search import check_solo_tour, solve_solo
from tanglekit.generators.ids import resolve


def test_grades_follow_thresholds():
    assert [grade_of(x) for x in (0.9, 0.4, 0.39, 0.2, 0.1, 0.05, 0.049, 0.0)] == [
        "easy", "easy", "medium", "medium", "hard", "hard", "expert", "expert"]
    assert [g for g, _ in GRADE_THRESHOLDS] == ["easy", "medium", "hard", "expert"]


@pytest.mark.parametrize("difficulty", ["easy", "hard"])
def test_challenge_is_verified_graded_and_reproducible(difficulty):
    ch = generate_challenge(difficulty, seed=3)
    assert ch.difficulty == difficulty == grade_of(ch.walker_success)
    sol = solve_solo(ch.layout, options=ch.options)
    assert (sol.moves, sol.optimal_tours, sol.start) == (ch.moves, ch.optimal_tours, ch.start)
    assert check_solo_tour(ch.layout, ch.path, ch.options)
    assert ch.no_revisit == (ch.moves == 14)
    again = generate_challenge(difficulty, seed=3)
    assert again.to_json() == ch.to_json()
    # a share of WALKERS walkers; none wins in fewer steps than the solver's fewest moves: with a
    # budget of WALK_BUDGET * 3 = 12 < 14 <= fewest steps the share is exactly 0
    assert ch.walker_success == round(ch.walker_success * WALKERS) / WALKERS
    assert WALK_BUDGET * 3 < 14 <= ch.moves
    assert walker_success(ch.layout, ch.start, ch.options, 3, seed=1) == 0.0


def test_ids_round_trip():
    ch = generate_challenge("medium", seed=5, options=TanglungOptions(literal_blocking=True))
    assert ch.id.startswith("tanglung:solo,medium,literal_blocking=1:")
    d = resolve(ch.id, expect="tanglung-challenge").value
    assert d.layout == ch.layout and d.options.literal_blocking and d.difficulty == "medium"
    s = resolve(ch.seed_id).value
    assert s.layout == ch.layout and s.seed == 5
    assert Layout.parse(ch.id) == ch.layout


def test_unknown_difficulty():
    with pytest.raises(SolverError):
        generate_challenge("impossible", seed=0)


def test_svg_has_cards_and_path():
    ch = generate_challenge("easy", seed=1)
    svg = svg_grid(ch.layout, path=ch.path, title=ch.id)
    assert svg.startswith("<svg") and svg.count("<rect") >= 17 and "<polyline" in svg
    assert svg.count("rooster") == 2


def test_census_sample_with_checkpoint(tmp_path):
    cp = tmp_path / "census.json"
    s1 = census(sample=12, seed=4, checkpoint=cp, chunk=5, workers=1)  # pools: tests/test_executors.py
    assert s1["layouts"] == sum(v for v in s1["moves"].values())
    assert s1["layouts"] == sum(s1["tour_bins"].values()) + s1["unsolvable"]
    saved = json.loads(cp.read_text())
    assert len(saved["done"]) == s1["chunks"]
    # resuming does no new work and gives the same summary
    calls = []
    s2 = census(sample=12, seed=4, checkpoint=cp, chunk=5, workers=1, on_progress=lambda d, t: calls.append(d))
    assert s2 == s1 and calls == [s1["chunks"]]
    with pytest.raises(FormatError, match="different census setup"):
        census(sample=13, seed=4, checkpoint=cp, chunk=5, workers=1)


def test_census_counts_match_direct_solves():
    from tanglekit.games.tanglung.generate import census_chunk

    ranks = list(range(0, 40))
    part = census_chunk(("x", ranks, TanglungOptions().to_json(), {"name": "d", "cards": {"C": 2, "R": 3, "B": 3, "F": 3, "H": 3, "D": 2}}))
    from tanglekit.games.tanglung.layout import unrank_standard_layout

    canon = [unrank_standard_layout(r) for r in ranks]
    canon = [l for l in canon if l.canonical() == l]
    assert part["layouts"] == len(canon)
    moves = {}
    for lay in canon:
        s = solve_solo(lay)
        k = "unsolvable" if s.moves is None else str(s.moves)
        moves[k] = moves.get(k, 0) + 1
    assert part["moves"] == moves


@pytest.mark.slow
def test_census_parallel_equals_serial():
    a = census(sample=16, seed=9, workers=1, chunk=4)
    b = census(sample=16, seed=9, workers=2, chunk=4)
    assert a == b
