"""QANGO generators: "X to move wins in k" puzzles (verified by the solver) and new QANGO-like boards.

Puzzles come from seeded playouts (random moves, forced blocks respected) and are kept only when the
solver proves a win in exactly k moves (2k-1 plies) with a single winning first move. Boards are
random partitions of the cells into 8-connected triples (the shared exact-cover engine over shuffled options) coloured with 5
colours so that orthogonally touching triples differ (CP-SAT, greedy fallback), scored by solving the
empty position under a time limit.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..errors import FormatError, SolverError
from ..games.qango.board import Board, board_from_json, load_board
from ..games.qango.position import Position, has_win, parse_position, popcount

PUZZLE_COLOURS = ("red", "orange", "yellow", "blue", "green")


@dataclass
class Puzzle:
    """A position where the side to move wins in ``k`` moves with exactly one winning first move."""

    board: Board
    position: Position
    k: int
    key_move: int
    defences: int  # defender replies to the key move that hold out the longest
    seed: int | None
    opening: str = "standard"
    nodes: int = 0

    @property
    def id(self) -> str:
        """Descriptive shareable ID holding the whole instance."""
        return f"qango:{_board_tag(self.board)}:k{self.k}:{self.position.to_text()}"

    @property
    def seed_id(self) -> str | None:
        return None if self.seed is None else f"qango:{_board_tag(self.board)}:k{self.k}#{self.seed}"

    def to_json(self) -> dict:
        return {
            "id": self.id,
            "seed_id": self.seed_id,
            "board": self.board.name,
            "position": self.position.to_text(),
            "to_move": self.position.to_move,
            "k": self.k,
            "plies": 2 * self.k - 1,
            "key_move": list(self.board.rc(self.key_move)),
            "defences": self.defences,
            "grade": grade(self.k, self.defences),
        }

    def svg(self) -> str:
        """The printable puzzle: board with row/column labels, legend, goal and ID."""
        from ..games.qango.svg import board_svg

        me, other = self.position.to_move, "O" if self.position.to_move == "X" else "X"
        title = f"{me} to move wins in {self.k}"
        notes = [f"Goal: {me} completes a triple, a 2x2 square or five in a row with at most",
                 f"{self.k} counters, whatever {other} plays. Moves are written row,col.",
                 f"ID {self.seed_id or self.id}"]
        return board_svg(self.board, self.position.x, self.position.o, title=title, notes=notes)

    def answer_svg(self) -> str:
        """The answer page: the key move marked 1 on the board, and in words."""
        from ..games.qango.svg import board_svg

        r, c = self.board.rc(self.key_move)
        me = self.position.to_move
        notes = [f"Answer: {me} plays row {r}, col {c} ({r},{c}) and wins in {self.k},",
                 f"against every one of the defences ({self.defences} hold out longest)."]
        return board_svg(self.board, self.position.x, self.position.o, marks={self.key_move: "1"},
                         title=f"Answer: {me} to move wins in {self.k}", notes=notes)


def grade(k: int, defences: int) -> str:
    """Difficulty label from the number of moves and the defences the solver must refute."""
    score = 2 * (k - 1) + min(defences, 6) / 3
    return "easy" if score < 3 else "medium" if score < 5 else "hard" if score < 7 else "expert"


def _board_tag(board: Board) -> str:
    return {"qango6": "6", "qango7": "7", "qango7plus": "7plus"}.get(board.name, board.name)


def _playout(board: Board, rng: random.Random, n_counters: int, allowed=None) -> Position | None:
    """Random game prefix with forced blocks respected and no immediate win left on the board."""
    p = Position(board, 0, 0, allowed)
    pats = board.pattern_masks
    for _ in range(n_counters):
        me, opp = p.sides()
        moves = p.legal_moves()
        if not moves:
            return None
        threats = [m for m in moves if any(q & (opp | 1 << m) == q for q in pats)]
        safe = [m for m in moves if not any(q & (me | 1 << m) == q for q in pats)]
        if threats:
            m = rng.choice(threats)
            if not any(q & (me | 1 << m) == q for q in pats):
                p = p.play(m)
                continue
            return None
        if not safe:
            return None
        p = p.play(rng.choice(safe))
    return p


def generate_puzzle(board="6", k: int = 3, seed: int = 0, opening: str = "standard", max_tries: int = 4000,
                    node_limit: int = 400_000, solver=None) -> Puzzle:
    """A verified "side to move wins in k moves" puzzle (k >= 2), deterministic for a seed."""
    from ..solver.qango_solve import QangoSolver

    if k < 2 or k > 8:
        raise SolverError("k must be between 2 and 8 moves")
    b = load_board(board)
    allowed = b.opening_cells(opening)
    solver = solver or QangoSolver(b, allowed, tt_bits=18)
    rng = random.Random(seed)
    plies = 2 * k - 1
    for _ in range(max_tries):
        n = rng.randint(4, max(5, min(b.limit - plies - 1, len(b.cells) // 2)))
        pos = _playout(b, rng, n, allowed)
        if pos is None or pos.is_over():
            continue
        me, opp = pos.sides()
        res = solver.solve(pos, max_plies=plies, node_limit=node_limit)
        if res.value != "win" or res.plies != plies:
            continue
        winners = [c for c in solver.moves(me, opp) if solver.move_wins(me, opp, c, plies)]
        if len(winners) != 1:
            continue
        key = winners[0]
        me2 = me | 1 << key
        replies = [y for y in range(b.n_cells) if (b.mask & ~(me2 | opp)) >> y & 1]
        if k == 2:
            defences = len(replies)
        else:
            defences = sum(1 for y in replies if not solver.wins(me2, opp | 1 << y, plies - 4))
        return Puzzle(b, pos, k, key, defences, seed, opening, int(solver.stats[0]))
    raise SolverError(f"no puzzle with k={k} found in {max_tries} tries (seed {seed})")


def verify_puzzle(puz: Puzzle) -> bool:
    """Re-check a puzzle with a fresh solver: exact win in k and a unique winning first move."""
    from ..solver.qango_solve import QangoSolver

    s = QangoSolver(puz.board, puz.position.allowed_first, tt_bits=18)
    res = s.solve(puz.position)
    if res.value != "win" or res.plies != 2 * puz.k - 1:
        return False
    me, opp = puz.position.sides()
    return [c for c in s.moves(me, opp) if s.move_wins(me, opp, c, res.plies)] == [puz.key_move]


def puzzle_from_id(pid: str, opening: str = "standard") -> Puzzle:
    """Rebuild a puzzle from ``qango:BOARD:kK:POSITION`` or ``qango:BOARD:kK#SEED``."""
    if not pid.startswith("qango:"):
        raise FormatError(f"not a QANGO puzzle ID: {pid!r}")
    body = pid[len("qango:"):]
    if "#" in body and ":" in body.split("#")[0]:
        head, seed = body.rsplit("#", 1)
        board, kk = head.split(":", 1)
        try:
            return generate_puzzle(board, int(kk.lstrip("k")), int(seed), opening)
        except ValueError:
            raise FormatError(f"bad puzzle ID {pid!r}") from None
    parts = body.split(":", 2)
    if len(parts) != 3 or not parts[1].startswith("k"):
        raise FormatError(f"bad puzzle ID {pid!r}: expected qango:BOARD:kK:POSITION or qango:BOARD:kK#SEED")
    b = load_board(parts[0])
    pos = parse_position(parts[2], b, b.opening_cells(opening))
    from ..solver.qango_solve import QangoSolver

    s = QangoSolver(b, pos.allowed_first, tt_bits=18)
    k = int(parts[1][1:])
    res = s.solve(pos, max_plies=2 * k - 1)
    if res.value != "win":
        raise FormatError(f"puzzle ID {pid!r}: the side to move does not win in {k}")
    me, opp = pos.sides()
    winners = [c for c in s.moves(me, opp) if s.move_wins(me, opp, c, res.plies)]
    return Puzzle(b, pos, (res.plies + 1) // 2, winners[0], 0, None, opening, res.nodes)


# --- board generator ------------------------------------------------------------------------------


def _triple_shapes(board_cells: set[int], w: int) -> dict[int, list[tuple[int, int, int]]]:
    """All 8-connected triples of board cells, indexed by their smallest cell."""
    from itertools import combinations

    from ..games.qango.board import triple_connected

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
    from ..solver.exact_cover import ExactCover, first_solution

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
    try:
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
        if s.Solve(m) in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return [int(s.Value(c)) for c in col]
    except ImportError:  # pragma: no cover - ortools is a dependency, the fallback keeps it optional
        pass
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
    return board_from_json(data, where="generated board")


def score_board(board: Board, time_limit: float = 10.0) -> dict:
    """Solve the empty position of a board: value for the first player, plies, nodes, seconds."""
    from ..solver.qango_solve import QangoSolver

    res = QangoSolver(board, None).solve(Position(board), time_limit=time_limit)
    return {"value": res.value, "plies": res.plies, "nodes": res.nodes, "seconds": round(res.seconds, 3),
            "first_move": None if res.best_move is None else list(board.rc(res.best_move))}


def random_position(board: Board, rng: random.Random, max_empty: int = 64, max_left: int | None = None,
                    min_counters: int = 0, quiet: bool = False, tries: int = 2000) -> Position:
    """A position from a random playout in which no side skipped a winning move, not yet over, with at
    most ``max_empty`` empty cells and ``max_left`` plies to the draw limit (benchmarks and tests);
    ``quiet``: no side can complete a pattern at once."""
    max_left = board.limit if max_left is None else max_left
    for _ in range(tries):
        p, hist = Position(board), []
        while not p.is_over():
            me = p.x if p.to_move == "X" else p.o
            ms = [m for m in p.legal_moves() if not has_win(board, me | 1 << m)]
            if not ms:
                break
            hist.append(p)
            p = p.play(rng.choice(ms))
        ok = [q for q in hist if not q.is_over() and popcount(q.empty_mask()) <= max_empty
              and board.limit - q.n_counters <= max_left and q.n_counters >= min_counters
              and not (quiet and _has_threat(q))]
        if ok:
            return rng.choice(ok)
    raise SolverError("no random position with these limits found")


def _has_threat(p: Position) -> bool:
    empty = p.empty_mask()
    return any(has_win(p.board, side | 1 << c) for side in (p.x, p.o) for c in p.board.cells if empty >> c & 1)
