"""Exact-cover engine: Knuth's examples, n-queens, and dlx / cpsat / reference agreement on
random XCC problems with colours and multiplicities, checked against brute force; counts split
over processes add up to the one-process count."""

from __future__ import annotations

import itertools
import random

import pytest
from budget import seeds
from tanglekit.errors import SolverError
from tanglekit.solver.exact_cover import (
    ExactCover,
    count_solutions,
    first_solution,
    iter_solutions,
    optimise,
    reduce_multiplicities,
    solve,
)
from tanglekit.solver.parallel import count_parallel, force_option, split_problem

BACKENDS = [("dlx", "links"), ("dlx", "bitset"), ("cpsat", "auto"), ("reference", "auto")]


def all_solutions(problem, backend, kernel="auto"):
    return sorted(iter_solutions(problem, backend, kernel=kernel) if backend == "dlx"
                  else iter_solutions(problem, backend))


def brute_force(problem):
    out = []
    for r in range(problem.n_options + 1):
        for combo in itertools.combinations(range(problem.n_options), r):
            if problem.check(combo):
                out.append(list(combo))
    return sorted(out)


def knuth_xc():
    # TAOCP 7.2.2.1 (6): the unique solution is options 0, 3, 4 (c e / a d f / b g)
    opts = [["c", "e"], ["a", "d", "g"], ["b", "c", "f"], ["a", "d", "f"], ["b", "g"],
            ["d", "e", "g"]]
    return ExactCover.from_named(opts)


def knuth_xcc():
    # TAOCP 7.2.2.1 (49): the unique solution is "q x:A" with "p r x:A y"
    opts = [
        ["p", "q", "x", ("y", "A")],
        ["p", "r", ("x", "A"), "y"],
        ["p", ("x", "B")],
        ["q", ("x", "A")],
        ["r", ("y", "B")],
    ]
    return ExactCover.from_named(opts, primary=["p", "q", "r"], secondary=["x", "y"])


@pytest.mark.parametrize("backend,kernel", BACKENDS)
def test_knuth_exact_cover(backend, kernel):
    p = knuth_xc()
    if backend == "dlx":
        assert list(iter_solutions(p, backend, kernel=kernel)) == [[0, 3, 4]]
    else:
        assert list(iter_solutions(p, backend)) == [[0, 3, 4]]


@pytest.mark.parametrize("backend", ["dlx", "cpsat", "reference"])
def test_knuth_colours(backend):
    assert list(iter_solutions(knuth_xcc(), backend)) == [[1, 3]]
    if backend == "dlx":
        for kernel in ("bitset", "links"):
            assert list(iter_solutions(knuth_xcc(), backend, kernel=kernel)) == [[1, 3]]
            assert count_solutions(knuth_xcc(), backend, kernel=kernel) == (1, True)


def queens(n):
    """n-queens as XCC: ranks and files primary, diagonals secondary."""
    opts = []
    for r in range(n):
        for c in range(n):
            opts.append([f"r{r}", f"c{c}", f"a{r + c}", f"b{r - c}"])
    diag = [f"a{s}" for s in range(2 * n - 1)] + [f"b{d}" for d in range(-n + 1, n)]
    prim = [f"r{i}" for i in range(n)] + [f"c{i}" for i in range(n)]
    return ExactCover.from_named(opts, primary=prim, secondary=diag)


@pytest.mark.parametrize("kernel", ["links", "bitset"])
def test_queens_published_counts(kernel):
    # OEIS A000170
    for n, expected in [(1, 1), (4, 2), (6, 4), (8, 92), (9, 352)]:
        assert count_solutions(queens(n), "dlx", kernel=kernel) == (expected, True)
        assert count_solutions(queens(n), "dlx", kernel=kernel, memo=False) == (expected, True)


def test_queens_cpsat_and_solutions_valid():
    p = queens(6)
    sols = all_solutions(p, "cpsat")
    assert sols == all_solutions(p, "dlx") and len(sols) == 4
    assert all(p.check(s) for s in sols)


def random_problem(rng: random.Random, colours: bool, bounds: bool) -> ExactCover:
    n_p = rng.randint(1, 6)
    n_s = rng.randint(0, 3)
    n_items = n_p + n_s
    opts, cols = [], []
    for _ in range(rng.randint(1, 11)):
        t = rng.sample(range(n_items), rng.randint(1, min(4, n_items)))
        opts.append(t)
        cols.append([rng.choice([0, 1, 2]) if (colours and i >= n_p) else 0 for i in t])
    bd = {}
    if bounds:
        for i in range(n_p):
            if rng.random() < 0.4:
                lo = rng.randint(0, 2)
                bd[i] = (lo, rng.choice([lo, lo + 1, lo + 2, None]))
    return ExactCover(n_p, n_s, opts, cols, bd)


@pytest.mark.parametrize("seed", seeds(4, 12))
def test_backends_agree_with_brute_force(seed):
    rng = random.Random(seed)
    for k in range(25):
        p = random_problem(rng, colours=k % 2 == 1, bounds=k % 3 != 0)
        expected = brute_force(p)
        assert sorted(iter_solutions(p, "reference")) == expected
        for backend, kernel in BACKENDS[:3]:
            got = all_solutions(p, backend, kernel)
            assert got == expected, (backend, kernel, p.options, p.colours, p.bounds)
        assert count_solutions(p, "dlx") == (len(expected), True)
        assert count_solutions(p, "dlx", memo=False) == (len(expected), True)


def test_multiplicity_reduction_is_one_to_one():
    # item a must be covered 2..3 times by 6 interchangeable options: C(6,2)+C(6,3) = 35
    p = ExactCover(1, 0, [[0]] * 6, bounds={0: (2, 3)})
    red = reduce_multiplicities(p)
    assert not red.infeasible
    sols = all_solutions(p, "dlx", "links")
    assert len(sols) == 35 and len({tuple(s) for s in sols}) == 35
    assert count_solutions(p, "cpsat") == (35, True)
    assert sorted(iter_solutions(p, "reference")) == sols


def test_unbounded_and_infeasible_bounds():
    p = ExactCover(2, 0, [[0], [0, 1], [1]], bounds={0: (0, None)})
    assert all_solutions(p, "dlx") == [[0, 1], [0, 2], [1], [2]] == all_solutions(p, "cpsat")
    assert all_solutions(p, "dlx") == brute_force(p)
    bad = ExactCover(1, 0, [[0]], bounds={0: (2, 3)})
    assert all_solutions(bad, "dlx") == [] == all_solutions(bad, "cpsat")


@pytest.mark.parametrize("kernel", ["links", "bitset"])
def test_streaming_limits_and_batches(kernel):
    p = queens(8)
    full = list(iter_solutions(p, "dlx", kernel=kernel))
    assert len(full) == 92
    assert list(iter_solutions(p, "dlx", limit=5, kernel=kernel)) == full[:5]
    assert count_solutions(p, "dlx", limit=10, kernel=kernel) == (10, False)
    from tanglekit.solver.dlx import dlx_solutions, make_matrix
    from tanglekit.solver.exact_cover import reduce_multiplicities as red_

    r = red_(p)
    m = make_matrix(r.n_primary, r.n_secondary, r.ptr, r.items, r.colours, kernel)
    one_by_one = [r.original(s) for s in dlx_solutions(m, batch=1)]
    assert one_by_one == full


def test_kernels_walk_the_same_tree():
    # same MRV rule and option order: the two kernels list solutions in the same order
    for p in (queens(8), knuth_xc(), knuth_xcc()):
        assert list(iter_solutions(p, "dlx", kernel="links")) == list(
            iter_solutions(p, "dlx", kernel="bitset"))


def larger_xcc(rng: random.Random) -> ExactCover:
    """A random XCC problem beyond brute force: up to 36 items, 200 options, 3 colours."""
    n_p = rng.randint(4, 20)
    n_s = rng.randint(0, 16)
    n_items = n_p + n_s
    opts, cols = [], []
    for _ in range(rng.randint(5, 200)):
        t = rng.sample(range(n_items), rng.randint(2, min(6, n_items)))
        opts.append(t)
        cols.append([rng.choice([0, 1, 2, 3]) if i >= n_p else 0 for i in t])
    # a planted cover, so that many problems have solutions
    perm = list(range(n_p))
    rng.shuffle(perm)
    k = 0
    while k < n_p:
        step = rng.randint(1, 3)
        opts.append(perm[k:k + step])
        cols.append([0] * len(perm[k:k + step]))
        k += step
    return ExactCover(n_p, n_s, opts, cols)


@pytest.mark.parametrize("seed", range(4))
def test_bitset_kernel_walks_the_links_tree_on_random_xcc(seed):
    """Option bitsets (colours as kill sets) against dancing links: the same solutions in the
    same order, resumed after tiny node budgets too, and the same counts with and without the
    memo cache."""
    from tanglekit.solver.dlx import dlx_count, make_matrix

    rng = random.Random(seed)
    nonzero = 0
    for k in range(30):
        p = larger_xcc(rng)
        if count_solutions(p, "dlx", kernel="links", limit=5000)[0] >= 5000:
            continue  # keep the listing short
        links = list(iter_solutions(p, "dlx", kernel="links"))
        assert list(iter_solutions(p, "dlx", kernel="bitset")) == links, (p.options, p.colours)
        red = reduce_multiplicities(p)
        m = make_matrix(red.n_primary, red.n_secondary, red.ptr, red.items, red.colours, "bitset")
        sols = []
        while not m.finished:
            sols += m.run(limit=rng.choice([0, 1, 3]), record=True, batch=64, max_nodes=rng.randint(1, 7))[2]
        assert [red.original(s) for s in sols] == links
        for memo in (True, False):
            m = make_matrix(red.n_primary, red.n_secondary, red.ptr, red.items, red.colours, "bitset")
            assert dlx_count(m, memo=memo) == (len(links), True)
        m = make_matrix(red.n_primary, red.n_secondary, red.ptr, red.items, red.colours, "bitset")
        total = 0
        while not m.finished:
            total = m.count_memo(max_nodes=rng.randint(1, 5))[0]
        assert total == len(links)
        nonzero += len(links) > 0
    assert nonzero >= 10


def test_first_solution_and_solve():
    assert first_solution(knuth_xc()) == [0, 3, 4]
    assert first_solution(ExactCover(1, 0, [[]])) is None
    res = solve(queens(8), "count")
    assert (res.count, res.complete, res.backend) == (92, True, "dlx")
    res = solve(queens(8), "all", limit=3)
    assert len(res.solutions) == 3 and not res.complete
    res = solve(queens(6), "all", backend="cpsat")
    assert res.count == 4 and res.complete


def test_optimise_partial_cover():
    # no exact cover of a..e exists; the best partial covers take two options (4 items)
    p = ExactCover.from_named([["a", "b"], ["b", "c"], ["c", "d"], ["d", "e"]])
    assert count_solutions(p) == (0, True)
    res = optimise(p, objective="items")
    best = max(
        sum(len(p.options[o]) for o in combo)
        for r in range(5)
        for combo in itertools.combinations(range(4), r)
        if all(not set(p.options[a]) & set(p.options[b])
               for a, b in itertools.combinations(combo, 2))
    )
    assert res.objective == best == 4 and res.optimal
    weighted = ExactCover(2, 0, [[0], [1], [0, 1]], weights=[1.0, 1.0, 5.0])
    res = solve(weighted, "optimise")
    assert res.solutions == [[2]] and res.objective == 5.0 and res.backend == "cpsat"


def test_bad_input_raises():
    with pytest.raises(SolverError):
        ExactCover(1, 0, [[3]])
    with pytest.raises(SolverError):
        ExactCover(1, 1, [[0, 1]], colours=[[1, 0]])
    with pytest.raises(SolverError):
        ExactCover(1, 0, [[0, 0]])
    with pytest.raises(SolverError):
        count_solutions(knuth_xc(), backend="magic")
    with pytest.raises(SolverError):
        solve(knuth_xc(), "optimise", backend="dlx")
    with pytest.raises(SolverError):
        list(iter_solutions(knuth_xc(), "dlx", kernel="magic"))


# --- splitting counts over processes (solver.parallel) ---

@pytest.mark.parametrize("seed", seeds(2, 6))
def test_split_parts_sum_to_the_brute_force_count(seed):
    rng = random.Random(seed)
    for k in range(40):
        p = random_problem(rng, colours=k % 2 == 1, bounds=False)
        expected = len(brute_force(p))
        for min_parts in (1, 3, 16):
            parts = split_problem(p, min_parts)
            got = sum(f * count_solutions(q, "dlx")[0] for q, f in parts)
            assert got == expected, (p.options, p.colours, min_parts)


def test_forcing_a_coloured_option_keeps_same_colour_sharers():
    # item 0 primary; items 1,2 primary; item 3 secondary shared with colour 1
    p = ExactCover(3, 1, [[0, 3], [1, 3], [2, 3], [1]], [[0, 1], [0, 1], [0, 2], [0]])
    sub, factor = force_option(p, 0)
    assert sub.n_primary == 2 and sub.n_secondary == 0 and factor == 1
    assert sorted(sub.options) == [(0,), (0,)]  # option 1 (same colour) and option 3; option 2 clashes
    assert count_solutions(p, "dlx")[0] == 0  # item 2 can only be covered by the clashing option
    # an option whose only item is shared in the forced colour may be taken or not
    q = ExactCover(1, 1, [[0, 1], [1]], [[0, 1], [1]])
    assert force_option(q, 0)[1] == 2 and count_solutions(q, "dlx") == (2, True)


def test_process_pool_count_equals_one_process():
    # OEIS A000170: 10 queens have 724 solutions
    assert count_parallel(queens(10), workers=2) == (724, True)
    assert count_solutions(queens(10), "dlx", workers=2) == (724, True)


def test_process_pool_time_limit_zero_is_incomplete():
    n, complete = count_parallel(queens(12), workers=2, time_limit=0.0)
    assert complete is False and n < 14200


def test_plain_reduction_fast_path_equals_general():
    """The array fast path of reduce_multiplicities gives exactly the general reduction."""
    import numpy as np
    from tanglekit.solver.exact_cover import _reduce_plain, reduce_multiplicities

    rng = random.Random(11)
    used = 0
    for k in range(200):
        p = random_problem(rng, colours=k % 2 == 1, bounds=False)
        fast = _reduce_plain(p)
        if fast is None:
            continue
        used += 1
        slow = reduce_multiplicities(p, fast=False)
        assert (fast.n_primary, fast.n_secondary, fast.infeasible) == (slow.n_primary, slow.n_secondary, slow.infeasible)
        for a in ("ptr", "items", "colours", "origin"):
            assert np.array_equal(getattr(fast, a), getattr(slow, a)), a
    assert used >= 50


@pytest.mark.slow
@pytest.mark.parametrize("key,kernels", [
    ("6x10", ("auto", "firstcell", "bitset", "links")),
    ("5x12", ("auto", "firstcell", "bitset")),
    ("hex6x6", ("auto", "firstcell", "bitset", "links")),
    ("edge6", ("auto", "bitset", "links")),
])
def test_every_kernel_counts_the_benchmark_problems(key, kernels):
    """The published tiling counts (6x10 and 5x12 pentominoes: 9356 and 4040, i.e. 2339 and 1010
    up to symmetry; the hexiamonds in the 6x6 rhombus: 624, i.e. 156) and the colour problem of
    the benchmark, by every kernel that takes them, with and without the memo cache."""
    from tanglekit.benchmarks.exact_cover import problem

    _, ec, expected = problem(key)
    for kernel in kernels:
        for memo in ((True, False) if kernel == "bitset" else (True,)):
            assert count_solutions(ec, "dlx", kernel=kernel, memo=memo) == (expected, True), (kernel, memo)


def test_benchmark_child_measures_one_call(capsys):
    """One measurement of the exact-cover benchmark, in this process: a JSON line with the
    answer, cold and warm CPU seconds."""
    import json

    from tanglekit.benchmarks.exact_cover import _child

    _child(["edge5", "count", "tanglekit", "1", "30"])
    out = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert out["n"] == 336 and out["complete"] and out["warm"] >= 0 and out["cold"] >= 0
    _child(["edge5", "first", "exact-cover", "1", "30"])
    assert "na" in json.loads(capsys.readouterr().out.strip().splitlines()[-1])  # colours: not for it


@pytest.mark.slow
def test_benchmark_table_and_ratios(capsys):
    from tanglekit.benchmarks._table import parse_markdown
    from tanglekit.benchmarks.exact_cover import main

    main(["--quick", "--tools", "tanglekit,xcover", "--problems", "edge5", "--no-split"])
    doc = parse_markdown(capsys.readouterr().out)
    summary, every = doc["tables"][:2]
    assert [r["query"] for r in summary["rows"]] == ["first", "count"]
    assert all(r["tanglekit s"] is not None for r in summary["rows"])
    assert {r["tool"].split()[0] for r in every["rows"]} >= {"tanglekit"}


# --- compiled once, asked many times (ExactCover.compile) ---

@pytest.mark.parametrize("kernel", ["auto", "links", "bitset"])
def test_compiled_queries_repeat_and_interleave(kernel):
    """Repeated first / count / solutions on one compiled problem give the answers of a fresh
    problem each time, also after queries stopped early (links left dancing) and while another
    query's iterator is still open (it keeps its own state)."""
    fresh = lambda: queens(8)  # noqa: E731
    full = list(iter_solutions(fresh(), "dlx", kernel=kernel))
    p = queens(8)
    c = p.compile(kernel)
    assert p.compile(kernel) is c
    for _ in range(3):
        assert c.first() == full[0] == first_solution(p, kernel=kernel)
        assert list(c.solutions(limit=7)) == full[:7]
        assert c.count(limit=10) == (10, False)
        assert c.count() == (92, True) == count_solutions(p, "dlx", kernel=kernel)
    it = c.solutions()
    head = [next(it) for _ in range(5)]
    assert c.first() == full[0] and c.count() == (92, True)  # while `it` holds its state
    assert head + list(it) == full
    assert list(c.solutions()) == full


def test_compiled_state_follows_item_order_and_graph_and_pickles():
    import pickle

    from tanglekit.benchmarks.exact_cover import problem

    _, ec, n = problem("hex6x6")
    assert count_solutions(ec, "dlx") == (n, True)
    assert ec.compile().uses_firstcell()
    ec.item_order = None  # drops the compiled forms: the MRV kernel counts now
    assert not ec.compile().uses_firstcell() and count_solutions(ec, "dlx") == (n, True)
    back = pickle.loads(pickle.dumps(ec))
    assert back._compiled == {} and back.options == ec.options and back.cell_graph is not None


@pytest.mark.parametrize("seed", range(3))
def test_memo_count_switching_to_plain_search_keeps_the_count(seed, monkeypatch):
    """A memo count that goes on without the memo after its trial (hits below 1 in 64) resumes
    the plain search from the memo kernel's state: the same count, for any trial length."""
    from tanglekit.solver import xc_problem

    rng = random.Random(seed)
    for k in range(20):
        p = larger_xcc(rng)
        expected = count_solutions(p, "dlx", kernel="links")
        for trial in (1, 3, 17):
            monkeypatch.setattr(xc_problem, "MEMO_TRIAL", trial)
            p._compiled = {}
            assert count_solutions(p, "dlx", kernel="bitset") == expected, (trial, p.options)
