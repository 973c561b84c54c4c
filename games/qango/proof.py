"""QANGO proof trees: the file format and an independent checker built only on the rules code.

A proof document (JSON, optionally gzip-compressed as ``.json.gz``) holds the board, the opening cells, the position, a claim for the side to
move ("win" or "loss"), ``plies`` (the claimed bound) and a tree:
- attacker node: ``[move]`` when the move completes a pattern, else ``[move, [[reply, node], ...]]``
  listing every legal reply of the defender;
- for a "loss" claim the tree is ``[[move, node], ...]`` with one attacker node per legal move.
A "no-win" certificate (version 2) claims that ``side`` ("X" or "O") cannot force a win: its tree is
a strategy of the other side (the holder). At a node where ``side`` is to move the tree lists every
legal move, ``[[move, node], ...]`` (``[]`` when the game is over: board full or counter limit); at a
holder node it gives one move, ``[move]`` when that move completes a holder pattern, else
``[move, node]`` (``null`` when the game is over). ``side`` never completes a pattern on any line.
A "draw" certificate holds both strategies: ``"trees": {"X": tree, "O": tree}``, where the tree
under "X" shows that X cannot force a win (a strategy of O) and the one under "O" the converse.
``plies`` is the longest line (informative).
The checker replays every line with ``Position.play``; it never calls the solver.
"""

from __future__ import annotations

import json
from pathlib import Path

from ...errors import FormatError
from .board import board_from_json
from .position import Position, parse_position


class ProofError(FormatError):
    """A proof document is malformed or does not prove its claim."""


def load_proof(source) -> dict:
    if isinstance(source, dict):
        return source
    path = Path(source)
    try:
        if path.suffix == ".gz":  # large proofs ship gzip-compressed
            import gzip

            with gzip.open(path, "rt", encoding="utf-8") as fh:
                text = fh.read()
        else:
            text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise FormatError(f"proof file {path} not found") from None
    except (OSError, EOFError) as e:
        raise FormatError(f"proof file {path}: cannot read ({e})") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise FormatError(f"proof file {path}: invalid JSON ({e.msg} at line {e.lineno})") from None


def verify_proof(source) -> dict:
    """Check a proof document; returns a report ``{"ok", "claim", "plies", "nodes", "error"}``."""
    doc = load_proof(source)
    if not isinstance(doc, dict) or doc.get("format") != "tanglekit-qango-proof":
        raise FormatError("not a tanglekit QANGO proof (missing format tag)")
    board = board_from_json(doc.get("board"), where="proof board")
    allowed = doc.get("allowed_first")
    allowed = None if allowed is None else frozenset(int(c) for c in allowed)
    pos = parse_position(doc.get("position", ""), board, allowed)
    claim, plies = doc.get("claim"), doc.get("plies")
    report = {"ok": False, "claim": claim, "plies": plies, "nodes": 0, "error": None}
    if claim in ("no-win", "draw"):
        report["side"] = doc.get("side")
        counter = [0]
        try:
            if claim == "no-win":
                _hold(pos, doc.get("side"), doc.get("tree"), counter)
            else:  # a draw: neither side can force a win
                trees = doc.get("trees")
                if not isinstance(trees, dict) or set(trees) != {"X", "O"}:
                    raise ProofError('a draw certificate has "trees": {"X": ..., "O": ...}')
                for side in ("X", "O"):
                    _hold(pos, side, trees[side], counter)
        except ProofError as e:
            report["error"] = str(e)
            report["nodes"] = counter[0]
            return report
        report["ok"] = True
        report["nodes"] = counter[0]
        return report
    if claim not in ("win", "loss") or not isinstance(plies, int) or plies < 0:
        report["error"] = "claim must be win, loss (with a non-negative integer plies) or no-win"
        return report
    counter = [0]
    try:
        if claim == "win":
            _attack(pos, doc.get("tree"), plies, counter, "root")
        else:
            _all_moves_lose(pos, doc.get("tree"), plies, counter)
    except ProofError as e:
        report["error"] = str(e)
        report["nodes"] = counter[0]
        return report
    report["ok"] = True
    report["nodes"] = counter[0]
    return report


def _all_moves_lose(pos: Position, tree, plies: int, counter) -> None:
    mover = pos.to_move
    if pos.winner() is not None and pos.winner() != mover:
        if plies != 0 or tree not in ([], None):
            raise ProofError("root: the game is already lost; expected plies 0 and an empty tree")
        return
    if pos.is_over():
        raise ProofError("root: the game is over without a winner (a draw, not a loss)")
    if plies < 2:
        raise ProofError(f"root: a loss needs at least 2 plies, claim says {plies}")
    if not isinstance(tree, list):
        raise ProofError("root: a loss proof lists every move of the side to move")
    seen = {}
    for item in tree:
        if not (isinstance(item, list) and len(item) == 2 and isinstance(item[0], int)):
            raise ProofError(f"root: bad entry {str(item)[:40]}")
        seen[item[0]] = item[1]
    legal = set(pos.legal_moves())
    if set(seen) != legal:
        missing = sorted(legal - set(seen))
        raise ProofError(f"root: moves {missing[:5] or sorted(set(seen) - legal)[:5]} missing or illegal")
    for m, node in seen.items():
        child = pos.play(m)
        if child.winner() == mover:
            raise ProofError(f"root: move {m} wins for the side claimed to lose")
        _attack(child, node, plies - 1, counter, f"root>{m}")


def _attack(pos: Position, node, r: int, counter, where: str) -> None:
    """The side to move wins within r plies following ``node`` (iterative over an explicit stack)."""
    stack = [(pos, node, r, where)]
    while stack:
        pos, node, r, where = stack.pop()
        counter[0] += 1
        if r < 1:
            raise ProofError(f"{where}: no plies left for the winner")
        if not (isinstance(node, list) and node and isinstance(node[0], int)):
            raise ProofError(f"{where}: an attacker node must start with a move")
        mover, move = pos.to_move, node[0]
        if move not in pos.legal_moves():
            raise ProofError(f"{where}: move {move} is not legal")
        after = pos.play(move)
        if after.winner() == mover:
            continue
        if len(node) != 2 or not isinstance(node[1], list):
            raise ProofError(f"{where}: move {move} does not win at once, so every reply must follow")
        if after.is_over():
            raise ProofError(f"{where}: move {move} ends the game in a draw")
        if r < 3:
            raise ProofError(f"{where}: move {move} does not win and the claimed plies are used up")
        replies = _every_move(after, node[1], where, f"{where}>{move}", "reply entry", "replies")
        for y, child in replies.items():
            nxt = after.play(y)
            if nxt.winner() is not None:
                raise ProofError(f"{where}>{move}>{y}: the defender wins with this reply")
            if nxt.is_over():
                raise ProofError(f"{where}>{move}>{y}: the game ends in a draw")
            stack.append((nxt, child, r - 2, f"{where}>{move}>{y}"))


def _every_move(pos: Position, entries, where: str, at: str, entry: str, what: str) -> dict:
    """``[[move, subtree], ...]`` as a dict, refused unless it lists exactly the legal moves."""
    out = {}
    for item in entries:
        if not (isinstance(item, list) and len(item) == 2 and isinstance(item[0], int)):
            raise ProofError(f"{where}: bad {entry} {str(item)[:40]}")
        out[item[0]] = item[1]
    legal = set(pos.legal_moves())
    if set(out) != legal:
        missing = sorted(legal - set(out))
        extra = sorted(set(out) - legal)
        raise ProofError(f"{at}: {what} missing {missing[:5]} or illegal {extra[:5]}")
    return out


def _hold(pos: Position, side, tree, counter) -> None:
    """``side`` cannot force a win: every line of the holder's strategy ``tree`` ends in a full board
    (or the counter limit) or a completed holder pattern, and ``side`` never completes one."""
    if side not in ("X", "O"):
        raise ProofError("a no-win certificate names the side (X or O) that cannot force a win")
    if pos.winner() is not None:
        if pos.winner() == side:
            raise ProofError("root: the side claimed not to win has already won")
        return
    stack = [(pos, tree, "root")]
    while stack:
        pos, node, where = stack.pop()
        if pos.is_over():  # a draw (a win was checked before the position was pushed)
            if node not in ([], None):
                raise ProofError(f"{where}: the game is over; expected [] or null")
            continue
        if pos.to_move == side:
            counter[0] += 1
            if not isinstance(node, list):
                raise ProofError(f"{where}: a node of {side} lists every legal move")
            seen = _every_move(pos, node, where, where, "entry", "moves")
            for m, sub in seen.items():
                nxt = pos.play(m)
                if nxt.winner() == side:
                    raise ProofError(f"{where}>{m}: {side} completes a pattern")
                stack.append((nxt, sub, f"{where}>{m}"))
        else:
            if not (isinstance(node, list) and node and isinstance(node[0], int) and len(node) <= 2):
                raise ProofError(f"{where}: a holder node is [move] or [move, node]")
            m = node[0]
            if m not in pos.legal_moves():
                raise ProofError(f"{where}: move {m} is not legal")
            nxt = pos.play(m)
            if nxt.winner() is not None:  # the holder completed a pattern: this line is settled
                if len(node) != 1:
                    raise ProofError(f"{where}>{m}: the move wins; expected [move]")
                continue
            if len(node) != 2:
                raise ProofError(f"{where}>{m}: the move does not win, so the line must go on")
            stack.append((nxt, node[1], f"{where}>{m}"))
