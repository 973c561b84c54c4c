"""Tangle's web page: every side of the board as a clickable line."""

from __future__ import annotations

from ...shapes.hexgrid import side_xy, tile_polygon
from ..picture import attr, inject, named
from .svg import SCALE


def sides(svg: str, st) -> tuple[str, list]:
    """Every side of the Tangle board as a clickable line (index ``data-side``), in the picture's
    coordinates (the board's origin and scale as ``games/tangle/svg.py`` draws them)."""
    g = st.engine.game
    pts = [pt for t in g.board.tiles for pt in tile_polygon(t)]
    ox = min(x for x, _ in pts) - 0.6
    oy = min(y for _, y in pts) - 0.6 - 0.8  # the picture always has a title line
    lines, segs = [], []
    for si, sd in enumerate(g.sides):
        (x1, y1), (x2, y2) = side_xy(sd)
        seg = [round((x1 - ox) * SCALE, 1), round((y1 - oy) * SCALE, 1), round((x2 - ox) * SCALE, 1),
               round((y2 - oy) * SCALE, 1)]
        segs.append(seg)
        label = attr(f"side {g.side_text(sd)}: show the placements covering it")
        lines.append(f'<line class="side" data-side="{si}" x1="{seg[0]}" y1="{seg[1]}" x2="{seg[2]}" y2="{seg[3]}" '
                     'stroke="#000" stroke-opacity="0" stroke-width="9" stroke-linecap="round" style="cursor:pointer" '
                     f'role="button" aria-label="{label}"/>')
    return named(inject(svg, lines), "Tangle board; each side a button", "group"), segs
