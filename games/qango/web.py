"""QANGO's web pages: the board with clickable cells, the check page's answer and picture."""

from __future__ import annotations

import re
import time

from ...errors import FormatError, TanglekitError
from ...jsonio import text_int
from ..picture import HOT, attr, inject, named
from ..plugin import load_game
from . import parse_position
from .api_bots import action_of
from .board import load_board
from .ids import position_id
from .position import QangoOptions, plies_text
from .svg import board_svg, cell_colours

QANGO_TIME = 5.0  # seconds the QANGO solver may search for the check page (then "unknown")
QANGO_LINE_TIME = 2.0  # per position of the animated line
QANGO_KEY_TIME = 2.0  # seconds to count the winning first moves (a puzzle ID needs exactly one)
BOARDS = {"6": "QANGO 6", "7": "QANGO 7", "7plus": "QANGO 7 Plus"}
PUZZLE_K = (2, 8)  # the k a puzzle ID may carry (sources.py)


def hotspots(svg: str, board, legal: list[int], x: int = 0, o: int = 0, title: str = "") -> tuple[str, set[int]]:
    """Every board cell clickable (the cell squares are drawn first, in the board's cell order),
    each named for screen readers by its row, column, colour and counter; the picture named by
    the board and ``title`` (whose turn)."""
    rects = re.findall(r'<rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)" fill="#[0-9a-f]{6}" '
                       r'stroke="#555" stroke-width="0.5"/>', svg)
    cells = list(board.cells)
    if len(rects) != len(cells):
        return svg, set()
    colour = cell_colours(board)

    def label(c: int) -> str:
        r, q = divmod(c, board.width)
        held = "X" if x >> c & 1 else "O" if o >> c & 1 else "empty"
        return attr(f"row {r}, column {q}, {colour[c]}: {held}")

    hot = [HOT.format(cls=" legal" if c in legal else "", a=c, x=x_, y=y, w=w, h=h, label=label(c))
           for c, (x_, y, w, h) in zip(cells, rects)]
    name = f"QANGO board {board.width} by {board.height}" + (f", {title}" if title else "")
    return named(inject(svg, hot), name, "group"), set(cells)


def check(body: dict) -> dict:
    """``qango solve``'s JSON (value, best_move, plies, nodes) for a position, plus an ID (a
    win-in-k puzzle ID when the side to move wins) and the best line step by step."""
    from .solve import QangoSolver  # loads numpy (only when this runs)

    if not isinstance(body, dict) or not isinstance(body.get("position"), str):
        raise FormatError('send {"board": "6", "position": "X...../......"}')
    board_name = str(body.get("board", "6"))
    if board_name not in ("6", "7", "7plus"):
        raise FormatError(f"board must be 6, 7 or 7plus, not {board_name!r}")
    b, allowed = QangoOptions(board=board_name).resolve()
    pos = parse_position(body["position"], b, allowed).validate()
    solver = QangoSolver(pos.board, pos.allowed_first, tt_bits=20)
    res = solver.solve(pos, time_limit=QANGO_TIME)
    out = res.to_json()
    out["complete"] = res.value != "unknown"
    out["position"] = pos.to_text()
    out["to_move"] = 0 if pos.to_move == "X" else 1  # players from 0, as in `qango solve --json`
    out["side"] = pos.to_move
    out["counters"] = (res.plies + 1) // 2 if res.value in ("win", "loss") and res.plies is not None else None
    # the ID the page shows and plays: a win-in-k puzzle's when the position is one (k in range,
    # exactly one winning first move), else the position's (a game from here): both open a play page
    out["id"] = position_id(pos)
    out["puzzle"] = False
    if res.value == "win" and res.plies is not None and PUZZLE_K[0] <= out["counters"] <= PUZZLE_K[1]:
        if _winning_moves(solver, pos, res.plies) == 1:
            out["id"] = f"qango:{board_name}:k{out['counters']}:{pos.to_text()}"
            out["puzzle"] = True
    out["answer"] = answer_text(out)
    if pos.is_over():
        out["answer"] = f"the game is over: {pos.winner()} has won" if pos.winner() else "the game is over: a draw"
    st = load_game("qango", board=board_name).new_initial_state_from(pos)
    frames = [{"caption": "the position", "svg": named(st.to_svg(), f"QANGO position, {str(st).splitlines()[-1]}")}]
    line = []
    if res.value in ("win", "loss") and res.best_move is not None:
        k = 0
        while not st.is_terminal() and k < 60:
            p = st.engine.position
            r = solver.solve(p, time_limit=QANGO_LINE_TIME)
            if r.best_move is None or r.value == "unknown":
                break
            a = action_of(st, r.best_move)
            k += 1
            name = f"{p.to_move} {st.action_to_string(a)}"
            line.append(name)
            st.apply_action(a)
            frames.append({"caption": f"{k}. {name}", "svg": named(st.to_svg(), f"QANGO position after {k}. {name}, "
                                                                          f"{str(st).splitlines()[-1]}")})
    out["line_text"] = line
    out["frames"] = frames
    return out


def _winning_moves(solver, pos, plies: int) -> int | None:
    """How many first moves of ``pos`` win in ``plies`` plies (2 as soon as two are found; None
    when the count is not settled within QANGO_KEY_TIME seconds)."""
    end = time.monotonic() + QANGO_KEY_TIME
    n = 0
    for c in pos.legal_moves():
        child = pos.play(c)
        if child.winner() is not None:
            n += 1
        else:
            left = end - time.monotonic()
            if left <= 0:
                return None
            r = solver.solve(child, time_limit=left, max_plies=plies - 1)
            if r.value == "unknown" and time.monotonic() >= end:
                return None
            n += r.value == "loss" and r.plies == plies - 1
        if n > 1:
            return n
    return n


def answer_text(r: dict) -> str:
    """The check page's sentence for a QANGO answer: who wins, in how many counters, the best move."""
    side, plies = r["side"], r["plies"]
    mv = f" (best move {r['best_move'][0]},{r['best_move'][1]})" if r.get("best_move") else ""
    if r["value"] == "unknown":
        return "unknown: the solver ran out of time"
    if r["value"] == "win":
        return f"{side} to move wins{mv}" if plies is None else f"{side} to move wins in {plies_text(plies)}{mv}"
    if r["value"] == "loss":
        other = "O" if side == "X" else "X"
        return f"{side} to move loses" + ("" if plies is None else f": {other} wins in {plies_text(plies)}") + mv
    return f"a draw with best play{mv}"


def check_data() -> dict:
    """What the check page needs first: its title, how to enter a position, the board choice."""
    return {"title": "Check a QANGO position", "solve_label": "who wins?", "entry": "grid", "mode": "cycle",
            "how": "Put counters on the board: each cell cycles empty, X (dark, moves first), O (light). "
                   "The side to move follows from the counts.",
            "values": {"X": "X (dark)", "O": "O (light)"}, "cycle": ["X", "O"],
            "rules_game": "qango",  # the rules panel: this game, on the board chosen
            "selects": [{"name": "board", "label": "board", "param": "board",
                         "options": [{"value": k, "label": v} for k, v in BOARDS.items()]}],
            "text": {"name": "position", "label": "position", "readonly": True}}


def draw(body: dict) -> dict:
    """The board being entered with its counters, every cell clickable; the position text."""
    board_name = str(body.get("board", "6")) if isinstance(body, dict) else "6"
    if board_name not in ("6", "7", "7plus"):
        raise FormatError(f"board must be 6, 7 or 7plus, not {board_name!r}")
    b = load_board(board_name)
    cells = body.get("cells") or {}
    if not isinstance(cells, dict):
        raise FormatError('cells must be {"CELL": "X" or "O"}')
    x = o = 0
    for k, v in cells.items():
        try:
            c = text_int(k)  # ASCII digits: int() took '١' and '1_0'
        except ValueError:
            raise FormatError(f"bad cell {k!r}") from None
        if c not in b.cells:
            raise FormatError(f"cell {c} is not on the board")
        if v == "X":
            x |= 1 << c
        elif v == "O":
            o |= 1 << c
    rows = []
    for r in range(b.height):
        row = ""
        for q in range(b.width):
            c = r * b.width + q
            row += "#" if c not in b.cells else "X" if x >> c & 1 else "O" if o >> c & 1 else "."
        rows.append(row)
    svg, _ = hotspots(board_svg(b, x, o, title=b.title), b, [], x, o, b.title)
    text = "/".join(rows)
    marks = {str(c): "X" if x >> c & 1 else "O" for c in b.cells if (x | o) >> c & 1}
    ready, why = True, ""
    try:
        parse_position(text, b, None).validate()
    except TanglekitError as e:
        ready, why = False, f"not a position a game can reach: {e}"
    return {"board": board_name, "position": text, "text": text, "svg": svg, "cells": marks,
            "names": {str(c): "{},{}".format(*b.rc(c)) for c in b.cells},
            "ready": ready, "why": why, "check": {"board": board_name, "position": text}}
