"""`tanglekit tanglung ...`: solo solver and generator, layout census, two-player play and analysis.

Imports only typer and the standard library at module level; the library is loaded inside the
commands so `tanglekit --help` stays fast.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import List, Optional

import typer

from .cli_common import parse_options, print_json, progress, write_text
from .errors import FormatError, TanglekitError

app = typer.Typer(
    help="Tanglung: solo tours (fewest moves, tour counts), graded challenges, census, two-player play.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
solo_app = typer.Typer(help="Solo mode: solve layouts and generate graded challenges.", no_args_is_help=True)
app.add_typer(solo_app, name="solo")

_OPTION_HELP = "Rule option NAME=VALUE (repeatable): literal_blocking, roosters_start_lit, not_so_zen, ..."
_CARDS_HELP = "Card set: JSON file, inline counts like C2R3B3F3H3D2, or tanglung-default."


def _options(pairs):
    from .games.tanglung.rules import TanglungOptions

    return TanglungOptions.from_dict(parse_options(pairs))


_LAYOUT_RE = r"^[A-Za-z.]{4}([/ ]?[A-Za-z.]{4}){3}$"


def _load_layout(spec: str, pairs):
    """A layout from its letters, a shareable ID, or a file (text layout or JSON with "layout").

    Rule options stored in an ID or a JSON file apply unless overridden with --option."""
    import re

    from .games.tanglung.ids import parse_id
    from .games.tanglung.layout import Layout
    from .games.tanglung.rules import TanglungOptions

    opts = parse_options(pairs)
    text = spec.strip()
    if re.match(_LAYOUT_RE, text):
        return Layout.parse(text), TanglungOptions.from_dict(opts)
    if not text.lower().startswith("tanglung:"):
        p = Path(text[1:] if text.startswith("@") else text)
        raw = p.read_text("utf-8").strip()  # a missing file is reported by run_app (exit 2)
        if not raw.startswith("{"):
            return Layout.parse(raw), TanglungOptions.from_dict(opts)
        try:
            data = json.loads(raw)
        except json.JSONDecodeError as e:
            raise FormatError(f"{p}: bad JSON ({e.msg} at line {e.lineno})") from None
        if not isinstance(data, dict) or "layout" not in data:
            raise FormatError(f'{p}: expected a JSON object with a "layout" field')
        base = dict(data.get("options") or {})
        base.update(opts)
        return Layout.parse(str(data["layout"])), TanglungOptions.from_dict(base)
    cid = parse_id(text)
    base = cid.options.to_json()
    base.update(opts)
    return cid.layout, TanglungOptions.from_dict(base)


def _parse_cell(text: Optional[str]):
    if text is None:
        return None
    try:
        r, c = (int(v) for v in text.replace(" ", "").split(","))
    except ValueError:
        raise FormatError(f"bad cell {text!r}: expected ROW,COL like 0,0") from None
    if not (0 <= r < 4 and 0 <= c < 4):
        raise FormatError(f"cell {text!r} is off the 4x4 grid")
    return (r, c)


# --- solo -----------------------------------------------------------------------------------
@solo_app.command("solve")
def solo_solve(
    layout: Optional[str] = typer.Argument(None, help="Layout letters (CRBF/HDFR/BHFB/RHDC), a challenge ID or a file."),
    start: Optional[str] = typer.Option(None, "--start", help="Start Rooster ROW,COL (default: the better one)."),
    option: Optional[List[str]] = typer.Option(None, "--option", help=_OPTION_HELP),
    cards: Optional[str] = typer.Option(None, "--cards", help=_CARDS_HELP),
    method: str = typer.Option("astar", "--method", help="Search: astar (default), astar-deadend or bfs (same answers)."),
    as_json: bool = typer.Option(False, "--json", help="Print {solvable, moves, start, path, optimal_tours}."),
    svg: Optional[Path] = typer.Option(None, "--svg", help="Write the grid and the optimal tour as SVG."),
    batch: Optional[str] = typer.Option(None, "--batch", help="Many layouts: FILE or - with one layout, ID, file or JSON object a line; JSON lines out."),
) -> None:
    """Fewest moves, one optimal tour and the number of optimal tours.
    Example: tanglekit tanglung solo solve CRBF/HDFR/BHFB/RHDC --json"""
    if batch is not None:
        from .cli_batch import run_batch

        return run_batch(batch, solo_solve, dict(locals()), "layout", refuse=("svg",))
    if layout is None:
        raise typer.BadParameter("give a layout, an ID or a file (or --batch FILE)", param_hint="LAYOUT")
    from .games.tanglung.cards import load_card_set
    from .solver.tanglung_solo import solve_solo

    lay, opts = _load_layout(layout, option)
    sol = solve_solo(lay, _parse_cell(start), opts, load_card_set(cards), method=method)
    if svg is not None:
        from .games.tanglung.render import svg_grid

        title = f"{lay}: {sol.moves} moves" if sol.solvable else f"{lay}: no tour"
        write_text(svg, svg_grid(lay, path=sol.path or None, title=title))
    if as_json:
        print_json(sol.to_json())
        return
    r, c = divmod(sol.start, 4)
    typer.echo("\n".join(" ".join(str(lay)[i * 5 : i * 5 + 4]) for i in range(4)))
    if not sol.solvable:
        typer.echo(f"no winning tour from {r},{c}")
        return
    typer.echo(f"fewest moves: {sol.moves} from {r},{c}; optimal tours: {sol.optimal_tours}; "
               f"no-revisit tour: {'yes' if sol.no_revisit else 'no'}")
    typer.echo("path: " + " ".join(f"{p // 4},{p % 4}" for p in sol.path))


@solo_app.command("tour")
def solo_tour(
    layout: str = typer.Argument(..., help="Layout letters, a challenge ID or a file."),
    start: Optional[str] = typer.Option(None, "--start", help="Start Rooster ROW,COL (default: any)."),
    option: Optional[List[str]] = typer.Option(None, "--option", help=_OPTION_HELP),
    cards: Optional[str] = typer.Option(None, "--cards", help=_CARDS_HELP),
    method: str = typer.Option("kernel", "--method", help="kernel (numba search), cpsat (AddCircuit) or dfs."),
    as_json: bool = typer.Option(False, "--json", help="Print {exists, path}."),
) -> None:
    """Find a no-revisit tour (never moves onto a lit card). Example: tanglekit tanglung solo tour CRBF/HDFR/BHFB/RHDC --method cpsat"""
    from .games.tanglung.cards import load_card_set
    from .solver.tanglung_solo import no_revisit_tour

    lay, opts = _load_layout(layout, option)
    path = no_revisit_tour(lay, _parse_cell(start), opts, load_card_set(cards), method=method)
    if as_json:
        print_json({"exists": path is not None, "path": [list(divmod(p, 4)) for p in path or []]})
        return
    if path is None:
        typer.echo("no no-revisit tour")
    else:
        typer.echo("no-revisit tour: " + " ".join(f"{p // 4},{p % 4}" for p in path))


@solo_app.command("coop")
def solo_coop(
    layout: str = typer.Argument(..., help="Layout letters, a challenge ID or a file."),
    first: Optional[str] = typer.Option(None, "--first", help="Rooster ROW,COL of the box that moves first (default: the better)."),
    option: Optional[List[str]] = typer.Option(None, "--option", help=_OPTION_HELP),
    cards: Optional[str] = typer.Option(None, "--cards", help=_CARDS_HELP),
    as_json: bool = typer.Option(False, "--json", help="Print {solvable, moves, starts, sequence, optimal_sequences}."),
) -> None:
    """Cooperative mode: fewest total moves for two alternating matchboxes.
    Example: tanglekit tanglung solo coop CRBF/HDFR/BHFB/RHDC --option literal_blocking=1"""
    from .games.tanglung.cards import load_card_set
    from .games.tanglung.layout import idx
    from .solver.tanglung_coop import solve_coop

    lay, opts = _load_layout(layout, option)
    starts = None
    if first is not None:
        a = idx(*_parse_cell(first))
        others = [r for r in lay.roosters() if r != a]
        if not others:
            raise TanglekitError("cooperative play needs a second Rooster card")
        starts = (a, others[0])
    sol = solve_coop(lay, starts, opts, load_card_set(cards))
    if as_json:
        print_json(sol.to_json())
        return
    if not sol.solvable:
        typer.echo("no winning cooperative sequence")
        return
    a, b = (divmod(s, 4) for s in sol.starts)
    typer.echo(f"fewest moves: {sol.moves} (box 1 from {a[0]},{a[1]} moves first, box 2 from {b[0]},{b[1]}); "
               f"optimal sequences: {sol.optimal_sequences}")
    typer.echo("moves: " + " ".join(f"{i % 2 + 1}:{p // 4},{p % 4}" for i, p in enumerate(sol.sequence)))


@solo_app.command("generate")
def solo_generate(
    count: int = typer.Option(1, "--count", help="How many challenges."),
    difficulty: str = typer.Option("medium", "--difficulty", help="easy, medium, hard or expert."),
    seed: int = typer.Option(0, "--seed", help="Seed of the first challenge (the next use seed+1, ...)."),
    option: Optional[List[str]] = typer.Option(None, "--option", help=_OPTION_HELP),
    cards: Optional[str] = typer.Option(None, "--cards", help=_CARDS_HELP),
    as_json: bool = typer.Option(False, "--json", help="Print the challenges as a JSON list."),
    svg: Optional[Path] = typer.Option(None, "--svg", help="Folder for a grid and a solution SVG per challenge."),
    booklet: Optional[Path] = typer.Option(None, "--booklet", help="Printable HTML booklet: a page per challenge, answers at the back."),
) -> None:
    """Graded, verified solo challenges. Example: tanglekit tanglung solo generate --count 3 --difficulty hard --seed 7"""
    from .games.tanglung.cards import load_card_set
    from .generators.tanglung import generate_challenge

    if count < 1:
        raise TanglekitError("--count must be at least 1")
    opts = _options(option)
    card_set = load_card_set(cards)
    out = []
    with progress(count, "generating", enabled=count > 1) as advance:
        for i in range(count):
            out.append(generate_challenge(difficulty, seed + i, opts, card_set))
            advance()
    if svg is not None:
        for ch in out:
            stem = f"tanglung-{ch.difficulty}-{ch.seed}"
            write_text(svg / f"{stem}.svg", ch.svg())
            write_text(svg / f"{stem}-solution.svg", ch.answer_svg())
    if booklet is not None:
        from .generators.booklet import BookletPage, booklet_html

        pages = [BookletPage(f"{ch.difficulty}, {ch.moves} moves", ch.svg(), ch.answer_svg()) for ch in out]
        write_text(booklet, booklet_html("Tanglung solo challenges", pages,
                                         "Light every card in the fewest moves."), "booklet")
    if as_json:
        print_json([ch.to_json() for ch in out])
        return
    for ch in out:
        typer.echo(f"{ch.id}  ({ch.seed_id})")
        typer.echo(f"  {ch.difficulty}: {ch.moves} moves, {ch.optimal_tours} optimal tours, "
                   f"walkers {ch.walker_success:.0%}, no-revisit tour: {'yes' if ch.no_revisit else 'no'}")


# --- census ---------------------------------------------------------------------------------
@app.command("census")
def census_cmd(
    sample: Optional[int] = typer.Option(None, "--sample", help="Only N random layouts (default: all classes)."),
    workers: Optional[int] = typer.Option(None, "--workers", help="Worker processes (default: all CPUs; local, or the size of a Ray/Dask cluster started here)."),
    checkpoint: Optional[Path] = typer.Option(None, "--checkpoint", help="Resumable progress file (JSON)."),
    seed: int = typer.Option(0, "--seed", help="Seed of the sample."),
    executor: str = typer.Option("local", "--executor", help="local (default), ray or dask (optional extras; RAY_ADDRESS / DASK_SCHEDULER_ADDRESS select a cluster)."),
    option: Optional[List[str]] = typer.Option(None, "--option", help=_OPTION_HELP),
    cards: Optional[str] = typer.Option(None, "--cards", help=_CARDS_HELP),
    as_json: bool = typer.Option(False, "--json", help="Print the summary as JSON."),
) -> None:
    """Solve every standard layout class (or a sample): fewest moves and optimal-tour counts.
    Example: tanglekit tanglung census --sample 200 --workers 2"""
    from contextlib import ExitStack

    from .games.tanglung.cards import load_card_set
    from .generators.tanglung import census

    if sample is not None and sample < 1:
        raise TanglekitError("--sample must be at least 1")
    opts = _options(option)
    state: dict = {}
    with ExitStack() as stack:
        def on_progress(done, total):
            if "advance" not in state:  # open the bar once the number of chunks is known
                state["advance"] = stack.enter_context(progress(total, "census chunks"))
                state["last"] = 0
            state["advance"](done - state["last"])
            state["last"] = done

        if workers is None:
            from .solver.parallel import default_workers

            workers = default_workers()
        summary = census(sample, max(1, workers), checkpoint, seed, opts, load_card_set(cards), executor,
                         on_progress=on_progress)
    if as_json:
        print_json(summary)
        return
    n = summary.get("layouts", 0)
    typer.echo(f"layout classes solved: {n}  (unsolvable: {summary.get('unsolvable', 0)}, "
               f"with a no-revisit tour: {summary.get('no_revisit', 0)})")
    typer.echo("fewest moves: " + ", ".join(f"{k}: {v}" for k, v in summary.get("moves", {}).items()))
    typer.echo("optimal tours (2^(k-1) <= t < 2^k): " +
               ", ".join(f"k={k}: {v}" for k, v in summary.get("tour_bins", {}).items()))
    solved = n - summary.get("unsolvable", 0)
    if solved:
        mx, mn = summary["max_tours"], summary["min_tours"]
        typer.echo(f"optimal tours: mean {summary['tours_total'] / solved:,.1f}, most {mx[0]:,} ({mx[1]}), "
                   f"fewest {mn[0]:,} ({mn[1]})")


# --- two players ----------------------------------------------------------------------------
@app.command("play")
def play_cmd(
    bot: Optional[List[str]] = typer.Option(None, "--bot", help="Bot strength (random, greedy, pimc, pimc-strong); once = you vs it, twice = bot vs bot."),
    seed: int = typer.Option(0, "--seed", help="Seed of the layouts and the bots."),
    games: int = typer.Option(1, "--games", help="Bot vs bot: number of games."),
    first: int = typer.Option(1, "--first", help="Who starts the first match: 1 or 2."),
    option: Optional[List[str]] = typer.Option(None, "--option", help=_OPTION_HELP),
    as_json: bool = typer.Option(False, "--json", help="Bot vs bot: print results as JSON (game logs for 1 game)."),
) -> None:
    """Two-player game: you against a bot in the terminal, or bot against bot.
    Example: tanglekit tanglung play --bot greedy --bot random --games 20"""
    from .solver.tanglung_duel import bot_match, make_bot, play_game

    opts = _options(option)
    names = list(bot or ["greedy"])
    if len(names) > 2 or first not in (1, 2):
        raise TanglekitError("give --bot once (you vs bot) or twice (bot vs bot); --first is 1 or 2")
    if len(names) == 2:
        if games == 1:
            g = play_game(make_bot(names[0], seed), make_bot(names[1], seed + 1), seed, opts, first - 1)
            if as_json:
                print_json(g.to_json())
            else:
                for i, (w, why) in enumerate(g.results, 1):
                    typer.echo(f"match {i}: {'draw' if w is None else names[w] + ' (player ' + str(w + 1) + ')'} ({why})")
                typer.echo(f"score {g.score[0]}-{g.score[1]}")
            return
        with progress(None, "games", enabled=not as_json):
            res = bot_match(names[0], names[1], games, seed, opts)
        if as_json:
            print_json(res)
        else:
            typer.echo(f"{names[0]} {res['wins'][0]} - {res['wins'][1]} {names[1]} (draws {res['draws']})")
        return
    # you against a bot: the common terminal play (`tanglekit play tanglung-duel --bots human,BOT`)
    from .cli_play import run_session
    from .games import load_game
    from .generators.play import PlaySession, Start

    make_bot(names[0], seed)  # an unknown name fails with this command's list
    game = load_game("tanglung-duel", **opts.to_json(), first_starter=first - 1)
    start = Start("tanglung-duel", game.new_initial_state(seed=seed))
    run_session(PlaySession(start, ["human", names[0]], seed))


@app.command("analyze")
def analyze_cmd(
    state: Path = typer.Argument(..., help="Match state JSON (as printed by the engine's to_json)."),
    depth: int = typer.Option(4, "--depth", help="Maximum search depth (plies)."),
    time_limit: float = typer.Option(10.0, "--time", help="Time limit in seconds."),
    as_json: bool = typer.Option(False, "--json", help="Print {value, outcome, best, depth, nodes}."),
    svg: Optional[Path] = typer.Option(None, "--svg", help="Write the position as SVG."),
) -> None:
    """Perfect-information analysis of a revealed two-player position: value and best action.
    Example: tanglekit tanglung analyze state.json --depth 6"""
    from .games.tanglung.duel import Match, describe_action
    from .solver.tanglung_duel import solve_position

    try:
        data = json.loads(state.read_text("utf-8"))
    except json.JSONDecodeError as e:
        raise FormatError(f"{state}: bad JSON ({e.msg} at line {e.lineno})") from None
    m = Match.from_json(data)
    r = solve_position(m, max_depth=depth, node_limit=None, time_limit=time_limit)
    if svg is not None:
        from .games.tanglung.render import svg_grid

        write_text(svg, svg_grid(m.layout, lit=m.lit, boxes=list(m.boxes), fan=m.fan,
                                 title=f"player {m.to_move + 1} to move"))
    res = {"value": r.value, "outcome": r.outcome, "best": describe_action(r.best) if r.best else None,
           "depth": r.depth, "nodes": r.nodes, "seconds": round(r.seconds, 3)}
    if as_json:
        print_json(res)
        return
    typer.echo(m.render_text(reveal=True))
    verdict = {1: "side to move wins", -1: "side to move loses", None: "not decided within the depth"}[r.outcome]
    typer.echo(f"player {m.to_move + 1} to move: {verdict} (value {r.value}, depth {r.depth}, {r.nodes} nodes)")
    typer.echo(f"best action: {res['best']}")


if __name__ == "__main__":
    from .cli_common import run_app

    run_app(app)
