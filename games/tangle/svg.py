"""SVG pictures of Tangle positions: hex tiles with their kinds, coloured sides, captured tiles."""

from __future__ import annotations

import math

from ...shapes.hexsides import side_xy, tile_center_xy, tile_polygon

PLAYER_COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#e6a700")
TEAM_FILLS = ("#f7c6c6", "#c6daf0", "#cdebc6", "#f7e7b0")
SCALE = 28.0


def _pts(points, ox, oy) -> str:
    return " ".join(f"{(x - ox) * SCALE:.1f},{(y - oy) * SCALE:.1f}" for x, y in points)


def _symbol(kind: str, cx: float, cy: float, star: bool) -> str:
    r = SCALE * 0.38
    if star:
        pts = []
        for i in range(10):
            a = -math.pi / 2 + i * math.pi / 5
            rr = r * (1.0 if i % 2 == 0 else 0.45)
            pts.append(f"{cx + rr * math.cos(a):.1f},{cy + rr * math.sin(a):.1f}")
        return f'<polygon points="{" ".join(pts)}" fill="#f2c200" stroke="#8a6d00" stroke-width="1"/>'
    if kind == "circle":
        return f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r * 0.8:.1f}" fill="none" stroke="#555" stroke-width="2"/>'
    if kind == "triangle":
        pts = [(cx, cy - r), (cx + r * 0.87, cy + r * 0.5), (cx - r * 0.87, cy + r * 0.5)]
        return f'<polygon points="{" ".join(f"{x:.1f},{y:.1f}" for x, y in pts)}" fill="none" stroke="#555" stroke-width="2"/>'
    if kind == "square":
        h = r * 0.7
        return f'<rect x="{cx - h:.1f}" y="{cy - h:.1f}" width="{2 * h:.1f}" height="{2 * h:.1f}" fill="none" stroke="#555" stroke-width="2"/>'
    return ""


def svg_position(game, state=None, highlight: list[int] | None = None, title: str | None = None) -> str:
    """The board (and a state's pieces, captures and highlighted placements) as an SVG document."""
    b = game.board
    xs, ys = [], []
    for t in b.tiles:
        for x, y in tile_polygon(t):
            xs.append(x)
            ys.append(y)
    pad = 0.6
    ox, oy = min(xs) - pad, min(ys) - pad - (0.8 if title else 0)
    w = (max(xs) + pad - ox) * SCALE
    h = (max(ys) + pad - oy) * SCALE
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0f}" height="{h:.0f}" viewBox="0 0 {w:.0f} {h:.0f}">',
           f'<rect width="{w:.0f}" height="{h:.0f}" fill="white"/>']
    if title:
        out.append(f'<text x="{SCALE * 0.4:.1f}" y="{SCALE * 0.8:.1f}" font-family="sans-serif" font-size="14">{title}</text>')
    captured = state.captured if state is not None else {}
    for i, t in enumerate(b.tiles):
        fill = TEAM_FILLS[captured[i] % 4] if i in captured else "#fbf8ef"
        out.append(f'<polygon points="{_pts(tile_polygon(t), ox, oy)}" fill="{fill}" stroke="#c8c0a8" stroke-width="1"/>')
        cx, cy = tile_center_xy(t)
        out.append(_symbol(b.kinds[i], (cx - ox) * SCALE, (cy - oy) * SCALE, i == b.star))
    if state is not None:
        for si, owner in enumerate(state.owner):
            if owner < 0:
                continue
            (x1, y1), (x2, y2) = side_xy(game.sides[si])
            out.append(
                f'<line x1="{(x1 - ox) * SCALE:.1f}" y1="{(y1 - oy) * SCALE:.1f}" x2="{(x2 - ox) * SCALE:.1f}" '
                f'y2="{(y2 - oy) * SCALE:.1f}" stroke="{PLAYER_COLOURS[owner % 4]}" stroke-width="5" stroke-linecap="round"/>'
            )
    for n, p in enumerate(highlight or []):
        if p < 0:
            continue
        colour = PLAYER_COLOURS[state.to_move % 4] if state is not None else "#000"
        for s in game.placement_sides(p):
            (x1, y1), (x2, y2) = side_xy(s)
            out.append(
                f'<line x1="{(x1 - ox) * SCALE:.1f}" y1="{(y1 - oy) * SCALE:.1f}" x2="{(x2 - ox) * SCALE:.1f}" '
                f'y2="{(y2 - oy) * SCALE:.1f}" stroke="{colour}" stroke-width="4" stroke-dasharray="4 3" opacity="0.8"/>'
            )
        (x1, y1), (x2, y2) = side_xy(game.placement_sides(p)[0])
        out.append(f'<text x="{((x1 + x2) / 2 - ox) * SCALE + 4:.1f}" y="{((y1 + y2) / 2 - oy) * SCALE - 4:.1f}" '
                   f'font-family="sans-serif" font-size="11" fill="#000">{n + 1}</text>')
    out.append("</svg>")
    return "\n".join(x for x in out if x)


__all__ = ["svg_position", "PLAYER_COLOURS"]
