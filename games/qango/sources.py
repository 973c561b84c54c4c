"""Where QANGO puzzles, positions and boards come from: any ``qango:`` ID (seed IDs run the
generators), puzzle, position and board files, and the built-in boards."""

from __future__ import annotations

from dataclasses import replace

from ...errors import FormatError
from ...generators.ids import Instance, ParsedId, looks_like_id, resolve, split_id
from ...jsonio import (
    check_text_arg,
    expect_format,
    identify,
    is_ascii_digits,
    looks_like_json,
    parse_json_text,
    read_text_file,
    short,
    validate,
)
from .board import BOARD_ALIASES, Board, board_from_layout, load_board
from .boards import _generated_board, _refuse_other_game, check_board_size
from .generate import generate_puzzle
from .ids import board_ids, position_id
from .position import POSITION_FORMAT, Position, parse_position, position_from_json
from .puzzle import PUZZLE_FORMAT, Puzzle


def _int_param(parsed: ParsedId, values: dict, key: str, lo: int, hi: int) -> int | None:
    if key not in values:
        return None
    v = values.pop(key)
    if not is_ascii_digits(v) or len(v) > 19 or not lo <= int(v) <= hi:
        raise parsed.error(f"{key}={short(v)} is not a whole number in {lo}..{hi}")
    return int(v)


def resolve_id(parsed: ParsedId) -> Instance:
    """The puzzle, position or board a ``qango:`` ID stands for (seed IDs run the generator)."""
    import re

    flags, values = parsed.flags(), parsed.values()
    desc = parsed.description
    # IDs printed before the grammar: qango:6:k3:ROWS and qango:6:k3#SEED
    if desc is not None and len(flags) == 1 and not values and flags[0].lower() in BOARD_ALIASES:
        old = re.fullmatch(r"k([0-9]{1,2})([:#])(.*)", desc, re.S)
        if old:
            flags = [flags[0], f"k{old.group(1)}"]
            if old.group(2) == "#":
                if not is_ascii_digits(old.group(3)) or len(old.group(3)) > 19 or int(old.group(3)) >= 2**63:
                    raise parsed.error("seed is not a whole number")
                parsed = ParsedId(parsed.text, "qango", tuple(flags), None, int(old.group(3)))
                desc = None
            else:
                desc = old.group(3)
    if "board" in flags:
        return _resolve_board(parsed, flags, values, desc)
    ks = [f for f in flags if re.fullmatch(r"k[0-9]{1,2}", f)]
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
    import re

    if parsed.is_seed:
        if k is None:
            raise parsed.error("a position has no seed form (seed IDs are for puzzles: add kK)")
        puz = generate_puzzle(board, k, parsed.seed, opening, allowed=allowed)
        return Instance("qango-puzzle", puz, puz.id, puz.seed_id or parsed.text)
    if not re.fullmatch(r"[.XOxo#]+(?:/[.XOxo#]+)*", desc or ""):  # the ID's rows: no empty or trailing row
        raise parsed.error("the position must be rows of . X O # joined by '/'")
    pos = parse_position(desc, board, allowed)
    if k is None:
        return Instance("qango-position", pos, position_id(pos, opening), extra={"opening": opening})
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


def _opening_of(pos: Position) -> str:
    if pos.allowed_first is None or pos.allowed_first == frozenset(pos.board.cells):
        return "standard"
    for name, cells in pos.board.openings.items():
        if cells == pos.allowed_first:
            return name
    return "custom"
