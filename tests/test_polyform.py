"""Lattice symmetries, Polyform canonical forms and placements, against properties and brute force."""

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from budget import examples

from tanglekit.errors import ShapeError
from tanglekit.shapes.lattice import SQUARE, TRIANGLE
from tanglekit.shapes.placements import placements
from tanglekit.shapes.polyform import Polyform
from tanglekit.shapes.registry import get_lattice

LATTICES = [TRIANGLE, SQUARE]


def random_animal(lat, n, rng):
    cells = {(0, 0)}
    while len(cells) < n:
        c = rng.choice(sorted(cells))
        cells.add(rng.choice(lat.neighbours(c)))
    return Polyform(cells, lat)


@pytest.mark.parametrize("lat", LATTICES, ids=lambda l: l.name)
def test_symmetries_preserve_adjacency_and_form_a_group(lat):
    cells = np.array([(x, y) for x in range(-3, 4) for y in range(-3, 4)])
    images = set()
    for k in range(lat.n_symmetries):
        t = lat.transform(cells, k)
        m = {tuple(c): tuple(t[i]) for i, c in enumerate(cells.tolist())}
        for c in m:
            for n in lat.neighbours(c):
                if n in m:
                    assert m[n] in lat.neighbours(m[c])
        images.add(tuple(map(tuple, t.tolist())))
    assert len(images) == lat.n_symmetries  # 12 on the triangle lattice, 8 on the square one
    # rotation r applied n_rotations times is the identity
    t = cells
    for _ in range(lat.n_rotations):
        t = lat.transform(t, 1)
    assert (t == cells).all()


def test_triangle_convention_from_rules():
    assert TRIANGLE.neighbours((0, 0)) == [(-1, 0), (1, 0), (0, 1)]  # up cell: third below
    assert TRIANGLE.neighbours((1, 0)) == [(0, 0), (2, 0), (1, -1)]  # down cell: third above
    # translations keep the parity of x + y
    with pytest.raises(ShapeError):
        Polyform([(0, 0)]).translate(1, 0)
    assert Polyform([(0, 0)]).translate(1, 1).cells == ((1, 1),)


def test_normal_form_keeps_cell_kind():
    p = Polyform([(5, 2), (6, 2)])  # up (7 odd? 5+2=7 -> down), then up
    q = p.normalized()
    assert [TRIANGLE.points_up(c) for c in p.cells] == [TRIANGLE.points_up(c) for c in q.cells]
    assert min(y for _, y in q.cells) == 0 and min(x for x, _ in q.cells) in (0, 1)


@settings(max_examples=examples(60), deadline=None)
@given(st.integers(0, 10**9), st.integers(1, 9), st.sampled_from(LATTICES))
def test_canonical_is_invariant_and_orbit_stabiliser_holds(seed, n, lat):
    rng = random.Random(seed)
    p = random_animal(lat, n, rng)
    assert p.is_connected()
    k = rng.randrange(lat.n_symmetries)
    dx, dy = rng.randrange(-5, 5), rng.randrange(-5, 5)
    if not lat.is_translation(dx, dy):
        dx += 1
    q = Polyform(lat.transform(p.array, k), lat).translate(dx, dy)
    assert q.key("free") == p.key("free")
    assert q.congruent(p)
    if k < lat.n_rotations:
        assert q.key("one-sided") == p.key("one-sided")
    for kind in ("fixed", "one-sided", "free"):
        group = len(lat.symmetries(kind))
        assert p.symmetry_order(kind) * len(p.orientations(kind)) == group


def test_known_symmetry_orders():
    hexagon = Polyform([(0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1)])
    assert hexagon.symmetry_order() == 12 and hexagon.holes() == 0
    bar = Polyform([(0, 0), (1, 0), (2, 0), (3, 0)])
    assert bar.symmetry_order() == 2
    square = Polyform([(0, 0), (1, 0), (0, 1), (1, 1)], "square")
    assert square.symmetry_order() == 8
    ring = Polyform([(x, y) for x in range(3) for y in range(3) if (x, y) != (1, 1)], "square")
    assert ring.holes() == 1 and ring.is_connected()
    assert not Polyform([(0, 0), (2, 0)], "square").is_connected()


def test_bad_input():
    with pytest.raises(ShapeError, match="empty"):
        Polyform([])
    with pytest.raises(ShapeError, match="duplicate"):
        Polyform([(0, 0), (0, 0)])
    with pytest.raises(ShapeError, match="lattice"):
        get_lattice("pentagon")


def test_lattices_and_shapes_pickle_to_the_same_lattice_objects():
    import copy
    import pickle

    for name in ("triangle", "square", "hex", "hexside"):
        lat = get_lattice(name)
        assert pickle.loads(pickle.dumps(lat)) is lat and copy.deepcopy(lat) is lat
        shape = Polyform([(1, 0), (0, 1)] if name == "hexside" else [(0, 0), (1, 0)], lat)
        back = pickle.loads(pickle.dumps(shape))
        assert back == shape and back.lattice is lat


def brute_placements(piece, region, mirror):
    """Every image of the piece at every translation, kept when inside the region."""
    lat = region.lattice
    kinds = range(lat.n_symmetries if mirror else lat.n_rotations)
    rset = region.cellset
    found = set()
    xs = [c[0] for c in rset]
    ys = [c[1] for c in rset]
    for k in kinds:
        img = lat.transform(piece.array, k)
        for dx in range(min(xs) - 20, max(xs) + 20):
            for dy in range(min(ys) - 20, max(ys) + 20):
                if not lat.is_translation(dx, dy):
                    continue
                cells = frozenset((int(x) + dx, int(y) + dy) for x, y in img)
                if cells <= rset:
                    found.add(cells)
    return found


@pytest.mark.parametrize("lat", LATTICES, ids=lambda l: l.name)
@pytest.mark.parametrize("mirror", [True, False])
def test_placements_match_brute_force(lat, mirror):
    rng = random.Random(7)
    for _ in range(6):
        region = random_animal(lat, rng.randrange(8, 20), rng)
        piece = random_animal(lat, rng.randrange(1, 6), rng)
        pl = placements(piece, region, mirror=mirror)
        got = [frozenset(pl.region_cells[i] for i in row) for row in pl.cells]
        assert len(got) == len(set(got))  # no duplicates under the piece's own symmetry
        assert set(got) == brute_placements(piece, region, mirror)
        for i in range(len(pl)):
            assert set(pl.shape(i).cells) == got[i]


def test_pentomino_placements_in_6x10():
    # X pentomino: 4 x 8 interior centres = 32 positions in a 6x10 rectangle, one orientation
    region = Polyform([(x, y) for x in range(10) for y in range(6)], "square")
    x = Polyform([(1, 0), (0, 1), (1, 1), (2, 1), (1, 2)], "square")
    assert len(placements(x, region)) == 32
    i = Polyform([(0, 0), (1, 0), (2, 0), (3, 0), (4, 0)], "square")
    assert len(placements(i, region)) == 6 * 6 + 10 * 2
