"""Tanglung's web pages: the grid with clickable cards, the check page's answer and picture."""

from __future__ import annotations

import re

from ...errors import FormatError, TanglekitError
from ...generators.ids import format_params, make_descriptive
from ..picture import HOT, attr, inject, named
from ..plugin import load_game
from .cards import EMPTY, KINDS, default_card_set
from .ids import id_params
from .layout import Layout
from .render import svg_grid
from .rules import TanglungOptions
from .solo_search import solve_solo


def hotspots(svg: str, legal: list[int], layout: Layout, lit: int | None = None, boxes=(),
             name: str = "Tanglung grid") -> tuple[str, set[int]]:
    """Every card of the 4x4 grid clickable (the card rectangles are the 16 ``rx="8"`` rects, in
    cell order); legal destinations marked ``legal``. Each is named for screen readers by its
    row, column, card, lit or dark, and the matchbox on it; the picture by ``name``."""
    rects = re.findall(r'<rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)" rx="8"', svg)
    if len(rects) != 16:
        return svg, set()

    def label(i: int) -> str:
        r, c = divmod(i, 4)
        ch = layout[i]
        card = "no card" if ch == EMPTY else KINDS[ch] + ("" if lit is None else ", lit" if lit >> i & 1 else ", dark")
        box = [j for j, b in enumerate(boxes) if b == i]
        here = "" if not box else ", the matchbox" if len(boxes) == 1 else f", matchbox {box[0]}"
        return attr(f"row {r}, column {c}: {card}{here}")

    hot = [HOT.format(cls=" legal" if i in legal else "", a=i, x=x, y=y, w=w, h=h, label=label(i))
           for i, (x, y, w, h) in enumerate(rects)]
    return named(inject(svg, hot), name, "group"), set(range(16))


SPOT = ('<rect class="hot spot" data-spot="{i}" x="{x}" y="{y}" width="{w}" height="{h}" '
        'fill="#000" fill-opacity="0" style="cursor:pointer"/>')


def duel_spots(svg: str) -> str:
    """The duel's 16 cards as spots (``data-spot``, the cell): a move is chosen cell by cell (the
    matchbox's card, then the fan's card), the page narrowing the moves to those starting so."""
    rects = re.findall(r'<rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)" rx="8"', svg)
    if len(rects) != 16:
        return svg
    return inject(svg, [SPOT.format(i=i, x=x, y=y, w=w, h=h) for i, (x, y, w, h) in enumerate(rects)])


def check(body: dict) -> dict:
    """``tanglung solo solve``'s JSON (solvable, moves, start, path, optimal_tours) for a layout,
    plus its ``id`` and the optimal tour step by step."""
    text = body.get("layout") if isinstance(body, dict) else None
    if not isinstance(text, str):
        raise FormatError('send {"layout": "CRBF/HDFR/BHFB/RHDC"}')
    lay = Layout.parse(text)
    sol = solve_solo(lay)
    out = sol.to_json()
    out["layout"] = str(lay)
    flags, values = id_params(None, TanglungOptions(), None)
    out["id"] = make_descriptive("tanglung", format_params(*flags, **values), str(lay))
    frames = []
    if sol.solvable:
        st = load_game("tanglung-solo").new_initial_state_from({"layout": str(lay), "starts": [list(divmod(sol.start, 4))]})
        cap = f"start on {sol.start // 4},{sol.start % 4}"
        frames.append({"caption": cap, "svg": named(st.to_svg(), f"Tanglung grid, {cap}")})
        for k, cell in enumerate(sol.path[1:], 1):
            st.apply_action(cell)
            cap = f"{k}. {cell // 4},{cell % 4}"
            frames.append({"caption": cap, "svg": named(st.to_svg(), f"Tanglung grid after move {cap}, "
                                                                     f"{st.engine.dark_count()} dark")})
    out["frames"] = frames
    out["answer"] = (f"solvable in {sol.moves} moves from {sol.start // 4},{sol.start % 4} "
                     f"({sol.optimal_tours} optimal tours)" if sol.solvable else "cannot be won from either Rooster")
    return out


def _plural(name: str) -> str:
    return name if name == "fish" else name[:-1] + "ies" if name.endswith("y") else name + "s"


def check_data() -> dict:
    """What the check page needs first: its title, how to enter a layout, the card kinds."""
    cs = default_card_set()
    return {"title": "Check a Tanglung solo layout", "solve_label": "solvable?", "entry": "grid", "mode": "palette",
            "how": "Choose a card kind, then put it on cells (putting the same kind again empties the cell). "
                   "The default set: " + ", ".join(f"{cs.count(k)} {_plural(KINDS[k])}" for k in KINDS) + "; "
                   "the Roosters on opposite corners.",
            "values": {k: f"{k} {KINDS[k]}" for k in KINDS},
            "selects": [], "text": {"name": "layout", "label": "layout"}}


def draw(body: dict) -> dict:
    """The grid being entered (``.`` for a cell not yet placed), every cell clickable; the card
    counts, and whether the layout can be checked (``ready``; ``why`` not)."""
    body = body if isinstance(body, dict) else {}
    text = body.get("layout", "")
    cells = body.get("cells")
    if isinstance(cells, dict) and not text:
        grid = ["."] * 16
        for k, v in cells.items():
            if not (isinstance(k, str) and k.isdigit() and int(k) < 16 and isinstance(v, str) and v.upper() in KINDS):
                raise FormatError(f"bad cell {k!r}: {v!r} (cells 0-15, letters {''.join(KINDS)})")
            grid[int(k)] = v.upper()
        text = "".join(grid)
    lay = Layout.parse(text or "..../..../..../....")
    svg, _ = hotspots(svg_grid(lay, labels=True), [], lay, name="Tanglung layout being entered")
    cs = default_card_set()
    placed = {k: sum(1 for i in range(16) if lay[i] == k) for k in KINDS}
    left = sum(1 for i in range(16) if lay[i] == ".")
    ready, why = True, ""
    if left:
        ready, why = False, f"{left} cell{'s' if left != 1 else ''} still empty"
    else:
        try:
            lay.validate()
        except TanglekitError as e:
            ready, why = False, str(e)
    return {"layout": str(lay), "text": str(lay), "svg": svg,
            "cells": {str(i): lay[i] for i in range(16) if lay[i] != "."},
            "names": {str(i): f"{i // 4},{i % 4}" for i in range(16)},
            "palette": [{"value": k, "label": f"{k} {KINDS[k]} {placed[k]}/{cs.count(k)}"} for k in KINDS],
            "cards": [{"letter": k, "name": KINDS[k], "count": cs.count(k), "placed": placed[k]} for k in KINDS],
            "ready": ready, "why": why, "check": {"layout": str(lay)}}


