"""`tanglekit tanglung ...`: solo solver and generator, layout census, two-player play and analysis.

Imports only typer and the standard library at module level; the library is loaded inside the
commands so `tanglekit --help` stays fast.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import List, Optional

import typer

from ...cli_common import print_json, progress, write_text
from ...errors import FormatError, SolverError, TanglekitError
from ...jsonio import expect_format, load_json_source, validate
from ...limits import Deadline, LimitReached, check_count, check_number

app = typer.Typer(
    help="Tanglung: solo tours (fewest moves, tour counts), graded challenges, census, two-player play.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
solo_app = typer.Typer(help="Solo mode: solve layouts and generate graded challenges.", no_args_is_help=True)
app.add_typer(solo_app, name="solo")
from .cli_duel import duel_app  # noqa: E402  (typer only, like this module)
from .cli_inputs import _LAYOUT_RE, _load_layout, _options  # noqa: E402

app.add_typer(duel_app, name="duel")

_OPTION_HELP = "Rule option NAME=VALUE (repeatable): literal_blocking, roosters_start_lit, not_so_zen, ..."
_CARDS_HELP = "Card set: JSON file, inline counts like C2R3B3F3H3D2, or tanglung-default."


def _parse_cell(text: Optional[str], what: str = "--start"):
    import re

    if text is None:
        return None
    if not isinstance(text, str) or len(text) > 40 or not re.fullmatch(r" *[0-9]{1,20} *, *[0-9]{1,20} *", text):
        raise FormatError(f"bad {what} cell: expected ROW,COL like 0,0")
    r, c = (int(v) for v in text.split(","))
    if not (0 <= r < 4 and 0 <= c < 4):
        raise FormatError(f"{what} cell {r},{c} is off the 4x4 grid (rows and columns 0..3)")
    return (r, c)


def _layout_id(layout, opts, card_set) -> str:
    """The descriptive ID of a layout with its options and card set (no grade)."""
    from ...generators.ids import format_params, make_descriptive  # start-up: loaded when the command runs
    from .ids import PREFIX, id_params  # start-up: loaded when the command runs

    flags, values = id_params(None, opts, card_set)
    return make_descriptive(PREFIX, format_params(*flags, **values), str(layout))


def _cells(path) -> list[str]:
    return [f"{p // 4},{p % 4}" for p in path]


# --- solo ---------------------------------------------------------------------------------
_TIME_HELP = "Seconds before giving up (0 = stop at once and answer unknown)."


@solo_app.command("solve")
def solo_solve(
    layout: Optional[str] = typer.Argument(None, help="Layout letters (CRBF/HDFR/BHFB/RHDC), a challenge ID or a file."),
    start: Optional[str] = typer.Option(None, "--start", help="Start Rooster ROW,COL (default: the better one)."),
    option: Optional[List[str]] = typer.Option(None, "--option", help=_OPTION_HELP),
    cards: Optional[str] = typer.Option(None, "--cards", help=_CARDS_HELP),
    method: str = typer.Option("astar", "--method", help="Search: astar (default), astar-deadend or bfs (same answers)."),
    time_limit: Optional[float] = typer.Option(None, "--time-limit", help=_TIME_HELP),
    as_json: bool = typer.Option(False, "--json", help="Print {solvable, moves, start, path, optimal_tours, line, nodes, complete, ...}."),
    svg: Optional[Path] = typer.Option(None, "--svg", help="Write the grid and the optimal tour as SVG."),
    batch: Optional[str] = typer.Option(None, "--batch", help="Many layouts: FILE or - with one layout, ID, file or JSON object a line; JSON lines out."),
) -> None:
    """Fewest moves, one optimal tour and the number of optimal tours.
    Example: tanglekit tanglung solo solve CRBF/HDFR/BHFB/RHDC --json"""
    if batch is not None:
        from ...cli_batch import run_batch  # start-up: loaded when the command runs

        return run_batch(batch, solo_solve, dict(locals()), "layout", refuse=("svg",), bulk=_solve_bulk)
    if layout is None:
        raise typer.BadParameter("give a layout, an ID or a file (or --batch FILE)", param_hint="LAYOUT")
    from .solo_search import solve_solo  # start-up: loaded when the command runs

    deadline = Deadline(time_limit)
    if method not in ("astar", "astar-deadend", "bfs"):
        raise FormatError(f"unknown --method {method[:30]!r} (astar, astar-deadend or bfs)")
    lay, opts, card_set, _ = _load_layout(layout, option, cards)
    cell = _parse_cell(start)
    if deadline.expired():  # the kernel takes milliseconds and is not interrupted
        res = {"solvable": None, "moves": None, "start": list(cell) if cell else None, "path": [],
               "optimal_tours": None, "line": [], "nodes": 0, "complete": False, "reason": "time limit",
               "id": _layout_id(lay, opts, card_set), "seconds": round(deadline.elapsed(), 3)}
        if as_json:
            print_json(res)
        else:
            typer.echo("not solved: time limit reached")
        return
    sol = solve_solo(lay, cell, opts, card_set, method=method)
    if svg is not None:
        from .render import svg_grid  # start-up: loaded when the command runs

        title = f"{lay}: {sol.moves} moves" if sol.solvable else f"{lay}: no tour"
        write_text(svg, svg_grid(lay, path=sol.path or None, title=title))
    if as_json:
        print_json({**sol.to_json(), "line": _cells(sol.path[1:]), "nodes": sol.expanded, "complete": True,
                    "id": _layout_id(lay, opts, card_set), "seconds": round(deadline.elapsed(), 3)})
        return
    r, c = divmod(sol.start, 4)
    typer.echo("\n".join(" ".join(str(lay)[i * 5 : i * 5 + 4]) for i in range(4)))
    if not sol.solvable:
        typer.echo(f"no winning tour from {r},{c}")
        return
    typer.echo(f"fewest moves: {sol.moves} from {r},{c}; optimal tours: {sol.optimal_tours}; "
               f"no-revisit tour: {'yes' if sol.no_revisit else 'no'}")
    typer.echo("path: " + " ".join(f"{p // 4},{p % 4}" for p in sol.path))


def _solve_bulk(kw: dict, lines: list) -> dict:
    """``solo solve --batch``: the lines holding bare layout letters, solved in one kernel call
    (games.tanglung.solo_search.solve_solo_many) with the answer ``--json`` prints for each alone;
    every other line (IDs, files, JSON objects, bad layouts) is left to the per-line command.
    ``seconds`` is each layout's share of the kernel call."""
    import re
    import time

    if kw.get("time_limit") is not None or kw.get("method") not in ("astar", "astar-deadend", "bfs"):
        return {}
    from .layout import Layout  # start-up: loaded when the command runs

    todo = []
    for n, text in lines:
        if re.match(_LAYOUT_RE, text):
            try:
                todo.append((n, Layout.parse(text)))
            except TanglekitError:
                pass  # the per-line path reports it
    if not todo:
        return {}
    from ...generators.ids import format_params, make_descriptive  # start-up: loaded when the command runs
    from .cards import load_card_set  # start-up: loaded when the command runs
    from .ids import PREFIX, id_params  # start-up: loaded when the command runs
    from .solo_search import solve_solo_many  # start-up: loaded when the command runs

    opts = _options(kw.get("option"))
    card_set = load_card_set(kw["cards"]) if kw.get("cards") is not None else None
    cell = _parse_cell(kw.get("start"))
    flags, values = id_params(None, opts, card_set)
    params = format_params(*flags, **values)
    t0 = time.perf_counter()
    sols = solve_solo_many([lay for _, lay in todo], cell, opts, card_set, method=kw["method"])
    share = round((time.perf_counter() - t0) / len(todo), 3)
    out = {}
    for (n, lay), sol in zip(todo, sols):
        if isinstance(sol, Exception):
            continue
        res = {**sol.to_json(), "line": _cells(sol.path[1:]), "nodes": sol.expanded, "complete": True,
               "id": make_descriptive(PREFIX, params, str(lay)), "seconds": share}
        out[n] = json.dumps({"line": n, "result": res}, separators=(",", ":"))
    return out


@solo_app.command("tour")
def solo_tour(
    layout: str = typer.Argument(..., help="Layout letters, a challenge ID or a file."),
    start: Optional[str] = typer.Option(None, "--start", help="Start Rooster ROW,COL (default: any)."),
    option: Optional[List[str]] = typer.Option(None, "--option", help=_OPTION_HELP),
    cards: Optional[str] = typer.Option(None, "--cards", help=_CARDS_HELP),
    method: str = typer.Option("kernel", "--method", help="kernel (numba search), cpsat (AddCircuit) or dfs."),
    time_limit: Optional[float] = typer.Option(None, "--time-limit", help=_TIME_HELP + " cpsat: its time budget."),
    as_json: bool = typer.Option(False, "--json", help="Print {exists, path, line, complete}."),
) -> None:
    """Find a no-revisit tour (never moves onto a lit card). Example: tanglekit tanglung solo tour CRBF/HDFR/BHFB/RHDC --method cpsat"""
    from .solo_search import no_revisit_tour  # start-up: loaded when the command runs

    deadline = Deadline(time_limit)
    if method not in ("kernel", "cpsat", "dfs"):
        raise FormatError(f"unknown --method {method[:30]!r} (kernel, cpsat or dfs)")
    lay, opts, card_set, _ = _load_layout(layout, option, cards)
    cell = _parse_cell(start)
    if deadline.expired():
        path, complete = None, False
    else:
        try:
            path = no_revisit_tour(lay, cell, opts, card_set, method=method, time_limit=deadline.remaining())
            complete = True
        except SolverError as e:
            if "in time" not in str(e):
                raise
            path, complete = None, False
    if as_json:
        out = {"exists": path is not None if complete else None, "path": [list(divmod(p, 4)) for p in path or []],
               "line": _cells((path or [])[1:]), "complete": complete}
        if not complete:
            out["reason"] = "time limit"
        print_json(out)
        return
    if not complete:
        typer.echo("not decided: time limit reached")
    elif path is None:
        typer.echo("no no-revisit tour")
    else:
        typer.echo("no-revisit tour: " + " ".join(f"{p // 4},{p % 4}" for p in path))


@solo_app.command("coop")
def solo_coop(
    layout: str = typer.Argument(..., help="Layout letters, a challenge ID or a file."),
    first: Optional[str] = typer.Option(None, "--first", help="Rooster ROW,COL of the box that moves first (default: the better)."),
    option: Optional[List[str]] = typer.Option(None, "--option", help=_OPTION_HELP),
    cards: Optional[str] = typer.Option(None, "--cards", help=_CARDS_HELP),
    max_states: int = typer.Option(1_000_000, "--max-states", help="Give up (unknown) after this many states."),
    time_limit: Optional[float] = typer.Option(None, "--time-limit", help=_TIME_HELP),
    as_json: bool = typer.Option(False, "--json", help="Print {solvable, moves, starts, sequence, optimal_sequences, line, nodes, complete}."),
) -> None:
    """Cooperative mode: fewest total moves for two alternating matchboxes.
    Example: tanglekit tanglung solo coop CRBF/HDFR/BHFB/RHDC --option literal_blocking=1"""
    from .coop import solve_coop  # start-up: loaded when the command runs
    from .layout import idx  # start-up: loaded when the command runs

    deadline = Deadline(time_limit)
    max_states = check_count(max_states, "--max-states", minimum=0, maximum=10**9)
    lay, opts, card_set, _ = _load_layout(layout, option, cards)
    starts = None
    if first is not None:
        a = idx(*_parse_cell(first, "--first"))
        others = [r for r in lay.roosters() if r != a]
        if not others:
            raise TanglekitError("cooperative play needs a second Rooster card")
        starts = (a, others[0])
    sol = solve_coop(lay, starts, opts, card_set, max_states=max_states, deadline=deadline)
    if as_json:
        out = {**sol.to_json(), "line": [f"{i % 2}:{p // 4},{p % 4}" for i, p in enumerate(sol.sequence)],
               "nodes": sol.expanded, "complete": sol.complete, "seconds": round(deadline.elapsed(), 3)}
        if not sol.complete:
            out["reason"] = sol.reason
        print_json(out)
        return
    if not sol.complete:
        typer.echo(f"not decided: {sol.reason} reached after {sol.expanded} states")
        return
    if not sol.solvable:
        typer.echo("no winning cooperative sequence")
        return
    a, b = (divmod(s, 4) for s in sol.starts)
    typer.echo(f"fewest moves: {sol.moves} (box 0 from {a[0]},{a[1]} moves first, box 1 from {b[0]},{b[1]}); "
               f"optimal sequences: {sol.optimal_sequences}")
    typer.echo("moves: " + " ".join(f"{i % 2}:{p // 4},{p % 4}" for i, p in enumerate(sol.sequence)))


_MAX_SEED = 2**63 - 1


@solo_app.command("generate")
def solo_generate(
    count: int = typer.Option(1, "--count", help="How many challenges (1..1000)."),
    difficulty: str = typer.Option("medium", "--difficulty", help="easy, medium, hard or expert."),
    seed: int = typer.Option(0, "--seed", help="Seed of the first challenge (the next use seed+1, ...)."),
    option: Optional[List[str]] = typer.Option(None, "--option", help=_OPTION_HELP),
    cards: Optional[str] = typer.Option(None, "--cards", help=_CARDS_HELP),
    as_json: bool = typer.Option(False, "--json", help="Print the challenge as JSON (a list for --count > 1)."),
    out: Optional[Path] = typer.Option(None, "--out", help="Write the challenge file (read back by solo solve/coop/tour and play); with --count > 1 a folder, one file each."),
    svg: Optional[Path] = typer.Option(None, "--svg", help="Folder for a grid and a solution SVG per challenge."),
    booklet: Optional[Path] = typer.Option(None, "--booklet", help="Printable HTML booklet: a page per challenge, answers at the back."),
    time_limit: Optional[float] = typer.Option(None, "--time-limit", help="Seconds for the whole run (0 = stop at once: no challenge, complete false)."),
) -> None:
    """Graded, verified solo challenges. Example: tanglekit tanglung solo generate --count 3 --difficulty hard --seed 7"""
    from .cards import load_card_set  # start-up: loaded when the command runs
    from .generate import GRADES, generate_challenge  # start-up: loaded when the command runs

    deadline = Deadline(time_limit)
    count = check_count(count, "--count", maximum=1000)
    seed = check_number("--seed", seed, minimum=0, maximum=_MAX_SEED - count + 1, integer=True, allow_none=False)
    if difficulty not in GRADES:
        raise FormatError(f"--difficulty must be one of {', '.join(GRADES)}, not {difficulty[:30]!r}")
    opts = _options(option)
    card_set = load_card_set(cards)
    chs = []
    stopped = False
    with progress(count, "generating", enabled=count > 1) as advance:
        for i in range(count):
            try:
                chs.append(generate_challenge(difficulty, seed + i, opts, card_set, deadline=deadline))
            except LimitReached:
                stopped = True
                break
            advance()
    if stopped:
        note = {"id": None, "seed_id": None, "difficulty": difficulty, "solvable": None, "complete": False,
                "reason": "time limit", "generated": len(chs), "count": count}
        if as_json:
            print_json(note if count == 1 else [{**c.to_json(), "complete": True} for c in chs] + [note])
        else:
            for ch in chs:
                typer.echo(f"{ch.id}  ({ch.seed_id})")
            typer.echo(f"stopped by the time limit after {len(chs)} of {count} challenges")
        return
    if out is not None:  # one challenge per file, so every file is read back as it is
        if count == 1:
            write_text(out, json.dumps(chs[0].to_file(), indent=1), "challenge file")
        else:
            for ch in chs:
                write_text(out / f"tanglung-{ch.difficulty}-{ch.seed}.json", json.dumps(ch.to_file(), indent=1),
                           "challenge file")
    if svg is not None:
        for ch in chs:
            stem = f"tanglung-{ch.difficulty}-{ch.seed}"
            write_text(svg / f"{stem}.svg", ch.svg())
            write_text(svg / f"{stem}-solution.svg", ch.answer_svg())
    if booklet is not None:
        from ...generators.booklet import BookletPage, booklet_html  # start-up: loaded when the command runs

        pages = [BookletPage(f"{ch.difficulty}, {ch.moves} moves", ch.svg(), ch.answer_svg()) for ch in chs]
        write_text(booklet, booklet_html("Tanglung solo challenges", pages,
                                         "Light every card in the fewest moves."), "booklet")
    if as_json:
        out_json = [{**ch.to_json(), "complete": True} for ch in chs]
        print_json(out_json[0] if count == 1 else out_json)
        return
    for ch in chs:
        typer.echo(f"{ch.id}  ({ch.seed_id})")
        typer.echo(f"  {ch.difficulty}: {ch.moves} moves, {ch.optimal_tours} optimal tours, "
                   f"walkers {ch.walker_success:.0%}, no-revisit tour: {'yes' if ch.no_revisit else 'no'}")


# --- census ---------------------------------------------------------------------------------
@app.command("census")
def census_cmd(
    sample: Optional[int] = typer.Option(None, "--sample", help="Only N random layouts, N <= 1,000,000 (default: all classes)."),
    workers: Optional[int] = typer.Option(None, "--workers", help="Worker processes (default: every CPU; capped by the CPUs and the chunks; for Ray/Dask the size of a cluster started here)."),
    checkpoint: Optional[Path] = typer.Option(None, "--checkpoint", help="Resumable progress file (JSON with a checksum)."),
    seed: int = typer.Option(0, "--seed", help="Seed of the sample."),
    executor: str = typer.Option("local", "--executor", help="local (default), ray or dask (optional extras; RAY_ADDRESS / DASK_SCHEDULER_ADDRESS select a cluster)."),
    option: Optional[List[str]] = typer.Option(None, "--option", help=_OPTION_HELP),
    cards: Optional[str] = typer.Option(None, "--cards", help=_CARDS_HELP),
    time_limit: Optional[float] = typer.Option(None, "--time-limit", help="Stop after the chunk running at this many seconds (the checkpoint keeps the work; complete: false)."),
    address: Optional[str] = typer.Option(None, "--address", help="With --executor ray|dask: the cluster (default RAY_ADDRESS / DASK_SCHEDULER_ADDRESS, else one started here)."),
    connect_timeout: Optional[float] = typer.Option(None, "--connect-timeout", help="With --executor ray|dask: seconds to reach the cluster, and the longest a Dask run waits with no worker left (default $TANGLEKIT_CONNECT_TIMEOUT, else 30)."),
    quiet: bool = typer.Option(False, "--quiet", help="No progress on stderr (it is shown only on a terminal anyway)."),
    as_json: bool = typer.Option(False, "--json", help="Print the summary as JSON."),
) -> None:
    """Solve every standard layout class (or a sample): fewest moves and optimal-tour counts.
    Example: tanglekit tanglung census --sample 200 --workers 2"""
    from contextlib import ExitStack

    from ...generators.executors import (  # start-up: loaded when the command runs
        cluster_settings,
        resolve_connect_timeout,
    )
    from ...generators.executors import progress as count_progress  # start-up: loaded when the command runs
    from .cards import load_card_set  # start-up: loaded when the command runs
    from .generate import MAX_SAMPLE, census  # start-up: loaded when the command runs

    deadline = Deadline(time_limit)
    if sample is not None:
        sample = check_count(sample, "--sample", maximum=MAX_SAMPLE)
    workers = check_count(workers, "--workers", minimum=0, maximum=4096, allow_none=True)
    seed = check_number("--seed", seed, minimum=0, maximum=_MAX_SEED, integer=True, allow_none=False)
    opts = _options(option)
    if address and executor == "local":
        raise SolverError("--address needs --executor ray or dask")
    if connect_timeout is not None:
        resolve_connect_timeout(connect_timeout)  # a bad value is refused before any work
    state: dict = {}
    with ExitStack() as stack:
        def bar(key, label):
            def update(done, total):
                if key not in state:  # open the bar once the total is known
                    state[key] = [stack.enter_context(progress(total, label, enabled=total > 1 and not quiet)), 0]
                adv, last = state[key]
                adv(done - last)
                state[key][1] = done
            return update

        def chunks_bar(done, total):
            # the chunks: done of total, elapsed and time left (generators.executors.progress)
            if "chunks" not in state:
                state["chunks"] = stack.enter_context(count_progress("census", enabled=total > 1 and not quiet,
                                                                     unit="chunks"))
            state["chunks"](done, total)

        stack.enter_context(cluster_settings(address=address, connect_timeout=connect_timeout))
        summary = census(sample, workers, checkpoint, seed, opts, load_card_set(cards), executor,
                         on_progress=chunks_bar, time_limit=deadline,
                         on_prepare=bar("prep", "sampling layouts") if sample and sample > 20_000 else None)
    summary["seconds"] = round(deadline.elapsed(), 3)
    if as_json:
        print_json(summary)
        return
    n = summary.get("layouts", 0)
    if not summary.get("complete", True):
        typer.echo(f"stopped by the time limit after {summary['chunks_done']} of {summary['chunks']} chunks"
                   + (" (the checkpoint keeps them)" if checkpoint else ""))
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
    bot: Optional[List[str]] = typer.Option(None, "--bot", help="Bot strength (random, greedy, pimc, pimc-strong, perfect); once = you vs it, twice = bot vs bot."),
    seed: int = typer.Option(0, "--seed", help="Seed of the layouts and the bots."),
    games: int = typer.Option(1, "--games", help="Bot vs bot: number of games (1..100000)."),
    first: int = typer.Option(1, "--first", help="Who starts the first match: 1 or 2."),
    option: Optional[List[str]] = typer.Option(None, "--option", help=_OPTION_HELP),
    as_json: bool = typer.Option(False, "--json", help="Bot vs bot: print results as JSON (game logs for 1 game)."),
) -> None:
    """Two-player game: you against a bot in the terminal, or bot against bot.
    Example: tanglekit tanglung play --bot greedy --bot random --games 20"""
    from .duel_bots import (  # start-up: loaded when the command runs
        bot_match,  # start-up: loaded when the command runs
        make_bot,
        play_game,
    )

    games = check_count(games, "--games", maximum=100_000)
    seed = check_number("--seed", seed, minimum=0, maximum=2**31 - 1, integer=True, allow_none=False)
    opts = _options(option)
    names = list(bot or ["greedy"])
    if any(len(n) > 40 for n in names):
        raise TanglekitError("--bot: a bot name is a short word (random, greedy, pimc, pimc-strong, perfect)")
    if len(names) > 2 or first not in (1, 2):
        raise TanglekitError("give --bot once (you vs bot) or twice (bot vs bot); --first is 1 or 2")
    for nm in names:
        make_bot(nm, seed)  # an unknown name fails before anything is played
    if len(names) == 2:
        if games == 1:
            g = play_game(make_bot(names[0], seed), make_bot(names[1], seed + 1), seed, opts, first - 1)
            if as_json:
                print_json({**g.to_json(), "winner": g.winner, "complete": True})
            else:
                for i, (w, why) in enumerate(g.results, 1):
                    typer.echo(f"match {i}: {'draw' if w is None else names[w] + ' (player ' + str(w + 1) + ')'} ({why})")
                typer.echo(f"score {g.score[0]}-{g.score[1]}")
            return
        with progress(None, "games", enabled=not as_json):
            res = bot_match(names[0], names[1], games, seed, opts)
        if as_json:
            print_json({**res, "complete": True})
        else:
            typer.echo(f"{names[0]} {res['wins'][0]} - {res['wins'][1]} {names[1]} (draws {res['draws']})")
        return
    # you against a bot: the common terminal play (`tanglekit play tanglung-duel --bots human,BOT`)
    from ...cli_play import run_session
    from ...play.session import PlaySession  # start-up: loaded when the command runs
    from ...play.start import Start  # start-up: loaded when the command runs
    from .. import load_game  # start-up: loaded when the command runs

    game = load_game("tanglung-duel", **opts.to_json(), first_starter=first - 1)
    start = Start("tanglung-duel", game.new_initial_state(seed=seed))
    run_session(PlaySession(start, ["human", names[0]], seed))


@app.command("analyze")
def analyze_cmd(
    state: str = typer.Argument(..., help="Match state JSON file (or inline JSON), as the engine's to_json writes it."),
    depth: int = typer.Option(4, "--depth", help="Maximum search depth in plies (0 = no search: unknown)."),
    time_limit: float = typer.Option(10.0, "--time-limit", "--time", help="Seconds (0 = stop at once: unknown)."),
    node_limit: Optional[int] = typer.Option(None, "--node-limit", help="Stop after this many nodes per depth."),
    cards: Optional[str] = typer.Option(None, "--cards", help=_CARDS_HELP + " The layout may hold fewer (removed cards), never more."),
    as_json: bool = typer.Option(False, "--json", help="Print {value, outcome, best, best_move, line, depth, nodes, complete, ...}."),
    svg: Optional[Path] = typer.Option(None, "--svg", help="Write the position as SVG."),
) -> None:
    """Perfect-information analysis of a revealed two-player position: value and best action.
    Example: tanglekit tanglung analyze state.json --depth 6"""
    from .duel import Match, describe_action  # start-up: loaded when the command runs
    from .duel_search import solve_position  # start-up: loaded when the command runs
    from .formats import STATE_FORMAT  # start-up: loaded when the command runs

    deadline = Deadline(time_limit)
    depth = check_count(depth, "--depth", minimum=0, maximum=64)
    node_limit = check_count(node_limit, "--node-limit", minimum=0, maximum=10**12, allow_none=True)
    data, where = load_json_source(state, STATE_FORMAT.title)
    expect_format(data, STATE_FORMAT, where)
    validate(data, STATE_FORMAT.schema(), where)
    from .cards import load_card_set  # start-up: loaded when the command runs

    card_set = load_card_set(cards)
    try:
        m = Match.from_json({k: v for k, v in data.items() if k not in ("format", "version")})
        m.layout.validate(card_set, m.options, allow_empty=True)
    except TanglekitError as e:
        raise FormatError(f"{where}: {e}") from None
    if m.is_over():
        raise FormatError(f"{where}: the match is already over (winner: player {m.winner})")
    r = solve_position(m, max_depth=depth, node_limit=node_limit, deadline=deadline)
    if svg is not None:
        from .render import svg_grid  # start-up: loaded when the command runs

        write_text(svg, svg_grid(m.layout, lit=m.lit, boxes=list(m.boxes), fan=m.fan,
                                 title=f"player {m.to_move} to move"))
    best = describe_action(r.best) if r.best else None
    value = {1: "win", -1: "loss", None: "unknown"}[r.outcome]
    res = {"value": value, "outcome": r.outcome, "score": r.value, "best": best, "best_move": best,
           "line": [best] if best else [], "to_move": m.to_move, "depth": r.depth, "nodes": r.nodes,
           "complete": r.proven, "seconds": round(deadline.elapsed(), 3)}
    if not r.proven:
        res["reason"] = r.reason
    if as_json:
        print_json(res)
        return
    typer.echo(m.render_text(reveal=True))
    verdict = {"win": "side to move wins", "loss": "side to move loses",
               "unknown": f"not decided ({r.reason})"}[value]
    typer.echo(f"player {m.to_move} to move: {verdict} (score {r.value}, depth {r.depth}, {r.nodes} nodes)")
    typer.echo(f"best action: {best if best else 'unknown'}")


if __name__ == "__main__":
    from ...cli_common import run_app

    run_app(app)
