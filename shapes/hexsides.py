"""Tangle pieces on the hex-side lattice: explicit side sets, L/R turn chains, their tests and placements.

A piece is a set of sides (:mod:`.hexgrid`) that is connected under adjacency (sharing a
vertex); a **chain** is one that runs as a simple path (or a closed ring) along the tile
outlines, written as a string of ``L``/``R`` turns. Pieces are ordinary
:class:`~.polyform.Polyform` objects on the ``HEXSIDE`` lattice, so they have rotations,
mirrors, canonical forms and :func:`~.placements.placements`.
"""

from __future__ import annotations

from typing import Iterable

from ..errors import ShapeError
from .hexgrid import (
    HEXSIDE,
    Side,
    Tile,
    Vertex,
    is_side,
    side_between,
    side_tiles,
    side_vertices,
    symmetry_image,
    tile_sides,
)
from .placements import placements
from .polyform import Polyform


def side_piece(sides: Iterable[Side]) -> Polyform:
    """A piece from explicit sides; ShapeError unless they are sides and vertex-connected."""
    sides = [tuple(int(v) for v in s) for s in sides]
    for s in sides:
        if len(s) != 2 or not is_side(s):
            raise ShapeError(f"{s} is not a hex side (doubled midpoint, not both even)")
    p = Polyform(sides, HEXSIDE)
    if not p.is_connected():
        raise ShapeError("piece sides are not connected (sides connect when they share a vertex)")
    return p


def chain_from_turns(turns: str) -> Polyform:
    """The chain of ``len(turns) + 1`` sides that turns left/right (``L``/``R``) at each vertex.

    Starts on the East side of tile (0, 0) going down; ``""`` is one side, ``"RR"`` three
    consecutive sides of one tile, ``"RLR"`` a zigzag. ShapeError if the chain runs onto itself.
    """
    t = turns.strip().upper()
    bad = set(t) - {"L", "R"}
    if bad:
        raise ShapeError(f"chain turns must be L or R letters, not {''.join(sorted(bad))!r}")
    a, b = side_vertices((1, 0))  # vertex 5 then vertex 0 of tile (0, 0): heading down
    start = a
    sides = [side_between(a, b)]
    seen_v = {a, b}
    for idx, ch in enumerate(t):
        nd = symmetry_image((b[0] - a[0], b[1] - a[1]), 1 if ch == "R" else 5)  # turn by 60 degrees
        c = (b[0] + nd[0], b[1] + nd[1])
        s = side_between(b, c)
        if s in sides:
            raise ShapeError(f"chain {turns!r} runs over its own side")
        if c in seen_v and not (c == start and idx == len(t) - 1):
            raise ShapeError(f"chain {turns!r} crosses itself at a vertex")
        sides.append(s)
        seen_v.add(c)
        a, b = b, c
    return Polyform(sides, HEXSIDE)


def is_chain(piece: Polyform) -> bool:
    """Whether the sides run as one simple path (or ring): no vertex meets three of them."""
    deg: dict[Vertex, int] = {}
    for s in piece.cells:
        for v in side_vertices(s):
            deg[v] = deg.get(v, 0) + 1
    if any(d > 2 for d in deg.values()) or not piece.is_connected():
        return False
    ends = sum(1 for d in deg.values() if d == 1)
    return ends in (0, 2)


def max_sides_on_one_tile(piece: Polyform) -> int:
    """The most sides of a single tile the piece covers (a capture needs all six)."""
    count: dict[Tile, int] = {}
    for s in piece.cells:
        for t in side_tiles(s):
            count[t] = count.get(t, 0) + 1
    return max(count.values())


def region_sides(tiles: Iterable[Tile]) -> Polyform:
    """Every side of every tile in ``tiles``, as a hexside region for :func:`placements`."""
    sides = {s for t in tiles for s in tile_sides(t)}
    if not sides:
        raise ShapeError("a board needs at least one tile")
    return Polyform(sides, HEXSIDE)


def side_placements(piece: Polyform, tiles: Iterable[Tile], mirror: bool = True):
    """Every placement of ``piece`` on the sides of ``tiles`` (see :func:`.placements.placements`)."""
    if piece.lattice is not HEXSIDE:
        raise ShapeError("a side piece must be on the hexside lattice")
    return placements(piece, region_sides(tiles), mirror=mirror)
