"""`tanglekit tangle ...`: play Tangle, find the best turn, generate puzzles, show the board.

Imports only typer and the standard library at module level; the library is imported inside
each command so `tanglekit --help` stays fast.
"""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from ...cli_common import parse_options, print_json, progress, write_text
from ...errors import TanglekitError
from ...jsonio import check_text_arg, load_json_source, short
from ...limits import Deadline, UsageError, check_count, check_number

app = typer.Typer(
    help="Tangle: hex board, pieces on tile sides, capture chains, bots and puzzles.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
board_app = typer.Typer(help="Show the board (and the piece set).", no_args_is_help=True)
puzzle_app = typer.Typer(help="'Score N points this turn' puzzles.", no_args_is_help=True)
app.add_typer(board_app, name="board")
app.add_typer(puzzle_app, name="puzzle")

BOARD_HELP = "Board file, inline JSON or built-in name."
PIECES_HELP = "Piece-set file, inline JSON or built-in name."
OPTION_HELP = "Rule option NAME=VALUE (repeatable), e.g. connection=tile, partners=on."


def _game(board: str, pieces: str, players: int, options: Optional[List[str]]):
    from . import TangleGame, TangleOptions, load_board, load_pieces  # start-up: loaded when the command runs

    return TangleGame(load_board(board), load_pieces(pieces), TangleOptions.from_dict(parse_options(options)), players)


@board_app.command("show")
def board_show(
    board: str = typer.Option("tangle-default", help=BOARD_HELP),
    pieces: str = typer.Option("tangle-default", help=PIECES_HELP),
    svg: Optional[Path] = typer.Option(None, help="Write the board as SVG."),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output."),
) -> None:
    """Print the board rows, tile counts and pieces. Example: tanglekit tangle board show --svg board.svg."""
    from collections import Counter

    from . import TangleGame, load_board, load_pieces  # start-up: loaded when the command runs

    b = load_board(board)
    ps = load_pieces(pieces)
    g = TangleGame(b, ps, players=2)
    if svg is not None:
        from .svg import svg_position  # start-up: loaded when the command runs

        write_text(svg, svg_position(g, title=f"Tangle board {b.name}"))
    kinds = Counter(b.kinds)
    info = {
        "board": b.to_json(),
        "tiles": len(b.tiles),
        "sides": g.n_sides,
        "kinds": dict(kinds),
        "star": list(g.board.tiles[b.star]),
        "pieces": ps.to_json(),
        "placements": g.n_placements,
    }
    if as_json:
        print_json(info)
        return
    rows = b.rows_text()
    for r, line in enumerate(rows):
        typer.echo((" " if (r % 2 == 0) == (b.offset == "even-r") else "") + " ".join(line))
    typer.echo(f"{len(b.tiles)} tiles ({', '.join(f'{v} {k}' for k, v in sorted(kinds.items()))}), "
               f"{g.n_sides} sides{' [assumed layout]' if b.assumed else ''}")
    typer.echo("pieces: " + ", ".join(f"{k.name} ({k.size} sides, value {k.value}) x{k.count}" for k in ps.kinds))


def _seed(seed: int, name: str = "--seed") -> int:
    return check_number(name, seed, maximum=2**63 - 1, integer=True)


@app.command("best-turn")
def best_turn_cmd(
    state: str = typer.Argument(..., help="State or puzzle JSON file (or inline JSON), or a puzzle ID (tangle:...)."),
    mode: str = typer.Option("points", help="points (most points) or safe (most points leaving no capture)."),
    as_json: bool = typer.Option(False, "--json", help='Print {"points": p, "line": [...], "complete": ..., ...}.'),
    svg: Optional[Path] = typer.Option(None, help="Draw the position with the chain highlighted."),
    node_limit: int = typer.Option(300_000, help="Search budget in nodes (0 stops at once); past it the best chain found is shown, not proven."),
    time_limit: Optional[float] = typer.Option(None, "--time-limit", help="Stop after S seconds, loading included (0 stops at once)."),
) -> None:
    """Best capture chain for the player to move. Example: tanglekit tangle best-turn p.json --json."""

    deadline = Deadline(time_limit)
    node_limit = check_count(node_limit, "--node-limit", minimum=0, maximum=10**8)
    if mode not in ("points", "safe"):
        raise UsageError(f"--mode must be points or safe, not {mode[:20]!r}")
    from .generate import load_state_or_id  # loads pydantic (only when this runs)
    from .search import best_turn  # loads pydantic (only when this runs)

    s = load_state_or_id(state)
    if s.over:
        raise TanglekitError("the game is over: no player to move, so no turn to find "
                             "(give a position from before the end, e.g. play --moves N --save)")
    r = best_turn(s, mode, node_limit=node_limit, partial=True, deadline=deadline)
    if not r.exact:
        limit = f"{node_limit} nodes" if r.reason == "node limit" else f"{time_limit:g} s"
        what = "the chain shown is the best found, not proven best" if mode == "points" else "no answer"
        typer.echo(f"warning: search stopped at its {r.reason} ({limit}); {what}", err=True)
    known = r.exact or mode == "points"
    if svg is not None:
        from .svg import svg_position  # start-up: loaded when the command runs

        title = f"best turn: {r.points} points" if known else "best turn: unknown (search stopped)"
        write_text(svg, svg_position(s.game, s, highlight=r.placements, title=title))
    if as_json:
        out = r.to_json(s)
        res = {"points": out["points"] if known else None, "placements": out["placements"], "moves": out["moves"],
               "line": out["moves"], "mode": mode, "safe": out["safe"] if r.exact else (True if known else None),
               "exact": r.exact, "complete": r.exact, "nodes": r.nodes, "player": s.to_move, "to_move": s.to_move,
               "seconds": round(deadline.elapsed(), 4)}
        if not r.exact:
            res["reason"] = r.reason
        print_json(res)
        return
    if not known:
        typer.echo(f"player {s.to_move}: unknown (search stopped)")
        return
    note = "" if r.safe else " (no safe turn exists)"
    typer.echo(f"player {s.to_move}: {'at least ' if not r.exact else ''}{r.points} points{note}")
    for i, p in enumerate(r.placements, 1):
        typer.echo(f"  {i}. {s.game.move_text(p)}")


@app.command("play")
def play(
    players: int = typer.Option(2, help="Number of players (2-4)."),
    bots: str = typer.Option("lookahead,greedy", help="Comma-separated seat list: random, greedy, builder, lookahead or human (repeats the last to fill)."),
    seed: int = typer.Option(0, help="Seed for the bots."),
    board: str = typer.Option("tangle-default", help=BOARD_HELP),
    pieces: str = typer.Option("tangle-default", help=PIECES_HELP),
    option: Optional[List[str]] = typer.Option(None, "--option", help=OPTION_HELP),
    start: Optional[str] = typer.Option(None, "--from", help="Continue from a state file or puzzle ID."),
    moves: Optional[int] = typer.Option(None, "--moves", help="Stop after N more moves (the saved state then has a player to move)."),
    save: Optional[Path] = typer.Option(None, help="Write the final state (move log) as JSON."),
    svg: Optional[Path] = typer.Option(None, help="Draw the final position as SVG."),
    as_json: bool = typer.Option(False, "--json", help="Print the final state as JSON."),
) -> None:
    """Play a game (bots and/or humans). Example: tanglekit tangle play --bots lookahead,random --seed 3."""
    from . import PASS  # start-up: loaded when the command runs
    from .bots import BOTS, make_bot  # loads pydantic (only when this runs)

    seed = _seed(seed)
    check_count(players, "--players", minimum=2, maximum=4)
    moves = check_count(moves, "--moves", minimum=0, maximum=100_000, allow_none=True)
    if start is not None:
        from .generate import load_state_or_id  # loads pydantic (only when this runs)

        s = load_state_or_id(start)
        g = s.game
    else:
        g = _game(board, pieces, players, option)
        s = g.new_state()
    names = [n.strip() for n in bots.split(",") if n.strip()]
    if not names:
        raise TanglekitError("--bots needs at least one name")
    names = (names + [names[-1]] * g.n_players)[: g.n_players]
    seats = []
    for i, n in enumerate(names):
        if n == "human":
            seats.append(None)
        elif n in BOTS:
            seats.append(make_bot(n, seed * 7919 + i))
        else:
            raise TanglekitError(f"unknown player kind {short(n)}: expected human or one of {', '.join(BOTS)}")
    if any(b is None for b in seats):  # people at the table: the common terminal play
        from ...cli_play import run_session  # start-up: loaded when the command runs
        from ...play.session import PlaySession  # start-up: loaded when the command runs
        from ...play.start import Start  # start-up: loaded when the command runs
        from .plugin import api_state as tangle_api_state  # start-up: loaded when the command runs

        st = tangle_api_state(s)
        sess = PlaySession(Start("tangle", st), names, seed, bots=[
            None if b is None else _api_bot(b) for b in seats])
        run_session(sess, as_json=as_json)
        s = sess.state.engine
        if save is not None:
            import json

            write_text(save, json.dumps(s.to_json(), indent=1), "state")
        if svg is not None:
            from .svg import svg_position  # start-up: loaded when the command runs

            write_text(svg, svg_position(g, s, title=s.summary()))
        return
    quiet = as_json
    played = 0
    while not s.over and (moves is None or played < moves):
        played += 1
        p = seats[s.to_move].choose(s)
        who = s.to_move
        caps = s.push(p)
        if not quiet:
            note = f"  captures {len(caps)} tile(s), +{sum(c.points for c in caps)}" if caps else ""
            typer.echo(f"player {who} ({names[who]}): {g.move_text(p) if p != PASS else 'pass'}{note}")
    if save is not None:
        import json

        write_text(save, json.dumps(s.to_json(), indent=1), "state")
    if svg is not None:
        from .svg import svg_position  # start-up: loaded when the command runs

        write_text(svg, svg_position(g, s, title=s.summary()))
    if as_json:
        out = s.to_json()
        out["winners"] = s.winners() if s.over else []
        print_json(out)
        return
    typer.echo(s.summary())
    if s.over:
        w = s.winners()
        label = "team" if g.options.partners else "player"
        typer.echo(("winner: " if len(w) == 1 else "draw between: ") + ", ".join(f"{label} {t}" for t in w))


def _api_bot(b):
    """A Tangle engine bot as a bot of the common protocol."""
    from ...play.bots import EngineBot  # start-up: loaded when the command runs

    return EngineBot(b.name, lambda st: st.action_of(b.choose(st.engine)))


@app.command("match")
def match(
    bot_a: str = typer.Argument(..., help="First bot: random, greedy, builder or lookahead."),
    bot_b: str = typer.Argument(..., help="Second bot."),
    games: int = typer.Option(200, help="Number of games (seats alternate)."),
    seed: int = typer.Option(0, help="Seed."),
    opening: int = typer.Option(4, help="Random opening placements shared by each pair of games (seats swapped)."),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output."),
) -> None:
    """Two-player bot match. Example: tanglekit tangle match lookahead greedy --games 200."""
    from .bots import make_bot, run_match  # loads pydantic (only when this runs)

    games = check_count(games, "--games", minimum=1, maximum=100_000)
    opening = check_count(opening, "--opening", minimum=0, maximum=40)
    seed = _seed(seed)
    make_bot(bot_a), make_bot(bot_b)  # validate names first
    with progress(games, f"{bot_a} v {bot_b}", enabled=not as_json) as advance:
        r = run_match(bot_a, bot_b, games=games, seed=seed, progress=advance, opening=opening)
    if as_json:
        print_json({"a": bot_a, "b": bot_b, "games": games, "wins": [r.wins_a, r.wins_b], "wins_a": r.wins_a, "wins_b": r.wins_b,
                    "draws": r.draws, "mean_points_a": r.points_a / games, "mean_points_b": r.points_b / games,
                    "distinct_games": r.distinct})
        return
    typer.echo("| match | games | wins A | wins B | draws | mean A | mean B | distinct games |\n|---|---|---|---|---|---|---|---|")
    typer.echo(r.row())


@puzzle_app.command("generate")
def puzzle_generate(
    seed: int = typer.Option(0, help="Seed (the puzzle's seed ID regenerates it)."),
    count: int = typer.Option(1, help="Number of puzzles (seeds seed, seed+1, ...)."),
    min_points: int = typer.Option(10, help="Smallest best-chain score accepted."),
    min_chain: int = typer.Option(2, help="Fewest placements in the best chain."),
    hard: bool = typer.Option(False, "--hard", help="Only puzzles where taking the biggest capture each time falls short."),
    players: int = typer.Option(2, help="Players (2-4)."),
    board: str = typer.Option("tangle-default", help=BOARD_HELP + " (a file is carried inside the IDs)."),
    pieces: str = typer.Option("tangle-default", help=PIECES_HELP),
    option: Optional[List[str]] = typer.Option(None, "--option", help=OPTION_HELP),
    out: Optional[Path] = typer.Option(None, help="Write the puzzle JSON (with count > 1: a JSON list)."),
    svg: Optional[Path] = typer.Option(None, help="Draw the (first) puzzle position as SVG."),
    solution_svg: Optional[Path] = typer.Option(None, help="Draw the (first) puzzle with its solution."),
    booklet: Optional[Path] = typer.Option(None, "--booklet", help="Printable HTML booklet: a page per puzzle, answers at the back."),
    as_json: bool = typer.Option(False, "--json", help="Print the puzzle(s) as JSON."),
) -> None:
    """Generate verified puzzles. Example: tanglekit tangle puzzle generate --seed 4 --svg p.svg."""
    import json

    from .generate import generate_puzzle, puzzle_answer_svg, puzzle_svg  # loads pydantic (only when this runs)

    seed = _seed(seed)
    count = check_count(count, "--count", minimum=1, maximum=1000)
    if seed + count - 1 > 2**63 - 1:
        raise TanglekitError("--seed + --count goes past the largest seed (2**63 - 1)")
    min_points = check_count(min_points, "--min-points", minimum=0, maximum=10_000)
    min_chain = check_count(min_chain, "--min-chain", minimum=1, maximum=100)
    check_count(players, "--players", minimum=2, maximum=4)
    g = _game(board, pieces, players, option)
    found = []
    with progress(count, "puzzles", enabled=count > 1 and not as_json) as advance:
        for i in range(count):
            found.append(generate_puzzle(g, seed=seed + i, min_points=min_points, min_chain=min_chain, hard=hard))
            advance()
    if out is not None:
        write_text(out, json.dumps(found[0] if count == 1 else found, indent=1), "puzzle")
    if svg is not None or solution_svg is not None:
        if svg is not None:
            write_text(svg, puzzle_svg(g, found[0]))
        if solution_svg is not None:
            write_text(solution_svg, puzzle_answer_svg(g, found[0]))
    if booklet is not None:
        from ...generators.booklet import BookletPage, booklet_html  # start-up: loaded when the command runs

        pages = [BookletPage(p["question"], puzzle_svg(g, p), puzzle_answer_svg(g, p)) for p in found]
        write_text(booklet, booklet_html("Tangle puzzles", pages, "Find the turn that scores the most points."),
                   "booklet")
    if as_json:
        print_json(found[0] if count == 1 else found)
        return
    for p in found:
        typer.echo(p["question"])
        typer.echo(f"  id: {p['id']}")
        typer.echo(f"  seed id: {p['seed_id']}")
        typer.echo(f"  chain of {p['chain_length']}, greedy play scores {p['greedy_points']}")


@puzzle_app.command("check")
def puzzle_check(
    puzzle: str = typer.Argument(..., help="Puzzle JSON file (one puzzle or a list, as generate --out writes), or a seed ID."),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output."),
) -> None:
    """Re-verify a puzzle with the solver. Example: tanglekit tangle puzzle check p.json."""
    from ...generators.ids import looks_like_id, resolve  # start-up: loaded when the command runs
    from .formats import PUZZLE  # loads pydantic (only when this runs)
    from .generate import verify_puzzle  # loads pydantic (only when this runs)

    check_text_arg(puzzle, "puzzle")
    if "\n" in puzzle or "\r" in puzzle:
        raise TanglekitError("puzzle: a file name or ID has no line breaks")
    if looks_like_id(puzzle):
        if not puzzle.strip().lower().startswith("tangle:"):
            raise TanglekitError(f"this is a {puzzle.split(':')[0][:20]} ID, expected a Tangle puzzle ID")
        inst = resolve(puzzle, expect="tangle-puzzle")
        if "puzzle" not in inst.extra:
            raise TanglekitError("a descriptive ID holds the position only, not the puzzle's claim: "
                                 "check the seed ID (tangle:PARAMS#SEED) or the puzzle file")
        items, where = [inst.extra["puzzle"]], "ID"
    else:
        data, where = load_json_source(puzzle, "Tangle puzzle")
        items = data if isinstance(data, list) and data else [data]
        if len(items) > 1000:
            raise TanglekitError(f"{where}: {len(items)} puzzles in one file (at most 1000)")
    results = []
    for i, item in enumerate(items):
        label = where if len(items) == 1 else f"{where} puzzle {i + 1}"
        ok = verify_puzzle(item, label, expect=PUZZLE)
        results.append({"valid": ok, "points": item.get("points"), "id": item.get("id"), "seed_id": item.get("seed_id")})
    if as_json:
        print_json(results[0] if len(results) == 1 else results)
    else:
        for i, r in enumerate(results):
            typer.echo(("" if len(results) == 1 else f"{i + 1}: ") + ("valid" if r["valid"] else "INVALID"))
    if not all(r["valid"] for r in results):
        raise typer.Exit(1)


if __name__ == "__main__":
    from ...cli_common import run_app

    run_app(app)
