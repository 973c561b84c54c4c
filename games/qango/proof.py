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

from pathlib import Path

from ...errors import FormatError
from ...jsonio import MAX_BYTES, decode_text, parse_json_text, read_bytes, read_json_file
from .board import board_from_json
from .position import Position, parse_position


class ProofError(FormatError):
    """A proof document is malformed or does not prove its claim."""


def read_proof_file(file: str | Path):
    """A proof document through the shared input layer (a regular file only; size, encoding,
    depth; ``.gz`` decompressed, bounded)."""
    file = Path(file)
    if file.suffix != ".gz":
        return read_json_file(file, "QANGO proof")
    import gzip
    import io
    import zlib

    raw = read_bytes(file, "QANGO proof")
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(raw)) as fh:
            data = fh.read(MAX_BYTES + 1)
    except (OSError, EOFError, zlib.error) as e:
        raise FormatError(f"{file}: not a gzip file ({e})") from None
    if len(data) > MAX_BYTES:
        raise FormatError(f"{file}: decompresses to more than {MAX_BYTES // 2**20} MiB, not a QANGO proof")
    return parse_json_text(decode_text(data, str(file), "QANGO proof"), str(file), "QANGO proof")


def load_proof(source) -> dict:
    """A proof document given as a dict or a file path (``read_proof_file``)."""
    if isinstance(source, dict):
        return source
    return read_proof_file(source)


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
    if doc.get("version") == 3:
        return _verify_table(doc, pos, report)
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


# --------------------------------------------------------------------------------------------
# Version 3: strategy tables (a DAG: transpositions shared, board symmetries used, "holds" leaves)
# --------------------------------------------------------------------------------------------
HOLD_SCALE = 64  # pattern weights 2**-k are checked as integers 2**(HOLD_SCALE - k)


def check_symmetries(board, perms) -> list[tuple[int, ...]]:
    """The listed cell permutations, each checked to map the board's cells onto its cells and its
    win patterns onto its win patterns (so a game and its image have the same value); the identity
    is put first."""
    n = board.n_cells
    cells = set(board.cells)
    pats = {frozenset(p) for p in board.patterns}
    out = [tuple(range(n))]
    for k, perm in enumerate(perms or []):
        if not (isinstance(perm, list) and len(perm) == n and all(isinstance(c, int) for c in perm)
                and sorted(perm) == list(range(n))):
            raise ProofError(f"symmetry {k}: not a permutation of the {n} cells")
        if {perm[c] for c in cells} != cells:
            raise ProofError(f"symmetry {k}: does not map the board's cells onto themselves")
        if {frozenset(perm[c] for c in p) for p in pats} != pats:
            raise ProofError(f"symmetry {k}: does not map the win patterns onto themselves")
        out.append(tuple(perm))
    return out


def _image(mask: int, perm) -> int:
    out = 0
    while mask:
        low = mask & -mask
        out |= 1 << perm[low.bit_length() - 1]
        mask ^= low
    return out


def canonical(x: int, o: int, perms) -> tuple[tuple[int, int], int]:
    """The smallest image (x', o') of a position under ``perms`` (compared as (x', o')) and the index
    of the permutation that gives it (the first one on ties)."""
    best, which = (x, o), 0
    for t in range(1, len(perms)):
        img = (_image(x, perms[t]), _image(o, perms[t]))
        if img < best:
            best, which = img, t
    return best, which


def table_key(x: int, o: int) -> str:
    """A strategy table's key for a canonical position: both masks in hexadecimal."""
    return f"{x:x}:{o:x}"


def holds(pos: Position, side: str, pairs) -> bool:
    """The pairing-and-potential test: ``side`` can no longer complete a pattern when the other side
    answers a move in one of the disjoint ``pairs`` of empty cells with its partner and plays the
    Erdős–Selfridge potential strategy on the other empty cells R against the live patterns of
    ``side`` that hold no pair: the sum of 2**-|pattern ∩ R| over those is below 1/2 when ``side``
    is to move, below 1 when the other side is."""
    board = pos.board
    mine, theirs = (pos.x, pos.o) if side == "X" else (pos.o, pos.x)
    empty = pos.empty_mask()
    used = 0
    pmasks = []
    for pair in pairs:
        if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(c, int) for c in pair)):
            raise ProofError(f"bad pair {str(pair)[:40]}")
        a, b = pair
        if a == b or not (0 <= a < board.n_cells and 0 <= b < board.n_cells):
            raise ProofError(f"bad pair {pair}")
        m = 1 << a | 1 << b
        if m & ~empty or m & used:
            raise ProofError(f"pair {pair} is not two free cells outside the other pairs")
        used |= m
        pmasks.append(m)
    rest = empty & ~used
    total = 0
    for p in board.pattern_masks:
        if p & theirs:
            continue  # blocked for good
        left = p & empty
        if not left:
            return False  # side has already completed it
        if any(m & left == m for m in pmasks):
            continue  # covered by a pair
        k = bin(left & rest).count("1")
        total += 1 << (HOLD_SCALE - k)
    bound = 1 << (HOLD_SCALE - 1 if pos.to_move == side else HOLD_SCALE)
    return total < bound


def out_of_time(pos: Position, side: str) -> bool:
    """``side`` cannot fill any of its live patterns with the counters it still gets before the game
    ends (board full or counter limit)."""
    board = pos.board
    mine, theirs = (pos.x, pos.o) if side == "X" else (pos.o, pos.x)
    left = min(board.limit - pos.n_counters, bin(pos.empty_mask()).count("1"))
    moves = (left + 1) // 2 if pos.to_move == side else left // 2
    return all(p & theirs or bin(p & ~mine).count("1") > moves for p in board.pattern_masks)


def forced_move(pos: Position) -> int | None:
    """The move a table may leave out for the side to move: the lowest cell that completes one of
    its patterns, else the only cell that completes a pattern of the other side (a forced block);
    None when neither exists."""
    board = pos.board
    mine, theirs = (pos.x, pos.o) if pos.to_move == "X" else (pos.o, pos.x)
    empty = pos.empty_mask()
    win = block = 0
    for p in board.pattern_masks:
        if not p & theirs:
            left = p & ~mine
            if left & empty == left and left and not left & (left - 1):
                win |= left
        if not p & mine:
            left = p & ~theirs
            if left & empty == left and left and not left & (left - 1):
                block |= left
    if win:
        return (win & -win).bit_length() - 1
    if block and not block & (block - 1):
        return block.bit_length() - 1
    return None


def _verify_table(doc: dict, root: Position, report: dict) -> dict:
    """Check a version-3 certificate (strategy tables); see ``docs/qango.md``."""
    claim = report["claim"]
    report["version"] = 3
    try:
        perms = check_symmetries(root.board, doc.get("symmetries"))
        if claim == "draw":
            tables = doc.get("strategies")
            if not isinstance(tables, dict) or set(tables) != {"X", "O"}:
                raise ProofError('a draw certificate has "strategies": {"X": ..., "O": ...}')
            jobs = [("no-win", side, tables[side]) for side in ("X", "O")]
        elif claim in ("win", "no-win", "loss"):
            side = doc.get("side") or (root.to_move if claim != "loss" else ("O" if root.to_move == "X" else "X"))
            if side not in ("X", "O"):
                raise ProofError("side must be X or O")
            jobs = [("win" if claim == "loss" else claim, side, doc.get("strategy"))]
            report["side"] = side
        else:
            raise ProofError("claim must be win, loss, no-win or draw")
        longest = 0
        for kind, side, table in jobs:
            if not isinstance(table, dict):
                raise ProofError(f"the {side} strategy table is missing")
            longest = max(longest, _walk(root, kind, side, table, perms, report))
        if claim in ("win", "loss"):
            plies = doc.get("plies")
            if not isinstance(plies, int) or longest > plies:
                raise ProofError(f"the longest line takes {longest} plies, more than the claimed {plies}")
            ref = doc.get("refutation")
            if ref is not None:  # no win within plies - 2: the claim is the shortest win
                if not isinstance(ref, dict) or ref.get("max_counters") != root.n_counters + plies - 2:
                    raise ProofError("a refutation holds max_counters = counters at the root + plies - 2")
                from dataclasses import replace

                short = replace(root.board, max_counters=ref["max_counters"])
                at = Position(short, root.x, root.o, root.allowed_first)
                _walk(at, "no-win", jobs[0][1], ref.get("strategy"), perms, report)
                report["shortest"] = plies
        report["longest"] = longest
    except ProofError as e:
        report["error"] = str(e)
        return report
    report["ok"] = True
    return report


def _walk(root: Position, kind: str, side: str, table: dict, perms, report: dict) -> int:
    """Every line of the strategy from ``root``: for ``win``, ``side`` (the table's owner) completes
    a pattern on every line and the other side never does nor reaches a draw; for ``no-win``,
    ``side`` never completes a pattern (the table belongs to the other side, the holder). Returns
    the plies of the longest line (to the win, or to the end or a "holds" leaf)."""
    owner = side if kind == "win" else ("O" if side == "X" else "X")
    memo: dict[tuple[int, int], int] = {}
    used = set()

    def visit(pos: Position, where: str) -> int:
        key, t = canonical(pos.x, pos.o, perms) if pos.n_counters else ((pos.x, pos.o), 0)
        if key in memo:
            return memo[key]
        report["nodes"] += 1
        inv = perms[t]  # the canonical frame maps a cell c of pos to inv[c]
        entry = table.get(table_key(*key))
        if entry is not None:
            used.add(table_key(*key))
        elif kind == "no-win" and (out_of_time(pos, side) or holds(pos, side, [])):
            memo[key] = 0  # the clock or the potential alone shows it: no entry needed
            return 0
        if isinstance(entry, dict):
            if kind != "no-win" or set(entry) != {"pairs"} or not isinstance(entry["pairs"], list):
                raise ProofError(f"{where}: a leaf entry is {{\"pairs\": [...]}} and only in no-win tables")
            back = {inv[c]: c for c in range(len(inv))}
            pairs = [[back[c] for c in pr] if isinstance(pr, list) and all(isinstance(c, int) and c in back
                     for c in pr) else pr for pr in entry["pairs"]]
            if not holds(pos, side, pairs):
                raise ProofError(f"{where}: the pairs do not show that {side} cannot win")
            memo[key] = 0
            return 0
        if pos.to_move == owner:
            if entry is None:
                move = forced_move(pos)
                if move is None:
                    raise ProofError(f"{where}: no move of {owner} in the table for {table_key(*key)}")
            else:
                if not isinstance(entry, int) or isinstance(entry, bool) or not 0 <= entry < len(inv):
                    raise ProofError(f"{where}: bad move entry {str(entry)[:20]}")
                back = [0] * len(inv)
                for c, d in enumerate(inv):
                    back[d] = c
                move = back[entry]
            if move not in pos.legal_moves():
                raise ProofError(f"{where}: move {move} is not legal")
            nxt = pos.play(move)
            if nxt.winner() == owner:
                out = 1
            elif nxt.is_over():
                if kind == "win":
                    raise ProofError(f"{where}>{move}: the game ends in a draw")
                out = 1
            else:
                out = 1 + visit(nxt, f"{where}>{move}")
        else:
            if entry is not None:
                raise ProofError(f"{where}: a move entry where {pos.to_move} is to move")
            out = 0
            for move in pos.legal_moves():
                nxt = pos.play(move)
                if nxt.winner() == pos.to_move:
                    raise ProofError(f"{where}>{move}: {pos.to_move} completes a pattern")
                if nxt.is_over():
                    if kind == "win":
                        raise ProofError(f"{where}>{move}: the game ends in a draw")
                    out = max(out, 1)
                    continue
                out = max(out, 1 + visit(nxt, f"{where}>{move}"))
        memo[key] = out
        return out

    if root.winner() is not None:
        if root.winner() != owner:
            raise ProofError("root: the game is already decided against the claim")
        return 0
    if root.is_over():
        if kind == "win":
            raise ProofError("root: the game is already drawn")
        return 0
    longest = visit(root, "root")
    if len(used) != len(table):
        report.setdefault("unused_entries", 0)
        report["unused_entries"] += len(table) - len(used)
    return longest
