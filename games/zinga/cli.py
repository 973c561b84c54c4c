"""`tanglekit zinga ...`: exact odds, sheet analysis, sheet-set generation, bot games and simulation.

Imports only typer and the standard library at module level; the library is imported inside commands.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import List, Optional

import typer

from ...cli_common import parse_options, print_json, progress, write_text
from ...errors import RuleError, TanglekitError
from ...jsonio import check_text_arg, read_json_file
from ...limits import UsageError, check_count, check_number

app = typer.Typer(help="Zinga: exact dice odds, score sheets, balanced sheet sets, bot games and simulation.",
                  no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False)
sheets_app = typer.Typer(help="Score-sheet sets: generate balanced sets, show or check sheet files.",
                         no_args_is_help=True)
app.add_typer(sheets_app, name="sheets")

SHEETS_HELP = "Sheet file (JSON), shareable ID (zinga:sheets4:... or zinga:sheets4,attempts=2,tune=40,effort=3#SEED) or 'default'."
MAX_PLAYERS = 12  # the generator makes sets of up to 12 sheets; one sheet per player
MAX_GAMES = 100_000_000  # simulated games per run (streamed in chunks, with a progress bar)
MAX_RUNS = 200_000  # Monte Carlo runs per sheet of `analyze` (plain Python, about 10 s of CPU per 100,000)


def _sheets(spec):
    """Sheets from a file, 'default' or any Zinga ID (a seed ID regenerates, with a progress bar)."""
    from .generate import load_sheet_source  # start-up: loaded when the command runs

    return load_sheet_source(spec, progress_factory=lambda total, label: progress(total, label))


def _seed(seed: int) -> int:
    from ...generators.ids import MAX_SEED  # start-up: loaded when the command runs

    return check_count(seed, "--seed", minimum=0, maximum=MAX_SEED)


def _options(pairs):
    from .rules import ZingaOptions  # start-up: loaded when the command runs

    return ZingaOptions.from_dict(parse_options(pairs))


@app.command("odds")
def odds(as_json: bool = typer.Option(False, "--json", help="Machine-readable output.")) -> None:
    """Chance per roll that (colour, n) may be claimed, for the active and a passive player (all 6^6 rolls).

    Example: tanglekit zinga odds --json
    """
    from .odds import odds_counts, odds_table  # loads numpy (only when this runs)

    table = odds_table()
    if as_json:
        print_json(table)
        return
    counts = odds_counts()
    typer.echo("Chance per roll (exact, out of 46656 rolls; the five colours are alike):")
    for role in ("active", "passive"):
        row = counts[role]["red"]
        typer.echo(f"\n{role:8}" + "".join(f"{n:>7}" for n in range(1, 13)))
        typer.echo(f"{'':8}" + "".join(f"{c / 46656:7.4f}" for c in row))
        typer.echo(f"{'x 1/36':8}" + "".join(f"{c / 1296:7.1f}" for c in row))


@app.command("analyze")
def analyze(
    sheet: str = typer.Argument(..., help=SHEETS_HELP),
    players: int = typer.Option(4, help="Players at the table (the analysed one is active 1 roll in N)."),
    runs: int = typer.Option(2000, help="Monte Carlo runs of the greedy policy."),
    seed: int = typer.Option(0, help="Seed of the Monte Carlo runs."),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output."),
) -> None:
    """Per-sheet odds: tick chances, exact line-focus Markov chain, greedy Monte Carlo to a first line.

    Example: tanglekit zinga analyze default
    """
    from .odds import analyze_sheet  # loads numpy (only when this runs)

    players = check_count(players, "--players", maximum=MAX_PLAYERS)
    runs = check_count(runs, "--runs", minimum=2, maximum=MAX_RUNS)
    seed = _seed(seed)
    sheets = _sheets(sheet)
    results = []
    with progress(len(sheets), "sheets", enabled=runs * len(sheets) > 20_000) as advance:
        for s in sheets:
            results.append(analyze_sheet(s, players, runs, seed))
            advance()
    if as_json:
        print_json({"sheets": results})
        return
    for s, r in zip(sheets, results):
        t = r["tick_chance"]
        g, k = r["greedy_first_line_rolls"], r["greedy_first_line_ticks"]
        typer.echo(f"sheet {r['sheet']}\n{s.text()}")
        typer.echo(f"  chance to tick something new on a fresh sheet: active {t['active']:.4f}, "
                   f"passive {t['passive']:.4f}, per roll with {players} players {t['per_roll']:.4f}")
        typer.echo(f"  exact expected rolls to complete the best line (line-focus policy): "
                   f"{r['exact_first_line_rolls']:.2f} (line {r['best_line']})")
        typer.echo(f"  greedy policy, rolls to a first line: {g['mean']:.2f} ± {g['ci95']:.2f}; "
                   f"own ticks: {k['mean']:.2f} ± {k['ci95']:.2f} (95% CI, {g['runs']} runs)\n")


def _sim_table(res: dict) -> None:
    typer.echo(f"{res['players']} players, {res['games']} games, bot {res['bot']}, engine {res['engine']}: "
               f"{res['mean_turns']:.1f} rolls per game, {res['draws']} draws, "
               f"{res['blunders_per_game']:.2f} blunders, {res['stops_per_game']:.2f} STOPs per game")
    typer.echo(f"{'sheet':>6} {'seats':>8} {'wins':>8} {'win rate':>9}  95% CI            fair")
    for r in res["sheets"]:
        lo, hi = r["ci95"]
        typer.echo(f"{r['sheet']:>6} {r['games']:>8} {r['wins']:>8} {r['win_rate']:>9.4f}  "
                   f"[{lo:.4f}, {hi:.4f}]  {r['fair_share']:.4f}")


@app.command("simulate")
def simulate(
    players: int = typer.Option(4, "--players", help="Players per game (2 or more)."),
    games: int = typer.Option(20000, help="Number of games."),
    sheets: str = typer.Option("default", help=SHEETS_HELP),
    seed: int = typer.Option(0, help="Seed of the run."),
    bot: str = typer.Option("casual", help="Bot strength for every seat: novice, casual, expert, perfect."),
    engine: str = typer.Option("numba", help="numba (fast kernel) or plain (the rules engine; same games)."),
    option: Optional[List[str]] = typer.Option(None, "--option", help="Rule option NAME=VALUE (repeatable)."),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output."),
    quiet: bool = typer.Option(False, "--quiet", help="No progress bar."),
) -> None:
    """Win rate of each sheet in games of equal bots (spread over all seatings).

    Example: tanglekit zinga simulate --players 3 --games 30000 --seed 1
    """
    from .bots import get_bot  # start-up: loaded when the command runs
    from .sim import sheet_win_rates  # loads numba (only when this runs)

    if players < 2:
        raise RuleError("Zinga needs at least 2 players")
    players = check_count(players, "--players", minimum=2, maximum=MAX_PLAYERS)
    games = check_count(games, "--games", maximum=MAX_GAMES)
    seed = _seed(seed)
    if engine not in ("numba", "plain"):
        raise UsageError(f"--engine is numba or plain, not {engine[:40]!r}")
    get_bot(bot)
    opts = _options(option)
    all_sheets = _sheets(sheets)
    if players > len(all_sheets):
        raise RuleError(f"{players} players need {players} sheets; the set has {len(all_sheets)}")
    chunk = 2000 if engine == "numba" else 50
    with progress(games, f"{players}-player games", enabled=not quiet) as advance:
        res = sheet_win_rates(all_sheets, players, games, seed, bot, opts, advance, chunk, engine)
    if as_json:
        print_json(res)
    else:
        _sim_table(res)


@app.command("game")
def game(
    players: int = typer.Option(4, "--players", help="Players (the first N sheets of the set)."),
    sheets: str = typer.Option("default", help=SHEETS_HELP),
    seed: int = typer.Option(0, help="Seed of the game."),
    bot: List[str] = typer.Option(["casual"], help="Bot strength per seat (repeat; the last one fills up)."),
    option: Optional[List[str]] = typer.Option(None, "--option", help="Rule option NAME=VALUE (repeatable)."),
    out: Optional[Path] = typer.Option(None, help="Save the game (sheets, options, move log) as JSON."),
    as_json: bool = typer.Option(False, "--json", help="Print the game file instead of the log."),
) -> None:
    """Play one bot game on the rules engine and print its move log and events.

    Example: tanglekit zinga game --players 3 --seed 5 --out game.json
    """
    from .bots import get_bot, play_bot_game  # start-up: loaded when the command runs

    seed = _seed(seed)
    if not 2 <= players <= MAX_PLAYERS:
        raise TanglekitError(f"players must be between 2 and {MAX_PLAYERS}")
    for b in bot:
        get_bot(b)
    all_sheets = _sheets(sheets)
    if not 2 <= players <= len(all_sheets):
        raise TanglekitError(f"players must be between 2 and {len(all_sheets)} (sheets in the set)")
    bots = (list(bot) + [bot[-1]] * players)[:players]
    g = play_bot_game(all_sheets[:players], bots, _options(option), seed, 0)
    if out:
        write_text(out, g.dumps() + "\n", "game")
    if as_json:
        print_json(g.to_json())
        return
    for m in g.moves:
        typer.echo(m.text())
    typer.echo("")
    for e in g.events[-8:]:
        typer.echo(f"# {e}")
    typer.echo(_result_line(g))


def _result_line(g) -> str:
    """The end in a sentence: who won and why, who is out and why (or the state of play)."""
    return g.outcome_text()


@app.command("replay")
def replay(
    path: Path = typer.Argument(..., help="A zinga-game JSON file (from `zinga game --out`)."),
    undo: int = typer.Option(0, help="Take back this many moves from the end."),
    move: Optional[List[str]] = typer.Option(None, "--move", help="Continue with this move (repeatable), e.g. 'roll 1 2 3 4 5 6'."),
    out: Optional[Path] = typer.Option(None, help="Save the resulting game."),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable summary."),
) -> None:
    """Replay a game file, optionally undo moves and continue with new ones; prints the position.

    Example: tanglekit zinga replay game.json --undo 2 --move none
    """
    from .engine import ZingaGame  # start-up: loaded when the command runs

    undo = check_count(undo, "--undo", minimum=0)
    for m in move or []:
        check_text_arg(m, "--move", 200)
    g = ZingaGame.from_json(read_json_file(path, "Zinga game"), str(path))
    if undo > len(g.moves):
        raise RuleError(f"--undo {undo}: the game has only {len(g.moves)} moves")
    if undo:
        g = g.undo(undo)
    for k, m in enumerate(move or []):
        try:
            g.play(m)
        except RuleError as e:
            raise RuleError(f"--move {k + 1}: {e}") from None
    if out:
        write_text(out, g.dumps() + "\n", "game")
    summary = g.summary() | {"phase": g.phase, "active": g.active, "moves": len(g.moves)}
    if as_json:
        print_json(summary)
        return
    typer.echo(f"{len(g.moves)} moves, phase {g.phase}, active player {g.active}, pawn {g.pawn}")
    for p, ps in enumerate(summary["players"]):
        typer.echo(f"  player {p}: {ps['ticks']} ticks, {ps['plus']} PLUS, {ps['blunders']} blunders"
                   + ("" if ps["alive"] else ", out"))
    typer.echo(_result_line(g))


@sheets_app.command("generate")
def sheets_generate(
    seed: int = typer.Option(0, help="Seed (the same seed gives the same set)."),
    count: int = typer.Option(4, help="Sheets in the set."),
    games: int = typer.Option(20000, help="Simulated 4-player games verifying the returned set (0: skip)."),
    attempts: int = typer.Option(2, help="Candidate sets tried (generate and test)."),
    tune: int = typer.Option(40, help="Tuning rounds (number swaps kept when they shrink the win-rate spread)."),
    effort: float = typer.Option(3.0, help="CP-SAT deterministic time per candidate."),
    out: Optional[Path] = typer.Option(None, help="Save the set (with its report) as JSON."),
    svg: Optional[Path] = typer.Option(None, help="Write one printable SVG score pad per sheet into DIR."),
    as_json: bool = typer.Option(False, "--json", help="Print the set and its report as JSON."),
    quiet: bool = typer.Option(False, "--quiet", help="No progress bar."),
) -> None:
    """Generate a balanced set of score sheets (CP-SAT), verified by simulation.

    Example: tanglekit zinga sheets generate --seed 1 --svg pads/
    """
    from .generate import (  # start-up: loaded when the command runs
        MAX_EFFORT,
        check_settings,
        generate_sheet_set,
        sheet_svg,
    )

    seed = _seed(seed)
    count = check_count(count, "--count", maximum=12)
    games = check_count(games, "--games", minimum=0, maximum=MAX_GAMES)
    attempts = check_count(attempts, "--attempts", maximum=50)
    tune = check_count(tune, "--tune", minimum=0, maximum=2000)
    effort = check_number("--effort", effort, minimum=0, maximum=MAX_EFFORT)
    if effort == 0:
        raise UsageError("--effort must be more than 0")
    check_settings(count, attempts, tune, effort)
    with progress(attempts + tune, "generate and tune", enabled=not quiet) as advance:
        ss = generate_sheet_set(count, seed, games, attempts=attempts, effort=effort, tune_rounds=tune,
                                progress=advance)
    data = ss.to_json()
    if out:
        write_text(out, json.dumps(data, indent=1) + "\n", "sheet set")
    if svg:
        for s in ss.sheets:
            write_text(svg / f"zinga-sheet-{s.name}.svg", sheet_svg(s, f"{s.name}"), "SVG")
    if as_json:
        print_json(data)
        return
    for s in ss.sheets:
        typer.echo(f"sheet {s.name}\n{s.text()}\n")
    typer.echo(f"id: {ss.id}\nseed id: {ss.seed_id}")
    rep = ss.report
    if "tune_end_spread" in rep:
        typer.echo(f"win-rate spread while tuning: {rep['tune_start_spread']:.4f} -> {rep['tune_end_spread']:.4f} "
                   f"({rep['tune_accepted']} of {rep['tune_rounds']} swaps kept)")
    sim = ss.report.get("simulation")
    if sim:
        _sim_table(sim)


@sheets_app.command("show")
def sheets_show(
    sheets: str = typer.Argument("default", help=SHEETS_HELP),
    svg: Optional[Path] = typer.Option(None, help="Write one SVG score pad per sheet into DIR."),
    as_json: bool = typer.Option(False, "--json", help="Print the set as JSON."),
) -> None:
    """Check and print a sheet file or ID (errors name the bad cell).

    Example: tanglekit zinga sheets show my-sheets.json --svg pads/
    """
    from .sheet import sheet_set_id, sheets_to_json  # start-up: loaded when the command runs

    ss = _sheets(sheets)
    if svg:
        from .generate import sheet_svg  # start-up: loaded when the command runs

        for s in ss:
            write_text(svg / f"zinga-sheet-{s.name}.svg", sheet_svg(s), "SVG")
    if as_json:
        print_json(sheets_to_json(ss, {"id": sheet_set_id(ss)}))
        return
    for s in ss:
        typer.echo(f"sheet {s.name}\n{s.text()}\n")
    typer.echo(f"id: {sheet_set_id(ss)}")


if __name__ == "__main__":
    from ...cli_common import run_app

    run_app(app)
