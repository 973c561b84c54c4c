"""Zinga's web page: the person's sheet with clickable cells."""

from __future__ import annotations

import re

from ..picture import HOT, attr, inject, named
from .rules import name_of


def hotspots(svg: str, st, humans: list[int], legal: list[int]) -> tuple[str, set[int]]:
    """The person's sheet clickable: a cell claims, announces or takes its bonus, whichever of those
    is legal now (claim when none is: the engine then says why not)."""
    g = st.engine.game
    rects = re.findall(r'<rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)" fill="#[0-9a-fA-F]{6}" '
                       r'stroke="black"/>', svg)
    name = f"Zinga sheets of {g.n} players"
    if len(rects) != 25 * g.n or not humans:
        return named(svg, name, "group"), set()
    me = st.current_player() if st.current_player() in humans else humans[0]
    legal_set = set(legal)
    hot, covered = [], set()
    for i, code in enumerate(g.sheets[me].codes):
        options = [base + code for base in (100, 200, 300)]
        a = next((x for x in options if x in legal_set), options[0])
        if a in legal_set:
            covered.add(a)
        x, y, w, h = rects[25 * me + i]
        r, c = divmod(i, 5)
        ticked = ", ticked" if g.players[me].ticked >> i & 1 else ""
        label = attr(f"row {r}, column {c}: {name_of(code)}{ticked}"
                     + (f"; {st.action_to_string(a)}" if a in legal_set else ""))
        hot.append(HOT.format(cls=" legal" if a in legal_set else "", a=a, x=x, y=y, w=w, h=h, label=label))
    return named(inject(svg, hot), f"{name}; the cells of player {me}'s sheet are buttons", "group"), covered
