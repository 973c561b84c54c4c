"""`tanglekit qango ...`: solve positions, write and verify proofs, generate puzzles and boards, play.

Only typer and the standard library are imported at module level; the library (numpy, numba,
ortools) is imported inside the commands so `tanglekit --help` stays fast.
"""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from .cli_common import parse_options, print_json, write_text

app = typer.Typer(help="QANGO: solve positions, verify proofs, generate puzzles and boards, play.",
                  no_args_is_help=True)
puzzle_app = typer.Typer(help="QANGO puzzles: 'X to move wins in k'.", no_args_is_help=True)
board_app = typer.Typer(help="QANGO boards: show and generate.", no_args_is_help=True)
app.add_typer(puzzle_app, name="puzzle")
app.add_typer(board_app, name="board")

BOARD_HELP = "Board: 6, 7, 7plus or a JSON board file (default: from the position, else 6)."
OPENING_HELP = "Opening rule for the first counter (standard, castle, tournament, professionals-1/2, edges)."


def _options(board: Optional[str], opening: Optional[str], option: Optional[List[str]]):
    from .games.qango import QangoOptions

    data = parse_options(option)
    if board is not None:
        data["board"] = board
    if opening is not None:
        data["opening"] = opening
    return QangoOptions.from_dict(data), board is not None or "board" in parse_options(option)


def _read_position(spec: str, board, allowed):
    """POSITION as text, ``empty``, a puzzle ID or a file holding any of those (or JSON)."""
    from .games.qango import parse_position

    try:
        if Path(spec).is_file():
            spec = Path(spec).read_text(encoding="utf-8")
    except OSError:
        pass
    s = spec.strip()
    if s.startswith("qango:"):
        from .generators.qango import puzzle_from_id

        puz = puzzle_from_id(s.splitlines()[0])
        return puz.position
    return parse_position(s, board, allowed)


@app.command("solve")
def solve_cmd(
    position: Optional[str] = typer.Argument(None, help="Position text (rows by '/' or newline: . X O #), 'empty', a puzzle ID or a file."),
    board: Optional[str] = typer.Option(None, "--board", "-b", help=BOARD_HELP),
    opening: Optional[str] = typer.Option(None, "--opening", help=OPENING_HELP),
    time_limit: Optional[float] = typer.Option(None, "--time-limit", help="Seconds; past it the value is 'unknown'."),
    proof: Optional[Path] = typer.Option(None, "--proof", help="Write a proof tree (JSON) for a win or loss."),
    method: str = typer.Option("auto", "--method", help="auto (iterative deepening, then df-pn when it runs long), id "
                               "(exact plies) or pns (df-pn: value only, plies null)."),
    option: Optional[List[str]] = typer.Option(None, "--option", help="Rule option NAME=VALUE (board, opening, max_counters)."),
    json_out: bool = typer.Option(False, "--json", help="Print {value, best_move, plies, nodes} as JSON."),
    batch: Optional[str] = typer.Option(None, "--batch", help="Many positions: FILE or - with one position, ID, file or JSON position a line; JSON lines out."),
) -> None:
    """Solve a position exactly: value for the side to move, best move, plies to the end, nodes."""
    if batch is not None:
        from .cli_batch import run_batch

        return run_batch(batch, solve_cmd, dict(locals()), "position", json_field="json_out", refuse=("proof",))
    if position is None:
        raise typer.BadParameter("give a position, 'empty', a puzzle ID or a file (or --batch FILE)", param_hint="POSITION")
    from .games.qango.position import Position
    from .solver.qango_solve import QangoSolver, make_proof

    opts, board_given = _options(board, opening, option)
    b0 = None
    if board_given or position.strip().lower() == "empty":
        b, allowed = opts.resolve()
        b0 = b
    pos = _read_position(position, b0, None)
    if b0 is None:  # board from the position; apply max_counters and the opening to it
        from dataclasses import replace

        b = pos.board
        if opts.max_counters is not None:
            b = replace(b, max_counters=opts.max_counters)
        allowed = b.opening_cells(opts.opening)
        pos = Position(b, pos.x, pos.o, allowed).validate()
    else:
        pos = Position(b, pos.x, pos.o, allowed).validate()
    if method not in ("auto", "id", "pns"):
        raise typer.BadParameter(f"unknown method {method!r} (auto, id or pns)", param_hint="--method")
    solver = QangoSolver(pos.board, pos.allowed_first)
    res = solver.solve(pos, time_limit=time_limit, method=method)
    if proof is not None:
        if res.value in ("win", "loss"):
            import json

            doc = make_proof(pos, res, solver, max_nodes=20_000_000)
            text = json.dumps(doc, separators=(",", ":"))
            if proof.suffix == ".gz":
                import gzip

                try:
                    with gzip.open(proof, "wt", encoding="utf-8") as fh:
                        fh.write(text)
                except OSError as e:
                    from .errors import FormatError

                    raise FormatError(f"cannot write proof {proof}: {e.strerror or e}") from None
            else:
                write_text(proof, text, "proof")
        else:
            typer.echo(f"no proof written: the value is {res.value}", err=True)
    if json_out:
        print_json(res.to_json())
        return
    mv = "-" if res.best_move is None else "row {}, col {}".format(*pos.board.rc(res.best_move))
    typer.echo(f"{pos.board.title}, {pos.to_move} to move: {res.value}"
               + (f" in {res.plies} plies" if res.plies is not None else "")
               + f"; best move {mv}; {res.nodes} nodes, {res.seconds:.2f} s")


@app.command("explore")
def explore_cmd(
    position: str = typer.Argument(..., help="Position text, 'empty', a puzzle ID or a file."),
    board: Optional[str] = typer.Option(None, "--board", "-b", help=BOARD_HELP),
    opening: Optional[str] = typer.Option(None, "--opening", help=OPENING_HELP),
    time_limit: Optional[float] = typer.Option(None, "--time-limit", help="Seconds per move ('unknown' past it)."),
    json_out: bool = typer.Option(False, "--json", help="Print the list of moves as JSON."),
) -> None:
    """Value of every legal move (winning moves first): an explorer of the game tree."""
    from .games.qango import load_board
    from .games.qango.position import Position
    from .solver.qango_solve import move_values

    b = load_board(board) if board else None
    pos = _read_position(position, b, None)
    allowed = pos.board.opening_cells(opening or "standard")
    pos = Position(pos.board, pos.x, pos.o, allowed).validate()
    rows = move_values(pos, time_limit)
    if json_out:
        print_json(rows)
        return
    for r in rows:
        typer.echo("row {}, col {}: {}".format(*r["move"], r["value"]) + (f" in {r['plies']}" if r["plies"] else ""))


@app.command("verify-proof")
def verify_proof_cmd(
    file: Path = typer.Argument(..., help="Proof file written by `qango solve --proof`."),
    json_out: bool = typer.Option(False, "--json", help="Print the report as JSON."),
) -> None:
    """Check a proof tree with plain rules code (independent of the solver); exit 1 if it fails."""
    from .games.qango.proof import verify_proof

    rep = verify_proof(file)
    if json_out:
        print_json(rep)
    else:
        typer.echo(("valid" if rep["ok"] else "INVALID") + f": claim {rep['claim']} within {rep['plies']} plies, "
                   f"{rep['nodes']} attacker nodes checked" + (f"; {rep['error']}" if rep["error"] else ""))
    if not rep["ok"]:
        raise typer.Exit(1)


@app.command("show")
def show_cmd(
    position: str = typer.Argument("empty", help="Position text, 'empty', a puzzle ID or a file."),
    board: Optional[str] = typer.Option(None, "--board", "-b", help=BOARD_HELP),
    svg: Optional[Path] = typer.Option(None, "--svg", help="Write an SVG picture."),
    json_out: bool = typer.Option(False, "--json", help="Print the position and board as JSON."),
) -> None:
    """Draw a position (terminal colours or SVG)."""
    from .games.qango import load_board
    from .games.qango.svg import board_svg, board_terminal

    b = load_board(board) if board else None
    pos = _read_position(position, b, None)
    if svg:
        write_text(svg, board_svg(pos.board, pos.x, pos.o, title=f"{pos.board.title}, {pos.to_move} to move"))
    if json_out:
        print_json({**pos.to_json(), "outcome": pos.outcome()})
    elif not svg:
        typer.echo(board_terminal(pos.board, pos.x, pos.o))


@puzzle_app.command("generate")
def puzzle_generate_cmd(
    board: str = typer.Option("6", "--board", "-b", help=BOARD_HELP),
    k: int = typer.Option(3, "--k", "-k", help="Moves of the winner (plies = 2k-1)."),
    count: int = typer.Option(1, "--count", "-n", help="How many puzzles (seeds seed, seed+1, ...)."),
    seed: int = typer.Option(0, "--seed", help="Random seed."),
    opening: str = typer.Option("standard", "--opening", help=OPENING_HELP),
    svg: Optional[Path] = typer.Option(None, "--svg", help="SVG of the (first) puzzle; with --count, NAME-i.svg; answers as NAME-answer.svg."),
    booklet: Optional[Path] = typer.Option(None, "--booklet", help="Printable HTML booklet: a page per puzzle, answers at the back."),
    json_out: bool = typer.Option(False, "--json", help="Print the puzzles as JSON."),
) -> None:
    """Generate 'side to move wins in k' puzzles with a unique winning first move."""
    from .cli_common import progress
    from .generators.qango import generate_puzzle

    out = []
    with progress(count, "puzzles", enabled=count > 1) as advance:
        for i in range(count):
            out.append(generate_puzzle(board, k, seed + i, opening))
            advance()
    for i, puz in enumerate(out):
        if svg:
            path = svg if count == 1 else svg.with_name(f"{svg.stem}-{i}{svg.suffix}")
            write_text(path, puz.svg())
            write_text(path.with_name(f"{path.stem}-answer{path.suffix}"), puz.answer_svg())
    if booklet:
        from .generators.booklet import BookletPage, booklet_html

        pages = [BookletPage(f"{p.position.to_move} to move wins in {p.k} ({p.board.title}, "
                             f"{p.to_json()['grade']})", p.svg(), p.answer_svg()) for p in out]
        write_text(booklet, booklet_html("QANGO puzzles", pages, "Each puzzle: the side to move "
                                         "forces a win; find its first move."), "booklet")
    if json_out:
        print_json([p.to_json() for p in out] if count > 1 else out[0].to_json())
        return
    for puz in out:
        d = puz.to_json()
        typer.echo(f"{d['id']}  ({d['seed_id']}; {d['to_move']} wins in {k}, grade {d['grade']}, "
                   f"{d['defences']} defences)")


@puzzle_app.command("solve")
def puzzle_solve_cmd(
    puzzle_id: str = typer.Argument(..., help="Puzzle ID (qango:BOARD:kK:POSITION or qango:BOARD:kK#SEED) or file."),
    json_out: bool = typer.Option(False, "--json"),
) -> None:
    """Show a puzzle's key move."""
    from .generators.qango import puzzle_from_id

    spec = Path(puzzle_id).read_text().strip() if Path(puzzle_id).is_file() else puzzle_id
    puz = puzzle_from_id(spec)
    if json_out:
        print_json(puz.to_json())
    else:
        typer.echo("key move: row {}, col {}".format(*puz.board.rc(puz.key_move)))


@board_app.command("show")
def board_show_cmd(
    board: str = typer.Argument("6", help=BOARD_HELP),
    svg: Optional[Path] = typer.Option(None, "--svg"),
    json_out: bool = typer.Option(False, "--json"),
) -> None:
    """Show a board: colours, triples, pattern counts, opening rules."""
    from .games.qango import load_board
    from .games.qango.svg import board_svg, board_terminal

    b = load_board(board)
    if svg:
        write_text(svg, board_svg(b, title=b.title))
    kinds = b.pattern_kinds()
    info = {**b.to_json(), "patterns": {k: kinds.count(k) for k in ("triple", "square", "line")},
            "symmetries": len(b.symmetries), "draw_after": b.limit}
    if json_out:
        print_json(info)
    elif not svg:
        typer.echo(board_terminal(b))
        typer.echo(f"{b.title}: {len(b.cells)} cells, patterns {info['patterns']}, draw after {b.limit} counters, "
                   f"openings {', '.join(b.opening_names())}")


@board_app.command("generate")
def board_generate_cmd(
    width: int = typer.Option(6, "--width"),
    height: int = typer.Option(6, "--height"),
    seed: int = typer.Option(0, "--seed"),
    count: int = typer.Option(1, "--count", "-n"),
    score_time: float = typer.Option(5.0, "--score-time", help="Seconds to solve each empty board (0: no score)."),
    out: Optional[Path] = typer.Option(None, "--out", help="Write the (first) board as a JSON board file."),
    svg: Optional[Path] = typer.Option(None, "--svg"),
    json_out: bool = typer.Option(False, "--json"),
) -> None:
    """Generate QANGO-like boards (connected colour triples) and score them by solving the empty board."""
    import json

    from .generators.qango import generate_board, score_board
    from .games.qango.svg import board_svg

    results = []
    for i in range(count):
        b = generate_board(width, height, seed + i)
        sc = score_board(b, score_time) if score_time > 0 else None
        results.append((b, sc))
    b0 = results[0][0]
    if out:
        write_text(out, json.dumps(b0.to_json(), indent=1), "board")
    if svg:
        write_text(svg, board_svg(b0, title=b0.title))
    if json_out:
        docs = [{"id": f"qango-board:{width}x{height}#{seed + i}",
                 "board": b.to_json(), "score": sc} for i, (b, sc) in enumerate(results)]
        print_json(docs if count > 1 else docs[0])
        return
    for i, (b, sc) in enumerate(results):
        typer.echo(f"qango-board:{width}x{height}#{seed + i}: {len(b.triples)} triples; "
                   + (f"first player {sc['value']}" + (f" in {sc['plies']} plies" if sc["plies"] else "")
                      if sc else "not scored"))


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
    """Play in the terminal: human vs bot (enter 'row col'; 'u' undoes, 'q' quits) or bot vs bot."""
    from .games.qango import Game, QangoOptions
    from .solver.qango_bots import make_bot
    from .games.qango.svg import board_terminal

    if bot2 is None:  # a person against a bot: the common terminal play (`tanglekit play qango`)
        from .cli_play import run_session
        from .errors import TanglekitError
        from .games import load_game
        from .generators.play import PlaySession, Start
        from .solver.bots import EngineBot, native_action

        side = human.upper()
        if side not in ("X", "O"):
            raise TanglekitError("--human is X or O")
        f = make_bot(bot, seed, think)
        agent = EngineBot(bot, lambda eng: f(eng.position), native_action)
        seats, agents = (["human", bot], [None, agent]) if side == "X" else ([bot, "human"], [agent, None])
        st = load_game("qango", board=board, opening=opening).new_initial_state(seed=seed)
        run_session(PlaySession(Start("qango", st), seats, seed, bots=agents), as_json=json_out)
        return
    g = Game(QangoOptions(board=board, opening=opening))
    bots = {"X": make_bot(bot, seed, think), "O": make_bot(bot2 or bot, seed + 1, think)}
    while g.position.outcome() is None:
        p = g.position
        typer.echo(board_terminal(p.board, p.x, p.o, colour=not no_colour, last=g.moves[-1] if g.moves else None))
        agent = bots[p.to_move]
        if agent is None:
            s = typer.prompt(f"{p.to_move} to move (row col, u=undo, q=quit)")
            if s.strip().lower() == "q":
                break
            if s.strip().lower() == "u":
                for _ in range(2 if len(g.moves) >= 2 else len(g.moves)):
                    g.undo()
                continue
            try:
                r, c = (int(v) for v in s.replace(",", " ").split())
                g.play(r * p.board.width + c)
            except (ValueError, Exception) as e:  # noqa: BLE001 - keep the game running on bad input
                typer.echo(f"  {e if str(e) else 'enter: row col'}")
            continue
        m = agent(p)
        typer.echo("{} plays row {}, col {}".format(p.to_move, *p.board.rc(m)))
        g.play(m)
    p = g.position
    typer.echo(board_terminal(p.board, p.x, p.o, colour=not no_colour))
    outcome = p.outcome()
    typer.echo(f"result: {outcome or 'unfinished'}")
    if json_out:
        print_json({**g.log(), "outcome": outcome})


if __name__ == "__main__":
    from .cli_common import run_app

    run_app(app)
