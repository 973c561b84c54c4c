"""QANGO generators: "X to move wins in k" puzzles (verified by the solver) and new QANGO-like boards.

Puzzles come from seeded playouts (random moves, forced blocks respected) and are kept only when the
solver proves a win in exactly k moves (2k-1 plies) with a single winning first move. Boards are
random partitions of the cells into 8-connected triples (the shared exact-cover engine over shuffled options) coloured with 5
colours so that orthogonally touching triples differ (CP-SAT, greedy fallback), scored by solving the
empty position under a time limit.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from ...errors import FormatError, SolverError
from ...generators.ids import (
    Instance,
    ParsedId,
    format_params,
    looks_like_id,
    make_descriptive,
    make_seed,
    resolve,
    split_id,
)
from ...jsonio import (
    check_text_arg,
    expect_format,
    identify,
    looks_like_json,
    parse_json_text,
    read_text_file,
    short,
    tagged,
    validate,
)
from ...solver.exact_cover import ExactCover, first_solution
from .board import (
    BOARD_ALIASES,
    BUILTIN_BOARDS,
    Board,
    _builtin,
    board_from_json,
    board_from_layout,
    board_layout,
    load_board,
    triple_connected,
)
from .position import (
    POSITION_FORMAT,
    Position,
    _same_board,
    completing_cells,
    parse_position,
    plies_text,
    popcount,
    position_from_json,
)
from .puzzle import PUZZLE_FORMAT
from .svg import board_svg

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
        return puzzle_id(self.board, self.k, self.position, self.opening)

    @property
    def seed_id(self) -> str | None:
        """Seed ID (every generation parameter in PARAMS); None off a built-in or generated board."""
        if self.seed is None:
            return None
        params = _board_params(self.board, self.opening, self.position.allowed_first, seed_form=True)
        return None if params is None else make_seed("qango", _with_k(params, self.k), self.seed)

    def win_text(self) -> str:
        """The puzzle's length with both units: ``3 counters (5 plies)``."""
        return plies_text(2 * self.k - 1)

    def to_json(self) -> dict:
        me = self.position.to_move
        key = list(self.board.rc(self.key_move))
        return tagged(PUZZLE_FORMAT, {
            "id": self.id,
            "seed_id": self.seed_id,
            "board": self.board.name,
            "opening": self.opening,
            "position": self.position.to_text(),
            "to_move": 0 if me == "X" else 1,
            "side": me,
            "k": self.k,
            "moves": self.k,
            "counters": self.k,
            "plies": 2 * self.k - 1,
            "best_move": key,
            "line": ["{},{}".format(*key)],
            "key_move": key,
            "defences": self.defences,
            "difficulty": grade(self.k, self.defences),
            "grade": grade(self.k, self.defences),
        })

    def svg(self) -> str:
        """The printable puzzle: board with row/column labels, legend, goal and ID."""
        me, other = self.position.to_move, "O" if self.position.to_move == "X" else "X"
        title = f"{me} to move wins in {self.win_text()}"
        notes = [f"Goal: {me} completes a triple, a 2x2 square or five in a row with at most",
                 f"{self.k} counters, whatever {other} plays. Moves are written row,col.",
                 f"ID {self.seed_id or self.id}"]
        return board_svg(self.board, self.position.x, self.position.o, title=title, notes=notes)

    def answer_svg(self) -> str:
        """The answer page: the key move marked 1 on the board, and in words."""
        r, c = self.board.rc(self.key_move)
        me = self.position.to_move
        notes = [f"Answer: {me} plays row {r}, col {c} ({r},{c}) and wins in {self.win_text()},",
                 f"against every one of the defences ({self.defences} hold out longest)."]
        return board_svg(self.board, self.position.x, self.position.o, marks={self.key_move: "1"},
                         title=f"Answer: {me} to move wins in {self.win_text()}", notes=notes)


def grade(k: int, defences: int) -> str:
    """Difficulty label from the number of moves and the defences the solver must refute."""
    score = 2 * (k - 1) + min(defences, 6) / 3
    return "easy" if score < 3 else "medium" if score < 5 else "hard" if score < 7 else "expert"


# --- shareable IDs ---------------------------------------------------------------------------------
#   qango:BOARD[,opening=NAME][,max=N],kK:ROWS        puzzle, descriptive (BOARD: 6, 7 or 7plus)
#   qango:BOARD[,opening=NAME],kK#SEED                puzzle, seed form (every generation parameter)
#   qango:w=W,h=H,bseed=S,kK#SEED                     a puzzle on a generated board
#   qango:custom[,first=HEX][,max=N],kK:LAYOUT:ROWS   a puzzle on any other board (no seed form)
#   the same without kK: a position;  qango:board,w=W,h=H#S / qango:board:LAYOUT: a board
# Read too (printed before): qango:6:k3:ROWS and qango:6:k3#SEED (standard opening).

_TAGS = {"qango6": "6", "qango7": "7", "qango7plus": "7plus"}


def _board_params(board: Board, opening: str | None, allowed, seed_form: bool = False) -> list[str] | None:
    """PARAMS naming the board and the first-counter rule; None when only a descriptive form exists."""
    base = _builtin(board.name) if board.name in BUILTIN_BOARDS else None
    if base is not None and _same_board(replace(board, max_counters=base.max_counters), base):
        out, base_max = [_TAGS[board.name]], base.max_counters
    elif board.origin is not None:
        out, base_max = [board.origin], None
    elif seed_form:
        return None
    else:
        out = ["custom"]
        if allowed is not None and frozenset(allowed) != frozenset(board.cells):
            out.append(f"first={sum(1 << c for c in allowed):x}")
        if board.max_counters is not None:
            out.append(f"max={board.max_counters}")
        return out
    if opening not in (None, "", "standard", "none"):
        out.append(f"opening={opening}")
    if board.max_counters != base_max:
        out.append(f"max={board.limit}")
    return out


def _description(board: Board, params: list[str], rows: str) -> str:
    return f"{board_layout(board)}:{rows}" if params[0] == "custom" else rows


def puzzle_id(board: Board, k: int, position: Position, opening: str = "standard") -> str:
    """The descriptive ID of a puzzle (every rule that changes it in PARAMS)."""
    params = _board_params(board, opening, position.allowed_first)
    return make_descriptive("qango", _with_k(params, k), _description(board, params, position.to_text()))


def _with_k(params: list[str], k: int) -> str:
    """PARAMS text with kK after the board: ``6,k3,opening=castle``."""
    return format_params(params[0], f"k{k}", *params[1:])


def position_id(position: Position, opening: str = "standard") -> str:
    """The descriptive ID of a position: ``qango:6[,opening=castle]:ROWS``."""
    params = _board_params(position.board, opening, position.allowed_first)
    return make_descriptive("qango", format_params(*params), _description(position.board, params, position.to_text()))


def board_ids(board: Board) -> tuple[str, str | None]:
    """(descriptive, seed) IDs of a board; the seed form only for generated boards."""
    desc = make_descriptive("qango", "board", board_layout(board))
    if board.origin is None:
        return desc, None
    v = dict(p.split("=") for p in board.origin.split(","))
    return desc, make_seed("qango", format_params("board", w=v["w"], h=v["h"]), int(v["bseed"]))


def generate_board_from_params(origin: str) -> Board:
    """The generated board named by PARAMS ``w=W,h=H,bseed=S`` (cached: a CP-SAT run each)."""
    return _generated(origin)


def _generated(origin: str) -> Board:
    v = dict(p.split("=", 1) for p in origin.split(","))
    return _generated_board(int(v["w"]), int(v["h"]), int(v["bseed"]))


from functools import lru_cache  # noqa: E402


@lru_cache(maxsize=16)
def _generated_board(w: int, h: int, seed: int) -> Board:
    return generate_board(w, h, seed)


def _int_param(parsed: ParsedId, values: dict, key: str, lo: int, hi: int) -> int | None:
    if key not in values:
        return None
    v = values.pop(key)
    if not v.isdigit() or not lo <= int(v) <= hi:
        raise parsed.error(f"{key}={short(v)} is not a whole number in {lo}..{hi}")
    return int(v)


def resolve_id(parsed: ParsedId) -> Instance:
    """The puzzle, position or board a ``qango:`` ID stands for (seed IDs run the generator)."""
    import re

    flags, values = parsed.flags(), parsed.values()
    desc = parsed.description
    # IDs printed before the grammar: qango:6:k3:ROWS and qango:6:k3#SEED
    if desc is not None and len(flags) == 1 and not values and flags[0].lower() in BOARD_ALIASES:
        old = re.fullmatch(r"k(\d{1,2})([:#])(.*)", desc, re.S)
        if old:
            flags = [flags[0], f"k{old.group(1)}"]
            if old.group(2) == "#":
                if not old.group(3).isdigit() or len(old.group(3)) > 19:
                    raise parsed.error("seed is not a whole number")
                parsed = ParsedId(parsed.text, "qango", tuple(flags), None, int(old.group(3)))
                desc = None
            else:
                desc = old.group(3)
    if "board" in flags:
        return _resolve_board(parsed, flags, values, desc)
    ks = [f for f in flags if re.fullmatch(r"k\d{1,2}", f)]
    rest = [f for f in flags if f not in ks]
    if len(ks) > 1:
        raise parsed.error("at most one kK")
    k = int(ks[0][1:]) if ks else None
    if k is not None and not 2 <= k <= 8:
        raise parsed.error(f"k must be between 2 and 8, not {k}")
    opening = values.pop("opening", "standard")
    max_c = _int_param(parsed, values, "max", 1, 63)
    first = values.pop("first", None)
    gen = {key: _int_param(parsed, values, key, lo, hi) for key, lo, hi in
           (("w", 2, 9), ("h", 2, 9), ("bseed", 0, 2**63 - 1))}
    if values:
        raise parsed.error(f"unknown parameter {short(sorted(values)[0])}")
    generated = [v for v in gen.values() if v is not None]
    if generated and (len(generated) != 3 or rest):
        raise parsed.error("a generated board needs w=, h= and bseed= together (and no board name)")
    if not generated and len(rest) != 1:
        raise parsed.error("expected one board (6, 7, 7plus, custom or w=,h=,bseed=) and at most one kK")
    tag = "generated" if generated else rest[0].lower()
    if first is not None and tag != "custom":
        raise parsed.error("first= is only for custom boards (use opening=NAME)")
    if tag == "custom":
        if parsed.is_seed:
            raise parsed.error("a puzzle on a custom board has no seed form: use its descriptive ID")
        layout, sep, desc = (desc or "").partition(":")
        if not sep:
            raise parsed.error("expected custom,...:LAYOUT:ROWS")
        board = board_from_layout(layout, f"ID {short(parsed.text)}", max_c)
        allowed = frozenset(board.cells)
        if first is not None:
            if not re.fullmatch(r"[0-9a-f]{1,16}", first):
                raise parsed.error("first= must be a hex mask of cells")
            allowed = frozenset(c for c in board.cells if int(first, 16) >> c & 1)
            if not allowed or int(first, 16) & ~board.mask:
                raise parsed.error("first= names cells off the board (or none)")
        opening = "standard" if allowed == frozenset(board.cells) else "custom"
    else:
        if tag == "generated":
            check_board_size(gen["w"], gen["h"])
            board = _generated_board(gen["w"], gen["h"], gen["bseed"])
        elif tag in BOARD_ALIASES:
            board = load_board(tag)
        else:
            raise parsed.error(f"unknown board {short(tag)} (6, 7, 7plus, custom or w=,h=,bseed=)")
        if max_c is not None:
            board = replace(board, max_counters=max_c)
        allowed = board.opening_cells(opening)
    return _resolve_on(parsed, board, allowed, opening, k, desc)


def _resolve_on(parsed, board, allowed, opening, k, desc) -> Instance:
    if parsed.is_seed:
        if k is None:
            raise parsed.error("a position has no seed form (seed IDs are for puzzles: add kK)")
        puz = generate_puzzle(board, k, parsed.seed, opening, allowed=allowed)
        return Instance("qango-puzzle", puz, puz.id, puz.seed_id or parsed.text)
    pos = parse_position(desc, board, allowed)
    if k is None:
        return Instance("qango-position", pos, position_id(pos, opening))
    puz = _puzzle_from_position(pos, k, opening, parsed)
    return Instance("qango-puzzle", puz, puz.id)


def _resolve_board(parsed, flags, values, desc) -> Instance:
    if flags != ["board"]:
        raise parsed.error("a board ID is qango:board,w=W,h=H#SEED or qango:board:LAYOUT")
    if parsed.is_seed:
        w = _int_param(parsed, values, "w", 2, 9)
        h = _int_param(parsed, values, "h", 2, 9)
        if values or w is None or h is None:
            raise parsed.error("a board seed ID is qango:board,w=W,h=H#SEED")
        check_board_size(w, h)
        b = _generated_board(w, h, parsed.seed)
    else:
        max_c = _int_param(parsed, values, "max", 1, 63)
        if values:
            raise parsed.error(f"unknown parameter {short(sorted(values)[0])}")
        b = board_from_layout(desc, f"ID {short(parsed.text)}", max_c)
    d, sid = board_ids(b)
    return Instance("qango-board", b, d, sid)


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
    old = re.fullmatch(r"qango-board:(\d{1,2})x(\d{1,2})#(\d{1,19})", text.lower())
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


CHECK_NODES = 50_000_000  # node budget for checking a descriptive puzzle ID (a real one needs far fewer)


def _puzzle_from_position(pos: Position, k: int, opening: str, parsed: ParsedId | None = None) -> Puzzle:
    """Check "the side to move wins in exactly k, with one winning first move" and build the puzzle."""
    from .solve import QangoSolver  # loads numpy (only when this runs)

    where = parsed.text if parsed is not None else "puzzle"
    if pos.is_over():
        raise FormatError(f"puzzle {short(where)}: the game is already over")
    s = QangoSolver(pos.board, pos.allowed_first, tt_bits=18)
    res = s.solve(pos, max_plies=2 * k - 1, node_limit=CHECK_NODES)
    if res.value == "unknown" and res.nodes >= CHECK_NODES:
        raise FormatError(f"puzzle {short(where)}: not decided within {CHECK_NODES:,} nodes, so not a puzzle")
    if res.value != "win" or res.plies != 2 * k - 1:
        raise FormatError(f"puzzle {short(where)}: the side to move does not win in exactly {k}")
    me, opp = pos.sides()
    winners = [c for c in s.moves(me, opp) if s.move_wins(me, opp, c, res.plies)]
    if len(winners) != 1:
        raise FormatError(f"puzzle {short(where)}: {len(winners)} winning first moves, a puzzle has one")
    key = winners[0]
    me2 = me | 1 << key
    replies = [y for y in range(pos.board.n_cells) if (pos.board.mask & ~(me2 | opp)) >> y & 1]
    defences = len(replies) if k == 2 else sum(1 for y in replies if not s.wins(me2, opp | 1 << y, 2 * k - 5))
    return Puzzle(pos.board, pos, k, key, defences, None, opening, res.nodes)


def puzzle_from_id(pid: str, opening: str = "standard") -> Puzzle:
    """Rebuild a puzzle from any of its IDs (``opening`` is kept for old callers; IDs carry it)."""
    return resolve(pid, expect="qango-puzzle").value


def puzzle_from_json(data, where: str = "puzzle file") -> Puzzle:
    """A puzzle file (``tanglekit/qango-puzzle``): resolved by its ``id``, the other fields checked."""
    expect_format(data, PUZZLE_FORMAT, where)
    m = validate(data, PUZZLE_FORMAT.schema(), where, "QANGO puzzle")
    puz = resolve(m.id, expect="qango-puzzle").value
    if m.position is not None and m.position != puz.position.to_text():
        raise FormatError(f"{where}: 'position' does not match the puzzle's id")
    if m.k is not None and m.k != puz.k:
        raise FormatError(f"{where}: 'k' does not match the puzzle's id")
    key = list(puz.board.rc(puz.key_move))
    for name in ("key_move", "best_move"):
        if getattr(m, name) is not None and getattr(m, name) != key:
            raise FormatError(f"{where}: '{name}' is not the puzzle's winning move")
    if m.seed_id is not None:
        puz.seed = _seed_of(m.seed_id, puz)
    return puz


def _seed_of(seed_id: str, puz: Puzzle) -> int | None:
    """The seed of a puzzle file's seed_id when it regenerates this very puzzle's ID (not rerun here)."""
    try:
        p = split_id(seed_id)
    except FormatError:
        return None
    return p.seed if p.is_seed else None


def read_position_source(spec: str, board: Board | None = None) -> tuple[Position, "Puzzle | None", str]:
    """A position from text rows, ``empty``, a position or puzzle ID, inline JSON or a file holding
    any of those: (position, the puzzle when it was one, opening name). Other formats are refused."""
    from pathlib import Path

    text = check_text_arg(spec, "position")
    s = text.strip()
    where = "position"
    if not s:
        raise FormatError("empty position: give rows of . X O # (by '/' or newlines), 'empty', an ID or a file")
    if not looks_like_id(s) and not looks_like_json(s) and s.lower() != "empty":
        p = Path(s)
        is_file = False
        try:
            is_file = p.exists() or p.suffix.lower() in (".json", ".txt", ".gz")
        except (OSError, ValueError):
            pass
        if is_file:
            where = str(p)
            s = read_text_file(p, "QANGO position or puzzle").strip()
            if not s:
                raise FormatError(f"{where}: is empty, expected a QANGO position or puzzle")
            if looks_like_id(s.splitlines()[0].strip()):
                s = s.splitlines()[0].strip()
    if looks_like_id(s):
        _refuse_other_game(s, "a QANGO position or puzzle")
        inst = resolve(s, expect=("qango-puzzle", "qango-position"))
        if inst.kind == "qango-puzzle":
            return inst.value.position, inst.value, inst.value.opening
        return inst.value, None, _opening_of(inst.value)
    if looks_like_json(s):
        data = parse_json_text(s, where if where != "position" else "inline position", "QANGO position")
        fmt = identify(data)
        if fmt is PUZZLE_FORMAT:
            puz = puzzle_from_json(data, where)
            return puz.position, puz, puz.opening
        expect_format(data, (POSITION_FORMAT, PUZZLE_FORMAT), where)
        if isinstance(data, dict) and data.get("format") == PUZZLE_FORMAT.tag:
            puz = puzzle_from_json(data, where)
            return puz.position, puz, puz.opening
        pos = position_from_json(data, board, None, where=where)
        return pos, None, data.get("opening") or "standard"
    if where != "position" and s.lower() == "empty":
        pass
    return parse_position(s, board, None), None, "standard"


def _refuse_other_game(text: str, expected: str) -> None:
    """Refuse another game's ID by its prefix, before any generator runs."""
    game = split_id(text).game
    if game != "qango":
        raise FormatError(f"this is a {game.capitalize()} ID, expected {expected}")


def _opening_of(pos: Position) -> str:
    if pos.allowed_first is None or pos.allowed_first == frozenset(pos.board.cells):
        return "standard"
    for name, cells in pos.board.openings.items():
        if cells == pos.allowed_first:
            return name
    return "custom"


def _playout(board: Board, rng: random.Random, n_counters: int, allowed=None) -> Position | None:
    """Random game prefix with forced blocks respected and no immediate win left on the board."""
    p = Position(board, 0, 0, allowed)
    for _ in range(n_counters):
        me, opp = p.sides()
        moves = p.legal_moves()
        if not moves:
            return None
        mine, theirs = completing_cells(board, me, opp), completing_cells(board, opp, me)
        threats = [m for m in moves if theirs >> m & 1]
        safe = [m for m in moves if not mine >> m & 1]
        if threats:
            m = rng.choice(threats)
            if not mine >> m & 1:
                p = p.play(m)
                continue
            return None
        if not safe:
            return None
        p = p.play(rng.choice(safe))
    return p


def generate_puzzle(board="6", k: int = 3, seed: int = 0, opening: str = "standard", max_tries: int = 4000,
                    node_limit: int = 400_000, solver=None, allowed=None, deadline=None) -> Puzzle:
    """A verified "side to move wins in k moves" puzzle (k >= 2), deterministic for a seed.
    ``deadline`` (limits.Deadline) raises LimitReached between tries once spent."""
    from .solve import QangoSolver  # loads numpy (only when this runs)

    if isinstance(k, bool) or not isinstance(k, int) or k < 2 or k > 8:
        raise SolverError("k must be between 2 and 8 moves")
    b = load_board_spec(board)
    allowed = b.opening_cells(opening) if allowed is None else frozenset(allowed)
    solver = solver or QangoSolver(b, allowed, tt_bits=18)
    rng = random.Random(seed)
    plies = 2 * k - 1
    for _ in range(max_tries):
        if deadline is not None:
            deadline.check("puzzle generation")
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
        return Puzzle(b, pos, k, key, defences, seed, opening, int(solver.stats[solver.K.ST_NODES]))
    raise SolverError(f"no puzzle with k={k} found in {max_tries} tries (seed {seed})")


def verify_puzzle(puz: Puzzle) -> bool:
    """Re-check a puzzle with a fresh solver: exact win in k and a unique winning first move."""
    from .solve import QangoSolver  # loads numpy (only when this runs)

    s = QangoSolver(puz.board, puz.position.allowed_first, tt_bits=18)
    res = s.solve(puz.position)
    if res.value != "win" or res.plies != 2 * puz.k - 1:
        return False
    me, opp = puz.position.sides()
    return [c for c in s.moves(me, opp) if s.move_wins(me, opp, c, res.plies)] == [puz.key_move]


# --- board generator ------------------------------------------------------------------------------


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
    if s.Solve(m) in (cp_model.OPTIMAL, cp_model.FEASIBLE):
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


def random_position(board: Board, rng: random.Random, max_empty: int = 64, max_left: int | None = None,
                    min_counters: int = 0, quiet: bool = False, tries: int = 2000) -> Position:
    """A position from a random playout in which no side skipped a winning move, not yet over, with at
    most ``max_empty`` empty cells and ``max_left`` plies to the draw limit (benchmarks and tests);
    ``quiet``: no side can complete a pattern at once."""
    max_left = board.limit if max_left is None else max_left
    for _ in range(tries):
        p, hist = Position(board), []
        while not p.is_over():
            me, opp = p.sides()
            wins = completing_cells(board, me, opp)
            ms = [m for m in p.legal_moves() if not wins >> m & 1]
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
    """Some side could complete a pattern with one counter on an empty cell."""
    if not p.empty_mask():
        return False
    if p.winner() is not None:
        return True
    return bool(completing_cells(p.board, p.x, p.o) | completing_cells(p.board, p.o, p.x))
