"""Polyform tilings: OEIS piece counts, named regions, published puzzle counts (raw and up to
symmetry), and dlx / cpsat / reference agreement on random small tilings."""

from __future__ import annotations

import json
import random

import pytest

from tanglekit.errors import FormatError, ShapeError, SolverError
from tanglekit.shapes.polyform import Polyform
from tanglekit.solver.exact_cover import count_solutions, first_solution, iter_solutions
from tanglekit.solver.tiling import (
    TilingProblem,
    TilingSolution,
    free_polyforms,
    parse_region,
    piece_set,
    solve_tiling,
    _grow_free,
)


@pytest.mark.parametrize(
    "name,count",
    [
        # OEIS A000105 (free polyominoes) and A000577 (free polyiamonds)
        ("monominoes", 1), ("dominoes", 1), ("trominoes", 2), ("tetrominoes", 5),
        ("pentominoes", 12), ("hexominoes", 35),
        ("moniamonds", 1), ("diamonds", 1), ("triamonds", 1), ("tetriamonds", 3),
        ("pentiamonds", 4), ("hexiamonds", 12), ("heptiamonds", 24),
    ],
)
def test_named_piece_sets(name, count):
    pieces = piece_set(name)
    assert len(pieces) == count
    assert len({p.key("free") for p in pieces}) == count
    assert all(p.is_connected() for p in pieces)


def test_local_grower_matches_shared_enumerator():
    from tanglekit.shapes.enumerate import iter_polyforms

    for n, lat in [(5, "square"), (6, "triangle")]:
        shared = sorted((p.canonical("free") for p in iter_polyforms(n, lat, "free")),
                        key=lambda p: p.cells)
        assert _grow_free(n, lat) == free_polyforms(n, lat) == shared
    assert len(free_polyforms(8, "triangle")) == 66  # A000577, through the shared enumerator


@pytest.mark.parametrize(
    "spec,area,order",
    [
        ("rect:10x6", 60, 4), ("rect:4x4", 16, 8), ("parallelogram:6x6", 72, 4),
        ("parallelogram:4x9", 72, 2), ("parallelogram:1x1", 2, 4), ("triangle:1", 1, 6),
        ("triangle:4", 16, 6), ("hexagon:1", 6, 12), ("hexagon:3", 54, 12),
    ],
)
def test_named_regions(spec, area, order):
    r = parse_region(spec)
    assert r.area == area and r.symmetry_order("free") == order
    assert r.is_connected() and r.holes() == 0


def test_parallelogram_is_made_of_rhombi():
    # a b-row parallelogram of a rhombi: each row has a up and a down triangles, and every
    # down triangle's partner (its third neighbour) is in the row above or is an edge cell
    r = parse_region("parallelogram:3x2")
    rows = {}
    for x, y in r.cells:
        rows.setdefault(y, []).append((x + y) % 2 == 0)
    assert sorted(rows) == [0, 1] and all(sum(v) == 3 and len(v) == 6 for v in rows.values())


def test_bad_names_raise():
    with pytest.raises(FormatError):
        parse_region("circle:3")
    with pytest.raises(FormatError):
        parse_region("rect:3")
    with pytest.raises(ShapeError):
        parse_region("rect:0x3")
    with pytest.raises(FormatError):
        piece_set("octominoes")
    with pytest.raises(ShapeError):
        solve_tiling("rect:5x2", "triamonds")
    with pytest.raises(SolverError):
        solve_tiling("rect:5x2", "dominoes", each="twice")


def test_custom_files(tmp_path):
    f = tmp_path / "pieces.json"
    f.write_text(json.dumps([[[0, 0], [1, 0]], [[0, 0], [1, 0], [2, 0]]]))
    pieces = piece_set(str(f))
    assert [p.area for p in pieces] == [2, 3] and pieces[0].lattice.name == "triangle"
    g = tmp_path / "sq.json"
    g.write_text(json.dumps({"lattice": "square", "pieces": [[[0, 0], [1, 0]]]}))
    res = solve_tiling("rect:4x3", piece_set(str(g)), each="any", query="count")
    assert res.count == 11  # domino tilings of 3x4 (OEIS A099390)
    bad = tmp_path / "bad.json"
    bad.write_text("[[1, 2]]")
    with pytest.raises(FormatError):
        piece_set(str(bad))
    reg = tmp_path / "region.json"
    reg.write_text(json.dumps({"lattice": "square", "cells": [[0, 0], [1, 0]]}))
    assert parse_region(str(reg)).area == 2


@pytest.mark.parametrize(
    "region,pieces,raw,up",
    [
        ("rect:20x3", "pentominoes", 8, 2),
        ("parallelogram:4x9", "hexiamonds", 148, 74),
        ("parallelogram:3x12", "hexiamonds", 0, 0),
        ("parallelogram:6x6", "hexiamonds", 624, 156),
    ],
)
def test_published_counts_fast(region, pieces, raw, up):
    res = solve_tiling(region, pieces, query="count", up_to_symmetry=True)
    assert (res.count, res.count_up_to_symmetry) == (raw, up)
    plain = solve_tiling(region, pieces, query="count")
    assert plain.count == raw and plain.count_up_to_symmetry is None
    for kernel in ("links", "bitset") if raw < 100 else ():
        prob = TilingProblem(parse_region(region), piece_set(pieces))
        assert count_solutions(prob.exact_cover, "dlx", kernel=kernel, memo=False) == (raw, True)


def test_pentominoes_6x10_up_to_symmetry():
    res = solve_tiling("rect:10x6", "pentominoes", query="count", up_to_symmetry=True)
    assert (res.count_up_to_symmetry, res.count, res.symmetry_order) == (2339, 9356, 4)
    assert res.symmetry_method.startswith("fixed piece")


@pytest.mark.slow
@pytest.mark.parametrize(
    "region,raw,up",
    [("rect:10x6", 9356, 2339), ("rect:12x5", 4040, 1010), ("rect:15x4", 1472, 368)],
)
def test_pentomino_rectangles_raw(region, raw, up):
    plain = solve_tiling(region, "pentominoes", query="count")
    assert plain.count == raw
    res = solve_tiling(region, "pentominoes", query="count", up_to_symmetry=True)
    assert (res.count, res.count_up_to_symmetry) == (raw, up)


@pytest.mark.slow
def test_pentominoes_6x10_all_solutions_canonicalised():
    prob = TilingProblem(parse_region("rect:10x6"), piece_set("pentominoes"))
    keys = {prob.canonical_key(s) for s in iter_solutions(prob.exact_cover, "dlx")}
    assert len(keys) == 2339


def test_heptiamonds_in_the_7x12_parallelogram_first_solution():
    """The benchmark's large region: 24 heptiamonds, 168 triangles, 192 items."""
    res = solve_tiling("parallelogram:12x7", "heptiamonds", query="first")
    assert len(res.solutions) == 1 and res.solutions[0].is_valid(res.pieces)
    prob = TilingProblem(parse_region("parallelogram:12x7"), piece_set("heptiamonds"))
    sols = [first_solution(prob.exact_cover, "dlx", kernel=k) for k in ("links", "bitset", "auto")]
    assert sols[0] == sols[1] == sols[2]  # the same tree: the same first solution
    assert prob.solution(sols[0]).is_valid(prob.pieces)


def test_canonical_forms_agree_with_fixed_piece():
    # orbit counting by canonical forms on every raw solution gives the same as fixing a piece
    cases = [("rect:20x3", "pentominoes", 2), ("parallelogram:6x6", "hexiamonds", 156)]
    for region, pieces, up in cases:
        prob = TilingProblem(parse_region(region), piece_set(pieces))
        sols = list(iter_solutions(prob.exact_cover, "dlx"))
        assert len({prob.canonical_key(s) for s in sols}) == up
        assert prob.fundamental_piece() is not None


def test_all_solutions_are_valid_and_distinct():
    res = solve_tiling("rect:20x3", "pentominoes", query="all")
    assert res.count == 8 and res.complete
    assert all(s.is_valid(res.pieces) for s in res.solutions)
    assert len({tuple(p.cells for p in s.placed) for s in res.solutions}) == 8
    reps = solve_tiling("rect:20x3", "pentominoes", query="all", up_to_symmetry=True)
    assert len(reps.solutions) == 2 and reps.count == 8
    first = solve_tiling("parallelogram:6x6", "hexiamonds", query="first")
    assert len(first.solutions) == 1 and first.solutions[0].is_valid(first.pieces)
    lim = solve_tiling("parallelogram:6x6", "hexiamonds", query="all", limit=5)
    assert len(lim.solutions) == 5 and not lim.complete


def test_solution_check_finds_faults():
    region = parse_region("rect:2x2")
    dom = Polyform([(0, 0), (1, 0)], "square")
    good = TilingSolution(region, [(0, dom), (1, dom.translate(0, 1))])
    assert good.is_valid([dom, dom])
    overlap = TilingSolution(region, [(0, dom), (1, dom)])
    errs = overlap.problems([dom, dom])
    assert any("covered by" in e for e in errs) and any("not covered" in e for e in errs)
    outside = TilingSolution(region, [(0, dom.translate(1, 0)), (1, dom.translate(0, 1))])
    assert any("outside" in e for e in outside.problems())
    tromino = Polyform([(0, 0), (1, 0), (2, 0)], "square")
    assert not good.is_valid([dom, tromino])


def test_each_modes_and_mirrors():
    # 2x3 with dominoes any number of times: 3 tilings; L-trominoes: 2 (OEIS-checkable by hand)
    assert solve_tiling("rect:3x2", "dominoes", each="any", query="count").count == 3
    ltro = [p for p in piece_set("trominoes") if len(set(x for x, _ in p.cells)) == 2]
    assert solve_tiling("rect:3x2", ltro, each="any", query="count").count == 2
    # one-sided: an asymmetric piece set without mirrors loses solutions
    pent = piece_set("pentominoes")
    free = solve_tiling("rect:20x3", pent, query="count").count
    one_sided = solve_tiling("rect:20x3", pent, mirror=False, query="count").count
    assert free == 8 and one_sided < free
    # at-most: 12 pentominoes into a 5x5 square (any 5 of them that fit)
    res = solve_tiling("rect:5x5", pent, each="at-most", query="first")
    assert res.solutions and res.solutions[0].is_valid(pent, each="at-most")
    assert len(res.solutions[0].placed) == 5


def random_instance(rng: random.Random, lattice: str, n_pieces: int, sizes=range(1, 5)):
    """Random pieces (1..4 cells) glued edge to edge into a region, so a tiling exists."""
    pool = [p for n in sizes for p in free_polyforms(n, lattice)]
    shapes = [rng.choice(pool) for _ in range(n_pieces)]
    cells: set = set()
    used = []
    for s in shapes:
        for _ in range(500):
            img = s.transformed(rng.randrange(s.lattice.n_symmetries))
            if not cells:
                dx, dy = 0, 0
            else:
                c = rng.choice(sorted(cells))
                nb = rng.choice(s.lattice.neighbours(c))
                a = rng.choice(img.cells)
                dx, dy = nb[0] - a[0], nb[1] - a[1]
                if not s.lattice.is_translation(dx, dy):
                    continue
            moved = {(x + dx, y + dy) for x, y in img.cells}
            if not moved & cells:
                cells |= moved
                used.append(s)
                break
    return Polyform(sorted(cells), lattice), used


def _region_pruning_changes_nothing(ec):
    """The bitset kernel with isolated-region pruning (tilings) lists the same solutions in the
    same order as without it and as dancing links, and counts the same with the memo."""
    from tanglekit.solver.dlx import dlx_count, make_matrix
    from tanglekit.solver.exact_cover import reduce_multiplicities

    red = reduce_multiplicities(ec)
    if red.infeasible:
        return
    lists = []
    for cells, kind in ((red.cells(ec), "bitset"), (None, "bitset"), (None, "links")):
        m = make_matrix(red.n_primary, red.n_secondary, red.ptr, red.items, red.colours, kind, cells=cells)
        lists.append([s for s in _all_runs(m)])
    assert lists[0] == lists[1] == lists[2]
    for bound in (None, 3):
        m = make_matrix(red.n_primary, red.n_secondary, red.ptr, red.items, red.colours, "bitset", cells=red.cells(ec))
        if bound is not None:
            from tanglekit.solver.dlx_bitset import BitsetMatrix

            m = BitsetMatrix(red.n_primary, red.n_secondary, red.ptr, red.items, red.colours,
                             cells=red.cells(ec), bound=bound)
        assert dlx_count(m) == (len(lists[0]), True)


def _all_runs(m):
    while not m.finished:
        yield from m.run(limit=0, record=True, batch=64, max_nodes=3)[2]


@pytest.mark.parametrize("seed", range(6))
def test_region_pruning_on_random_tilings_of_one_piece_size(seed):
    rng = random.Random(100 + seed)
    lattice = "square" if seed % 2 else "triangle"
    size = rng.choice([2, 3, 4])
    region, pieces = random_instance(rng, lattice, rng.randint(3, 6), sizes=[size])
    each = ["exactly", "at-most", "any"][seed % 3]
    prob = TilingProblem(region, pieces, each)
    ec = prob.exact_cover
    _region_pruning_changes_nothing(ec)
    ref = sorted(iter_solutions(ec, "reference"))
    assert sorted(iter_solutions(ec, "dlx")) == ref and ref


def test_region_pruning_survives_the_worker_split():
    """Forcing an option keeps the cell graph (renumbered), so split parts prune too."""
    from tanglekit.solver.parallel import split_problem

    ec = TilingProblem(parse_region("parallelogram:4x9"), piece_set("hexiamonds")).exact_cover
    parts = split_problem(ec, 12)
    assert len(parts) >= 12 and all(p.cell_graph is not None for p, _ in parts)
    for p, _ in parts[:6]:
        _region_pruning_changes_nothing(p)
    assert sum(f * count_solutions(p, "dlx", kernel="bitset")[0] for p, f in parts) == 148


def test_region_pruning_on_published_tilings():
    """Pruning is on for tilings of connected pieces of one size, and changes no count."""
    for region, pieces, raw in (("rect:20x3", "pentominoes", 8), ("parallelogram:4x9", "hexiamonds", 148),
                                ("parallelogram:3x12", "hexiamonds", 0)):
        ec = TilingProblem(parse_region(region), piece_set(pieces)).exact_cover
        assert ec.cell_graph is not None
        _region_pruning_changes_nothing(ec)
        assert count_solutions(ec, "dlx", kernel="bitset") == (raw, True)


@pytest.mark.parametrize("seed", range(12))
def test_backends_agree_on_random_tilings(seed):
    rng = random.Random(seed)
    lattice = "square" if seed % 2 else "triangle"
    region, pieces = random_instance(rng, lattice, rng.randint(2, 4))
    each = ["exactly", "at-most", "any"][seed % 3]
    if each != "exactly":
        pieces = pieces + [rng.choice(free_polyforms(rng.randint(1, 3), lattice))]
    mirror = seed % 4 != 3
    prob = TilingProblem(region, pieces, each, mirror)
    ec = prob.exact_cover
    ref = sorted(iter_solutions(ec, "reference"))
    if mirror:
        assert ref  # the region was built from these pieces
    assert sorted(iter_solutions(ec, "dlx", kernel="links")) == ref
    assert sorted(iter_solutions(ec, "dlx", kernel="bitset")) == ref
    assert sorted(iter_solutions(ec, "cpsat")) == ref
    _region_pruning_changes_nothing(ec)
    for s in ref:
        assert prob.solution(s).is_valid(pieces, each, mirror)
    # up to symmetry: canonical-form orbit count matches whichever method solve_tiling used
    res = solve_tiling(region, pieces, each, mirror, query="count", up_to_symmetry=True)
    keys = {prob.canonical_key(s) for s in ref}
    assert res.count == len(ref)
    assert res.count_up_to_symmetry == len(keys)


@pytest.mark.parametrize(
    "region,pieces,each",
    [
        ("rect:4x3", "L4", "exactly"),
        ("rect:3x3", "trominoes", "any"),
        ("triangle:3", "triamonds", "any"),
        ("hexagon:1", "D3", "exactly"),
        ("triangle:2", "tetriamonds", "at-most"),
        ("triangle:4", "tetriamonds", "any"),
    ],
)
def test_symmetry_methods_agree(region, pieces, each):
    lat = "square" if region.startswith("rect") else "triangle"
    if pieces == "L4":
        shapes = [p for p in piece_set("trominoes") if len({x for x, _ in p.cells}) == 2] * 4
    elif pieces == "D3":
        shapes = piece_set("diamonds") * 3
    else:
        shapes = piece_set(pieces)
    prob = TilingProblem(parse_region(region), shapes, each)
    raw = sorted(iter_solutions(prob.exact_cover, "dlx"))
    assert raw and len(prob.group()) > 1 and list(prob.group()[0]) == list(range(prob.n_cells))
    orbits = len({prob.canonical_key(s) for s in raw})
    res = solve_tiling(region, shapes, each, query="count", up_to_symmetry=True)
    assert (res.count, res.count_up_to_symmetry) == (len(raw), orbits)
    reps = solve_tiling(region, shapes, each, query="all", up_to_symmetry=True)
    assert len(reps.solutions) == orbits
    assert all(s.is_valid(shapes, each) for s in reps.solutions)
    assert lat == prob.region.lattice.name
