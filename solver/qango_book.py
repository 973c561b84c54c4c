"""The shipped QANGO proof trees used as an opening book: the proven move of a position they cover.

A proof tree fixes one move at every winner node and lists every reply at loser nodes, so a position
reached along the tree (in any board symmetry) has a certified winning move (winner to move) or a
set of losing replies with the length of the tree below each (loser to move: the deepest one resists
longest within the tree); a no-win certificate gives the holder a move that keeps the other side from
forcing a win. Used by the ``perfect`` bot when the exact search cannot finish in time.
"""

from __future__ import annotations

from ..games.qango.board import Board
from ..games.qango.position import Position, parse_position
from ..games.qango.proof import load_proof
from .qango_table import ROWS, proof_path

_CACHE: dict = {}


def _proof_names(board: Board, allowed) -> list[str]:
    """Certificates of the table row with this board and opening (checked again after loading)."""
    from ..games.qango.board import load_board

    out = []
    for row in ROWS:
        ref = load_board(row["board"])
        if ref.name != board.name or ref.mask != board.mask or ref.limit != board.limit:
            continue
        cells = ref.opening_cells(row["opening"])
        if (frozenset(allowed) if allowed is not None else frozenset(board.cells)) != frozenset(cells):
            continue
        names = [row.get("proof")] + [fm.get("proof") for fm in row.get("first_moves") or []]
        names += [v["proof"] for v in (row.get("no_win") or {}).values()]
        out += [n for n in names if n]
    return out


def _load(name: str):
    if name not in _CACHE:
        from importlib import resources

        with resources.as_file(proof_path(name)) as p:
            doc = load_proof(p)
        _CACHE[name] = doc
    return _CACHE[name]


def _depth(node) -> int:
    """Plies of the longest line below an attacker node."""
    if len(node) == 1:
        return 1
    return 2 + max((_depth(sub) for _, sub in node[1]), default=0)


def _same_rules(doc, board: Board, allowed) -> bool:
    b = doc.get("board") or {}
    if b.get("triples") != board.to_json().get("triples") or b.get("off_board", []) != list(board.to_json().get(
            "off_board", [])) or b.get("width") != board.width or b.get("height") != board.height:
        return False
    if b.get("max_counters") != board.to_json().get("max_counters"):
        return False
    da = doc.get("allowed_first")
    mine = None if allowed is None or len(allowed) == len(board.cells) else sorted(allowed)
    theirs = None if da is None or len(da) == len(board.cells) else sorted(da)
    return mine == theirs


def book_move(pos: Position, budget: int = 200_000):
    """(cell, kind) from a shipped proof covering ``pos`` or its symmetric image, else None. kind is
    "win" (a certified winning move), "loss" (the reply with the longest line in the tree) or "hold"
    (from a no-win certificate: after it the other side still cannot force a win)."""
    board = pos.board
    x, o = pos.x, pos.o
    for name in _proof_names(board, pos.allowed_first):
        try:
            doc = _load(name)
        except Exception:  # a missing or unreadable file is no book entry
            continue
        if not _same_rules(doc, board, pos.allowed_first):
            continue
        root = parse_position(doc["position"], board, pos.allowed_first)
        for perm in board.symmetries:
            inv = [0] * len(perm)
            for c, d in enumerate(perm):
                inv[d] = c
            tx = sum(1 << perm[c] for c in range(board.n_cells) if x >> c & 1)
            to = sum(1 << perm[c] for c in range(board.n_cells) if o >> c & 1)
            found = _walk(doc, root, tx, to, budget)
            if found is not None:
                cell, kind = found
                return inv[cell], kind
    return None


def _walk(doc, root: Position, tx: int, to: int, budget: int):
    """Find position (tx, to) below the proof's root; (cell, kind) or None."""
    tree = doc.get("tree")
    claim = doc.get("claim")
    if claim == "no-win":
        return _walk_hold(doc, root, tx, to, budget)
    if claim != "win" or not isinstance(tree, list):
        return None
    rx, ro = root.x, root.o
    if rx & ~tx or ro & ~to:
        return None
    att_is_x = root.to_move == "X"
    count = [0]

    def attack(node, ax, dx):
        # attacker to move at (ax, dx) (attacker's and defender's counters)
        count[0] += 1
        if count[0] > budget:
            return None
        A, D = (tx, to) if att_is_x else (to, tx)
        if ax == A and dx == D:
            return node[0], "win"
        m = node[0]
        if not A >> m & 1 or len(node) < 2:
            return None
        ax2 = ax | 1 << m
        if ax2 == A and dx == D:  # defender to move: the reply with the longest line
            best = max(node[1], key=lambda it: _depth(it[1]))
            return best[0], "loss"
        for y, sub in node[1]:
            if D >> y & 1:
                r = attack(sub, ax2, dx | 1 << y)
                if r is not None:
                    return r
        return None

    return attack(tree, rx, ro) if att_is_x else attack(tree, ro, rx)


def _walk_hold(doc, root: Position, tx: int, to: int, budget: int):
    """In a no-win certificate: the holder's move at (tx, to), kind "hold" (the other side cannot
    force a win after it), or None."""
    side = doc.get("side")
    if root.x & ~tx or root.o & ~to:
        return None
    count = [0]

    def rec(node, x, o, to_move):
        count[0] += 1
        if count[0] > budget or node is None or node == []:
            return None
        if to_move == side:
            for m, sub in node:
                mine = tx if side == "X" else to
                if mine >> m & 1:
                    nx, no = (x | 1 << m, o) if side == "X" else (x, o | 1 << m)
                    r = rec(sub, nx, no, "O" if to_move == "X" else "X")
                    if r is not None:
                        return r
            return None
        if x == tx and o == to:
            return node[0], "hold"
        m = node[0]
        theirs = tx if to_move == "X" else to
        if not theirs >> m & 1 or len(node) < 2:
            return None
        nx, no = (x | 1 << m, o) if to_move == "X" else (x, o | 1 << m)
        return rec(node[1], nx, no, side)

    return rec(doc.get("tree"), root.x, root.o, root.to_move)
