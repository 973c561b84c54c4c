"""SVG pictures of Tangle positions: hex tiles with their kinds, coloured sides, captured tiles."""

from __future__ import annotations

import math

from ...shapes.hexgrid import axial_to_offset, side_xy, tile_center_xy, tile_polygon, tile_side

PLAYER_COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#e6a700")
COLOUR_NAMES = ("red", "blue", "green", "yellow")  # of players 0..3 (numbered from 0 everywhere)
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


def svg_position(game, state=None, highlight: list[int] | None = None, title: str | None = None,
                 labels: bool = True, legend: bool = True, notes: list[str] | None = None) -> str:
    """The board (and a state's pieces, captures and highlighted placements) as an SVG document.

    ``labels`` writes each tile's ``col,row`` (as moves name tiles) and a key of side numbers;
    ``legend`` the players' colours, scores and pieces left; ``notes`` extra lines of text."""
    b = game.board
    xs, ys = [], []
    for t in b.tiles:
        for x, y in tile_polygon(t):
            xs.append(x)
            ys.append(y)
    pad = 0.6
    notes = list(notes or [])
    n_players = game.n_players
    legend_rows = (n_players + 1) if legend else 0
    below = 0.75 * (legend_rows + len(notes)) + (0.4 if legend_rows or notes else 0)
    ox, oy = min(xs) - pad, min(ys) - pad - (0.8 if title else 0)
    board_w = max(xs) + pad - ox
    w = max(board_w + (1.6 if labels else 0), 0.26 * max([0] + [len(n) for n in notes]) + 1.0) * SCALE
    h = (max(ys) + pad - oy + below) * SCALE
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0f}" height="{h:.0f}" viewBox="0 0 {w:.0f} {h:.0f}">',
           f'<rect width="{w:.0f}" height="{h:.0f}" fill="white"/>']
    if title:
        out.append(f'<text x="{SCALE * 0.4:.1f}" y="{SCALE * 0.8:.1f}" font-family="sans-serif" font-size="14">'
                   f'{_esc(title)}</text>')
    captured = state.captured if state is not None else {}
    for i, t in enumerate(b.tiles):
        fill = TEAM_FILLS[captured[i] % 4] if i in captured else "#fbf8ef"
        out.append(f'<polygon points="{_pts(tile_polygon(t), ox, oy)}" fill="{fill}" stroke="#c8c0a8" stroke-width="1"/>')
        cx, cy = tile_center_xy(t)
        out.append(_symbol(b.kinds[i], (cx - ox) * SCALE, (cy - oy) * SCALE, i == b.star))
        if labels:
            c, r = axial_to_offset(t, b.offset)
            out.append(f'<text x="{(cx - ox) * SCALE:.1f}" y="{(cy - oy - 0.55) * SCALE:.1f}" font-family="sans-serif" '
                       f'font-size="8" text-anchor="middle" fill="#5c5547">{c},{r}</text>')  # 5.9:1 or more on every tile
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
        for sd in game.placement_sides(p):
            (x1, y1), (x2, y2) = side_xy(sd)
            out.append(
                f'<line x1="{(x1 - ox) * SCALE:.1f}" y1="{(y1 - oy) * SCALE:.1f}" x2="{(x2 - ox) * SCALE:.1f}" '
                f'y2="{(y2 - oy) * SCALE:.1f}" stroke="{colour}" stroke-width="4" stroke-dasharray="4 3" opacity="0.8"/>'
            )
        (x1, y1), (x2, y2) = side_xy(game.placement_sides(p)[0])
        out.append(f'<text x="{((x1 + x2) / 2 - ox) * SCALE + 4:.1f}" y="{((y1 + y2) / 2 - oy) * SCALE - 4:.1f}" '
                   f'font-family="sans-serif" font-size="11" fill="#000">{n + 1}</text>')
    if labels:
        # key: the side numbers of a tile, drawn beside the top-right corner of the board
        key = (0, 0)
        kx, ky = (board_w + 0.7) / 0.8, ((0.8 if title else 0) + 1.4) / 0.8
        cx0, cy0 = tile_center_xy(key)
        pts = " ".join(f"{(x - cx0 + kx) * SCALE * 0.8:.1f},{(y - cy0 + ky) * SCALE * 0.8:.1f}"
                       for x, y in tile_polygon(key))
        out.append(f'<polygon points="{pts}" fill="white" stroke="#555" stroke-width="1"/>')
        for k in range(6):
            (x1, y1), (x2, y2) = side_xy(tile_side(key, k))
            mx, my = (x1 + x2) / 2 - cx0, (y1 + y2) / 2 - cy0
            out.append(f'<text x="{(kx + mx * 0.72) * SCALE * 0.8:.1f}" y="{(ky + my * 0.72) * SCALE * 0.8 + 3:.1f}" '
                       f'font-family="sans-serif" font-size="9" text-anchor="middle">{k}</text>')
        out.append(f'<text x="{kx * SCALE * 0.8:.1f}" y="{(ky + 1.35) * SCALE * 0.8:.1f}" font-family="sans-serif" '
                   'font-size="9" text-anchor="middle">sides</text>')
    y = (max(ys) + pad - oy + 0.5) * SCALE
    if legend:
        kinds = game.pieces.kinds
        for pl in range(n_players):
            left = ""
            if state is not None:
                left = "; pieces left: " + " ".join(f"{k.name}x{state.remaining[pl][i]}" for i, k in enumerate(kinds))
                score = state.scores[game.team_of[pl]]
                left = f", score {score}" + left
            out.append(f'<line x1="{SCALE * 0.4:.1f}" y1="{y - 4:.1f}" x2="{SCALE * 1.2:.1f}" y2="{y - 4:.1f}" '
                       f'stroke="{PLAYER_COLOURS[pl % 4]}" stroke-width="5" stroke-linecap="round"/>')
            out.append(f'<text x="{SCALE * 1.4:.1f}" y="{y:.1f}" font-family="sans-serif" font-size="11">'
                       f'Player {pl} ({COLOUR_NAMES[pl % 4]}){_esc(left)}</text>')
            y += 0.75 * SCALE
        out.append(f'<text x="{SCALE * 0.4:.1f}" y="{y:.1f}" font-family="sans-serif" font-size="11">'
                   'Moves: PIECE col,row:side ... (each side named on one of its tiles)</text>')
        y += 0.75 * SCALE
    for line in notes:
        out.append(f'<text x="{SCALE * 0.4:.1f}" y="{y:.1f}" font-family="sans-serif" font-size="11">{_esc(line)}</text>')
        y += 0.75 * SCALE
    out.append("</svg>")
    return "\n".join(x for x in out if x)


def _esc(s: str) -> str:
    return str(s).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


__all__ = ["svg_position", "COLOUR_NAMES", "PLAYER_COLOURS"]
