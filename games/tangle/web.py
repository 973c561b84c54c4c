"""Tangle's web page: every side of the board as a wide clickable area (the rhombus between the
side's end points and the centres of the tiles on either side, so the areas tile the board and
a thin side is easy to hit), each named for the keyboard and screen readers."""

from __future__ import annotations

from ...shapes.hexgrid import side_xy, tile_polygon, tile_sides
from ..picture import attr, inject, named
from .svg import SCALE


def sides(svg: str, st) -> tuple[str, list, list]:
    """Every side of the Tangle board as a clickable area (``data-side``, an ``aria-label`` with
    the side's name), in the picture's coordinates (the board's origin and scale as
    ``games/tangle/svg.py`` draws them); also each side's end points and its name."""
    g = st.engine.game
    pts = [pt for t in g.board.tiles for pt in tile_polygon(t)]
    ox = min(x for x, _ in pts) - 0.6
    oy = min(y for _, y in pts) - 0.6 - 0.8  # the picture always has a title line
    centres: dict = {}  # side -> the centres of the board tiles it borders
    for t in g.board.tiles:
        poly = tile_polygon(t)
        c = (sum(x for x, _ in poly) / len(poly), sum(y for _, y in poly) / len(poly))
        for sd in tile_sides(t):
            centres.setdefault(tuple(sd), []).append(c)

    def xy(x: float, y: float) -> str:
        return f"{(x - ox) * SCALE:.1f},{(y - oy) * SCALE:.1f}"

    areas, segs, names = [], [], []
    for si, sd in enumerate(g.sides):
        (x1, y1), (x2, y2) = side_xy(sd)
        segs.append([round((x1 - ox) * SCALE, 1), round((y1 - oy) * SCALE, 1), round((x2 - ox) * SCALE, 1),
                     round((y2 - oy) * SCALE, 1)])
        try:
            name = g.side_text(sd)
        except Exception:  # noqa: BLE001 - a side off the board keeps its number
            name = str(si)
        names.append(name)
        cs = list(centres.get(tuple(sd), []))[:2]
        if not cs:  # no tile known: a narrow band around the line
            cs = [((x1 + x2) / 2 + (y2 - y1) * 0.25, (y1 + y2) / 2 - (x2 - x1) * 0.25)]
        if len(cs) == 1:  # an edge of the board: the tile's half mirrored outwards
            cx, cy = cs[0]
            cs.append((x1 + x2 - cx, y1 + y2 - cy))
        poly = " ".join([xy(x1, y1), xy(*cs[0]), xy(x2, y2), xy(*cs[1])])
        label = attr(f"side {name}")
        areas.append(f'<polygon class="side" data-side="{si}" points="{poly}" role="button" aria-label="{label}" '
                     'fill="#000" fill-opacity="0" style="cursor:pointer"/>')
    return named(inject(svg, areas), "Tangle board; each side a button", "group"), segs, names
