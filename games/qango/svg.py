"""SVG and terminal pictures of QANGO boards and positions (colour triples, counters, marks)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the type only: Board draws itself with this module
    from .board import Board

FILL = {"red": "#e8557a", "orange": "#f39a3c", "yellow": "#f3d84b", "blue": "#4a90d9", "green": "#58b368",
        "grey": "#a8a8a8", "?": "#dddddd"}
ANSI = {"red": 205, "orange": 208, "yellow": 220, "blue": 33, "green": 70, "grey": 248, "?": 252}


def cell_colours(board: Board) -> dict[int, str]:
    """Colour name of every on-board cell (cells outside any triple are 'grey')."""
    out = {c: "grey" for c in board.cells}
    for t in board.triples:
        for c in t.cells:
            out[c] = t.colour if t.colour in FILL else "?"
    return out


X_FILL, O_FILL = "#1a1a1a", "#ffffff"  # X (first player) dark, O light, as on the real board


def board_svg(board: Board, x: int = 0, o: int = 0, marks: dict[int, str] | None = None,
              title: str | None = None, size: int = 48, labels: bool = True, legend: bool = True,
              notes: list[str] | None = None) -> str:
    """Board with colour triples (thick borders between triples), X as dark and O as light counters.

    ``marks`` maps cells to short labels (e.g. "1" for the key move of a puzzle). ``labels``
    numbers rows and columns from 0 as moves are written (row, col); ``legend`` says who is who;
    ``notes`` are extra lines under the board (goal, answer)."""
    w, h = board.width, board.height
    pad = 8
    lab = 18 if labels else 0
    top = (24 if title else 0) + lab
    notes = list(notes or [])
    bottom = (24 if legend else 0) + 18 * len(notes)
    W = max([w * size + 2 * pad + lab, 300 if legend else 0] + [int(6.8 * len(n)) + 2 * pad for n in notes])
    H = h * size + 2 * pad + top + bottom
    left = pad + lab + (W - (w * size + 2 * pad + lab)) / 2
    col = cell_colours(board)
    owner = {c: k for k, t in enumerate(board.triples) for c in t.cells}
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}">',
             f'<rect width="{W}" height="{H}" fill="white"/>']
    if title:
        parts.append(f'<text x="{W / 2}" y="18" font-family="sans-serif" font-size="14" text-anchor="middle">'
                     f'{_esc(title)}</text>')
    y_board = pad + top
    if labels:
        for q in range(w):
            parts.append(f'<text x="{left + q * size + size / 2}" y="{y_board - 5}" font-family="sans-serif" '
                         f'font-size="12" text-anchor="middle" fill="#444">{q}</text>')
        for r in range(h):
            parts.append(f'<text x="{left - 6}" y="{y_board + r * size + size / 2 + 4}" font-family="sans-serif" '
                         f'font-size="12" text-anchor="end" fill="#444">{r}</text>')
    for c in board.cells:
        r, q = divmod(c, w)
        X0, Y0 = left + q * size, y_board + r * size
        parts.append(f'<rect x="{X0}" y="{Y0}" width="{size}" height="{size}" fill="{FILL[col[c]]}" '
                     f'stroke="#555" stroke-width="0.5"/>')
    # thick lines between cells of different triples (or board edge)
    for c in board.cells:
        r, q = divmod(c, w)
        X0, Y0 = left + q * size, y_board + r * size
        for dr, dq, x1, y1, x2, y2 in ((0, 1, 1, 0, 1, 1), (1, 0, 0, 1, 1, 1), (0, -1, 0, 0, 0, 1), (-1, 0, 0, 0, 1, 0)):
            rr, qq = r + dr, q + dq
            nb = rr * w + qq if board.on_board(rr, qq) else None
            if nb is None or owner.get(nb, -1 - nb) != owner.get(c, -1 - c):
                parts.append(f'<line x1="{X0 + x1 * size}" y1="{Y0 + y1 * size}" x2="{X0 + x2 * size}" '
                             f'y2="{Y0 + y2 * size}" stroke="#222" stroke-width="2.5" stroke-linecap="round"/>')
    for c in board.cells:
        r, q = divmod(c, w)
        cx, cy = left + q * size + size / 2, y_board + r * size + size / 2
        if x >> c & 1 or o >> c & 1:
            parts.append(_counter(cx, cy, size * 0.36, "X" if x >> c & 1 else "O", f' data-cell="{c}"'))
        if marks and c in marks:
            parts.append(f'<circle cx="{cx}" cy="{cy}" r="{size * 0.3}" fill="white" stroke="#d00" stroke-width="3"/>')
            parts.append(f'<text x="{cx}" y="{cy + 6}" font-family="sans-serif" font-size="18" font-weight="bold" '
                         f'text-anchor="middle" fill="#d00">{_esc(marks[c])}</text>')
    y = y_board + h * size + pad
    if legend:
        y += 16
        parts.append(_counter(pad + 10, y - 5, 8, "X"))
        parts.append(f'<text x="{pad + 24}" y="{y}" font-family="sans-serif" font-size="12">X first player</text>')
        parts.append(_counter(pad + 140, y - 5, 8, "O"))
        parts.append(f'<text x="{pad + 154}" y="{y}" font-family="sans-serif" font-size="12">O second player</text>')
        y += 8
    for line in notes:
        y += 16
        parts.append(f'<text x="{pad}" y="{y}" font-family="sans-serif" font-size="12">{_esc(line)}</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _counter(cx: float, cy: float, r: float, who: str, extra: str = "") -> str:
    fill = X_FILL if who == "X" else O_FILL
    return (f'<circle cx="{cx}" cy="{cy}" r="{r}" fill="{fill}" stroke="#111" stroke-width="2" '
            f'data-player="{who}"{extra}/>')


def _esc(s: str) -> str:
    return str(s).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def board_terminal(board: Board, x: int = 0, o: int = 0, colour: bool = True, last: int | None = None) -> str:
    """Board for a terminal: coloured cells (ANSI 256 colours), X/O counters, row and column labels."""
    col = cell_colours(board)
    lines = ["    " + " ".join(f"{q:>2}" for q in range(board.width))]
    for r in range(board.height):
        row = f"{r:>2}  "
        for q in range(board.width):
            c = r * board.width + q
            if c in board.off_board:
                row += "   "
                continue
            ch = "X" if x >> c & 1 else "O" if o >> c & 1 else "."
            if c == last:
                ch = ch.lower()
            if colour:
                fg = "30" if ch != "O" else "97"
                row += f"\x1b[48;5;{ANSI[col[c]]}m\x1b[{fg};1m {ch} \x1b[0m"
            else:
                row += f" {ch} "
        lines.append(row)
    return "\n".join(lines)
