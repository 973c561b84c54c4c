"""The solved-values table of the QANGO variants (empty board, each opening rule) with its certificates.

Every value is backed by a shipped version-3 certificate in ``games/qango/data/proofs`` that the
rules-only checker (``games/qango/proof.py``) accepts: a win with the refutation of every shorter win
(so ``plies`` is the exact shortest win), or a draw (neither side can force a win); ``checker_nodes``
is the number of positions that check visits. ``first_moves`` gives the value of every first counter
the opening allows, one entry per symmetry class.
"""

from __future__ import annotations

from importlib import resources

# value: for X (the first player) on the empty board; plies: the shortest forced win (exact: the
# certificate's longest line is this and its refutation shows no shorter win) or None for a draw;
# proof: the shipped version-3 certificate (a win with its refutation, or a draw: both no-win tables);
# proof_plies: its longest line; checker_nodes: the positions the checker visits. first_moves: every
# first counter the opening allows, one entry per symmetry class (tournament rows).
ROWS = [
    {"board": "6", "opening": "standard", "value": "win", "plies": 11, "first_move": [2, 2],
     "proof": "qango6-standard.json.gz", "proof_plies": 11, "checker_nodes": 18166},
    {"board": "6", "opening": "castle", "value": "win", "plies": 19, "first_move": [1, 2],
     "proof": "qango6-castle.json.gz", "proof_plies": 19, "checker_nodes": 600604},
    {"board": "6", "opening": "tournament", "value": "draw", "plies": None, "first_move": [0, 2],
     "proof": "qango6-tournament.json.gz", "proof_plies": 32, "checker_nodes": 297529,
     "note": "neither side can force a win; X must start on the middle cells of an edge (a corner or "
             "next-to-corner first counter loses)",
     "first_moves": [
         {"cells": [[0, 0], [0, 5], [5, 0], [5, 5]], "value": "loss", "plies": 14,
          "proof": "qango6-tournament-x00.json.gz", "proof_plies": 13, "checker_nodes": 38095, "reply": [2, 3]},
         {"cells": [[0, 1], [0, 4], [1, 0], [1, 5], [4, 0], [4, 5], [5, 1], [5, 4]], "value": "loss", "plies": 14,
          "proof": "qango6-tournament-x01.json.gz", "proof_plies": 13, "checker_nodes": 47785, "reply": [2, 3]},
         {"cells": [[0, 2], [0, 3], [2, 0], [3, 0], [2, 5], [3, 5], [5, 2], [5, 3]], "value": "draw",
          "plies": None, "proof": "qango6-tournament.json.gz", "proof_plies": 32, "checker_nodes": 297529,
          "reply": [1, 2]},
     ]},
    {"board": "7plus", "opening": "standard", "value": "win", "plies": 11, "first_move": [2, 4],
     "proof": "qango7plus-standard.json.gz", "proof_plies": 11, "checker_nodes": 53929},
    {"board": "7plus", "opening": "edges", "value": "win", "plies": 25, "first_move": [0, 3],
     "proof": "qango7plus-edges.json.gz", "proof_plies": 25, "checker_nodes": 410464},
    {"board": "7plus", "opening": "tournament", "value": "draw", "plies": None, "first_move": [1, 4],
     "proof": "qango7plus-tournament.json.gz", "proof_plies": 30, "checker_nodes": 92586,
     "note": "neither side can force a win; the four allowed first counters are one symmetry class",
     "first_moves": [{"cells": [[1, 4], [2, 5], [4, 1], [5, 2]], "value": "draw", "plies": None,
                      "proof": "qango7plus-tournament.json.gz", "proof_plies": 30, "checker_nodes": 92586,
                      "reply": [1, 3]}]},
    {"board": "7", "opening": "standard", "value": "win", "plies": 11, "first_move": [1, 3],
     "proof": "qango7-standard.json.gz", "proof_plies": 11, "checker_nodes": 129009},
    {"board": "7", "opening": "castle", "value": "win", "plies": 11, "first_move": [1, 3],
     "proof": "qango7-castle.json.gz", "proof_plies": 11, "checker_nodes": 70516},
    {"board": "7", "opening": "professionals-1", "value": "win", "plies": 23, "first_move": [0, 3],
     "proof": "qango7-professionals-1.json.gz", "proof_plies": 23, "checker_nodes": 1173928},
    {"board": "7", "opening": "professionals-2", "value": "win", "plies": 31, "first_move": [0, 4],
     "proof": "qango7-professionals-2.json.gz", "proof_plies": 31, "checker_nodes": 1316187},
]


def proof_path(name: str):
    """A Traversable for a shipped proof file (use ``importlib.resources.as_file`` for a real path)."""
    return resources.files("tanglekit.games.qango").joinpath("data", "proofs", name)


def solved_table() -> list[dict]:
    """The rows of ``ROWS`` with each certificate's size in bytes added (``proof_bytes``)."""
    out = []
    for row in ROWS:
        r = dict(row)
        if r.get("proof"):
            r["proof_bytes"] = len(proof_path(r["proof"]).read_bytes())
        if r.get("first_moves"):
            fms = []
            for fm in r["first_moves"]:
                fm = dict(fm)
                if fm.get("proof"):
                    fm["proof_bytes"] = len(proof_path(fm["proof"]).read_bytes())
                fms.append(fm)
            r["first_moves"] = fms
        out.append(r)
    return out


def rows_for(board, allowed) -> list[dict]:
    """The solved rows (``ROWS``) of this board and opening: the same board (name, cells, counter
    limit) and the same allowed first cells (``allowed`` None: every cell)."""
    from .board import load_board  # the table module itself stays free of the board code's imports

    out = []
    for row in ROWS:
        ref = load_board(row["board"])
        if ref.name != board.name or ref.mask != board.mask or ref.limit != board.limit:
            continue
        cells = ref.opening_cells(row["opening"])
        if (frozenset(allowed) if allowed is not None else frozenset(board.cells)) != frozenset(cells):
            continue
        out.append(row)
    return out
