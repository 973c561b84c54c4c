"""Tanglung movement: where each card's action can take a matchbox, with the blocking rules.

Rabbit (rook), Butterfly (bishop) and Dragon (queen) slide over cards; Rabbit and Butterfly
stop before an empty space or another matchbox (they may land on the matchbox's card), the
Dragon crosses both. Fish steps 1 in 8 directions, Rooster 1 orthogonally, Horse jumps like a
knight. Nothing lands on or crosses the Fan, nothing lands on an empty space. With
``literal_blocking`` Rabbit and Butterfly cannot pass over any card either.
"""

from __future__ import annotations

from .cards import EMPTY
from .layout import N_CELLS, SIZE
from .rules import TanglungOptions

ORTHO = ((-1, 0), (1, 0), (0, -1), (0, 1))
DIAG = ((-1, -1), (-1, 1), (1, -1), (1, 1))
KNIGHT = ((-2, -1), (-2, 1), (-1, -2), (-1, 2), (1, -2), (1, 2), (2, -1), (2, 1))
SLIDES = {"R": ORTHO, "B": DIAG, "D": ORTHO + DIAG}
STEPS = {"C": ORTHO, "F": ORTHO + DIAG}


def _on(r: int, c: int) -> bool:
    return 0 <= r < SIZE and 0 <= c < SIZE


def _horse_routes(r: int, c: int, dr: int, dc: int) -> list[list[int]]:
    """The two L-routes' intermediate cells of a knight jump by (dr, dc)."""
    sr = 1 if dr > 0 else -1
    sc = 1 if dc > 0 else -1
    if abs(dr) == 2:  # long leg vertical
        a = [(r + sr, c), (r + 2 * sr, c)]
        b = [(r, c + sc)]
        b += [(r + sr, c + sc)]
    else:
        a = [(r, c + sc), (r, c + 2 * sc)]
        b = [(r + sr, c), (r + sr, c + sc)]
    return [[rr * SIZE + cc for rr, cc in route if _on(rr, cc)] for route in (a, b)]


def destinations(
    cells,
    pos: int,
    kind: str,
    options: TanglungOptions | None = None,
    fan: int | None = None,
    others: frozenset[int] | set[int] = frozenset(),
) -> list[int]:
    """Cells the action of ``kind`` takes a matchbox from ``pos`` to (sorted).

    ``cells`` is a 16-sequence of letters ('.' = empty). Cells in ``others`` (other matchboxes)
    are included when reachable: whether landing there is allowed (bump) is the caller's call.
    """
    options = options or TanglungOptions()
    r0, c0 = divmod(pos, SIZE)
    out: set[int] = set()

    def lands(i: int) -> bool:
        return cells[i] != EMPTY and i != fan

    if kind in STEPS:
        for dr, dc in STEPS[kind]:
            r, c = r0 + dr, c0 + dc
            if _on(r, c) and lands(r * SIZE + c):
                out.add(r * SIZE + c)
    elif kind == "H":
        for dr, dc in KNIGHT:
            r, c = r0 + dr, c0 + dc
            if not (_on(r, c) and lands(r * SIZE + c)):
                continue
            if fan is not None:
                routes = _horse_routes(r0, c0, dr, dc)
                blocked = [fan in route for route in routes]
                if options.horse_fan_route == "either" and all(blocked):
                    continue
                if options.horse_fan_route == "both" and any(blocked):
                    continue
            out.add(r * SIZE + c)
    elif kind in SLIDES:
        crosses_all = kind == "D"
        only_adjacent = options.literal_blocking and not crosses_all
        for dr, dc in SLIDES[kind]:
            r, c = r0 + dr, c0 + dc
            while _on(r, c):
                i = r * SIZE + c
                if i == fan:
                    break
                if cells[i] == EMPTY:
                    if not crosses_all:
                        break
                else:
                    out.add(i)
                    if only_adjacent or (i in others and not crosses_all):
                        break
                r, c = r + dr, c + dc
    return sorted(out)


_FULL_ROWS: dict = {}  # (options, kind, cell) -> destinations on a grid without empty spaces
_FULL_GRID = ("C",) * N_CELLS


def solo_move_table(cells, options: TanglungOptions | None = None) -> list[list[int]]:
    """For each cell, the cells its card's action reaches in solo play (no Fan, no other box).

    Without a Fan or another matchbox, only empty spaces change where a card leads, so on a
    grid without empty spaces each row is that of its card kind, cell and rule options on a
    full grid, computed once per process."""
    options = options or TanglungOptions()
    if EMPTY in cells:
        return [
            destinations(cells, p, cells[p], options) if cells[p] != EMPTY else [] for p in range(N_CELLS)
        ]
    rows = _FULL_ROWS
    out = []
    for p in range(N_CELLS):
        key = (options, cells[p], p)
        row = rows.get(key)
        if row is None:
            row = rows[key] = tuple(destinations(_FULL_GRID, p, cells[p], options))
        out.append(list(row))
    return out
