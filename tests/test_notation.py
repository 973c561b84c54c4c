"""Tests of the shape notation: known shapes, round trips on both lattices, every error message."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from budget import examples

from tanglekit.errors import FormatError, ShapeError, TanglekitError
from tanglekit.shapes.notation import format_shape, load_shape_arg, parse_shape
from tanglekit.shapes.polyform import Polyform
from tanglekit.shapes.registry import get_lattice

HEXAGON = [(0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1)]


# --- known shapes ---------------------------------------------------------------------------


def test_hexagon_hexiamond_one_line_and_art():
    p = parse_shape("^v^/v^v")
    assert p == Polyform(HEXAGON, "triangle")
    assert p.symmetry_order("free") == 12  # the regular hexagon: all 12 symmetries
    assert parse_shape("^v^\nv^v\n") == p
    assert format_shape(p) == "^v^/v^v"
    assert format_shape(p, "art") == "^v^\nv^v"
    assert json.loads(format_shape(p, "json")) == [list(c) for c in HEXAGON]


def test_pentomino_x_and_square_lattice_inference():
    p = parse_shape(".#./###/.#.")
    assert p.lattice is get_lattice("square")
    assert p.cells == ((1, 0), (0, 1), (1, 1), (2, 1), (1, 2))
    assert p.symmetry_order("free") == 8
    assert format_shape(p) == ".#/###/.#"  # trailing empties dropped


def test_positions_are_kept_and_parity_is_literal():
    down = parse_shape(".v")
    assert down.cells == ((1, 0),)
    assert format_shape(down) == ".v"  # a lone down cell cannot sit at (0, 0)
    assert parse_shape("  ^").cells == ((2, 0),)
    # row 1 starts with a down cell at x = 0, so a bar of four starting there reads v^v^
    assert parse_shape(".\nv^v^").cells == ((0, 1), (1, 1), (2, 1), (3, 1))


def test_art_spacing_rules():
    # leading/trailing blank lines and trailing spaces are ignored; spaces inside mean empty
    art = "\n\n  ^ \n.^v^  \n\n"
    assert parse_shape(art) == Polyform([(2, 0), (1, 1), (2, 1), (3, 1)])
    assert parse_shape("\r\n^v\r\n") == Polyform([(0, 0), (1, 0)])
    # an empty middle row is kept, so the cells below keep their y
    assert parse_shape("^//^").cells == ((0, 0), (0, 2))
    assert format_shape(Polyform([(0, 0), (0, 2)])) == "^/./^"


def test_terminal_symbols_parse_as_marks():
    assert parse_shape("▲▼▲\n▼▲▼") == Polyform(HEXAGON)
    assert parse_shape("██/█") == parse_shape("##/#")


def test_json_forms():
    assert parse_shape("[[0, 0], [1, 0]]") == Polyform([(0, 0), (1, 0)], "triangle")
    assert parse_shape("[[0, 0], [1, 0]]", "square").lattice.name == "square"
    obj = '{"lattice": "square", "cells": [[0, 0], [0, 1]], "name": "domino"}'
    assert parse_shape(obj) == Polyform([(0, 0), (0, 1)], "square")
    sq = Polyform([(0, 0), (1, 0), (0, 1)], "square")
    assert json.loads(format_shape(sq, "json")) == {"lattice": "square", "cells": [[0, 0], [1, 0], [0, 1]]}
    # JSON keeps positions too (a region has a place)
    assert parse_shape("[[5, 3], [-1, 3]]").cells == ((-1, 3), (5, 3))


def test_explicit_lattice_matches_marks():
    assert parse_shape("##", "square") == Polyform([(0, 0), (1, 0)], "square")
    assert parse_shape("^v", get_lattice("triangle")) == Polyform([(0, 0), (1, 0)])


# --- round trips ----------------------------------------------------------------------------

coords = st.integers(-7, 7)
cell_sets = st.sets(st.tuples(coords, coords), min_size=1, max_size=25)


@st.composite
def connected_polyforms(draw, lattice):
    """Random edge-connected polyforms grown cell by cell from (0, 0)."""
    lat = get_lattice(lattice)
    n = draw(st.integers(1, 18))
    cells = [(0, 0)]
    seen = {(0, 0)}
    for _ in range(n - 1):
        frontier = sorted({m for c in cells for m in lat.neighbours(c)} - seen)
        nxt = frontier[draw(st.integers(0, len(frontier) - 1))]
        cells.append(nxt)
        seen.add(nxt)
    return Polyform(cells, lattice)


def _round_trip(p: Polyform) -> None:
    for style in ("line", "art", "json"):
        text = format_shape(p, style)
        assert parse_shape(text) == p.normalized(), (style, text)
        assert parse_shape(text, p.lattice.name) == p.normalized()
    assert format_shape(p.normalized()) == format_shape(p)


@settings(max_examples=examples(150), deadline=None)
@given(cell_sets, st.sampled_from(["triangle", "square"]))
def test_round_trip_any_cell_set(cells, lattice):
    _round_trip(Polyform(cells, lattice))


@settings(max_examples=examples(100), deadline=None)
@given(st.data(), st.sampled_from(["triangle", "square"]))
def test_round_trip_connected(data, lattice):
    p = data.draw(connected_polyforms(lattice))
    assert p.is_connected()
    _round_trip(p)
    # the line form of a connected shape never has an empty row
    assert "/./" not in format_shape(p)


@settings(max_examples=examples(100), deadline=None)
@given(st.data(), st.sampled_from(["triangle", "square"]))
def test_round_trip_translated_copy(data, lattice):
    """Shifting by a lattice translation never changes the printed form."""
    p = data.draw(connected_polyforms(lattice))
    dx, dy = data.draw(coords), data.draw(coords)
    if not p.lattice.is_translation(dx, dy):
        dx += 1
    assert format_shape(p.translate(dx, dy)) == format_shape(p)


# --- errors ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, lattice, error, message",
    [
        ("^^", None, FormatError, "wrong parity at row 1, column 2: cell (1, 0) is a down triangle"),
        ("^v^\nv^^", None, FormatError, "wrong parity at line 2, column 3: cell (2, 1) is a down"),
        ("\nv\n^", None, FormatError, "wrong parity at line 2, column 1: cell (0, 0) is an up"),
        ("^v/^", None, FormatError, "wrong parity at row 2, column 1"),
        ("^x", None, FormatError, "bad character 'x' at row 1, column 2"),
        ("##\n#\n#o", None, FormatError, "bad character 'o' at line 3, column 2"),
        ("^\tv", None, FormatError, "bad character '\\t' at row 1, column 2"),
        ("^v\nv/", None, FormatError, "bad character '/' at line 2, column 2"),
        ("^v#", None, FormatError, "mixed lattices: '^' at row 1, column 1 is a triangle mark but '#' at row 1, column 3"),
        ("#\n.^", None, FormatError, "mixed lattices: '#' at line 1, column 1 is a square mark but '^' at line 2, column 2"),
        ("##", "triangle", FormatError, "'#' at row 1, column 1 is a square mark but the lattice is triangle"),
        ("^v", "square", FormatError, "'^' at row 1, column 1 is a triangle mark but the lattice is square"),
        ("", None, ShapeError, "empty shape"),
        ("  \n ", None, ShapeError, "empty shape"),
        ("../..", None, ShapeError, "empty shape: the notation marks no cells"),
        ("[]", None, ShapeError, "empty shape: the JSON list has no cells"),
        ('{"cells": []}', None, ShapeError, "empty shape"),
        ("[[0, 0], [1, 0], [0, 0]]", None, ShapeError, "duplicate cell [0, 0] (items 1 and 3"),
        ("[[0, 0], [1, 0]", None, FormatError, "at line 1, column 16"),
        ("[[0, 0],\n [1, 0],]", None, FormatError, "at line 2, column 9"),
        ("[[0, 0], [1]]", None, FormatError, "item 2 of the JSON list is not an [x, y] pair of integers: [1]"),
        ("[[0, 0], [1, 0.5]]", None, FormatError, "item 2 of the JSON list is not an [x, y] pair"),
        ("[[true, 0]]", None, FormatError, "item 1 of the JSON list is not an [x, y] pair"),
        ('{"lattice": "square"}', None, FormatError, 'needs a "cells" list'),
        ('{"lattice": "hexagon", "cells": [[0, 0]]}', None, ShapeError, "unknown lattice 'hexagon'"),
        ('{"lattice": "square", "cells": [[0, 0]]}', "triangle", FormatError, "says lattice 'square' but 'triangle'"),
        ('{"cells": 5}', None, FormatError, "expected a list of [x, y] pairs, got int"),
    ],
)
def test_error_messages(text, lattice, error, message):
    with pytest.raises(error) as info:
        parse_shape(text, lattice)
    assert message in str(info.value)
    assert isinstance(info.value, TanglekitError) and isinstance(info.value, ValueError)


def test_format_errors():
    with pytest.raises(FormatError, match="unknown style 'svg'"):
        format_shape(Polyform(HEXAGON), "svg")
    with pytest.raises(FormatError, match="must be text"):
        parse_shape(None)  # type: ignore[arg-type]


# --- command-line arguments -----------------------------------------------------------------


def test_load_shape_arg(tmp_path, monkeypatch):
    assert load_shape_arg("^v^/v^v") == Polyform(HEXAGON)
    assert load_shape_arg("[[0, 0], [0, 1]]", "square") == Polyform([(0, 0), (0, 1)], "square")
    art = tmp_path / "hex.txt"
    art.write_text("^v^\nv^v\n", encoding="utf-8")
    assert load_shape_arg(f"@{art}") == Polyform(HEXAGON)
    assert load_shape_arg(str(art)) == Polyform(HEXAGON)
    js = tmp_path / "sq.json"
    js.write_text("\ufeff[[0, 0], [1, 0]]", encoding="utf-8")  # a BOM is tolerated
    assert load_shape_arg(f"@{js}", "square") == Polyform([(0, 0), (1, 0)], "square")
    # a file name that is not a file is read as notation, and fails as such
    monkeypatch.chdir(tmp_path)
    with pytest.raises(FormatError, match="bad character 'n' at row 1, column 1"):
        load_shape_arg("nofile.txt")


def test_load_shape_arg_errors(tmp_path):
    with pytest.raises(FormatError, match="missing.txt: cannot read shape file"):
        load_shape_arg(f"@{tmp_path / 'missing.txt'}")
    bad = tmp_path / "bad.txt"
    bad.write_text("^v^\nv^^\n", encoding="utf-8")
    with pytest.raises(FormatError) as info:
        load_shape_arg(f"@{bad}")
    assert str(info.value).startswith(f"{bad}: wrong parity at line 2, column 3")
    dup = tmp_path / "dup.json"
    dup.write_text("[[0, 0], [0, 0]]", encoding="utf-8")
    with pytest.raises(ShapeError, match="dup.json: duplicate cell"):
        load_shape_arg(str(dup))
