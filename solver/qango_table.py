"""The solved-values table of the QANGO variants (empty board, each opening rule) with its certificates.

Every value listed with a ``proof`` is backed by a shipped proof file in ``games/qango/data/proofs``
that the rules-only checker (``games/qango/proof.py``) accepts; ``checker_nodes`` is the number of
attacker nodes that check visits. A row without a proof is open and says what is known. ``first_moves``
gives the value of every first counter the opening allows, one entry per symmetry class; ``no_win``
names "no-win" certificates (a side cannot force a win) of rows that are not fully decided.
"""

from __future__ import annotations

from importlib import resources

# value: for X (the first player) on the empty board; plies: shortest forced win (exact) or None;
# plies_bounds: (more than, at most) when only bounds are known
ROWS = [
    {"board": "6", "opening": "standard", "value": "win", "plies": 11, "first_move": [2, 2],
     "proof": "qango6-standard.json", "proof_plies": 11, "checker_nodes": 8691},
    {"board": "6", "opening": "castle", "value": "win", "plies": 19, "first_move": [1, 2],
     "proof": "qango6-castle.json.gz", "proof_plies": 25, "checker_nodes": 22075},
    {"board": "6", "opening": "tournament", "value": "open", "plies": None, "plies_bounds": [27, None],
     "first_move": None, "proof": None,
     "note": "X has no win within 27 plies; O cannot force a win (certified); corner and next-to-corner "
             "first counters lose (certified), the middle cells of an edge are undecided",
     "no_win": {"O": {"proof": "qango6-tournament-no-o-win.json.gz", "checker_nodes": 11458, "proof_plies": 36}},
     "first_moves": [
         {"cells": [[0, 0], [0, 5], [5, 0], [5, 5]], "value": "loss", "plies": 14,
          "proof": "qango6-tournament-x00.json.gz", "proof_plies": 13, "checker_nodes": 25883,
          "reply": [2, 3]},
         {"cells": [[0, 1], [0, 4], [1, 0], [1, 5], [4, 0], [4, 5], [5, 1], [5, 4]], "value": "loss", "plies": 14,
          "proof": "qango6-tournament-x01.json.gz", "proof_plies": 13, "checker_nodes": 26843,
          "reply": [2, 3]},
         {"cells": [[0, 2], [0, 3], [2, 0], [3, 0], [2, 5], [3, 5], [5, 2], [5, 3]], "value": "open",
          "plies": None, "proof": None,
          "note": "after X [0, 2]: 34 of O's 35 replies are proven X wins; O [1, 2] is open (from there 26 of "
                  "X's 34 moves are disproven, 8 open after 455 M df-pn expansions)"},
     ]},
    {"board": "7plus", "opening": "standard", "value": "win", "plies": 11, "first_move": [2, 4],
     "proof": "qango7plus-standard.json", "proof_plies": 11, "checker_nodes": 7977},
    {"board": "7plus", "opening": "edges", "value": "win", "plies": 25, "first_move": [0, 3],
     "proof": "qango7plus-edges.json.gz", "proof_plies": 35, "checker_nodes": 223000},
    {"board": "7plus", "opening": "tournament", "value": "open", "plies": None, "plies_bounds": [27, None],
     "first_move": None, "proof": None,
     "note": "X has no win within 27 plies; O cannot force a win (certified); the four allowed first "
             "counters are one symmetry class",
     "no_win": {"O": {"proof": "qango7plus-tournament-no-o-win.json.gz", "checker_nodes": 12232,
                      "proof_plies": 37}},
     "first_moves": [{"cells": [[1, 4], [2, 5], [4, 1], [5, 2]], "value": "open", "plies": None, "proof": None}]},
    {"board": "7", "opening": "standard", "value": "win", "plies": 11, "first_move": [1, 3],
     "proof": "qango7-standard.json", "proof_plies": 11, "checker_nodes": 21331},
    {"board": "7", "opening": "castle", "value": "win", "plies": 11, "first_move": [1, 3],
     "proof": "qango7-castle.json", "proof_plies": 11, "checker_nodes": 21331},
    {"board": "7", "opening": "professionals-1", "value": "win", "plies": None, "plies_bounds": [21, 39],
     "first_move": [0, 4], "proof": "qango7-professionals-1.json.gz", "proof_plies": 39, "checker_nodes": 687000},
    {"board": "7", "opening": "professionals-2", "value": "win", "plies": None, "plies_bounds": [23, 39],
     "first_move": [0, 4], "proof": "qango7-professionals-2.json.gz", "proof_plies": 39, "checker_nodes": 896000},
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
        if r.get("no_win"):
            r["no_win"] = {side: dict(v, proof_bytes=len(proof_path(v["proof"]).read_bytes()))
                           for side, v in r["no_win"].items()}
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
