"""New QANGO-like boards: random partitions of the cells into 8-connected triples (the shared exact-cover
engine over shuffled options), coloured with 5 colours so that orthogonally touching triples differ
(CP-SAT, greedy fallback), scored by solving the empty position under a time limit."""

from __future__ import annotations

import random
from dataclasses import replace
from functools import lru_cache

from ...errors import FormatError, SolverError
from ...generators.ids import looks_like_id, resolve, split_id
from ...jsonio import check_text_arg, short
from ...solver import cpsat
from ...solver.exact_cover import ExactCover, first_solution
from .board import Board, board_from_json, load_board, triple_connected
from .position import Position

PUZZLE_COLOURS = ("red", "orange", "yellow", "blue", "green")


def generate_board_from_params(origin: str) -> Board:
    """The generated board named by PARAMS ``w=W,h=H,bseed=S`` (cached: a CP-SAT run each)."""
    return _generated(origin)


def _generated(origin: str) -> Board:
    v = dict(p.split("=", 1) for p in origin.split(","))
    return _generated_board(int(v["w"]), int(v["h"]), int(v["bseed"]))




@lru_cache(maxsize=16)
def _generated_board(w: int, h: int, seed: int) -> Board:
    return generate_board(w, h, seed)



def _triple_shapes(board_cells: set[int], w: int) -> dict[int, list[tuple[int, int, int]]]:
    """All 8-connected triples of board cells, indexed by their smallest cell."""
    from itertools import combinations

    out: dict[int, list] = {}
    cells = sorted(board_cells)
    for a in cells:
        ra, ca = divmod(a, w)
        near = [c for c in cells if c > a and abs(c // w - ra) <= 2 and abs(c % w - ca) <= 2]
        for b, c in combinations(near, 2):
            t = (a, b, c)
            if triple_connected(t, w):
                out.setdefault(a, []).append(t)
    return out


def _diagonal_links(t, w: int) -> int:
    """Cells of a triple with no orthogonal neighbour inside it."""
    return sum(1 for a in t if not any(b in (a - 1, a + 1, a - w, a + w) and abs(a % w - b % w) <= 1 for b in t))


def _random_partition(cells: set[int], shapes, rng: random.Random, width: int):
    """A random partition of ``cells`` into triples, found by the shared exact-cover engine.

    The options are shuffled (compact triples, with orthogonal links like the published boards,
    tend to come first), so the engine's first solution is a random one for the seed.
    """
    options = [t for ts in shapes.values() for t in ts]
    options.sort(key=lambda t: _diagonal_links(t, width) + 1.5 * rng.random())
    index = {c: i for i, c in enumerate(sorted(cells))}
    problem = ExactCover(len(index), 0, [[index[c] for c in t] for t in options])
    solution = first_solution(problem, backend="dlx", time_limit=30)
    return None if solution is None else sorted(options[k] for k in solution)


def _colour_triples(triples, w: int, rng: random.Random, n_colours: int = 5) -> list[int]:
    """Colours 0..4 with orthogonally touching triples different and counts balanced (CP-SAT)."""
    owner = {c: k for k, t in enumerate(triples) for c in t}
    edges = set()
    for c, k in owner.items():
        for d in (1, w):
            nb = c + d
            if nb in owner and owner[nb] != k and (d == w or nb % w != 0):
                edges.add((min(k, owner[nb]), max(k, owner[nb])))
    n = len(triples)
    from ortools.sat.python import cp_model

    m = cp_model.CpModel()
    col = [m.NewIntVar(0, n_colours - 1, f"c{k}") for k in range(n)]
    for a, b in edges:
        m.Add(col[a] != col[b])
    lo, hi = n // n_colours, -(-n // n_colours)
    for v in range(n_colours):
        bs = []
        for k in range(n):
            bk = m.NewBoolVar("")
            m.Add(col[k] == v).OnlyEnforceIf(bk)
            m.Add(col[k] != v).OnlyEnforceIf(bk.Not())
            bs.append(bk)
        m.Add(sum(bs) >= lo)
        m.Add(sum(bs) <= hi)
    # random tie-break objective so different seeds give different colourings
    w8 = [rng.randint(0, 9) for _ in range(n)]
    m.Minimize(sum(w8[k] * col[k] for k in range(n)))
    s = cp_model.CpSolver()
    s.parameters.num_workers = 1
    s.parameters.max_time_in_seconds = 5.0
    s.parameters.random_seed = rng.randint(0, 1 << 20)
    if cpsat.solve(s, m) in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return [int(s.Value(c)) for c in col]
    colours = [-1] * n
    for k in range(n):
        used = {colours[b] for a, b in edges if a == k} | {colours[a] for a, b in edges if b == k}
        free = [v for v in range(n_colours) if v not in used]
        if not free:
            raise SolverError("could not colour the triples")
        colours[k] = rng.choice(free)
    return colours


def generate_board(width: int = 6, height: int = 6, seed: int = 0, off_board=(), centre_free: bool | None = None,
                   max_counters: int | None = None, name: str | None = None) -> Board:
    """A new QANGO-like board: the cells split into 8-connected coloured triples (one free centre
    cell when the count is not a multiple of 3 and the centre is on the board)."""
    check_board_size(width, height)
    rng = random.Random(seed)
    cells = {i for i in range(width * height) if i not in set(off_board)}
    free: set[int] = set()
    rest = len(cells) % 3
    if rest:
        centre = (height // 2) * width + width // 2
        if rest == 1 and (centre_free is None or centre_free) and centre in cells:
            free = {centre}
        else:
            raise SolverError(f"{len(cells)} cells do not split into triples (leave one centre cell free or "
                              "mark cells off-board)")
    shapes = _triple_shapes(cells - free, width)
    triples = _random_partition(cells - free, shapes, rng, width)
    if triples is None:
        raise SolverError("no partition into connected triples found")
    colours = _colour_triples(triples, width, rng)
    data = {
        "name": name or f"gen{width}x{height}-{seed}",
        "title": f"generated {width}x{height} #{seed}",
        "width": width,
        "height": height,
        "off_board": sorted(set(off_board)),
        "triples": [{"cells": list(t), "colour": PUZZLE_COLOURS[c]} for t, c in zip(triples, colours)],
        "max_counters": max_counters,
    }
    b = board_from_json(data, where="generated board")
    if not off_board and centre_free is None and max_counters is None and name is None:
        b = replace(b, origin=f"w={width},h={height},bseed={seed}")  # regenerable from these PARAMS
    return b


def score_board(board: Board, time_limit: float = 10.0) -> dict:
    """Solve the empty position of a board: value for the first player, plies, nodes, seconds."""
    from .solve import QangoSolver  # loads numpy (only when this runs)

    res = QangoSolver(board, None).solve(Position(board), time_limit=time_limit)
    return {"value": res.value, "plies": res.plies, "nodes": res.nodes, "seconds": round(res.seconds, 3),
            "first_move": None if res.best_move is None else list(board.rc(res.best_move))}


def check_board_size(width: int, height: int) -> None:
    """Boards are 2..9 cells a side and at most 63 cells (one machine word per side)."""
    if not (2 <= width <= 9 and 2 <= height <= 9) or width * height > 63:
        raise FormatError(f"board size {width}x{height} out of range (2..9 a side, at most 63 cells)")


def load_board_spec(spec) -> Board:
    """A board from a name (6, 7, 7plus), a board file, a board ID (``qango:board,w=6,h=6#4``,
    ``qango:board:LAYOUT``) or the older ``qango-board:WxH#SEED``."""
    import re

    if isinstance(spec, Board) or spec is None:
        return load_board(spec)
    text = check_text_arg(str(spec), "board").strip()
    old = re.fullmatch(r"qango-board:([0-9]{1,2})x([0-9]{1,2})#([0-9]{1,19})", text.lower())
    if old:
        w, h, seed = (int(v) for v in old.groups())
        check_board_size(w, h)
        return _generated_board(w, h, seed)
    if text.lower().startswith("qango-board:"):
        raise FormatError(f"bad board ID {short(text)}: expected qango:board,w=W,h=H#SEED")
    if looks_like_id(text):
        _refuse_other_game(text, "a QANGO board")
        return resolve(text, expect="qango-board").value
    return load_board(text)


def _refuse_other_game(text: str, expected: str) -> None:
    """Refuse another game's ID by its prefix, before any generator runs."""
    game = split_id(text).game
    if game != "qango":
        raise FormatError(f"this is a {game.capitalize()} ID, expected {expected}")
