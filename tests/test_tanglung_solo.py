"""Tanglung solo solver: numba kernel vs plain-Python BFS, brute-force tour counts, CP-SAT tours."""

import random

import numpy as np
import pytest
from tanglekit.errors import RuleError
from tanglekit.games.tanglung import Layout, TanglungOptions, load_card_set, random_layout
from tanglekit.games.tanglung.moves import solo_move_table
from tanglekit.games.tanglung.solo import initial_lit
from tanglekit.games.tanglung.solo_reference import no_revisit_tour_cpsat, no_revisit_tour_dfs, search_graph_reference
from tanglekit.games.tanglung.solo_search import (
    check_solo_tour,
    no_revisit_tour,
    search_graph,
    solve_solo,
    solve_solo_reference,
)

EXAMPLE = "CRBF/HDFR/BHFB/RHDC"


def _random_graph(rng, n):
    adj_lists = [sorted(rng.sample([q for q in range(n) if q != p], rng.randint(1, min(4, n - 1))))
                 for p in range(n)]
    adj = np.zeros((16, 16), dtype=np.int32)
    adjn = np.zeros(16, dtype=np.int32)
    for p, d in enumerate(adj_lists):
        adjn[p] = len(d)
        adj[p, : len(d)] = d
    return adj_lists, adj, adjn


def _brute_force_tours(adj_lists, noflip, n, start, lit0, depth):
    """Count every move sequence of exactly ``depth`` moves that ends with all cards lit."""
    full = (1 << n) - 1

    def rec(p, lit, k):
        if k == 0:
            return 1 if lit == full else 0
        total = 0
        for q in adj_lists[p]:
            if lit >> q & 1:
                nl = lit if noflip >> p & 1 else lit & ~(1 << p)
            else:
                nl = lit | (1 << q)
            total += rec(q, nl, k - 1)
        return total

    return rec(start, lit0, depth)


def test_kernel_matches_reference_and_brute_force_on_random_graphs():
    rng = random.Random(11)
    solvable = 0
    for trial in range(300):
        n = rng.randint(3, 9)
        adj_lists, adj, adjn = _random_graph(rng, n)
        noflip = rng.randrange(1 << n)
        start = rng.randrange(n)
        lit0 = rng.randrange(1 << n) | (noflip & rng.randrange(1 << n))
        ref = search_graph_reference(adj_lists, noflip, n, start, lit0)
        for method in ("astar", "astar-deadend", "bfs"):
            moves, tours, path, _ = search_graph(adj, adjn, noflip, n, start, lit0, method)
            assert (moves, tours) == ref[:2], (trial, method)
            if moves >= 0:
                assert len(path) == moves + 1 and path[0] == start
        if ref[0] >= 0:
            solvable += 1
            if ref[0] <= 9:
                assert _brute_force_tours(adj_lists, noflip, n, start, lit0, ref[0]) == ref[1]
            # the reference's path is a real winning walk
            lit, p = lit0, start
            for q in ref[2][1:]:
                assert q in adj_lists[p]
                if lit >> q & 1:
                    lit = lit if noflip >> p & 1 else lit & ~(1 << p)
                else:
                    lit |= 1 << q
                p = q
            assert lit == (1 << n) - 1
    assert 30 < solvable < 300  # both kinds of instance were exercised


@pytest.mark.parametrize(
    "layout,options,start",
    [
        (EXAMPLE, {}, None),
        ("CRRD/FBHR/BHFF/DBHC", {"literal_blocking": True}, None),
        ("CRDD/BBHR/HHRF/BFFC", {"roosters_start_lit": False, "literal_blocking": True}, (3, 3)),
        ("RBBC/HDRF/BHRF/CHDF", {"not_so_zen": True, "literal_blocking": True}, None),
        ("CFRF/HHRD/BBFB/HRDC", {}, None),  # (2,0) cannot be reached by any card: unsolvable
        pytest.param("CHFR/BRBF/HHDD/RBFC", {"roosters_start_lit": False}, None, marks=pytest.mark.slow),
    ],
)
def test_layouts_match_reference(layout, options, start):
    opts = TanglungOptions.from_dict(options)
    ref = solve_solo_reference(layout, start=start, options=opts)
    for method in ("astar", "astar-deadend", "bfs"):
        sol = solve_solo(layout, start=start, options=opts, method=method)
        assert (sol.moves, sol.optimal_tours, sol.start) == (ref.moves, ref.optimal_tours, ref.start)
        if sol.solvable:
            assert check_solo_tour(layout, sol.path, opts) and len(sol.path) == sol.moves + 1


def test_known_values_of_the_example():
    # hand-audited by the reference BFS: 14 moves from either Rooster
    a = solve_solo(EXAMPLE, start=(0, 0))
    b = solve_solo(EXAMPLE, start=(3, 3))
    assert (a.moves, a.optimal_tours) == (14, 1823)
    assert (b.moves, b.optimal_tours) == (14, 2160)
    best = solve_solo(EXAMPLE)
    assert best.start == 0 and best.no_revisit  # tie: the first Rooster in reading order
    assert solve_solo("CFRF/HHRD/BBFB/HRDC").to_json() == {
        "solvable": False, "moves": None, "start": [0, 0], "path": [], "optimal_tours": 0}


def test_json_form():
    j = solve_solo(EXAMPLE, start=(3, 3)).to_json()
    assert list(j) == ["solvable", "moves", "start", "path", "optimal_tours"]
    assert j["solvable"] is True and j["start"] == [3, 3] and j["path"][0] == [3, 3]
    assert len(j["path"]) == j["moves"] + 1
    assert all(isinstance(v, int) for cell in j["path"] for v in cell)


def test_start_must_be_a_rooster():
    with pytest.raises(RuleError):
        solve_solo(EXAMPLE, start=(1, 1))


def test_no_revisit_tour_three_ways():
    rng = random.Random(5)
    seen = set()
    fixed = [("CFRF/HHRD/BBFB/HRDC", TanglungOptions()),
             ("CHDR/RFDB/BRHF/HBFC", TanglungOptions(literal_blocking=True))]
    for k in range(10):
        opts = TanglungOptions(literal_blocking=k % 2 == 1, roosters_start_lit=k % 3 != 2)
        fixed.append((random_layout(rng), opts))
    for lay, opts in fixed:
        lay = Layout.parse(str(lay))
        table = solo_move_table(lay.cells, opts)
        lit0 = initial_lit(lay, opts)
        for s in lay.roosters():
            a = no_revisit_tour(lay, s, opts, method="kernel")
            c = no_revisit_tour_cpsat(table, 16, s, lit0)
            d = no_revisit_tour_dfs(table, 16, s, lit0)
            assert (a is None) == (c is None) == (d is None)
            seen.add(a is None)
            for path in (a, c, d):
                if path is not None:
                    assert check_solo_tour(lay, path, opts)
                    assert len(path) - 1 == 16 - bin(lit0).count("1")
    assert seen == {True, False}


def test_no_revisit_on_random_graphs_cpsat_vs_dfs():
    rng = random.Random(2)
    for _ in range(40):
        n = rng.randint(3, 8)
        adj_lists, adj, adjn = _random_graph(rng, n)
        lit0 = rng.randrange(1 << n)
        start = rng.randrange(n)
        c = no_revisit_tour_cpsat(adj_lists, n, start, lit0)
        d = no_revisit_tour_dfs(adj_lists, n, start, lit0)
        moves, _, _, _ = search_graph(adj, adjn, (1 << n) - 1, n, start, lit0)
        dark = n - bin(lit0).count("1")
        assert (c is None) == (d is None) == (moves != dark)


def test_custom_card_set():
    cs = load_card_set("C2R4B2F4H2D2")
    lay = "CRRB/FFHD/RBRF/FHDC"
    ref = solve_solo_reference(lay, card_set=cs)
    sol = solve_solo(lay, card_set=cs)
    assert (sol.moves, sol.optimal_tours) == (ref.moves, ref.optimal_tours)
    with pytest.raises(RuleError):
        solve_solo(lay)  # wrong counts for the default set


def test_symmetric_layouts_have_the_same_answer():
    from tanglekit.games.tanglung.layout import SYMMETRIES

    lay = Layout.parse("CHDR/RFDB/BRHF/HBFC")
    base = solve_solo(lay, start=0)
    for perm in SYMMETRIES:
        t = lay.transformed(perm)
        s = solve_solo(t, start=perm[0])
        assert (s.moves, s.optimal_tours) == (base.moves, base.optimal_tours)
