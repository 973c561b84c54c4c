"""Tests of the terminal and SVG pictures: exact text layouts, SVG validity, counts and extents."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from budget import examples

from tanglekit.errors import FormatError, ShapeError
from tanglekit.shapes.notation import parse_shape
from tanglekit.shapes.polyform import Polyform
from tanglekit.shapes.render import (
    svg_shape,
    svg_sheet,
    svg_tiling,
    svg_tiling_sheet,
    text_shape,
    text_sheet,
    text_tiling,
)
from tanglekit.shapes.svg import PALETTE

SVG = "{http://www.w3.org/2000/svg}"
HEXAGON = parse_shape("^v^/v^v")
# the side-2 hexagon (24 triangles) and one of its tilings by six tetriamonds
HEX2 = parse_shape("..^v^v^/.^v^v^v^/.v^v^v^v/..v^v^v")
HEX2_TILING = "  AAAAB\n CCCCBBD\n EEFFBDD\n  EEFFD"
PENTOMINOES = {
    "F": ".##/##/.#", "I": "#####", "L": "####/#", "N": "##/.###", "P": "##/##/#",
    "T": "###/.#/.#", "U": "#.#/###", "V": "#/#/###", "W": "#/##/.##", "X": ".#/###/.#",
    "Y": ".#/####", "Z": "##/.#/.##",
}  # fmt: skip


def pieces_from_letters(picture: str, lattice: str = "triangle") -> list[Polyform]:
    """Placed pieces read off a letter picture (column = x, line = y), in letter order."""
    cells: dict[str, list] = {}
    for y, row in enumerate(picture.split("\n")):
        for x, ch in enumerate(row):
            if ch not in " .*":
                cells.setdefault(ch, []).append((x, y))
    return [Polyform(cells[k], lattice) for k in sorted(cells)]


# --- terminal -------------------------------------------------------------------------------


def test_text_shape():
    assert text_shape(HEXAGON) == "▲▼▲\n▼▲▼"
    assert text_shape(HEXAGON, unicode=False) == "^v^\nv^v"
    assert text_shape(Polyform([(5, 2)])) == " ▼"  # a down cell sits at x = 1 once normalised
    assert text_shape(parse_shape("#.#/###")) == "█ █\n███"
    assert text_shape(Polyform([(0, 0), (0, 2)], "square"), unicode=False) == "#\n.\n#"


@settings(max_examples=examples(60), deadline=None)
@given(
    st.sets(st.tuples(st.integers(-5, 5), st.integers(-5, 5)), min_size=1, max_size=20),
    st.sampled_from(["triangle", "square"]),
    st.booleans(),
)
def test_text_shape_parses_back(cells, lattice, unicode):
    p = Polyform(cells, lattice)
    assert parse_shape(text_shape(p, unicode=unicode), lattice) == p.normalized()


def test_text_sheet_layout():
    shapes = [parse_shape(v) for v in PENTOMINOES.values()]
    sheet = text_sheet(shapes[:4], cols=2, labels=list("FILN"), unicode=False)
    assert sheet == (
        "F     I\n"
        ".##   #####\n"
        "##\n"
        ".#\n"
        "\n"
        "L      N\n"
        "####   ##\n"
        "#      .###"
    )
    # every shape reads back from its own block
    full = text_sheet(shapes, cols=5)
    assert full.count("█") == 60
    assert len(full.split("\n\n")) == 3
    with pytest.raises(ShapeError, match="3 labels for 12 shapes"):
        text_sheet(shapes, labels=["a", "b", "c"])
    with pytest.raises(ShapeError, match="at least one column"):
        text_sheet(shapes, cols=0)


def test_text_tiling_round_trip_and_marks():
    pieces = pieces_from_letters(HEX2_TILING)
    assert len(pieces) == 6 and all(p.area == 4 for p in pieces)
    assert set().union(*(p.cellset for p in pieces)) == HEX2.cellset
    assert text_tiling(HEX2, pieces) == HEX2_TILING
    assert text_tiling(HEX2.cells, pieces) == HEX2_TILING  # region as plain cells
    # uncovered cells are '.', doubly covered ones '*'
    partial = text_tiling(HEX2, pieces[:2] + [pieces[0]])
    assert partial == "  ****B\n ....BB.\n ....B..\n  ....."
    assert text_tiling(HEX2, pieces, letters=list("123456"))[:7] == "  11112"
    with pytest.raises(ShapeError, match="2 letters for 6 pieces"):
        text_tiling(HEX2, pieces, letters="ab")


def test_svg_works_on_any_registered_lattice():
    tri = Polyform([(0, 0), (1, 0), (0, 1)], "hex")  # three hexagons round a point
    root = parse_svg(svg_shape(tri))
    assert len(polygons(root)) == 3
    assert all(len(p.get("points").split()) == 6 for p in polygons(root))
    (path,) = root.iter(SVG + "path")
    assert outline_segments(path) == 3 * 6 - 2 * 3  # three shared sides removed twice
    assert_viewbox_covers(root)
    with pytest.raises(FormatError, match="triangle and square lattices, not hex"):
        text_tiling(tri, [tri])


# --- SVG ------------------------------------------------------------------------------------


def parse_svg(text: str):
    root = ET.fromstring(text)
    assert root.tag == SVG + "svg"
    return root


def all_points(root) -> list[tuple[float, float]]:
    pts = []
    for poly in root.iter(SVG + "polygon"):
        for pair in poly.get("points").split():
            x, y = pair.split(",")
            pts.append((float(x), float(y)))
    for path in root.iter(SVG + "path"):
        nums = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", path.get("d"))]
        pts.extend(zip(nums[::2], nums[1::2]))
    for text in root.iter(SVG + "text"):
        pts.append((float(text.get("x")), float(text.get("y"))))
    return pts


def assert_viewbox_covers(root) -> None:
    x, y, w, h = (float(v) for v in root.get("viewBox").split())
    assert w > 0 and h > 0
    assert float(root.get("width")) == w and float(root.get("height")) == h
    for px, py in all_points(root):
        assert x - 1e-6 <= px <= x + w + 1e-6 and y - 1e-6 <= py <= y + h + 1e-6, (px, py)


def polygons(root) -> list:
    return list(root.iter(SVG + "polygon"))


def outline_segments(path) -> int:
    """Number of straight segments in a path of closed loops 'M p L p ... Z'."""
    d = path.get("d")
    return sum(len(loop.split(" L")) for loop in d.split("M")[1:])


def test_svg_shape_hexagon():
    root = parse_svg(svg_shape(HEXAGON, fill="#123456"))
    assert len(polygons(root)) == 6
    assert {p.get("fill") for p in polygons(root)} == {"#123456"}
    (path,) = root.iter(SVG + "path")
    assert outline_segments(path) == 6 and path.get("d").count("M") == 1  # one closed hexagon
    assert_viewbox_covers(root)


@settings(max_examples=examples(40), deadline=None)
@given(
    st.sets(st.tuples(st.integers(-6, 6), st.integers(-6, 6)), min_size=1, max_size=25),
    st.sampled_from(["triangle", "square"]),
)
def test_svg_shape_random(cells, lattice):
    p = Polyform(cells, lattice)
    root = parse_svg(svg_shape(p))
    assert len(polygons(root)) == p.area
    (path,) = root.iter(SVG + "path")
    assert outline_segments(path) == len(p.boundary_edges())
    assert_viewbox_covers(root)


def test_svg_sheet_pentominoes():
    shapes = [parse_shape(v) for v in PENTOMINOES.values()]
    text = svg_sheet(shapes, cols=6, labels=list(PENTOMINOES))
    root = parse_svg(text)
    assert len(polygons(root)) == 60
    assert len(list(root.iter(SVG + "path"))) == 12
    assert [t.text for t in root.iter(SVG + "text")] == list(PENTOMINOES)
    fills = [p.get("fill") for p in polygons(root)]
    assert fills[:5] == [PALETTE[0]] * 5 and fills[5:10] == [PALETTE[1]] * 5
    assert_viewbox_covers(root)
    # two rows of six: the picture is wider than tall
    _, _, w, h = (float(v) for v in root.get("viewBox").split())
    assert w > 2 * h
    one = parse_svg(svg_sheet(shapes, cols=6, colours="gold"))
    assert {p.get("fill") for p in polygons(one)} == {"gold"}
    assert not list(one.iter(SVG + "text"))


def test_svg_sheet_escapes_labels_and_checks_counts():
    root = parse_svg(svg_sheet([HEXAGON], labels=["<a & b>"]))
    assert [t.text for t in root.iter(SVG + "text")] == ["<a & b>"]
    with pytest.raises(ShapeError, match="1 labels for 2 shapes"):
        svg_sheet([HEXAGON, HEXAGON], labels=["x"])
    with pytest.raises(ShapeError, match="1 colours for 2 pieces"):
        svg_sheet([HEXAGON, HEXAGON], colours=["red"])
    assert parse_svg(svg_sheet([])).get("viewBox")


def test_svg_tiling_full_and_partial():
    pieces = pieces_from_letters(HEX2_TILING)
    colours = ["red", "orange", "yellow", "green", "blue", "purple"]
    root = parse_svg(svg_tiling(HEX2, pieces, colours=colours, labels=True))
    assert len(polygons(root)) == 24
    assert [p.get("fill") for p in polygons(root)] == [c for c in colours for _ in range(4)]
    paths = list(root.iter(SVG + "path"))
    assert len(paths) == 7  # one outline per piece, then the region's
    assert outline_segments(paths[-1]) == 12 and float(paths[-1].get("stroke-width")) > float(
        paths[0].get("stroke-width")
    )
    assert [t.text for t in root.iter(SVG + "text")] == list("ABCDEF")
    assert_viewbox_covers(root)
    # labels sit inside their pieces: within the piece's bounding box in drawing units
    for t, p in zip(root.iter(SVG + "text"), pieces):
        xs = [pt[0] * 30 for c in p.cells for pt in p.lattice.polygon(c)]
        assert min(xs) < float(t.get("x")) < max(xs)
    partial = parse_svg(svg_tiling(HEX2, pieces[:2]))
    assert len(polygons(partial)) == 24  # 8 piece cells + 16 empty region cells
    assert sum(p.get("fill") == "#eeeeee" for p in polygons(partial)) == 16
    assert_viewbox_covers(partial)


def test_svg_tiling_square_and_piece_outside_region():
    region = Polyform([(x, y) for x in range(3) for y in range(2)], "square")
    inside = Polyform([(0, 0), (1, 0), (0, 1)], "square")
    outside = Polyform([(3, 0), (4, 0)], "square")
    root = parse_svg(svg_tiling(region, [inside, outside]))
    assert len(polygons(root)) == 3 + 3 + 2
    x, y, w, h = (float(v) for v in root.get("viewBox").split())
    assert x + w >= 5 * 30  # the stray piece is in the picture
    assert_viewbox_covers(root)
    with pytest.raises(ShapeError, match="1 labels for 2 pieces"):
        svg_tiling(region, [inside, outside], labels=["a"])


def test_svg_tiling_sheet():
    pieces = pieces_from_letters(HEX2_TILING)
    mirrored = [Polyform([(8 - x, y) for x, y in p.cells]) for p in pieces]  # x -> 8 - x keeps parity
    mirror_region = Polyform([(8 - x, y) for x, y in HEX2.cells])
    sols = [(HEX2, pieces), (mirror_region, mirrored), (HEX2, pieces[:3])]
    root = parse_svg(svg_tiling_sheet(sols, cols=2, labels=["a", "b", "c"]))
    assert len(polygons(root)) == 24 * 3
    assert len(list(root.iter(SVG + "path"))) == 7 + 7 + 4
    assert [t.text for t in root.iter(SVG + "text")] == ["a", "b", "c"]
    assert_viewbox_covers(root)
