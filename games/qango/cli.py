"""`tanglekit qango ...`: solve positions, write and verify proofs, generate puzzles and boards, play.

Only typer and the standard library are imported at module level; the library (numpy, numba,
ortools) is imported inside the commands so `tanglekit --help` stays fast.
"""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from ...cli_common import parse_options, print_json, progress, write_bytes, write_text
from ...engines import plain_budget, plain_first
from ...errors import FormatError, RuleError, TanglekitError
from ...jsonio import tagged
from ...limits import Deadline, LimitReached, UsageError, check_count, check_number, check_time_limit, check_workers

app = typer.Typer(help="QANGO: solve positions, verify proofs, generate puzzles and boards, play.",
                  no_args_is_help=True)
puzzle_app = typer.Typer(help="QANGO puzzles: 'X to move wins in k'.", no_args_is_help=True)
board_app = typer.Typer(help="QANGO boards: show and generate.", no_args_is_help=True)
app.add_typer(puzzle_app, name="puzzle")
app.add_typer(board_app, name="board")

BOARD_HELP = "Board: 6, 7, 7plus or a JSON board file (default: from the position, else 6)."
OPENING_HELP = "Opening rule for the first counter (standard, castle, tournament, professionals-1/2, edges)."


def _board_rules(board: Optional[str], opening: Optional[str], option: Optional[List[str]]):
    """(board or None, opening or None, max_counters or None) from --board, --opening and --option."""
    from . import QangoOptions  # start-up: loaded when the command runs

    data = parse_options(option)
    opts = QangoOptions.from_dict(data)  # unknown option names are refused here
    board = board if board is not None else data.get("board")
    opening = opening if opening is not None else data.get("opening")
    if opts.max_counters is not None and not 1 <= opts.max_counters <= 63:
        raise RuleError("max_counters must be between 1 and 63")
    b = None
    if board is not None:
        from .boards import load_board_spec  # start-up: loaded when the command runs

        b = load_board_spec(board)
    return b, opening, opts.max_counters


def _position(spec: str, board, opening: Optional[str], max_counters=None):
    """POSITION (text, 'empty', an ID, inline JSON or a file) on the board with the opening applied:
    (position, puzzle or None, opening name)."""
    from dataclasses import replace

    from .position import Position  # start-up: loaded when the command runs
    from .sources import read_position_source  # start-up: loaded when the command runs

    pos, puz, src_opening = read_position_source(spec, board)
    b = pos.board
    if board is not None and b is not board:
        from .position import _same_board  # start-up: loaded when the command runs

        if not _same_board(replace(b, max_counters=board.max_counters), board):
            raise FormatError(f"the position is on {b.title}, but --board gives {board.title}")
    if max_counters is not None:
        b = replace(b, max_counters=max_counters)
    if opening is not None:
        allowed = b.opening_cells(opening)
    elif pos.allowed_first is not None:
        allowed, opening = pos.allowed_first, src_opening
    else:
        allowed, opening = b.opening_cells("standard"), "standard"
    return Position(b, pos.x, pos.o, allowed).validate(), puz, opening


def _time_limit(value):
    return check_time_limit(value)


@app.command("solve")
def solve_cmd(
    position: Optional[str] = typer.Argument(None, help="Position text (rows by '/' or newline: . X O #), 'empty', a "
                                   "position or puzzle ID, or a file (text or JSON)."),
    board: Optional[str] = typer.Option(None, "--board", "-b", help=BOARD_HELP),
    opening: Optional[str] = typer.Option(None, "--opening", help=OPENING_HELP),
    time_limit: Optional[float] = typer.Option(None, "--time-limit", help="Seconds; past it the value is 'unknown' (0: stop at once)."),
    proof: Optional[Path] = typer.Option(None, "--proof", help="Write a certificate (JSON, .gz to compress) of the value: "
                                         "a win (the shortest, when plies are exact) or a draw; the "
                                         "root of a shipped certificate gets that certificate (--no-book: searched)."),
    method: str = typer.Option("auto", "--method", help="auto (iterative deepening, then df-pn when it runs long), id "
                               "(exact plies), pns (df-pn: value only, plies null) or shortest (df-pn, then the "
                               "exact plies by df-pn with a counter limit)."),
    option: Optional[List[str]] = typer.Option(None, "--option", help="Rule option NAME=VALUE (board, opening, max_counters)."),
    workers: int = typer.Option(1, "--workers", help="Processes for df-pn: 2 shares the root's moves out over two "
                                "forked processes (pays on empty boards, not on short searches)."),
    json_out: bool = typer.Option(False, "--json", help="Print {value, best_move, plies, nodes, complete, source, ...} as JSON."),
    batch: Optional[str] = typer.Option(None, "--batch", help="Many positions: FILE or - with one position, ID, file or JSON position a line; JSON lines out."),
    no_book: bool = typer.Option(False, "--no-book", help="Always search: do not answer from the shipped certificate "
                                 "of the variant (the book answers positions it proves, with --method auto and no --proof)."),
) -> None:
    """Solve a position exactly: value for the side to move, best move, plies to the end, nodes.

    With --method auto a position that the shipped certificate of its variant proves (`qango table`)
    is answered from it ("source": "book", 0 nodes): its value and best move, and plies only at the
    certificate's own root (elsewhere null: the certificate gives no distance); --no-book searches.
    With --proof the book answers only a certificate's root and writes that certificate."""
    if batch is not None:
        from ...cli_batch import run_batch  # start-up: loaded when the command runs

        return run_batch(batch, solve_cmd, dict(locals()), "position", json_field="json_out", refuse=("proof",))
    if position is None:
        raise typer.BadParameter("give a position, 'empty', a puzzle ID or a file (or --batch FILE)", param_hint="POSITION")

    deadline = Deadline(_time_limit(time_limit))
    source = "search"
    if method not in ("auto", "id", "pns", "shortest"):
        raise UsageError(f"unknown --method {method[:40]!r} (auto, id, pns or shortest)")
    b0, opening, max_c = _board_rules(board, opening, option)
    pos, _, opening = _position(position, b0, opening, max_c)
    if deadline.seconds == 0 or deadline.expired():  # stop at once: nothing searched, value unknown
        from .small import SolveResult  # start-up: loaded when the command runs

        res = SolveResult("unknown", None, None, 0, deadline.elapsed(), pos.board)
    else:
        workers = check_workers(workers)
        res = book_doc = None
        if not no_book and method == "auto":
            from .book import book_certificate, book_solve  # start-up: loaded when the command runs

            book_doc = book_certificate(pos) if proof is not None else None
            res = book_solve(pos) if proof is None or book_doc is not None else None
            if res is not None:
                source = "book"
                res.seconds = deadline.elapsed()
        if res is None and proof is None:
            res = _solve_small(pos, deadline, method)
        if res is None:
            from .solve import QangoSolver  # loads numpy (only when this runs)

            solver = QangoSolver(pos.board, pos.allowed_first)
            res = solver.solve(pos, time_limit=deadline.remaining(), method=method, workers=workers)
    if proof is not None:
        if res.value in ("win", "loss", "draw"):
            import json

            if book_doc is not None:  # the shipped certificate of this very position
                doc = book_doc
            else:
                from .cert import make_proof  # loads numpy (only when this runs)

                doc = make_proof(pos, res, solver, max_nodes=20_000_000)
            text = json.dumps(doc, separators=(",", ":"))
            if proof.suffix == ".gz":
                import gzip

                write_bytes(proof, gzip.compress(text.encode("utf-8"), mtime=0), "proof")
            else:
                write_text(proof, text, "proof")
        else:
            typer.echo(f"no proof written: the value is {res.value}", err=True)
    if json_out:
        print_json({**_solve_json(pos, res, opening), "source": source})
        return
    mv = "-" if res.best_move is None else "row {}, col {}".format(*pos.board.rc(res.best_move))
    from .position import value_text  # start-up: loaded when the command runs

    typer.echo(f"{pos.board.title}, {pos.to_move} to move: {value_text(res.value, res.plies, pos.to_move)}"
               + f"; best move {mv}; "
               + (f"{res.nodes} nodes, " if source == "search" else "from the certificate (book), ")
               + f"{res.seconds:.2f} s"
               + ("" if res.value != "unknown" else " (stopped by the time limit)"))


def _solve_small(pos, deadline, method: str):
    """The solve of a position near the end in plain Python (``games/qango/small.py``: the
    kernels' search and answers, without loading numba), or None for the kernels."""
    if not plain_first():
        return None
    from .small import SMALL_NODES, solve_small  # start-up: loaded when the command runs

    return solve_small(pos, deadline.remaining(), method, plain_budget(SMALL_NODES))


def _solve_json(pos, res, opening: str) -> dict:
    """The solve result in the JSON vocabulary (docs/json.md), earlier keys kept."""
    from .ids import position_id  # start-up: loaded when the command runs
    from .position import counters_of  # start-up: loaded when the command runs

    out = res.to_json()
    out["counters"] = counters_of(out.get("plies")) if res.value in ("win", "loss") else None
    complete = res.value != "unknown"
    extra = {"line": [] if res.best_move is None else ["{},{}".format(*pos.board.rc(res.best_move))],
             "to_move": 0 if pos.to_move == "X" else 1, "side": pos.to_move, "complete": complete,
             "seconds": round(float(res.seconds), 3), "id": position_id(pos, opening), "seed_id": None}
    if not complete:
        extra["reason"] = "time limit"
    return {**out, **{k: v for k, v in extra.items() if k not in out}}


@app.command("explore")
def explore_cmd(
    position: str = typer.Argument(..., help="Position text, 'empty', a position or puzzle ID, or a file."),
    board: Optional[str] = typer.Option(None, "--board", "-b", help=BOARD_HELP),
    opening: Optional[str] = typer.Option(None, "--opening", help=OPENING_HELP),
    time_limit: Optional[float] = typer.Option(None, "--time-limit", help="Seconds for the whole command, shared by the moves ('unknown' past it; 0: stop at once)."),
    json_out: bool = typer.Option(False, "--json", help="Print the list of moves as JSON."),
) -> None:
    """Value of every legal move (winning moves first): an explorer of the game tree."""
    from .solve import move_values  # loads numpy (only when this runs)

    limit = _time_limit(time_limit)
    b0, opening, _ = _board_rules(board, opening, None)
    pos, _, _ = _position(position, b0, opening)
    if limit == 0:  # nothing searched: only moves that win on the spot are known
        rows = [{"move": list(pos.board.rc(c)), "cell": c,
                 "value": "win" if pos.play(c).winner() else "unknown",
                 "plies": 1 if pos.play(c).winner() else None} for c in pos.legal_moves()]
        rows.sort(key=lambda r: (r["value"] != "win", r["cell"]))
    else:
        rows = move_values(pos, limit)
    from .position import counters_of, value_text  # start-up: loaded when the command runs

    for r in rows:
        r["counters"] = counters_of(r["plies"]) if r["value"] in ("win", "loss") else None
    if json_out:
        print_json(rows)
        return
    for r in rows:
        typer.echo("row {}, col {}: {}".format(*r["move"], value_text(r["value"], r["plies"], pos.to_move)))


def _read_proof(file: Path):
    """A proof document through the shared input layer (``proof.read_proof_file``)."""
    from .proof import read_proof_file  # start-up: loaded when the command runs

    return read_proof_file(file)


@app.command("verify-proof")
def verify_proof_cmd(
    file: Path = typer.Argument(..., help="Proof file written by `qango solve --proof` (win, loss, no-win or draw)."),
    json_out: bool = typer.Option(False, "--json", help="Print the report as JSON."),
) -> None:
    """Check a proof tree with plain rules code (independent of the solver); exit 1 if it fails."""
    from .proof import verify_proof  # start-up: loaded when the command runs

    doc = _read_proof(file)
    if not isinstance(doc, dict):
        raise FormatError(f"{file}: is not a JSON object, expected a QANGO proof")
    try:
        rep = verify_proof(doc)
    except (TypeError, ValueError, KeyError, IndexError, AttributeError, RecursionError) as e:
        raise FormatError(f"{file}: malformed QANGO proof ({type(e).__name__})") from None
    from .position import counters_of, plies_text  # start-up: loaded when the command runs

    if isinstance(rep.get("plies"), int) and rep["claim"] in ("win", "loss"):
        rep["counters"] = counters_of(rep["plies"])
    if json_out:
        print_json(rep)
    else:
        within = plies_text(rep["plies"]) if isinstance(rep.get("plies"), int) else f"{rep.get('plies')} plies"
        what = {"no-win": f"{rep.get('side')} cannot force a win", "draw": "neither side can force a win"}.get(
            rep["claim"], f"{rep['claim']} within {within}")
        if rep.get("version") == 3 and rep["claim"] == "win":
            what = f"{rep.get('side')} wins within {within}" + (
                ", and not sooner" if rep.get("shortest") else "")
        counted = "positions" if rep.get("version") == 3 else "attacker nodes"
        typer.echo(("valid" if rep["ok"] else "INVALID") + f": claim {what}, "
                   f"{rep['nodes']} {counted} checked" + (f"; {rep['error']}" if rep["error"] else ""))
    if not rep["ok"]:
        raise typer.Exit(1)


@app.command("table")
def table_cmd(
    json_out: bool = typer.Option(False, "--json", help="Print the table as JSON."),
) -> None:
    """The solved values of the empty boards (every board and opening) with their certificate files."""
    from .position import counters_of, value_text  # start-up: loaded when the command runs
    from .table import solved_table  # start-up: loaded when the command runs

    rows = solved_table()
    for r in rows:
        r["counters"] = counters_of(r.get("plies")) if r["value"] in ("win", "loss") else None
        for fm in r.get("first_moves") or []:
            fm["counters"] = counters_of(fm.get("plies")) if fm.get("value") in ("win", "loss") else None
    if json_out:
        print_json(rows)
        return
    for r in rows:
        value = (value_text("win", r["plies"], "X") + ", shortest") if r["value"] == "win" else r["value"]
        cert = f"{r['proof']} ({r['proof_bytes']:,} bytes, {r['checker_nodes']:,} positions)" if r.get("proof") else "-"
        typer.echo(f"{r['board']:>6} {r['opening']:<16} {value:<20} first [{r['first_move'][0]},{r['first_move'][1]}]; "
                   f"certificate {cert}")
        for fm in r.get("first_moves") or []:
            cells = " ".join("[{},{}]".format(*c) for c in fm["cells"])
            cert = f"; proof {fm['proof']} ({fm['proof_bytes']} bytes)" if fm.get("proof") else ""
            typer.echo(f"         first counter {cells}: {value_text(fm['value'], fm.get('plies'), 'X')}{cert}")


@app.command("show")
def show_cmd(
    position: str = typer.Argument("empty", help="Position text, 'empty', a position or puzzle ID, or a file."),
    board: Optional[str] = typer.Option(None, "--board", "-b", help=BOARD_HELP),
    svg: Optional[Path] = typer.Option(None, "--svg", help="Write an SVG picture."),
    json_out: bool = typer.Option(False, "--json", help="Print the position and board as JSON."),
) -> None:
    """Draw a position (terminal colours or SVG)."""
    from .ids import position_id  # start-up: loaded when the command runs
    from .svg import board_svg, board_terminal  # start-up: loaded when the command runs

    b0, _, _ = _board_rules(board, None, None)
    pos, _, opening = _position(position, b0, None)
    if svg:
        write_text(svg, board_svg(pos.board, pos.x, pos.o, title=f"{pos.board.title}, {pos.to_move} to move"))
    if json_out:
        print_json({**pos.to_json(), "outcome": pos.outcome(), "id": position_id(pos, opening)})
    elif not svg:
        typer.echo(board_terminal(pos.board, pos.x, pos.o))


@puzzle_app.command("generate")
def puzzle_generate_cmd(
    board: str = typer.Option("6", "--board", "-b", help=BOARD_HELP + " Board IDs too (qango:board,w=6,h=6#4)."),
    k: int = typer.Option(3, "--k", "-k", help="Moves of the winner (plies = 2k-1), 2..8."),
    count: int = typer.Option(1, "--count", "-n", help="How many puzzles (seeds seed, seed+1, ...), at most 1000."),
    seed: int = typer.Option(0, "--seed", help="Random seed."),
    opening: str = typer.Option("standard", "--opening", help=OPENING_HELP),
    time_limit: Optional[float] = typer.Option(None, "--time-limit", help="Seconds for the whole run (0: stop at once)."),
    out: Optional[Path] = typer.Option(None, "--out", help="Write the puzzle file (JSON; with --count, NAME-i.json)."),
    svg: Optional[Path] = typer.Option(None, "--svg", help="SVG of the (first) puzzle; with --count, NAME-i.svg; answers as NAME-answer.svg."),
    booklet: Optional[Path] = typer.Option(None, "--booklet", help="Printable HTML booklet: a page per puzzle, answers at the back."),
    json_out: bool = typer.Option(False, "--json", help="Print the puzzles as JSON."),
) -> None:
    """Generate 'side to move wins in k' puzzles with a unique winning first move."""
    import json

    from ...generators.ids import MAX_SEED  # start-up: loaded when the command runs
    from .boards import load_board_spec  # start-up: loaded when the command runs
    from .generate import generate_puzzle  # start-up: loaded when the command runs

    deadline = Deadline(_time_limit(time_limit))
    k = check_count(k, "--k", minimum=2, maximum=8)
    count = check_count(count, "--count", maximum=1000)
    seed = check_count(seed, "--seed", minimum=0, maximum=MAX_SEED - count)
    b = load_board_spec(board)
    b.opening_cells(opening)  # an unknown opening is refused before any work
    out_list = []
    try:
        with progress(count, "puzzles", enabled=count > 1) as advance:
            for i in range(count):
                deadline.check("puzzle generation")
                out_list.append(generate_puzzle(b, k, seed + i, opening, deadline=deadline))
                advance()
    except LimitReached as e:
        if not out_list:
            if json_out:
                print_json({"complete": False, "reason": "time limit", "puzzles": []})
                return
            typer.echo(f"no puzzle: {e}", err=True)
            raise typer.Exit(1)
        typer.echo(f"{len(out_list)} of {count} puzzles: {e}", err=True)
    for i, puz in enumerate(out_list):
        if svg:
            path = svg if count == 1 else svg.with_name(f"{svg.stem}-{i}{svg.suffix}")
            write_text(path, puz.svg())
            write_text(path.with_name(f"{path.stem}-answer{path.suffix}"), puz.answer_svg())
        if out:
            path = out if count == 1 else out.with_name(f"{out.stem}-{i}{out.suffix}")
            write_text(path, json.dumps(puz.to_json(), indent=1) + "\n", "puzzle")
    if booklet:
        from ...generators.booklet import BookletPage, booklet_html  # start-up: loaded when the command runs

        pages = [BookletPage(f"{p.position.to_move} to move wins in {p.win_text()} ({p.board.title}, "
                             f"{p.to_json()['difficulty']})", p.svg(), p.answer_svg()) for p in out_list]
        write_text(booklet, booklet_html("QANGO puzzles", pages, "Each puzzle: the side to move "
                                         "forces a win; find its first move."), "booklet")
    if json_out:
        print_json([p.to_json() for p in out_list] if count > 1 else out_list[0].to_json())
        return
    for puz in out_list:
        d = puz.to_json()
        typer.echo(f"{d['id']}  ({d['seed_id'] or 'no seed ID: custom board'}; {d['side']} wins in {puz.win_text()}, "
                   f"{d['difficulty']}, {d['defences']} defences)")


@puzzle_app.command("solve")
def puzzle_solve_cmd(
    puzzle_id: str = typer.Argument(..., help="Puzzle ID (qango:6,k3:ROWS or qango:6,k3#SEED) or a puzzle file "
                                    "(from `puzzle generate --out` or --json)."),
    json_out: bool = typer.Option(False, "--json"),
) -> None:
    """Show a puzzle's key move."""
    from .sources import read_position_source  # start-up: loaded when the command runs

    _, puz, _ = read_position_source(puzzle_id)
    if puz is None:
        raise FormatError("this is a QANGO position, expected a QANGO puzzle (use `qango solve` for positions)")
    if json_out:
        print_json(puz.to_json())
    else:
        typer.echo("key move: row {}, col {}".format(*puz.board.rc(puz.key_move)))


@board_app.command("show")
def board_show_cmd(
    board: str = typer.Argument("6", help=BOARD_HELP + " Board IDs too."),
    svg: Optional[Path] = typer.Option(None, "--svg"),
    json_out: bool = typer.Option(False, "--json"),
) -> None:
    """Show a board: colours, triples, pattern counts, opening rules."""
    from .boards import load_board_spec  # start-up: loaded when the command runs
    from .ids import board_ids  # start-up: loaded when the command runs
    from .svg import board_svg, board_terminal  # start-up: loaded when the command runs

    b = load_board_spec(board)
    if svg:
        write_text(svg, board_svg(b, title=b.title))
    kinds = b.pattern_kinds()
    desc, sid = board_ids(b)
    info = {**b.to_json(), "patterns": {k: kinds.count(k) for k in ("triple", "square", "line")},
            "symmetries": len(b.symmetries), "draw_after": b.limit, "id": desc, "seed_id": sid}
    if json_out:
        print_json(info)
    elif not svg:
        typer.echo(board_terminal(b))
        typer.echo(f"{b.title}: {len(b.cells)} cells, patterns {info['patterns']}, draw after {b.limit} counters, "
                   f"openings {', '.join(b.opening_names())}")


@board_app.command("generate")
def board_generate_cmd(
    width: int = typer.Option(6, "--width", help="Columns, 2..9 (at most 63 cells)."),
    height: int = typer.Option(6, "--height", help="Rows, 2..9."),
    seed: int = typer.Option(0, "--seed"),
    count: int = typer.Option(1, "--count", "-n", help="How many boards, at most 100."),
    score_time: float = typer.Option(5.0, "--score-time", help="Seconds to solve each empty board (0: no score)."),
    out: Optional[Path] = typer.Option(None, "--out", help="Write the (first) board as a JSON board file."),
    svg: Optional[Path] = typer.Option(None, "--svg"),
    json_out: bool = typer.Option(False, "--json"),
) -> None:
    """Generate QANGO-like boards (connected colour triples) and score them by solving the empty board."""
    import json

    from ...generators.ids import MAX_SEED  # start-up: loaded when the command runs
    from .board import BOARD_FORMAT  # start-up: loaded when the command runs
    from .boards import generate_board, score_board  # start-up: loaded when the command runs
    from .ids import board_ids  # start-up: loaded when the command runs
    from .position import value_text  # start-up: loaded when the command runs
    from .svg import board_svg  # start-up: loaded when the command runs

    width = check_count(width, "--width", minimum=2, maximum=9)
    height = check_count(height, "--height", minimum=2, maximum=9)
    if width * height > 63:
        raise UsageError(f"a {width}x{height} board has {width * height} cells; at most 63 (one machine word a side)")
    count = check_count(count, "--count", maximum=100)
    seed = check_count(seed, "--seed", minimum=0, maximum=MAX_SEED - count)
    score_time = _time_limit(score_time)
    results = []
    for i in range(count):
        b = generate_board(width, height, seed + i)
        sc = score_board(b, score_time) if score_time else None
        if sc is not None:
            sc["complete"] = sc["value"] != "unknown"
        results.append((b, sc))
    b0 = results[0][0]
    if out:
        d0, s0 = board_ids(b0)
        write_text(out, json.dumps(tagged(BOARD_FORMAT, {**b0.to_json(), "id": d0, "seed_id": s0}), indent=1),
                   "board")
    if svg:
        write_text(svg, board_svg(b0, title=b0.title))
    if json_out:
        docs = []
        for b, sc in results:
            d, sid = board_ids(b)
            docs.append({"id": d, "seed_id": sid, "board": b.to_json(), "score": sc})
        print_json(docs if count > 1 else docs[0])
        return
    for b, sc in results:
        _, sid = board_ids(b)
        typer.echo(f"{sid}: {len(b.triples)} triples; "
                   + (f"first player {value_text(sc['value'], sc['plies'], 'X')}" if sc else "not scored"))


@app.command("play")
def play_cmd(
    board: str = typer.Option("6", "--board", "-b", help=BOARD_HELP),
    opening: str = typer.Option("standard", "--opening", help=OPENING_HELP),
    bot: str = typer.Option("search", "--bot", help="Bot strength: perfect, search or random."),
    bot2: Optional[str] = typer.Option(None, "--bot2", help="Second bot (bot vs bot; X is --bot)."),
    human: str = typer.Option("X", "--human", help="Side of the human player (X moves first)."),
    seed: int = typer.Option(0, "--seed"),
    think: float = typer.Option(2.0, "--think", help="Seconds per bot move."),
    no_colour: bool = typer.Option(False, "--no-colour"),
    json_out: bool = typer.Option(False, "--json", help="Print the move log as JSON at the end."),
) -> None:
    """Play in the terminal (the common play session): human vs bot, or bot vs bot with --bot2."""
    from ...generators.ids import MAX_SEED  # start-up: loaded when the command runs
    from .boards import load_board_spec  # start-up: loaded when the command runs
    from .bots import make_bot  # start-up: loaded when the command runs

    seed = check_count(seed, "--seed", minimum=0, maximum=MAX_SEED - 1)
    think = check_number("--think", think, minimum=0.001, maximum=3600.0)
    b = load_board_spec(board)
    b.opening_cells(opening)  # an unknown opening is refused before play starts
    if board.strip().lower().startswith(("qango:", "qango-board:")):
        board = b  # a board ID: the board itself goes into the rule options
    from ...cli_play import run_session  # start-up: loaded when the command runs
    from ...play.bots import EngineBot  # start-up: loaded when the command runs
    from ...play.session import PlaySession  # start-up: loaded when the command runs
    from ...play.start import Start  # start-up: loaded when the command runs
    from .. import load_game  # start-up: loaded when the command runs
    from .api_bots import action_of, position_of  # start-up: loaded when the command runs

    def agent(strength: str, seed: int) -> EngineBot:
        f = make_bot(strength, seed, think)
        return EngineBot(strength, lambda st: action_of(st, f(position_of(st))))

    if bot2 is None:  # a person against a bot
        side = human.upper()
        if side not in ("X", "O"):
            raise TanglekitError("--human is X or O")
        seats, agents = (["human", bot], [None, agent(bot, seed)]) if side == "X" else \
            ([bot, "human"], [agent(bot, seed), None])
    else:  # bot against bot: the same session, no person to ask
        seats, agents = [bot, bot2], [agent(bot, seed), agent(bot2, seed + 1)]
    st = load_game("qango", board=board, opening=opening).new_initial_state(seed=seed)
    run_session(PlaySession(Start("qango", st), seats, seed, bots=agents), as_json=json_out)


if __name__ == "__main__":
    from ...cli_common import run_app

    run_app(app)
