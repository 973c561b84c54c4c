"""Tanglung's web pages: the grid with clickable cards, the check page's answer and picture."""

from __future__ import annotations

import re

from ...errors import FormatError
from ...generators.ids import format_params, make_descriptive
from ..picture import HOT, inject
from ..plugin import load_game
from .cards import KINDS, default_card_set
from .ids import id_params
from .layout import Layout
from .render import svg_grid
from .rules import TanglungOptions
from .solo_search import solve_solo


def hotspots(svg: str, legal: list[int]) -> tuple[str, set[int]]:
    """Every card of the 4x4 grid clickable (the card rectangles are the 16 ``rx="8"`` rects, in
    cell order); legal destinations marked ``legal``."""
    rects = re.findall(r'<rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)" rx="8"', svg)
    if len(rects) != 16:
        return svg, set()
    hot = [HOT.format(cls=" legal" if i in legal else "", a=i, x=x, y=y, w=w, h=h)
           for i, (x, y, w, h) in enumerate(rects)]
    return inject(svg, hot), set(range(16))


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
        frames.append({"caption": f"start on {sol.start // 4},{sol.start % 4}", "svg": st.to_svg()})
        for k, cell in enumerate(sol.path[1:], 1):
            st.apply_action(cell)
            frames.append({"caption": f"{k}. {cell // 4},{cell % 4}", "svg": st.to_svg()})
    out["frames"] = frames
    return out


def draw(body: dict) -> dict:
    """The grid being entered (``.`` for a cell not yet placed), every cell clickable."""
    text = body.get("layout", "") if isinstance(body, dict) else ""
    lay = Layout.parse(text or "..../..../..../....")
    svg, _ = hotspots(svg_grid(lay, labels=True), [])
    cs = default_card_set()
    placed = {k: sum(1 for i in range(16) if lay[i] == k) for k in KINDS}
    return {"layout": str(lay), "svg": svg,
            "cards": [{"letter": k, "name": KINDS[k], "count": cs.count(k), "placed": placed[k]} for k in KINDS]}


