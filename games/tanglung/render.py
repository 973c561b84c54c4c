"""Pictures of Tanglung grids: SVG with card symbols, lit/dark shading and a solution path."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cards import EMPTY, KINDS
from .grid import N_CELLS, SIZE, rc

if TYPE_CHECKING:  # the type only: Layout draws itself with this module
    from collections.abc import Sequence

    from .layout import Layout

CELL = 80
PAD = 12
COLOURS = {
    "C": "#e4572e",
    "R": "#76b041",
    "B": "#c04abc",
    "F": "#2e86ab",
    "H": "#a06c2c",
    "D": "#d7263d",
}
# movement symbol per kind: unit directions drawn as strokes (long = slide, short = step)
_ORTHO = [(0, -1), (0, 1), (-1, 0), (1, 0)]
_DIAG = [(-1, -1), (-1, 1), (1, -1), (1, 1)]


def _symbol(kind: str, cx: float, cy: float, col: str = "#222") -> str:
    parts = []
    if kind in ("R", "B", "D", "C", "F"):
        dirs = {"R": _ORTHO, "B": _DIAG, "D": _ORTHO + _DIAG, "C": _ORTHO, "F": _ORTHO + _DIAG}[kind]
        length = 22 if kind in ("R", "B", "D") else 10
        for dx, dy in dirs:
            k = length if dx == 0 or dy == 0 else length * 0.8
            parts.append(
                f'<line x1="{cx}" y1="{cy}" x2="{cx + dx * k:.1f}" y2="{cy + dy * k:.1f}" '
                f'stroke="{col}" stroke-width="2.5" stroke-linecap="round"/>'
            )
        parts.append(f'<circle cx="{cx}" cy="{cy}" r="3" fill="{col}"/>')
    elif kind == "H":
        parts.append(
            f'<polyline points="{cx - 8},{cy - 16} {cx - 8},{cy + 8} {cx + 12},{cy + 8}" fill="none" '
            f'stroke="{col}" stroke-width="2.5" stroke-linejoin="round"/>'
        )
        parts.append(f'<circle cx="{cx + 12}" cy="{cy + 8}" r="3.5" fill="{col}"/>')
    return "".join(parts)


def svg_grid(
    layout: Layout,
    lit: int | None = None,
    path: list[int] | None = None,
    title: str | None = None,
    boxes: Sequence[int | None] = (),
    fan: int | None = None,
    labels: bool = False,
    start: int | None = None,
    notes: list[str] | None = None,
) -> str:
    """SVG of the grid: each card coloured by kind with its movement symbol and name; dark
    cards greyed when ``lit`` is given; ``path`` (cells) drawn as a numbered line. ``labels``
    numbers rows and columns from 0 as cells are written (row,col); ``start`` marks the
    matchbox's first card; ``notes`` are lines of text under the grid (goal, answer)."""
    notes = list(notes or [])
    lab = 18 if labels else 0
    grid = SIZE * CELL
    w = max([grid + 2 * PAD + lab] + [int(6.6 * len(n)) + 2 * PAD for n in notes])
    left = PAD + lab + (w - (grid + 2 * PAD + lab)) / 2
    top = PAD + (24 if title else 0) + lab
    h = top + grid + PAD + 18 * len(notes) + (6 if notes else 0)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0f}" height="{h}" viewBox="0 0 {w:.0f} {h}" '
           'font-family="sans-serif">']
    out.append(f'<rect width="{w:.0f}" height="{h}" fill="white"/>')
    if title:
        out.append(f'<text x="{w / 2}" y="20" text-anchor="middle" font-size="14">{_esc(title)}</text>')
    if labels:
        for k in range(SIZE):
            out.append(f'<text x="{left + k * CELL + CELL / 2}" y="{top - 5}" text-anchor="middle" '
                       f'font-size="12" fill="#444">{k}</text>')
            out.append(f'<text x="{left - 6}" y="{top + k * CELL + CELL / 2 + 4}" text-anchor="end" '
                       f'font-size="12" fill="#444">{k}</text>')
    for i in range(N_CELLS):
        r, c = rc(i)
        x, y = left + c * CELL, top + r * CELL
        ch = layout[i]
        if ch == EMPTY:
            out.append(f'<rect x="{x + 3}" y="{y + 3}" width="{CELL - 6}" height="{CELL - 6}" rx="8" '
                       'fill="none" stroke="#bbb" stroke-dasharray="4 3"/>')
            continue
        is_lit = lit is None or bool(lit >> i & 1)
        fill = COLOURS[ch] if is_lit else "#555"
        op = "0.35" if is_lit else "0.9"
        out.append(f'<rect x="{x + 3}" y="{y + 3}" width="{CELL - 6}" height="{CELL - 6}" rx="8" '
                   f'fill="{fill}" fill-opacity="{op}" stroke="#333"/>')
        ink = "#111" if is_lit else "#fff"  # a dark card's name and symbol light: 6.5:1 on its grey
        out.append(_symbol(ch, x + CELL / 2, y + CELL / 2 - 6, ink))
        out.append(f'<text x="{x + CELL / 2}" y="{y + CELL - 9}" text-anchor="middle" font-size="11" '
                   f'fill="{ink}">{KINDS[ch]}</text>')
        if i == fan:
            out.append(f'<text x="{x + CELL - 14}" y="{y + 20}" font-size="16">F</text>')
        if i == start:
            out.append(f'<rect x="{x + 1}" y="{y + 1}" width="{CELL - 2}" height="{CELL - 2}" rx="9" '
                       'fill="none" stroke="#f2a900" stroke-width="4"/>')
            out.append(f'<text x="{x + 8}" y="{y + 18}" font-size="11" font-weight="bold" fill="#7a5200">START</text>')
    for j, b in enumerate(boxes):
        if b is None:
            continue
        r, c = rc(b)
        out.append(f'<rect x="{left + c * CELL + 8}" y="{top + r * CELL + 8}" width="16" height="12" '
                   f'fill="{"#f2c14e" if j == 0 else "#5fa8d3"}" stroke="#222"/>')
    if path:
        pts = []
        for p in path:
            r, c = rc(p)
            pts.append((left + c * CELL + CELL / 2, top + r * CELL + CELL / 2))
        out.append('<polyline points="' + " ".join(f"{x:.1f},{y:.1f}" for x, y in pts) +
                   '" fill="none" stroke="#000" stroke-opacity="0.6" stroke-width="3"/>')
        for k, (x, y) in enumerate(pts):
            out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="9" fill="{"#f2c14e" if k == 0 else "white"}" '
                       'stroke="#000"/>')
            out.append(f'<text x="{x:.1f}" y="{y + 4:.1f}" text-anchor="middle" font-size="10">{k}</text>')
    y = top + grid + PAD
    for line in notes:
        y += 18
        out.append(f'<text x="{PAD}" y="{y}" font-size="12">{_esc(line)}</text>')
    out.append("</svg>")
    return "\n".join(out)


def _esc(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
