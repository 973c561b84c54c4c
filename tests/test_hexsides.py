"""Hex tiles and sides: coordinates, adjacency, symmetries, side-chain pieces and placements."""

import itertools
import math

import numpy as np
import pytest

from tanglekit.errors import ShapeError
from tanglekit.shapes.hexgrid import (
    DIRECTIONS,
    HEX,
    HEXSIDE,
    axial_to_offset,
    is_side,
    offset_to_axial,
    side_between,
    side_index_on,
    side_neighbours,
    side_tiles,
    side_vertices,
    side_xy,
    sides_adjacent,
    tile_center_xy,
    tile_polygon,
    tile_side,
    tile_sides,
    tile_vertices,
    vertex_neighbours,
    vertex_sides,
    vertex_xy,
)
from tanglekit.shapes.hexsides import (
    chain_from_turns,
    is_chain,
    max_sides_on_one_tile,
    region_sides,
    side_piece,
    side_placements,
)
from tanglekit.shapes.polyform import Polyform
from tanglekit.shapes.registry import get_lattice

TILES = [(q, r) for q in range(-3, 4) for r in range(-3, 4)]


def _close(a, b):
    return math.isclose(a[0], b[0], abs_tol=1e-9) and math.isclose(a[1], b[1], abs_tol=1e-9)


def test_lattices_registered_and_existing_ones_untouched():
    assert get_lattice("hex") is HEX and get_lattice("hexside") is HEXSIDE
    assert get_lattice("triangle").name == "triangle" and get_lattice("square").n_symmetries == 8


@pytest.mark.parametrize("offset", ["even-r", "odd-r"])
def test_offset_round_trip_and_row_shift(offset):
    for col in range(-4, 5):
        for row in range(-4, 5):
            assert axial_to_offset(offset_to_axial(col, row, offset), offset) == (col, row)
    # even-r: an even row sits half a tile right of the odd row below it
    x0 = tile_center_xy(offset_to_axial(0, 0, "even-r"))[0]
    x1 = tile_center_xy(offset_to_axial(0, 1, "even-r"))[0]
    assert math.isclose(x0 - x1, math.sqrt(3) / 2)


def test_tile_sides_are_shared_with_the_right_neighbour():
    for t in TILES:
        for i in range(6):
            s = tile_side(t, i)
            assert is_side(s)
            a, b = side_tiles(s)
            n = (t[0] + DIRECTIONS[i][0], t[1] + DIRECTIONS[i][1])
            assert {a, b} == {t, n}
            assert side_index_on(s, t) == i
            assert side_index_on(s, n) == (i + 3) % 6
    with pytest.raises(ShapeError):
        side_tiles((2, 4))


def test_vertices_sides_and_drawing_agree():
    for t in TILES[:10]:
        c = tile_center_xy(t)
        poly = tile_polygon(t)
        assert all(math.isclose(math.dist(c, p), 1.0) for p in poly)
        vs = tile_vertices(t)
        for i, s in enumerate(tile_sides(t)):
            v1, v2 = side_vertices(s)
            assert {v1, v2} == {vs[(i - 1) % 6], vs[i]}
            (x1, y1), (x2, y2) = side_xy(s)
            assert math.isclose(math.dist((x1, y1), (x2, y2)), 1.0)
            # the side's midpoint is halfway between the centres of its two tiles
            c1, c2 = (tile_center_xy(u) for u in side_tiles(s))
            assert _close(((x1 + x2) / 2, (y1 + y2) / 2), ((c1[0] + c2[0]) / 2, (c1[1] + c2[1]) / 2))
            assert side_between(v1, v2) == s


def test_each_vertex_meets_three_sides_and_adjacency_is_sharing_a_vertex():
    sides = {s for t in TILES for s in tile_sides(t)}
    for s in list(sides)[:200]:
        nb = side_neighbours(s)
        assert len(nb) == 4 and len(set(nb)) == 4
        for n in nb:
            assert sides_adjacent(s, n) and s in side_neighbours(n)
        # brute force: the sides whose drawn end points touch this side's end points
        ends = side_xy(s)
        brute = {o for o in sides if o != s and any(_close(p, q) for p in side_xy(o) for q in ends)}
        if all(n in sides for n in nb):
            assert brute == set(nb)
    for t in TILES[:5]:
        for v in tile_vertices(t):
            assert len(vertex_neighbours(v)) == 3
            assert all(math.isclose(math.dist(vertex_xy(v), vertex_xy(w)), 1.0) for w in vertex_neighbours(v))
            assert len(set(vertex_sides(v))) == 3


def test_symmetries_preserve_adjacency_and_form_a_group():
    sides = np.array(sorted({s for t in TILES for s in tile_sides(t)}))
    inside = {tuple(a) for a in sides}
    adj = {(tuple(a), b) for a in sides for b in side_neighbours(tuple(a)) if b in inside}
    images = set()
    for k in range(12):
        img = HEXSIDE.transform(sides, k)
        m = {tuple(a): tuple(b) for a, b in zip(sides, img)}
        assert all(is_side(v) for v in m.values())
        for a, b in list(adj)[:300]:
            assert sides_adjacent(m[a], m[b])
        images.add(tuple(map(tuple, img)))
    assert len(images) == 12
    # closure: composing two symmetries gives one of the twelve
    base = np.array([(1, 0), (0, 1), (-1, 2), (3, 0)])
    imgs = {tuple(map(tuple, HEXSIDE.transform(base, k))) for k in range(12)}
    for j, k in itertools.product(range(12), repeat=2):
        assert tuple(map(tuple, HEXSIDE.transform(HEXSIDE.transform(base, j), k))) in imgs


def test_chains_from_turns():
    ring = chain_from_turns("RRRRR")
    assert set(ring.cells) == set(tile_sides((0, 0))) and is_chain(ring)
    assert max_sides_on_one_tile(ring) == 6
    assert chain_from_turns("RRR").congruent(chain_from_turns("LLL"))  # mirror images
    assert not chain_from_turns("RRR").congruent(chain_from_turns("RLR"))
    assert max_sides_on_one_tile(chain_from_turns("RLR")) == 2
    assert max_sides_on_one_tile(chain_from_turns("RR")) == 3
    with pytest.raises(ShapeError):
        chain_from_turns("RRRRRR")  # runs over its own first side
    with pytest.raises(ShapeError):
        chain_from_turns("RX")
    # three sides at one vertex: connected but not a chain
    tri = side_piece(vertex_sides((1, 1)))
    assert tri.is_connected() and not is_chain(tri)
    with pytest.raises(ShapeError):
        side_piece([(1, 0), (5, 0)])


def _free_classes(n):
    """Fixed forms (up to translation) of connected n-side sets, grown side by side."""
    frontier = {Polyform([s], HEXSIDE).normalized() for s in [(1, 0), (0, 1), (1, 1)]}
    for size in range(1, n):
        nxt = set()
        for p in frontier:
            for c in p.cells:
                for nb in side_neighbours(c):
                    if nb not in p.cellset:
                        nxt.add(Polyform(p.cells + (nb,), HEXSIDE).normalized())
        frontier = nxt
    return frontier


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_orbit_stabiliser_on_side_animals(n):
    fixed = _free_classes(n)
    free = {p.canonical("free") for p in fixed}
    # every fixed form is counted exactly 12 / (symmetry order) times per free class
    total = sum(12 // p.symmetry_order("free") for p in free)
    assert total == len(fixed)
    assert len(free) == {1: 1, 2: 1, 3: 3, 4: 4}[n]


def test_side_placements_match_brute_force():
    tiles = [(0, 0), (1, 0), (0, 1), (-1, 1), (1, -1)]
    region = set(region_sides(tiles).cells)
    for turns in ["", "R", "RR", "RLR", "RRLL"]:
        piece = chain_from_turns(turns)
        pl = side_placements(piece, tiles)
        got = {frozenset(pl.shape(i).cells) for i in range(len(pl))}
        assert len(got) == len(pl)
        brute = set()
        for k in range(12):
            img = HEXSIDE.transform(piece.array, k)
            for dx in range(-12, 13, 2):
                for dy in range(-12, 13, 2):
                    cells = frozenset((int(a) + dx, int(b) + dy) for a, b in img)
                    if cells <= region:
                        brute.add(cells)
        assert got == brute, turns
    assert len(side_placements(chain_from_turns(""), tiles)) == len(region)
    assert len(side_placements(chain_from_turns("RRRRR"), tiles)) == len(tiles)


def test_hex_tile_lattice_polyhexes():
    from tanglekit.shapes.polyform import Polyform as P

    tri = P([(0, 0), (1, 0), (0, 1)], HEX)
    assert tri.is_connected() and len(tri.orientations("free")) == 2
    bar = P([(0, 0), (1, 0), (2, 0)], HEX)
    assert len(bar.orientations("free")) == 3


def test_hexside_lattice_is_found_by_name_without_importing_hexsides():
    import subprocess
    import sys

    code = ("from tanglekit.shapes.polyform import Polyform; "
            "print(len(Polyform([(1, 0), (0, 1)], 'hexside').orientations('free')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == "6", out.stderr
