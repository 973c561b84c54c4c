"""QANGO's shareable IDs: the descriptive IDs of puzzles, positions and boards (docs/ids.md)."""

from __future__ import annotations

from dataclasses import replace

from ...generators.ids import format_params, make_descriptive, make_seed
from .board import BUILTIN_BOARDS, Board, _builtin, board_layout
from .position import Position, _same_board

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
