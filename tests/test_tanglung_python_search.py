"""The plain-Python Tanglung solo search is the kernel's search step for step: same fewest moves,
tour count, tour and states expanded, on random layouts and every method."""

import random

import pytest
from budget import sweep
from tanglekit.games.tanglung.layout import Layout
from tanglekit.games.tanglung.moves import solo_move_table
from tanglekit.games.tanglung.rules import TanglungOptions
from tanglekit.games.tanglung.solo import initial_lit
from tanglekit.games.tanglung.solo_plain import search_graph_python
from tanglekit.games.tanglung.solo_search import move_graph, noflip_mask, search_graph, solve_solo, solve_solo_reference


def _random_layouts(k, seed, zen=False):
    rng = random.Random(seed)
    rest = list("RBFHDFRBHFBRHD")
    out = []
    for _ in range(k):
        rng.shuffle(rest)
        cells = ["C"] + rest + ["C"]
        if zen:
            rng.shuffle(cells)
        out.append(Layout.parse("".join(cells)))
    return out


@pytest.mark.parametrize("full", [pytest.param(False, id="some"), pytest.param(True, id="all", marks=pytest.mark.slow)])
@pytest.mark.parametrize("method,level", [("astar", 1), ("bfs", 0), ("astar-deadend", 2)])
def test_python_search_equals_kernel(method, level, full):
    """The example and 3 random layouts (1 for the slow Python BFS) in the default run, 8 (4) slow."""
    opts = TanglungOptions.from_dict({"not_so_zen": "true"})
    compared = 0
    randoms = _random_layouts(8 if level else 4, 7 + level, zen=True)
    layouts = [Layout.parse("CRBF/HDFR/BHFB/RHDC")] + (randoms if full else randoms[: 3 if level else 1])
    for lay in layouts:
        table, nf = solo_move_table(lay.cells, opts), noflip_mask(lay)
        adj, adjn = move_graph(lay, opts)
        for s in lay.roosters():
            lit0 = initial_lit(lay, opts)
            py = search_graph_python(table, nf, 16, s, lit0, level, max_expanded=30_000 if level else 150_000)
            if py is None:
                continue  # too long for a quick test in Python
            assert py == search_graph(adj, adjn, nf, 16, s, lit0, method), (str(lay), s)
            compared += 1
    assert compared >= (4 if level else 2)


def test_python_budget_and_engines_agree():
    lay = _random_layouts(1, 3)[0]
    table, nf = solo_move_table(lay.cells, TanglungOptions()), noflip_mask(lay)
    assert search_graph_python(table, nf, 16, lay.roosters()[0], 0, 1, max_expanded=1) is None
    for text in ["CRBF/HDFR/BHFB/RHDC", str(_random_layouts(1, 5)[0])]:
        k = solve_solo(text, engine="kernel")
        p = solve_solo(text, engine="python")
        a = solve_solo(text)
        assert k.to_json() == p.to_json() == a.to_json()
        assert k.expanded == p.expanded
        ref = solve_solo_reference(text)
        assert (ref.moves, ref.optimal_tours) == (k.moves, k.optimal_tours)


# --- the first level on its own (Python and kernel) and the batch kernel -------------------
OPTION_SETS = [{}, {"not_so_zen": "true"}, {"literal_blocking": "true"}, {"roosters_start_lit": "false"},
               {"not_so_zen": "true", "roosters_start_lit": "false"}]


def _cases(k, seed):
    """(layout, options) pairs over the option sets, including unsolvable and 16+-move layouts."""
    rng = random.Random(seed)
    out = []
    for i in range(k):
        opts = TanglungOptions.from_dict(OPTION_SETS[i % len(OPTION_SETS)])
        out.append((_random_layouts(1, rng.randrange(10**9), zen=opts.not_so_zen)[0], opts))
    return out


def _first_level_kernel(adj, adjn, nf, start, lit0):
    from tanglekit.games.tanglung import kernels as K
    from tanglekit.games.tanglung.solo_search import _workspace
    from tanglekit.kernelargs import kernel_bundle

    work, level = _workspace()
    pr = kernel_bundle(K.SoloProblem, adj=adj, adjn=adjn, noflip=nf, n=16, start=start, lit0=lit0, use_h=1)
    if not K.first_level(pr, level, work):
        return None
    moves = int(work.stats[K.STAT_MOVES])
    return (moves, int(work.stats[K.STAT_TOURS]), [int(x) for x in work.path[: moves + 1]],
            int(work.stats[K.STAT_EXPANDED]))


@pytest.mark.parametrize("n", sweep(15, 60))
def test_first_level_is_the_astar_search_step_for_step(n):
    """Where the first f-level holds a goal, Python and kernel give the full search's moves,
    tour count, tour and states expanded; where it does not, the fewest moves are larger."""
    from tanglekit.games.tanglung.solo_plain import first_level_python

    found = missed = 0
    for lay, opts in _cases(n, 11):
        table, nf = solo_move_table(lay.cells, opts), noflip_mask(lay)
        adj, adjn = move_graph(lay, opts)
        lit0 = initial_lit(lay, opts)
        for s in lay.roosters():
            full = search_graph(adj, adjn, nf, 16, s, lit0, "astar")
            py = first_level_python(table, 16, s, lit0)
            assert py == _first_level_kernel(adj, adjn, nf, s, lit0), (str(lay), s)
            if py is None:
                assert full[0] != 16 - bin(lit0).count("1")
                missed += 1
            else:
                assert py == full, (str(lay), s)
                found += 1
    assert found >= 2 * n // 3 and missed >= 1


def test_first_level_refuses_unsorted_rows_and_starts_all_lit():
    import numpy as np

    lay = Layout.parse("CRBF/HDFR/BHFB/RHDC")
    adj, adjn = move_graph(lay, TanglungOptions())
    p = int(np.argmax(adjn))
    shuffled = adj.copy()
    shuffled[p, : adjn[p]] = shuffled[p, : adjn[p]][::-1]
    assert _first_level_kernel(shuffled, adjn, noflip_mask(lay), 0, 0x8001) is None
    # an unsorted graph still gets the full search's answer through search_graph
    assert search_graph(shuffled, adjn, noflip_mask(lay), 16, 0, 0x8001)[0] == 14
    assert _first_level_kernel(adj, adjn, noflip_mask(lay), 0, 0xFFFF) == (0, 1, [0], 0)


@pytest.mark.parametrize("method", ["astar", "bfs", "astar-deadend"])
def test_solve_solo_many_equals_solve_solo(method):
    from tanglekit.errors import TanglekitError
    from tanglekit.games.tanglung.solo_search import solve_solo_many

    k = 16 if method == "astar" else 4
    for opts_dict in OPTION_SETS[:3]:
        opts = TanglungOptions.from_dict(opts_dict)
        lays = [str(x) for x in _random_layouts(k, len(opts_dict) + 3, zen=opts.not_so_zen)]
        lays += ["CRBF/HDFR/BHFB/RHDC", "CCCC/CCCC/CCCC/CCCC", "CRBF/HDFR/BHFB/RHD"]  # two bad ones
        got = solve_solo_many(lays, options=opts, method=method)
        for text, g in zip(lays, got):
            try:
                want = solve_solo(text, options=opts, method=method, engine="kernel")
            except TanglekitError as e:
                assert isinstance(g, TanglekitError) and str(g) == str(e)
                continue
            assert g == want, text
        with_start = solve_solo_many(lays[-3:-2], start=(3, 3), options=opts, method=method)
        assert with_start == [solve_solo(lays[-3], (3, 3), opts, method=method)]


def test_python_engine_equals_kernel_engine_over_options():
    for lay, opts in _cases(10, 5):
        assert solve_solo(lay, options=opts, engine="python") == solve_solo(lay, options=opts, engine="kernel"), str(lay)


@pytest.mark.parametrize("n", sweep(150, 400))
def test_unreachable_card_answers_equal_the_full_search(n):
    """A start from which a dark card is out of reach: the states counted (kernel and Python)
    are the states the full search expands, with no tour."""
    from tanglekit.games.tanglung import kernels as K
    from tanglekit.games.tanglung.solo_plain import FMAX, PUSH_CAP, count_reachable_python, unreachable_dark_python
    from tanglekit.games.tanglung.solo_search import _workspace
    from tanglekit.kernelargs import kernel_bundle

    work, level = _workspace()
    checked = 0
    for lay, opts in _cases(n, 3):
        adj, adjn = move_graph(lay, opts)
        table, nf, lit0 = solo_move_table(lay.cells, opts), noflip_mask(lay), initial_lit(lay, opts)
        for s in lay.roosters():
            pr = kernel_bundle(K.SoloProblem, adj=adj, adjn=adjn, noflip=nf, n=16, start=s, lit0=lit0, use_h=1)
            out_of_reach = bool(K.unreachable_dark(pr))
            assert out_of_reach == unreachable_dark_python(table, 16, s, lit0)
            if not out_of_reach:
                continue
            count = K.count_reachable(pr, level, FMAX, PUSH_CAP)
            assert count == count_reachable_python(table, nf, 16, s, lit0)
            assert K.solo_search(pr, work) == K.OK
            assert int(work.stats[K.STAT_MOVES]) == -1 and int(work.stats[K.STAT_EXPANDED]) == count, (str(lay), s)
            checked += 1
    assert checked >= n // 40
    assert not level.seen.any() and not level.cnt.any()  # the workspace is left clean
