"""Every Zangle picture: a Zangle's proof, the deck sheet, a table of face-up cards, and the
printable solo sheet and its answer page (the one place Zangle cards are drawn)."""

from __future__ import annotations

from xml.sax.saxutils import escape

from ...shapes.lattice import TRIANGLE
from ...shapes.polyform import Polyform
from ...shapes.render import svg_sheet, svg_tiling
from .cards import PAINT

_Z_SHAPE = Polyform([(0, 0)])  # a Z card (no shape) is drawn as one white triangle on a table


def _svg(width: float, height: float, unit: float, parts: list[str], digits: int = 2) -> str:
    f = f".{digits}f"
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width * unit:.0f}" height="{height * unit:.0f}" '
            f'viewBox="0 0 {width:{f}} {height:{f}}">\n<rect width="{width:{f}}" height="{height:{f}}" '
            'fill="#ffffff"/>\n' + "\n".join(parts) + "\n</svg>\n")


def zangle_svg(deal, z, scale: float = 40.0) -> str:
    """One Zangle: the target outline with each piece drawn and coloured inside it."""
    target = deal.cards(z.target.place)[z.target.index]
    tshape = target.shape if hasattr(target, "shape") else Polyform(target, TRIANGLE)
    fills = [PAINT.get(getattr(deal.cards(r.place)[r.index], "colour", ""), "#999999") for r in z.pieces]
    return svg_tiling(tshape, [Polyform(c, TRIANGLE) for c in z.cells], colours=fills, unit=scale)


def deck_svg(deck, unit: float = 28.0) -> str:
    """The deck's card kinds in their colours, one per slot, captioned with kind and count.
    Z cards (no triangles) are drawn as an empty dashed card outline."""
    slot_w, slot_h, cols = 4.2, 3.6, 4
    parts = []
    for i, (kind, colour, shape, count) in enumerate(deck.kinds):
        r, c = divmod(i, cols)
        x0, y0 = c * slot_w, r * slot_h
        if shape is None:
            parts.append(
                f'<rect x="{x0 + 1.3:.3f}" y="{y0 + 0.3:.3f}" width="1.6" height="2.2" fill="none" '
                'stroke="#888888" stroke-width="0.05" stroke-dasharray="0.15,0.1"/>'
            )
        else:
            q = shape.normalized()
            pts_all = [pt for cell in q.cells for pt in TRIANGLE.polygon(cell)]
            w = max(p[0] for p in pts_all) - min(p[0] for p in pts_all)
            h = max(p[1] for p in pts_all) - min(p[1] for p in pts_all)
            dx = x0 + (slot_w - w) / 2 - min(p[0] for p in pts_all)
            dy = y0 + 0.3 + (2.4 - h) / 2 - min(p[1] for p in pts_all)
            fill = PAINT.get(colour, "#999999")
            for cell in q.cells:
                pts = " ".join(f"{x + dx:.3f},{y + dy:.3f}" for x, y in TRIANGLE.polygon(cell))
                parts.append(f'<polygon points="{pts}" fill="{fill}" stroke="#ffffff" stroke-width="0.03"/>')
            for a, b in q.boundary_edges():
                parts.append(
                    f'<line x1="{a[0] + dx:.3f}" y1="{a[1] + dy:.3f}" x2="{b[0] + dx:.3f}" '
                    f'y2="{b[1] + dy:.3f}" stroke="#222222" stroke-width="0.06" stroke-linecap="round"/>'
                )
        parts.append(
            f'<text x="{x0 + slot_w / 2:.3f}" y="{y0 + 3.2:.3f}" font-family="sans-serif" font-size="0.42" '
            f'text-anchor="middle" fill="#222222">{escape(kind)} x{count}</text>'
        )
    rows = (len(deck.kinds) + cols - 1) // cols
    return _svg(cols * slot_w, rows * slot_h, unit, parts, digits=3)


def table_svg(cards: list[tuple[str, object]], cols: int = 3) -> str:
    """Face-up cards as a labelled sheet: ``cards`` is a list of (where, Card)."""
    if not cards:
        return ('<svg xmlns="http://www.w3.org/2000/svg" width="200" height="40"><text x="10" y="25">'
                'no cards face up</text></svg>')
    shapes = [c.shape if c.shape is not None else _Z_SHAPE for _, c in cards]
    labels = [f"{where}: {c.id}" for where, c in cards]
    colours = [PAINT.get(c.colour, "#999999") for _, c in cards]
    return svg_sheet(shapes, cols=cols, labels=labels, colours=colours)


def state_svg(engine, unit: float = 40.0) -> str:
    """The face-up cards of a solo, turn or speed engine state, drawn as on the printed sheets: one
    card a cell, its place ("middle 0", "pile 2", "P1 card 0") and its id on two lines inside it
    (labels centred under shapes in narrow columns overlapped and were cut off)."""
    cards = [(f"middle {i}", c) for i, c in enumerate(engine.middle)]
    if hasattr(engine, "piles"):
        cards += [(f"pile {i}", p[-1]) for i, p in enumerate(engine.piles) if p]
    else:
        cards += [(f"P{p} card {j}", c) for p in range(engine.players) for j, c in enumerate(engine.own[p])]
    if not cards:
        return ('<svg xmlns="http://www.w3.org/2000/svg" width="200" height="40"><text x="10" y="25">'
                'no cards face up</text></svg>')
    cols = max(len(engine.middle), 3)
    w, h, gap = 3.2, 3.4, 0.3
    parts: list[str] = []
    for k, (where, card) in enumerate(cards):
        r, c = divmod(k, cols)
        parts += card_svg(card, gap + c * (w + gap), gap + r * (h + gap), w, h, True, where)
    rows = -(-len(cards) // cols)
    return _svg(gap + cols * (w + gap), gap + rows * (h + gap), unit, parts)


def card_svg(card, x: float, y: float, w: float, h: float, face_up: bool, label: str) -> list[str]:
    """SVG elements of one card on a printable sheet (face-down cards dashed and faded)."""
    out = [f'<rect x="{x:.2f}" y="{y:.2f}" width="{w:.2f}" height="{h:.2f}" rx="0.15" '
           f'fill="{"#ffffff" if face_up else "#e6e6e6"}" stroke="#333333" stroke-width="{0.06 if face_up else 0.03}"'
           + ("" if face_up else ' stroke-dasharray="0.12,0.08"') + "/>"]
    if card.shape is not None:
        q = card.shape.normalized()
        pts = [pt for c in q.cells for pt in TRIANGLE.polygon(c)]
        x0, x1 = min(p[0] for p in pts), max(p[0] for p in pts)
        y0, y1 = min(p[1] for p in pts), max(p[1] for p in pts)
        s = min((w - 0.4) / max(x1 - x0, 1e-9), (h - 1.15) / max(y1 - y0, 1e-9), 0.7)
        dx = x + (w - s * (x1 - x0)) / 2 - s * x0
        dy = y + 0.75 + (h - 1.15 - s * (y1 - y0)) / 2 - s * y0
        fill = PAINT.get(card.colour, "#999999")
        op = "1" if face_up else "0.45"
        for c in q.cells:
            poly = " ".join(f"{px * s + dx:.3f},{py * s + dy:.3f}" for px, py in TRIANGLE.polygon(c))
            out.append(f'<polygon points="{poly}" fill="{fill}" fill-opacity="{op}" stroke="#ffffff" '
                       'stroke-width="0.03"/>')
    else:
        out.append(f'<text x="{x + w / 2:.2f}" y="{y + h / 2:.2f}" font-size="0.8" text-anchor="middle" '
                   'font-family="sans-serif" font-weight="bold" fill="#555555">Z</text>')
    out.append(f'<text x="{x + w / 2:.2f}" y="{y + 0.34:.2f}" font-size="0.26" text-anchor="middle" '
               f'font-family="sans-serif" fill="#222222">{escape(label)}</text>')
    # the card id, as the solution names it
    out.append(f'<text x="{x + w / 2:.2f}" y="{y + 0.64:.2f}" font-size="0.24" text-anchor="middle" '
               f'font-family="monospace" font-weight="bold" fill="#000000">{escape(card.id)}</text>')
    return out


def _rules_line(options) -> str:
    return (f"an emptied pile {'must' if options.fill_empty_pile == 'must' else 'may'} be filled with the top card "
            f"of a pile with cards below it; discarding the middle only when no Zangle exists"
            + ("" if not options.voluntary_discard else " (or at any time)") + ".")


def solo_sheet_svg(deal, title: str, subtitle: str, unit: float = 30.0) -> str:
    """A printable solo sheet: the middle, the draw pile in order, and each tableau pile as a
    column (the face-up top card at the bottom of the column, face-down cards above it, dashed)."""
    by = deal.deck.by_id
    w, h, gap = 2.2, 2.6, 0.3
    parts = [f'<text x="0.3" y="0.8" font-size="0.6" font-family="sans-serif" font-weight="bold">'
             f'{escape(title)}</text>',
             f'<text x="0.3" y="1.4" font-size="0.3" font-family="monospace">{escape(subtitle)}</text>']
    y = 2.0
    parts.append(f'<text x="0.3" y="{y + 0.3:.2f}" font-size="0.35" font-family="sans-serif">'
                 'Middle (face up) and draw pile (top card first, face down)</text>')
    y += 0.6
    x = 0.3
    for i, c in enumerate(deal.middle):
        parts += card_svg(by[c], x, y, w, h, True, f"middle {i}")
        x += w + gap
    x += gap * 2
    for i, c in enumerate(deal.draw):
        parts += card_svg(by[c], x, y, w, h, False, f"draw {i + 1}")
        x += w + gap
    width = max(x, len(deal.piles) * (w + gap) + 0.6) + 0.3
    y += h + 0.8
    parts.append(f'<text x="0.3" y="{y:.2f}" font-size="0.35" font-family="sans-serif">'
                 'Tableau: each column is one pile, bottom card at the top, face-up card last</text>')
    y += 0.4
    tallest = max(len(p) for p in deal.piles)
    for i, p in enumerate(deal.piles):
        px = 0.3 + i * (w + gap)
        for j, c in enumerate(p):
            up = j == len(p) - 1
            parts += card_svg(by[c], px, y + j * (h * 0.85), w, h, up, f"pile {i}.{j + 1}")
    y += (tallest - 1) * h * 0.85 + h + 0.6
    for line in ("Goal: empty the tableau. A Zangle covers a target card's shape exactly with other cards' shapes,",
                 "using at least one middle card and at least one pile top (at most one card per pile).",
                 "Piles are numbered 0.." + str(len(deal.piles) - 1) + " from the left, middle cards 0..2 (as the game's "
                 "moves name them); pile 2.3 is the third card of pile 2; each card shows its id, as the answer names it.",
                 f"Rules: {_rules_line(deal.options)}"):
        parts.append(f'<text x="0.3" y="{y:.2f}" font-size="0.32" font-family="sans-serif">{escape(line)}</text>')
        y += 0.5
    return _svg(max(width, 26.0), y + 0.2, unit, parts)


def text_page_svg(lines: list[str], unit: float = 30.0) -> str:
    """A page of text lines, the first as a heading (the answer sheet)."""
    width = max(26.0, 0.3 + max(len(t) for t in lines) * 0.19)
    height = 0.9 + 0.5 * len(lines)
    parts = []
    for i, t in enumerate(lines):
        size, weight = ("0.5", "bold") if i == 0 else ("0.32", "normal")
        parts.append(f'<text x="0.3" y="{0.8 + 0.5 * i:.2f}" font-size="{size}" font-weight="{weight}" '
                     f'font-family="sans-serif">{escape(t)}</text>')
    return _svg(width, height, unit, parts)
