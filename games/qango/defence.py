"""Longest defence for QANGO: the losing side's reply that puts the winner's completion off longest.

Distance to loss. For a position whose mover is lost, ``d`` is the number of plies until the winner
completes a pattern when the winner wins as fast as it can and the loser resists as long as it can
(both sides' counters count, the winning counter included): the ``plies`` of a solved ``loss``. A
reply is a *longest defence* when after it the winner's shortest forced win is ``d - 1`` plies.

Exact test of a reply. "The winner forces a win within r plies" is df-pn on the board drawn after
r more counters (``shortest_win``'s step); a reply whose position has no win within ``d - 3`` plies
keeps the distance at ``d - 1`` (it cannot be more), so it is a longest defence. Proofs for the
short-lived replies are cheap; the one disproof for the right reply costs seconds to a minute early
in a game (QANGO 7 professionals-2), too long for the ``perfect`` bot's second per move.

So the early plies come from a stored book: ``python -m tanglekit.games.qango.defence --board 7
--opening professionals-1`` plays the certified winner (the shipped certificate's moves, and the
fastest move of the exact search where that finishes in a second, as the ``perfect`` bot plays)
against this exact defence and stores every loser's position it meets (canonical key under the
board symmetries, like the certificates) with its longest-defence reply and its distance, in
``data/defence/<board>-<opening>.json``. The bot reads it first when it is lost; later positions
fall to its iterative deepening, which is exact once it finishes (see ``bots.py``).
"""

from __future__ import annotations

import json
import time
from dataclasses import replace

from .board import Board, load_board
from .position import Position
from .proof import canonical, forced_move, table_key

_BOOKS: dict = {}


def _path(board_name: str, opening: str):
    from importlib import resources  # the data files ship with the package

    return resources.files("tanglekit.games.qango").joinpath("data", "defence", f"{board_name}-{opening}.json")


def wins_within(pos: Position, side: str, r: int, deadline: float = float("inf")) -> bool | None:
    """Whether ``side`` forces a win from ``pos`` within ``r`` plies (both sides' counters count);
    None when ``deadline`` (perf_counter) passes first."""
    from .solve import QangoSolver, _Timeout  # loads numpy and numba (only when this runs)

    if r <= 0:
        return False
    board = pos.board
    n = pos.n_counters
    s = QangoSolver(replace(board, max_counters=min(board.limit, n + r)), pos.allowed_first)
    s.deadline = deadline
    att, dfd = (pos.x, pos.o) if side == "X" else (pos.o, pos.x)
    try:
        return bool(s.prove(att, dfd, side == pos.to_move))
    except _Timeout:
        return None


def distance(pos: Position, side: str, hi: int | None = None, deadline: float = float("inf")) -> int | None:
    """Plies of ``side``'s shortest forced win from ``pos`` (None: no win within ``hi``, or out of time):
    the smallest r (odd when ``side`` is to move) with a win within r."""
    hi = pos.board.limit - pos.n_counters if hi is None else hi
    r = 1 if side == pos.to_move else 2
    while r <= hi:
        w = wins_within(pos, side, r, deadline)
        if w is None:
            return None
        if w:
            return r
        r += 2
    return None


def longest_defence(pos: Position, d: int, deadline: float = float("inf"), order=None) -> int | None:
    """A reply of the lost mover of ``pos`` that keeps the winner's shortest win at ``d - 1`` plies,
    ``d`` being the position's distance to loss; None if none is found before ``deadline``.
    ``order``: the replies to try first (the rest follow in board order)."""
    winner = "O" if pos.to_move == "X" else "X"
    moves = pos.legal_moves()
    first = [m for m in (order or []) if m in moves]
    seen: set = set()
    for m in first + [m for m in moves if m not in first]:
        child = pos.play(m)
        key = canonical(child.x, child.o, pos.board.symmetries)[0]
        if key in seen:  # a symmetric image of a reply already tried
            continue
        seen.add(key)
        if child.is_over():
            continue
        w = wins_within(child, winner, d - 3, deadline)
        if w is None:
            return None
        if not w:
            return m
    return None


def brute_force_distances(pos: Position, max_empty: int = 12) -> dict[int, tuple[str, int]]:
    """Reference: every reply's (value for the mover, plies incl. the reply) by plain minimax."""
    from .reference import reference_move_values  # plain-Python oracle (tests and checks only)

    return reference_move_values(pos, max_empty)


# --- the stored book --------------------------------------------------------------------------------
def load_defence_book(board: Board, allowed) -> dict | None:
    """The stored longest-defence book of this board and opening, or None."""
    from .table import rows_for  # the solved rows name the board and opening

    for row in rows_for(board, allowed):
        name = f"{row['board']}-{row['opening']}"
        if name not in _BOOKS:
            try:
                _BOOKS[name] = json.loads(_path(row["board"], row["opening"]).read_text())
            except (OSError, ValueError):
                _BOOKS[name] = None
        return _BOOKS[name]
    return None


def book_defence(pos: Position) -> tuple[int, int] | None:
    """(reply, distance to loss of ``pos``) from the stored book, or None when it does not hold ``pos``."""
    book = load_defence_book(pos.board, pos.allowed_first)
    if not book:
        return None
    perms = pos.board.symmetries
    key, t = canonical(pos.x, pos.o, perms)
    entry = (book.get("positions") or {}).get(table_key(*key))
    if entry is None:
        return None
    cell = perms[t].index(entry["reply"])
    if not pos._legal(cell):
        return None
    return cell, entry["plies"]


def _winner_moves(pos: Position, id_seconds: float) -> list[int]:
    """The winner's moves the ``perfect`` bot may play here: the certificate's, and the fastest win of
    the exact search when that finishes within ``id_seconds``."""
    from .book import book_move  # reads the certificates (only when this runs)
    from .solve import QangoSolver  # loads numpy (only when this runs)

    out = []
    hit = book_move(pos)
    if hit is not None and hit[1] == "win":
        out.append(hit[0])
    else:  # the certificates leave out the moves their checker infers: a win at once, a forced block
        f = forced_move(pos)
        if f is not None:
            out.append(f)
    res = QangoSolver(pos.board, pos.allowed_first, tt_bits=20).solve(pos, time_limit=id_seconds)
    if res.value == "win" and res.best_move is not None and res.best_move not in out:
        out.append(res.best_move)
    return out


def build_book(board_name: str, opening: str, log=print, id_seconds: float = 1.0) -> dict:
    """Play the certified winner against the exact longest defence from the empty board (every
    winner's move the ``perfect`` bot may choose, see ``_winner_moves``) and record each loser's
    position with its reply and distance."""
    from .table import ROWS  # the row's shortest win is the empty board's distance

    row = next(r for r in ROWS if r["board"] == board_name and r["opening"] == opening)
    board = load_board(board_name)
    allowed = board.opening_cells(opening)
    root = Position(board, allowed_first=frozenset(allowed))
    total = row["plies"]
    positions: dict = {}
    lines = 0
    t0 = time.perf_counter()

    def winner_turn(p: Position, d: int) -> None:
        nonlocal lines
        moves = _winner_moves(p, id_seconds)
        if not moves:
            raise AssertionError(f"no winning move known at {p.to_text()}")
        for m in moves:
            child = p.play(m)
            if child.winner() is not None:
                if d != 1:
                    raise AssertionError(f"won after {total - d + 1} plies, expected {total}")
                lines += 1
                continue
            loser_turn(child, d - 1)

    def loser_turn(p: Position, d: int) -> None:
        key, t = canonical(p.x, p.o, board.symmetries)
        k = table_key(*key)
        if k in positions:
            reply = board.symmetries[t].index(positions[k]["reply"])
        else:
            t1 = time.perf_counter()
            reply = longest_defence(p, d)
            if reply is None:
                raise AssertionError(f"no reply keeps distance {d - 1} at {p.to_text()}")
            # the distance itself: the winner still wins within d - 1 after the reply
            if not wins_within(p.play(reply), "X" if p.to_move == "O" else "O", d - 1):
                raise AssertionError(f"distance above {d} at {p.to_text()}")
            positions[k] = {"reply": board.symmetries[t][reply], "plies": d, "position": p.to_text()}
            log(f"{p.to_text()}  d={d}  reply {board.rc(reply)}  {time.perf_counter() - t1:.1f}s "
                f"(total {time.perf_counter() - t0:.0f}s, {len(positions)} positions)")
        winner_turn(p.play(reply), d - 1)

    winner_turn(root, total)
    return {"format": "tanglekit-qango-defence", "version": 1, "board": board_name, "opening": opening,
            "plies": total, "lines": lines, "seconds": round(time.perf_counter() - t0, 1),
            "method": "longest_defence (df-pn: no win within d - 3 after the reply, a win within d - 1)",
            "positions": positions}


def main(argv=None) -> int:
    import argparse  # a maintainer's command (python -m), not part of the CLI

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--board", required=True)
    ap.add_argument("--opening", required=True)
    ap.add_argument("--out", default=None)
    ap.add_argument("--id-seconds", type=float, default=1.0)
    a = ap.parse_args(argv)
    doc = build_book(a.board, a.opening, id_seconds=a.id_seconds)
    text = json.dumps(doc, indent=0, sort_keys=True)
    if a.out:
        from ...outputs import write_text  # the output layer: atomic, never onto an input

        write_text(a.out, text + "\n", "defence book")
    print(f"{len(doc['positions'])} positions, {doc['lines']} lines, {doc['seconds']} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
