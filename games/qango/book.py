"""The shipped QANGO certificates as a tablebase: the proven move of a position they cover.

A version-3 certificate maps canonical positions (the smallest image under the board symmetries) to
the strategy owner's move, so a position of a solved row has a certified move when its table holds
an entry for it: a winning move (win tables) or a move after which the other side still cannot force
a win (no-win tables). For the side that loses, the reply whose line in the win table is longest
resists longest within the certificate. Used by the ``perfect`` bot when the exact search cannot
finish in time.
"""

from __future__ import annotations

import time

from ...errors import TanglekitError
from .board import Board
from .position import Position, parse_position
from .proof import canonical, forced_move, holds, out_of_time, table_key
from .table import proof_path, rows_for

def _proof_names(board: Board, allowed) -> list[str]:
    """Certificates of the table row with this board and opening (checked again after loading)."""
    out = []
    for row in rows_for(board, allowed):
        names = [row.get("proof")] + [fm.get("proof") for fm in row.get("first_moves") or []]
        out += [n for n in names if n]
    return out


def _same_rules(doc, board: Board, allowed) -> bool:
    b = doc.get("board") or {}
    mine = board.to_json()
    if (b.get("triples") != mine.get("triples") or b.get("off_board", []) != list(mine.get("off_board", []))
            or b.get("width") != board.width or b.get("height") != board.height):
        return False
    if b.get("max_counters") != mine.get("max_counters"):
        return False
    da = doc.get("allowed_first")
    ours = None if allowed is None or len(allowed) == len(board.cells) else sorted(allowed)
    theirs = None if da is None or len(da) == len(board.cells) else sorted(da)
    return ours == theirs


def _tables(doc) -> list[tuple[str, str, dict]]:
    """(owner, kind, table) of a version-3 certificate: kind "win" or "hold"."""
    if doc.get("version") != 3:
        return []
    other = {"X": "O", "O": "X"}
    if doc.get("claim") == "draw":
        return [(other[side], "hold", t) for side, t in (doc.get("strategies") or {}).items()]
    side = doc.get("side")
    if doc.get("claim") == "win":
        return [(side, "win", doc.get("strategy") or {})]
    if doc.get("claim") == "no-win":
        return [(other.get(side), "hold", doc.get("strategy") or {})]
    return []


def _entry(table: dict, pos: Position, perms):
    """The table's entry for ``pos`` mapped back to its cells: a cell, a dict (a leaf) or None."""
    key, t = canonical(pos.x, pos.o, perms) if pos.n_counters else ((pos.x, pos.o), 0)
    entry = table.get(table_key(*key))
    if isinstance(entry, int) and not isinstance(entry, bool):
        perm = perms[t]
        return perm.index(entry)
    return entry


def _line(table: dict, pos: Position, owner: str, perms, budget: list, deadline: float = float("inf")) -> int | None:
    """Plies of the longest line below ``pos`` under the owner's win table (None when the table does
    not cover it, or ``budget`` positions or the ``deadline`` (perf_counter) run out)."""
    memo: dict = {}

    def visit(p: Position) -> int | None:
        key = canonical(p.x, p.o, perms)[0]
        if key in memo:
            return memo[key]
        budget[0] -= 1
        if budget[0] < 0 or (budget[0] & 63 == 0 and time.perf_counter() > deadline):
            budget[0] = -1
            return None
        if p.to_move == owner:
            e = _entry(table, p, perms)
            c = e if isinstance(e, int) else forced_move(p)
            if c is None:
                return None
            nxt = p.play(c)
            out = 1 if nxt.winner() == owner else (None if nxt.is_over() else _add(visit(nxt)))
        else:
            out = 0
            for m in p.legal_moves():
                nxt = p.play(m)
                if nxt.winner() is not None or nxt.is_over():
                    return None  # not a position of the win table
                sub = visit(nxt)
                if sub is None:
                    return None
                out = max(out, sub + 1)
        memo[key] = out
        return out

    return visit(pos)


def _add(v):
    return None if v is None else v + 1


def book_move(pos: Position, budget: int = 20_000, deadline: float = float("inf")):
    """(cell, kind) from a shipped certificate covering ``pos`` (in any board symmetry), else None.
    kind is "win" (a certified winning move), "hold" (from a no-win table: after it the other side
    still cannot force a win) or "loss" (the mover is lost: the reply with the longest line in the
    win table, measured within ``budget`` positions and before ``deadline``, a perf_counter time)."""
    board = pos.board
    perms = [list(p) for p in board.symmetries]
    tables = [t for doc in _shipped(board, pos.allowed_first) for t in _tables(doc)]
    # an entry exists only for a position (up to symmetry) the strategy reaches, so no check that
    # ``pos`` extends the certificate's root is needed (it may be a symmetric image)
    hold = None
    for owner, kind, table in tables:  # the mover's own entries first: cheap, and a win is best
        if pos.to_move == owner:
            e = _entry(table, pos, perms)
            if isinstance(e, int) and pos._legal(e):
                if kind == "win":
                    return e, kind
                hold = hold or (e, kind)
    if hold is not None:
        return hold
    left = [budget]
    for owner, kind, table in tables:  # the mover is lost in this table: resist longest
        if pos.to_move == owner or kind != "win":
            continue
        best = None
        for m in pos.legal_moves():
            nxt = pos.play(m)
            if nxt.winner() is not None or nxt.is_over():
                continue
            n = _line(table, nxt, owner, perms, left, deadline)
            if n is None:
                best = None
                break
            if best is None or n > best[1]:
                best = (m, n)
        if best is not None:
            return best[0], "loss"
    return None


# --------------------------------------------------------------------------------------------
# The book answer of `qango solve`: value, best move and (where proven) plies from a certificate
# --------------------------------------------------------------------------------------------
_TABLES: dict = {}
WALK_NODES = 5_000  # positions a book answer may walk below ``pos`` (forced moves, replies)


def _fast_doc(name: str) -> dict:
    """A shipped certificate without its refutation table: gzip and ``json.loads`` directly (package
    data, not user input; the refutation is what makes the files large), once per process."""
    if name not in _TABLES:
        import gzip  # start-up: only when a book answer is looked up
        import json  # start-up: only when a book answer is looked up

        doc = json.loads(gzip.decompress(proof_path(name).read_bytes()))
        doc.pop("refutation", None)  # every shipped one has it (table.py): plies are exact
        _TABLES[name] = doc
    return _TABLES[name]


def _shipped(board: Board, allowed) -> list[dict]:
    """The shipped certificates (without refutations) of this board and opening that load and
    were made under the same rules; a missing or unreadable file is no book entry."""
    found = []
    for name in _proof_names(board, allowed):
        try:
            doc = _fast_doc(name)
        except (OSError, ValueError):
            continue
        if _same_rules(doc, board, allowed):
            found.append(doc)
    return found


def _covered(table: dict, pos: Position, owner: str, kind: str, perms, budget: list) -> bool:
    """Whether the strategy ``table`` of ``owner`` (kind "win": the owner wins; "hold": the other
    side cannot win) is proven from ``pos``: every line below it reaches a position the table holds an
    entry for, or a finished game the kind allows, within ``budget`` positions. A table entry counts as
    proven because a shipped certificate uses every entry and the checker walked every line below it."""
    other = "O" if owner == "X" else "X"
    w = pos.winner()
    if w is not None:
        return w == owner if kind == "win" else w != other
    if pos.is_over():
        return kind == "hold"
    budget[0] -= 1
    if budget[0] < 0:
        return False
    key, _ = canonical(pos.x, pos.o, perms) if pos.n_counters else ((pos.x, pos.o), 0)
    entry = table.get(table_key(*key))
    if pos.to_move == owner:
        if entry is not None:
            return True
        if kind == "hold" and (out_of_time(pos, other) or holds(pos, other, [])):
            return True
        move = forced_move(pos)
        return move is not None and _covered(table, pos.play(move), owner, kind, perms, budget)
    if kind == "hold" and (out_of_time(pos, other) or holds(pos, other, [])):
        return True
    return all(_covered(table, pos.play(m), owner, kind, perms, budget) for m in pos.legal_moves())


def _own_move(table: dict, pos: Position, perms) -> int | None:
    """The owner's move at ``pos`` (its turn): the table's entry in ``pos``'s frame, else the forced
    move a table leaves out; None for a leaf entry (a pairing shows the hold, no move given)."""
    e = _entry(table, pos, perms)
    if e is None:
        return forced_move(pos)
    return e if isinstance(e, int) and pos._legal(e) else None


def book_certificate(pos: Position) -> dict | None:
    """The whole shipped certificate (with its refutation) whose root is ``pos`` itself (same
    cells, opening and rules), else None: what ``qango solve --proof`` writes for such a position
    without searching (the certificates were written by that command)."""
    board = pos.board
    for name in _proof_names(board, pos.allowed_first):
        try:
            doc = _fast_doc(name)
            root = parse_position(doc.get("position", ""), board, pos.allowed_first)
        except (OSError, ValueError, TanglekitError):
            continue
        if _same_rules(doc, board, pos.allowed_first) and (root.x, root.o) == (pos.x, pos.o):
            import gzip  # start-up: only when a certificate is written
            import json  # start-up: only when a certificate is written

            return json.loads(gzip.decompress(proof_path(name).read_bytes()))
    return None


def book_solve(pos: Position):
    """The answer of the shipped certificate of ``pos``'s variant (board, opening, counter limit),
    or None when no certificate proves a value for it: a ``SolveResult`` (nodes 0) whose value is
    for the side to move. A win comes from the winner's table (the mover's entry or forced move);
    a loss from the other side's win table covering every reply (best move: the reply with the
    longest line in the table, measured within a budget, else the first legal move); a draw from
    both hold tables (the mover's entry, and the other side's table covering every reply). plies:
    the certificate's shortest win at its own root position (exact: the refutation proves no
    shorter win), None elsewhere (the table gives no distance; ``solve --no-book`` searches it)."""
    from .small import SolveResult  # start-up: loaded when a book answer is looked up

    board = pos.board
    perms = [list(p) for p in board.symmetries]
    found = _shipped(board, pos.allowed_first)
    me = pos.to_move
    for doc in found:
        try:
            root = parse_position(doc.get("position", ""), board, pos.allowed_first)
        except (TanglekitError, ValueError):  # an unparsable root is no root match
            root = None
        at_root = root is not None and (canonical(root.x, root.o, perms)[0] == canonical(pos.x, pos.o, perms)[0])
        for owner, kind, table in _tables(doc):
            if kind != "win":
                continue
            plies = doc.get("plies") if at_root and isinstance(doc.get("plies"), int) else None
            if owner == me:
                move = _own_move(table, pos, perms)
                if move is not None and _covered(table, pos.play(move), owner, kind, perms, [WALK_NODES]):
                    return SolveResult("win", move, plies, 0, 0.0, board)
            elif _covered(table, pos, owner, kind, perms, [WALK_NODES]):
                hit = book_move(pos, budget=WALK_NODES)
                move = hit[0] if hit is not None and hit[1] == "loss" else min(pos.legal_moves())
                return SolveResult("loss", move, plies, 0, 0.0, board)
        holds_ = {owner: table for owner, kind, table in _tables(doc) if kind == "hold"}
        if me in holds_ and (("O" if me == "X" else "X") in holds_):
            other = "O" if me == "X" else "X"
            move = _own_move(holds_[me], pos, perms)
            if (move is not None and _covered(holds_[me], pos.play(move), me, "hold", perms, [WALK_NODES])
                    and _covered(holds_[other], pos, other, "hold", perms, [WALK_NODES])):
                return SolveResult("draw", move, None, 0, 0.0, board)
    return None
