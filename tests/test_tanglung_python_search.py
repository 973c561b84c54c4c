"""The plain-Python Tanglung solo search is the kernel's search step for step: same fewest moves,
tour count, tour and states expanded, on random layouts and every method."""

import random

import pytest

from tanglekit.games.tanglung.layout import Layout
from tanglekit.games.tanglung.moves import solo_move_table
from tanglekit.games.tanglung.rules import TanglungOptions
from tanglekit.games.tanglung.solo import initial_lit
from tanglekit.solver.tanglung_solo import (
    move_graph, noflip_mask, search_graph, search_graph_python, solve_solo, solve_solo_reference,
)


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
