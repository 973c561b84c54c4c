"""Hostile input for `shapes enumerate|canon|show` and `tile`: files, inline shapes, numbers, limits.

Each case is refused with one line on stderr and exit 2 (tests/hostile.py), or, for valid input,
answered correctly (published counts); a stopped count says so and never passes for a full one.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from budget import examples
from hostile import HOSTILE_NAMES, assert_refused, hostile_files, hostile_text, json_values, run_cli

from tanglekit.solver.tiling import piece_set

FUZZ = settings(max_examples=examples(20), deadline=None, suppress_health_check=list(HealthCheck))


@pytest.mark.parametrize("name", HOSTILE_NAMES + ["folder_path", "missing"])
def test_tile_refuses_the_corpus_as_region_and_pieces(name, tmp_path):
    path = hostile_files()[name]
    assert_refused(["tile", "--region", str(path), "--pieces", "dominoes", "--svg", str(tmp_path / "t.svg")], tmp_path)
    assert_refused(["tile", "--region", "rect:2x2", "--pieces", str(path), "--json"], tmp_path)


@pytest.mark.parametrize("name", HOSTILE_NAMES + ["folder_path", "missing"])
def test_shapes_refuse_the_corpus(name, tmp_path):
    path = hostile_files()[name]
    assert_refused(["shapes", "show", "@" + str(path), "--svg", str(tmp_path / "s.svg")], tmp_path)
    assert_refused(["shapes", "canon", "@" + str(path), "--json"], tmp_path)


BAD_FILES = {
    "disconnected_piece": ("pieces", {"lattice": "square", "pieces": [[[0, 0], [2, 0]]]}),
    "duplicate_piece": ("pieces", {"lattice": "square", "pieces": [[[0, 0], [1, 0]], [[5, 5], [5, 6]]]}),
    "duplicate_cell": ("pieces", [[[0, 0], [0, 0]]]),
    "huge_coordinate": ("pieces", [[[10**18, 0], [10**18 + 1, 0]]]),
    "float_cells": ("pieces", [[[0.5, 0]]]),
    "unknown_lattice": ("pieces", {"lattice": "cubic", "pieces": [[[0, 0]]]}),
    "region_as_pieces": ("pieces", {"lattice": "square", "cells": [[0, 0], [1, 0]]}),
    "pieces_as_region": ("region", {"lattice": "square", "pieces": [[[0, 0]]]}),
    "region_duplicate": ("region", {"lattice": "square", "cells": [[0, 0], [0, 0]]}),
    "region_huge": ("region", {"lattice": "square", "cells": [[10**12, 0]]}),
    "region_bad_cell": ("region", [[0, "a"]]),
    "region_extra_key": ("region", {"lattice": "square", "cells": [[0, 0]], "colour": "red"}),
    "other_game": ("region", {"format": "tanglekit/tangle-state", "version": 1, "moves": []}),
    "zangle_deal": ("pieces", {"middle": [[[0, 0]]], "own": []}),
}


@pytest.mark.parametrize("name", sorted(BAD_FILES))
def test_bad_region_and_piece_files_are_refused(name, tmp_path):
    role, data = BAD_FILES[name]
    f = tmp_path / f"{name}.json"
    f.write_text(json.dumps(data))
    args = ["tile", "--region", str(f), "--pieces", "dominoes"] if role == "region" else \
        ["tile", "--region", "rect:4x3", "--pieces", str(f), "--each", "any", "--count"]
    msg = assert_refused(args, tmp_path)
    assert f.name in msg, msg


def test_valid_files_give_published_counts(tmp_path):
    f = tmp_path / "domino.json"
    f.write_text(json.dumps({"format": "tanglekit/shapes", "version": 1, "lattice": "square",
                             "pieces": [[[0, 0], [1, 0]]]}))
    code, out, err = run_cli(["tile", "--region", "rect:4x3", "--pieces", str(f), "--each", "any", "--count", "--json"])
    assert code == 0, err
    d = json.loads(out)
    assert d["count"] == 11 and d["complete"] is True  # domino tilings of 3x4 (OEIS A099390)
    r = tmp_path / "region.json"
    r.write_text(json.dumps([[x, y] for y in range(3) for x in range(4)]))  # untagged, triangle lattice
    code, out, err = run_cli(["tile", "--region", str(r), "--pieces", "diamonds", "--each", "any", "--count", "--json"])
    assert code == 0 and json.loads(out)["count"] > 0, err


@pytest.mark.parametrize("args", [
    ["tile", "--region", "rect:1000x1000", "--pieces", "pentominoes", "--count", "--time-limit", "2"],
    ["tile", "--region", "rect:99999999999999999999x2", "--pieces", "dominoes"],
    ["tile", "--region", "hexagon:999999999", "--pieces", "hexiamonds"],
    ["tile", "--region", "rect:140x140", "--pieces", "hexominoes", "--count"],
    ["tile", "--region", "rect:0x3", "--pieces", "dominoes"],
    ["tile", "--region", "rect:3", "--pieces", "dominoes"],
    ["tile", "--region", "circle:3", "--pieces", "dominoes"],
    ["tile", "--region", "x" * 5000, "--pieces", "dominoes"],
    ["tile", "--region", "rect:4x4", "--pieces", "octominoes"],
    ["tile", "--region", "rect:4x4", "--pieces", "hexiamonds"],
    ["tile", "--region", "rect:3x3", "--pieces", "trominoes", "--all", "--limit", "0"],
    ["tile", "--region", "rect:3x3", "--pieces", "trominoes", "--all", "--limit", "-1"],
    ["tile", "--region", "rect:3x3", "--pieces", "trominoes", "--limit", "3"],
    ["tile", "--region", "rect:3x3", "--pieces", "trominoes", "--all", "--count"],
    ["tile", "--region", "rect:3x3", "--pieces", "trominoes", "--time-limit", "-1"],
    ["tile", "--region", "rect:3x3", "--pieces", "trominoes", "--time-limit", "nan"],
    ["tile", "--region", "rect:3x3", "--pieces", "trominoes", "--time-limit", "inf"],
    ["tile", "--region", "rect:3x3", "--pieces", "trominoes", "--count", "--workers", "-2"],
    ["tile", "--region", "rect:2x2", "--pieces", "dominoes", "--each", "any", "--svg", "/dev/full"],
    ["shapes", "enumerate", "99999999999999999999999"],
    ["shapes", "enumerate", "99999999999999999999999", "--count"],
    ["shapes", "enumerate", "30", "--count"],
    ["shapes", "enumerate", "19", "--count", "--lattice", "square"],
    ["shapes", "enumerate", "0"],
    ["shapes", "enumerate", "12", "--kind", "fixed", "--lattice", "square"],
    ["shapes", "enumerate", "5", "--by-size"],
    ["shapes", "enumerate", "4", "--svg", "/dev/full"],
    ["shapes", "show", "[[100000000000000000000, 0]]"],
    ["shapes", "canon", "[[1e5, 0]]"],
    ["shapes", "show", "##/##", "--svg", "/dev/full"],
    ["shapes", "show", "[]"],
    ["shapes", "show", "x" * 200_000],
])
def test_bad_numbers_sizes_and_outputs_are_refused(args, tmp_path):
    assert_refused(args, tmp_path)


def test_time_limits_are_honest(tmp_path):
    # 0 stops at once: nothing is known, and the JSON says so
    code, out, err = run_cli(["tile", "--region", "rect:10x6", "--pieces", "pentominoes", "--count",
                              "--time-limit", "0", "--json"])
    d = json.loads(out)
    assert code == 0 and d["complete"] is False and d["count"] is None and d["reason"] == "time limit"
    code, out, err = run_cli(["tile", "--region", "rect:10x6", "--pieces", "pentominoes", "--time-limit", "0", "--json"])
    d = json.loads(out)
    assert code == 0 and d["complete"] is False and d["solutions"] == []
    # a count that finishes says complete, with the published figure
    code, out, err = run_cli(["tile", "--region", "rect:5x4", "--pieces", "tetrominoes", "--count", "--json",
                              "--workers", "1"])
    d = json.loads(out)
    assert d["complete"] is True and d["count"] == 0  # 5 tetrominoes cannot tile 5x4 (parity)


@FUZZ
@given(doc=json_values)
@example(doc=[[[0, 0]], [[0, 0], [1, 0]]])  # a piece set (and no region): 4 tilings of triangle:2
@example(doc=[[0, 0], [1, 0], [1, 1]])  # a region (and no piece set): 1 tiling by single triangles
def test_any_json_document_as_region_or_pieces(doc, tmp_path_factory):
    folder = tmp_path_factory.mktemp("fs")
    f = folder / "doc.json"
    f.write_text(json.dumps(doc))
    for args in (["tile", "--region", str(f), "--pieces", "moniamonds", "--each", "any", "--count", "--json"],
                 ["tile", "--region", "triangle:2", "--pieces", str(f), "--each", "any", "--count", "--json"]):
        code, out, err = run_cli(args, cwd=folder)
        assert "Traceback" not in err
        if code != 0:
            assert_refused(args, folder)
        else:  # a document that is a real region or piece set: the full, right count
            d = json.loads(out)
            # any region is tiled by single triangles in exactly one way; the 4 cells of
            # triangle:2 as many ways as their set partitions into blocks congruent to a piece
            want = 1 if args[2] == str(f) else _partitions_into_pieces(TRIANGLE2, piece_set(str(f)))
            assert d["complete"] is True and d["count"] == want, (doc, d)


TRIANGLE2 = [(2, 0), (1, 1), (2, 1), (3, 1)]  # region triangle:2


def _partitions_into_pieces(cells, pieces) -> int:
    """Tilings of a few cells by free copies of ``pieces`` (Polyforms, any number of each),
    counted as the set partitions of the cells whose every block is congruent to a piece (a
    reference for the exact-cover count)."""
    from tanglekit.shapes.polyform import Polyform

    keys = {p.key("free") for p in pieces}

    def count(rest):
        if not rest:
            return 1
        first, others = rest[0], rest[1:]
        total = 0
        for mask in range(1 << len(others)):
            block = [first] + [c for i, c in enumerate(others) if mask >> i & 1]
            if Polyform(block).key("free") in keys:
                total += count([c for i, c in enumerate(others) if not mask >> i & 1])
        return total

    return count(list(cells))


@FUZZ
@given(text=hostile_text)
def test_any_shape_text(text, tmp_path_factory):
    folder = tmp_path_factory.mktemp("ft")
    code, out, err = run_cli(["shapes", "canon", text, "--json"], cwd=folder)
    assert "Traceback" not in err
    if code != 0:
        assert_refused(["shapes", "canon", text, "--json"], folder)
    else:
        d = json.loads(out)
        assert d["area"] >= 1 and d["symmetry_order"] >= 1


@FUZZ
@given(cells=st.lists(st.tuples(st.integers(-(10**12), 10**12), st.integers(-(10**12), 10**12)), min_size=1, max_size=6))
def test_any_coordinates(cells, tmp_path_factory):
    folder = tmp_path_factory.mktemp("fc")
    text = json.dumps([list(c) for c in cells])
    code, out, err = run_cli(["shapes", "show", text, "--lattice", "square", "--json"], cwd=folder)
    assert "Traceback" not in err
    assert code == 2 or json.loads(out)["cells"]
