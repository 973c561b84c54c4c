"""`tanglekit tangle ...`: play Tangle, find the best turn, generate puzzles, show the board.

Imports only typer and the standard library at module level; the library is imported inside
each command so `tanglekit --help` stays fast.
"""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from .cli_common import parse_options, print_json, progress, write_text
from .errors import TanglekitError

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

BOARD_HELP = "Board file or built-in name."
PIECES_HELP = "Piece-set file or built-in name."
OPTION_HELP = "Rule option NAME=VALUE (repeatable), e.g. connection=tile, partners=on."


def _game(board: str, pieces: str, players: int, options: Optional[List[str]]):
    from .games.tangle import TangleGame, TangleOptions, load_board, load_pieces

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

    from .games.tangle import TangleGame, load_board, load_pieces

    b = load_board(board)
    ps = load_pieces(pieces)
    g = TangleGame(b, ps, players=2)
    if svg is not None:
        from .games.tangle.svg import svg_position

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


@app.command("best-turn")
def best_turn_cmd(
    state: str = typer.Argument(..., help="State or puzzle JSON file, or a puzzle ID (tangle:...)."),
    mode: str = typer.Option("points", help="points (most points) or safe (most points leaving no capture)."),
    as_json: bool = typer.Option(False, "--json", help='Print {"points": p, "placements": [...]}.'),
    svg: Optional[Path] = typer.Option(None, help="Draw the position with the chain highlighted."),
    node_limit: int = typer.Option(300_000, help="Search budget; a position with very many open captures may need more."),
) -> None:
    """Best capture chain for the player to move. Example: tanglekit tangle best-turn state.json --json."""
    from .generators.tangle import load_state_or_id
    from .solver.tangle_search import best_turn

    s = load_state_or_id(state)
    r = best_turn(s, mode, node_limit=node_limit, partial=True)
    if not r.exact:
        typer.echo(f"warning: search stopped at {node_limit} nodes; the chain shown is the best found, "
                   "not proven best (raise --node-limit)", err=True)
    if svg is not None:
        from .games.tangle.svg import svg_position

        write_text(svg, svg_position(s.game, s, highlight=r.placements, title=f"best turn: {r.points} points"))
    if as_json:
        out = r.to_json(s)
        print_json({"points": out["points"], "placements": out["placements"], "moves": out["moves"],
                    "mode": mode, "safe": out["safe"], "exact": out["exact"]})
        return
    typer.echo(f"player {s.to_move}: {r.points} points{'' if r.safe else ' (no safe turn exists)'}")
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
    save: Optional[Path] = typer.Option(None, help="Write the final state (move log) as JSON."),
    svg: Optional[Path] = typer.Option(None, help="Draw the final position as SVG."),
    as_json: bool = typer.Option(False, "--json", help="Print the final state as JSON."),
) -> None:
    """Play a game (bots and/or humans). Example: tanglekit tangle play --bots lookahead,random --seed 3."""
    from .games.tangle import PASS
    from .solver.tangle_bots import BOTS, make_bot

    if start is not None:
        from .generators.tangle import load_state_or_id

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
            raise TanglekitError(f"unknown player kind {n!r}: expected human or one of {', '.join(BOTS)}")
    if any(b is None for b in seats):  # people at the table: the common terminal play
        from .cli_play import run_session
        from .generators.play import PlaySession, Start, tangle_api_state

        st = tangle_api_state(s)
        sess = PlaySession(Start("tangle", st), names, seed, bots=[
            None if b is None else _api_bot(b) for b in seats])
        run_session(sess, as_json=as_json)
        s = sess.state.engine
        if save is not None:
            import json

            write_text(save, json.dumps(s.to_json(), indent=1), "state")
        if svg is not None:
            from .games.tangle.svg import svg_position

            write_text(svg, svg_position(g, s, title=s.summary()))
        return
    quiet = as_json
    while not s.over:
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
        from .games.tangle.svg import svg_position

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
    from .solver.bots import EngineBot, tangle_action

    return EngineBot(b.name, b.choose, tangle_action)


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
    from .solver.tangle_bots import make_bot, run_match

    make_bot(bot_a), make_bot(bot_b)  # validate names first
    with progress(games, f"{bot_a} v {bot_b}", enabled=not as_json) as advance:
        r = run_match(bot_a, bot_b, games=games, seed=seed, progress=advance, opening=opening)
    if as_json:
        print_json({"a": bot_a, "b": bot_b, "games": games, "wins_a": r.wins_a, "wins_b": r.wins_b,
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
    board: str = typer.Option("tangle-default", help="Built-in board name (IDs need built-in data)."),
    pieces: str = typer.Option("tangle-default", help="Built-in piece-set name."),
    option: Optional[List[str]] = typer.Option(None, "--option", help=OPTION_HELP),
    out: Optional[Path] = typer.Option(None, help="Write the puzzle JSON (with count > 1: a JSON list)."),
    svg: Optional[Path] = typer.Option(None, help="Draw the (first) puzzle position as SVG."),
    solution_svg: Optional[Path] = typer.Option(None, help="Draw the (first) puzzle with its solution."),
    booklet: Optional[Path] = typer.Option(None, "--booklet", help="Printable HTML booklet: a page per puzzle, answers at the back."),
    as_json: bool = typer.Option(False, "--json", help="Print the puzzle(s) as JSON."),
) -> None:
    """Generate verified puzzles. Example: tanglekit tangle puzzle generate --seed 4 --svg p.svg."""
    import json

    from .generators.tangle import generate_puzzle, puzzle_answer_svg, puzzle_svg

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
        from .generators.booklet import BookletPage, booklet_html

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
    puzzle: str = typer.Argument(..., help="Puzzle JSON file or seed ID."),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output."),
) -> None:
    """Re-verify a puzzle with the solver. Example: tanglekit tangle puzzle check p.json."""
    import json

    from .errors import FormatError
    from .generators.tangle import puzzle_from_id, verify_puzzle

    if puzzle.startswith("tangle:"):
        data = puzzle_from_id(puzzle)
        if not isinstance(data, dict):
            raise FormatError("puzzle check needs a puzzle file or a seed ID (tangle:PARAMS#SEED)")
    else:
        try:
            data = json.loads(Path(puzzle).read_text(encoding="utf-8"))
        except json.JSONDecodeError as e:
            raise FormatError(f"{puzzle}: not valid JSON ({e.msg})") from None
    ok = verify_puzzle(data)
    if as_json:
        print_json({"valid": ok, "points": data.get("points")})
    else:
        typer.echo("valid" if ok else "INVALID")
    if not ok:
        raise typer.Exit(1)


if __name__ == "__main__":
    from .cli_common import run_app

    run_app(app)
