"""The ``tanglekit zangle`` commands: find, deck show, play, replay, solve-solo, solo solve/generate, stats.

Each ``*_command`` function returns the text to print (tests call them directly); the typer app
at the bottom parses options and echoes. Library modules are imported inside the functions so
``tanglekit --help`` stays fast. Errors are TanglekitErrors (exit code 2 through run_app).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Optional, Sequence

import typer

from ...cli_common import parse_options, progress, write_text
from ...errors import RuleError
from ...jsonio import check_text_arg
from ...limits import Deadline, check_count, check_time_limit

if TYPE_CHECKING:
    from .cards import Deck
    from .rules import ZangleOptions


MAX_SEED = 2**63 - 1
MAX_STATES = 10**9  # solver budgets (the memo is capped at 4M entries whatever the budget)
MAX_PLAYERS = 11  # a 120-card deck deals 10 own cards to at most 11 players and 4 to the middle
MAX_DEALS = 100_000_000  # random tables in `stats` (streamed in chunks of 10,000, about 200,000 a second)
MAX_SOLO_DEALS = 100_000
MAX_GAMES = 100_000


def load_deck(path):
    from .cards import load_deck as _load  # start-up: loaded when the command runs

    return _load(path)


def load_deal(source, deck):
    """A turn-game deal from a file, inline JSON or a ``zangle:turn`` ID."""
    from .generate import load_turn_deal  # start-up: loaded when the command runs

    return load_turn_deal(check_text_arg(str(source), "deal") if isinstance(source, str) else source, deck)


def find_command(deal_path: str | Path, deck_path: str | Path | None = None, as_json: bool = False,
                 svg_path: str | Path | None = None, options: ZangleOptions | None = None) -> str:
    """``tanglekit zangle find DEAL.json [--deck FILE] [--json] [--svg FILE]``."""
    from .finder import find_zangles_in_deal, format_zangles, zangles_to_json  # start-up: loaded when the command runs
    from .svg import zangle_svg  # start-up: loaded when the command runs

    deck = load_deck(deck_path)
    deal = load_deal(deal_path, deck)
    zs = find_zangles_in_deal(deal, deck, options)
    if svg_path is not None and zs:
        write_text(Path(svg_path), zangle_svg(deal, zs[0]), "picture")
    if as_json:
        return json.dumps({**zangles_to_json(deal, zs), "count": len(zs), "complete": True})
    text = f"{len(zs)} Zangle{'s' if len(zs) != 1 else ''}, best first\n" + format_zangles(deal, zs)
    if zs:
        text += "\n\nbest:\n" + best_picture(deal, zs[0])
    if svg_path is not None and not zs:
        text += f"\n(no Zangle: {svg_path} not written)"
    return text


def best_picture(deal, z) -> str:
    """The target of a Zangle as letters, one letter per piece (A = first piece)."""
    from ...shapes.polyform import Polyform  # start-up: loaded when the command runs
    from ...shapes.render import text_tiling  # start-up: loaded when the command runs

    target = deal.cards(z.target.place)[z.target.index]
    return text_tiling(target.shape, [Polyform(c) for c in z.cells])


def deck_show_command(deck_path: str | Path | None = None, svg_path: str | Path | None = None,
                      as_json: bool = False) -> str:
    """``tanglekit zangle deck show [--deck FILE] [--svg FILE] [--json]``: card kinds, counts, shapes."""
    deck = load_deck(deck_path)
    if svg_path is not None:
        write_text(Path(svg_path), deck_svg(deck), "deck sheet")
    return json.dumps(deck.to_json()) if as_json else deck_text(deck)


def deck_text(deck: Deck) -> str:
    from ...shapes.render import text_sheet  # start-up: loaded when the command runs

    rows = [("kind", "colour", "triangles", "count")]
    rows += [(r["kind"], r["colour"], str(r["triangles"]), str(r["count"])) for r in deck.summary()]
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    lines = [f"deck {deck.name}: {len(deck)} cards" + (" (assumed composition)" if deck.assumed else "")]
    lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows]
    kinds = [(k, s) for k, _, s, _ in deck.kinds if s is not None]
    if kinds:
        lines += ["", text_sheet([s for _, s in kinds], cols=6, labels=[k for k, _ in kinds])]
    return "\n".join(lines)


def deck_svg(deck: Deck, unit: float = 28.0) -> str:
    """The deck sheet (games/zangle/svg.py)."""
    from .svg import deck_svg as _svg  # start-up: loaded when the command runs

    return _svg(deck, unit)


def play_command(mode: str, players: int | None = None, bots: Sequence[str] | None = None, seed: int = 0,
                 log_path: str | Path | None = None, deck_path: str | Path | None = None,
                 options: ZangleOptions | None = None, as_json: bool = False) -> str:
    """``tanglekit zangle play turn|speed|solo [--players N] [--bots B ...] [--seed S] [--log FILE]``."""
    from .play import MODES, format_result, play_state  # start-up: loaded when the command runs

    if mode not in MODES:
        raise RuleError(f"unknown game mode {str(mode)[:40]!r}: expected one of {', '.join(MODES)}")
    check_count(seed, "--seed", minimum=0, maximum=MAX_SEED)
    check_count(players, "--players", maximum=MAX_PLAYERS, allow_none=True)
    deck = load_deck(deck_path) if deck_path else None
    state, res = play_state(mode, players, bots, seed, options=options, deck=deck)
    if log_path is not None:
        write_text(Path(log_path), "\n".join(state.log_lines()) + "\n", "move log")
    return json.dumps({"game": f"zangle-{mode}", **res}) if as_json else format_result(res)


def replay_command(log_path: str | Path, deck_path: str | Path | None = None, as_json: bool = False) -> str:
    """``tanglekit zangle replay LOG``: replay a move log (checking every move), print the result."""
    from .log import replay_log  # start-up: loaded when the command runs
    from .play import format_result  # start-up: loaded when the command runs

    state = replay_log(log_path, load_deck(deck_path) if deck_path else None)
    status = "finished" if state.is_terminal() else "not finished"
    res = {
        "mode": state.game,
        "seed": state.seed,
        "players": getattr(state, "players", 1),
        "bots": ["log"] * getattr(state, "players", 1),
        "actions": len(state.history),
        "score": state.score(),
    }
    if as_json:
        return json.dumps({"game": f"zangle-{state.game}", **res, "moves": len(state.history),
                           "finished": state.is_terminal(), "returns": state.returns()})
    return f"{len(state.history)} moves replayed, game {status}\n" + format_result(res)


def solve_solo_command(seed: int = 0, deck_path: str | Path | None = None, options: ZangleOptions | None = None,
                       max_nodes: int = 2_000_000, as_json: bool = False) -> str:
    """``tanglekit zangle solve-solo [--seed S] [--deck FILE] [--piles 6]``: is this solo deal winnable
    with every card known? Prints yes (with the moves), no, or unknown (search budget ran out)."""
    from .solo_search import SoloDeal  # start-up: loaded when the command runs

    check_count(seed, "--seed", minimum=0, maximum=MAX_SEED)
    check_count(max_nodes, "--max-nodes", minimum=0, maximum=MAX_STATES)
    deal = SoloDeal.from_seed(seed, options, load_deck(deck_path) if deck_path else None)
    res = _solve(deal, max_nodes, None)
    if as_json:
        return json.dumps({"seed": seed, **solve_json(res)})
    ok, path = res.solvable, res.line
    if ok is None:
        return f"solo deal {seed}: unknown (more than {max_nodes} positions)"
    if not ok:
        return f"solo deal {seed}: cannot be won"
    return f"solo deal {seed}: winnable in {len(path)} moves\n" + "\n".join(
        f"{i + 1}. {a}" for i, a in enumerate(path)
    )


def _solve(deal, max_states: int, time_limit, count: bool = False, deadline=None):
    """``solve_deal`` under the command's limits: 0 states or 0 seconds answer unknown at once,
    and the time already spent on set-up counts against ``time_limit``."""
    from .solo_search import SoloResult, solve_deal  # start-up: loaded when the command runs

    deadline = deadline or Deadline(time_limit)
    if max_states == 0 or deadline.expired():
        return SoloResult(None, [], 0, deadline.elapsed(), "node limit" if max_states == 0 else "time limit")
    left = deadline.remaining()
    res = solve_deal(deal, max_states=max_states, time_limit=left if left is None else max(left, 1e-9), count=count)
    res.seconds = deadline.elapsed()
    return res


def solve_json(res, count: bool = False) -> dict:
    """``zangle solo solve --json``: the kept exact keys (solvable, line, states) first, then the
    shared vocabulary (docs/json.md)."""
    d = {"solvable": res.solvable, "line": [str(a) for a in res.line], "states": res.states,
         "moves": len(res.line) if res.solvable else None, "nodes": res.states,
         "complete": res.solvable is not None, "reason": res.reason, "seconds": round(res.seconds, 6),
         "actions": [a.to_json() for a in res.line]}
    if count:
        d.update(lines=res.lines, lines_capped=res.lines_capped, playouts=res.playouts,
                 playout_wins=res.playout_wins)
    return d


def solo_solve_command(source: str, deck_path: str | Path | None = None, as_json: bool = False,
                       max_states: int = 2_000_000, time_limit: float | None = None, count: bool = False,
                       options: dict[str, str] | None = None) -> str:
    """``tanglekit zangle solo solve DEAL.json|ID [--json] [--count]``: decide a solo deal."""
    from .generate import load_solo_deal  # start-up: loaded when the command runs

    deadline = Deadline(check_time_limit(time_limit))
    check_count(max_states, "--max-states", minimum=0, maximum=MAX_STATES)
    deck = load_deck(deck_path) if deck_path else None
    deal = load_solo_deal(check_text_arg(str(source), "solo deal"), deck)
    if options:
        # --option NAME=VALUE pairs override the deal file's own options
        from .rules import ZangleOptions as _Opts

        base = {k: v for k, v in deal.options.to_json().items()}
        changed = _Opts.from_strings(dict(options)).to_json()
        base.update({k: changed[k] for k in options})
        deal = type(deal)(deal.middle, deal.draw, deal.piles, _Opts.from_json(base).with_(piles=len(deal.piles)),
                          deal.deck)
    res = _solve(deal, max_states, time_limit, count, deadline)
    if as_json:
        return json.dumps(solve_json(res, count))
    if res.solvable is None:
        text = f"unknown: {res.reason} after {res.states} states"
    elif res.solvable:
        text = f"solvable ({res.states} states searched); winning line of {len(res.line)} moves:\n" + "\n".join(
            f"{i + 1}. {a}" for i, a in enumerate(res.line))
    else:
        text = f"not solvable ({res.states} states searched)"
    if count:
        lines = "unknown" if res.lines is None else (f">= {res.lines}" if res.lines_capped else str(res.lines))
        text += (f"\ndistinct winning lines: {lines}; random playouts won: {res.playout_wins}/{res.playouts}")
    return text


def solo_generate_command(count: int = 1, difficulty: str = "medium", seed: int = 0, piles: int = 5,
                          as_json: bool = False, svg_dir: str | Path | None = None,
                          deck_path: str | Path | None = None, options: ZangleOptions | None = None,
                          show_progress: bool = False, booklet: str | Path | None = None) -> str:
    """``tanglekit zangle solo generate [--count K] [--difficulty D] [--seed S] [--piles P] [--json] [--svg DIR] [--booklet F]``."""
    from .generate import (  # start-up: loaded when the command runs
        DIFFICULTIES,
        MAX_COUNT,
        challenge_answer_svg,
        challenge_svg,
        generate_challenges,
    )
    from .rules import ZangleOptions as _Opts  # start-up: loaded when the command runs

    check_count(count, "--count", maximum=MAX_COUNT)
    check_count(seed, "--seed", minimum=0, maximum=MAX_SEED - count)
    check_count(piles, "--piles", maximum=8)
    if difficulty not in DIFFICULTIES + ("any",):
        raise RuleError(f"--difficulty must be one of {', '.join(DIFFICULTIES)} or any, not {str(difficulty)[:40]!r}")
    deck = load_deck(deck_path) if deck_path else None
    opts = (options or _Opts()).with_(piles=piles)
    with progress(count, "generating", enabled=show_progress and count > 1) as step:
        chs = generate_challenges(count, difficulty, seed, opts, deck, progress=step)
    if svg_dir is not None:
        for ch in chs:
            stem = f"zangle-solo-{ch.grade}-{len(ch.deal.piles)}-{ch.seed}"
            write_text(Path(svg_dir) / f"{stem}.svg", challenge_svg(ch), "challenge sheet")
            write_text(Path(svg_dir) / f"{stem}-answer.svg", challenge_answer_svg(ch), "answer sheet")
    if booklet is not None:
        from ...generators.booklet import BookletPage, booklet_html  # start-up: loaded when the command runs

        pages = [BookletPage(f"{ch.grade}, {len(ch.deal.piles)} piles ({ch.seed_id})", challenge_svg(ch),
                             challenge_answer_svg(ch)) for ch in chs]
        write_text(Path(booklet), booklet_html("Zangle solo challenges", pages,
                                               "Empty the tableau with Zangles."), "booklet")
    if as_json:
        return json.dumps([ch.to_json() for ch in chs] if count != 1 else chs[0].to_json())
    out = []
    for ch in chs:
        m = ch.measures
        out.append(f"{ch.seed_id}\n  id {ch.id}\n  grade {ch.grade}: playouts won {m['rate_percent']} %, "
                   f"greedy bot {'wins' if m['greedy_wins'] else 'loses'}, winning lines "
                   f"{'>= ' if m['lines_capped'] else ''}{m['lines']}\n  solution: "
                   + "; ".join(str(a) for a in ch.solution))
    return "\n".join(out)


def stats_command(deck_path: str | Path | None = None, deals: int = 100_000, seed: int = 0, solo_deals: int = 100,
                  games: int = 10, max_states: int = 2_000_000, as_json: bool = False,
                  options: ZangleOptions | None = None, show_progress: bool = False) -> str:
    """``tanglekit zangle stats [--deck FILE] [--deals N] [--seed S] [--json]``."""
    from .generate import deal_stats, format_stats  # start-up: loaded when the command runs

    check_count(deals, "--deals", minimum=0, maximum=MAX_DEALS)
    check_count(solo_deals, "--solo-deals", minimum=0, maximum=MAX_SOLO_DEALS)
    check_count(games, "--games", minimum=0, maximum=MAX_GAMES)
    check_count(seed, "--seed", minimum=0, maximum=MAX_SEED)
    check_count(max_states, "--max-states", minimum=0, maximum=MAX_STATES)
    deck = load_deck(deck_path) if deck_path else None
    total = (deals + 9999) // 10000 + 2 * solo_deals + games
    with progress(total, "simulating", enabled=show_progress) as step:
        s = deal_stats(deck, deals, seed, solo_deals, games, max_states, progress=step, options=options)
    return json.dumps(s) if as_json else format_stats(s)


def go_out_command(deal_path: str | Path, player: int = 0, deck_path: str | Path | None = None,
                   as_json: bool = False, max_states: int = 200_000, options: ZangleOptions | None = None) -> str:
    """``tanglekit zangle turn go-out DEAL.json [--player P] [--json]``: can that player use all
    their cards if the others never take or draw a card (middle pile order as in the file)?"""
    from .turn import TurnGame  # start-up: loaded when the command runs
    from .turn_search import turn_go_out  # start-up: loaded when the command runs

    check_count(max_states, "--max-states", minimum=0, maximum=MAX_STATES)
    deck = load_deck(deck_path)
    deal = load_deal(deal_path, deck)
    g = TurnGame.from_deal(deal, deck=deck, options=options, rounds=1)
    if not 0 <= player < g.players:
        raise RuleError(f"--player must be 0..{g.players - 1} (0 = 'own' in the deal file)")
    ok, line, states = turn_go_out(g, player, max_states=max_states) if max_states else (None, [], 0)
    if as_json:
        return json.dumps({"can_go_out": ok, "line": [str(a) for a in line], "states": states,
                           "solvable": ok, "moves": len(line) if ok else None, "nodes": states,
                           "complete": ok is not None, "player": player,
                           "actions": [a.to_json() for a in line]})
    if ok is None:
        return f"player {player}: unknown (more than {max_states} states)"
    if not ok:
        return f"player {player} cannot go out ({states} states searched)"
    return f"player {player} can go out in {len(line)} actions:\n" + "\n".join(
        f"{i + 1}. {a}" for i, a in enumerate(line))


def turn_generate_command(players: int = 2, seed: int = 0, properties: Sequence[str] = (), as_json: bool = False,
                          deck_path: str | Path | None = None, options: ZangleOptions | None = None) -> str:
    """``tanglekit zangle turn generate [--players N] [--seed S] [--property P ...]``: a deal file."""
    from .generate import generate_turn_deal  # start-up: loaded when the command runs

    check_count(players, "--players", maximum=MAX_PLAYERS)
    check_count(seed, "--seed", minimum=0, maximum=MAX_SEED)
    deck = load_deck(deck_path) if deck_path else None
    res = generate_turn_deal(players, seed, tuple(properties), options, deck)
    if as_json:
        return json.dumps(res)
    return json.dumps(res["deal"], indent=1)  # a deal file (with its ID pair)


# --- typer app ------------------------------------------------------------------------------

app = typer.Typer(help="Zangle: find Zangles in a deal, play games between bots, show the deck.",
                  no_args_is_help=True)
deck_app = typer.Typer(help="The card deck.", no_args_is_help=True)
app.add_typer(deck_app, name="deck")
solo_app = typer.Typer(help="Solo deals: decide them, generate verified graded challenges.",
                       no_args_is_help=True)
app.add_typer(solo_app, name="solo")
turn_app = typer.Typer(help="Turn-game deals: go-out check, deals with properties.", no_args_is_help=True)
app.add_typer(turn_app, name="turn")

_DECK = typer.Option(None, "--deck", help="Deck file (JSON or TOML); default: the assumed 120-card deck.")
_OPTION = typer.Option(None, "--option", help="Rule option NAME=VALUE (repeatable), e.g. piles=6.")


def _options(pairs):
    from .rules import ZangleOptions  # start-up: loaded when the command runs

    return ZangleOptions.from_strings(parse_options(pairs))


@app.command("find")
def find(
    deal: Optional[str] = typer.Argument(None, help="Deal file {\"middle\": [...], \"own\": [...]}, inline JSON or a zangle:turn ID."),
    deck: Optional[Path] = _DECK,
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output."),
    svg: Optional[Path] = typer.Option(None, "--svg", help="Draw the best Zangle as SVG."),
    option: Optional[list[str]] = _OPTION,
    batch: Optional[str] = typer.Option(None, "--batch", help="Many deals: FILE or - with one deal file or JSON object a line; JSON lines out."),
) -> None:
    """All Zangles of a table, best first. Example: tanglekit zangle find deal.json --svg best.svg."""
    if batch is not None:
        from ...cli_batch import run_batch  # start-up: loaded when the command runs

        return run_batch(batch, find, dict(locals()), "deal", refuse=("svg",))
    if deal is None:
        raise typer.BadParameter("give a deal file (or --batch FILE)", param_hint="DEAL")
    typer.echo(find_command(deal, deck, as_json, svg, _options(option)))


@deck_app.command("show")
def deck_show(deck: Optional[Path] = _DECK,
              svg: Optional[Path] = typer.Option(None, "--svg", help="Write the deck sheet as SVG."),
              as_json: bool = typer.Option(False, "--json", help="The deck file (JSON).")) -> None:
    """Card kinds, colours and counts. Example: tanglekit zangle deck show --svg deck.svg."""
    typer.echo(deck_show_command(deck, svg, as_json))


@app.command("play")
def play(
    mode: str = typer.Argument(..., help="turn, speed or solo."),
    players: Optional[int] = typer.Option(None, "--players", help="Number of players (turn/speed)."),
    bots: Optional[list[str]] = typer.Option(None, "--bots", help="Bot per player: random, greedy, lookahead."),
    seed: int = typer.Option(0, "--seed", help="Shuffle seed."),
    log: Optional[Path] = typer.Option(None, "--log", help="Write the move log (JSON lines)."),
    deck: Optional[Path] = _DECK,
    option: Optional[list[str]] = _OPTION,
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output."),
) -> None:
    """Play a whole game between bots. Example: tanglekit zangle play turn --players 3 --seed 1."""
    typer.echo(play_command(mode, players, bots, seed, log, deck, _options(option), as_json))


@app.command("replay")
def replay(log: Path = typer.Argument(..., help="Move log written by play --log."), deck: Optional[Path] = _DECK,
           as_json: bool = typer.Option(False, "--json", help="Machine-readable output.")) -> None:
    """Replay a move log, checking every move. Example: tanglekit zangle replay game.jsonl."""
    typer.echo(replay_command(log, deck, as_json))


@app.command("solve-solo")
def solve_solo(
    seed: int = typer.Option(0, "--seed", help="Seed of the solo deal."),
    deck: Optional[Path] = _DECK,
    option: Optional[list[str]] = _OPTION,
    max_nodes: int = typer.Option(2_000_000, "--max-nodes", help="Search budget (positions)."),
    as_json: bool = typer.Option(False, "--json", help="As zangle solo solve --json, with the seed."),
) -> None:
    """Can the seeded solo deal be won with every card known? Example: tanglekit zangle solve-solo --seed 3."""
    typer.echo(solve_solo_command(seed, deck, _options(option), max_nodes, as_json))


@solo_app.command("solve")
def solo_solve(
    deal: Optional[str] = typer.Argument(None, help="Solo deal file (JSON) or ID (zangle:solo,...:... or ...#seed)."),
    as_json: bool = typer.Option(False, "--json", help='Print {"solvable": ..., "line": [...], "states": n}.'),
    count: bool = typer.Option(False, "--count", help="Also count winning lines and random-playout wins."),
    max_states: int = typer.Option(2_000_000, "--max-states", help="Search budget (states)."),
    time_limit: Optional[float] = typer.Option(None, "--time-limit", help="Seconds before giving up (unknown)."),
    deck: Optional[Path] = _DECK,
    option: Optional[list[str]] = _OPTION,
    batch: Optional[str] = typer.Option(None, "--batch", help="Many deals: FILE or - with one ID, file or JSON deal a line; JSON lines out."),
) -> None:
    """Can this solo deal be won? Example: tanglekit zangle solo solve deal.json --json."""
    if batch is not None:
        from ...cli_batch import run_batch  # start-up: loaded when the command runs
        from .solo_batch import zangle_solo_bulk  # start-up: loaded when the command runs

        return run_batch(batch, solo_solve, dict(locals()), "deal", bulk=zangle_solo_bulk)
    if deal is None:
        raise typer.BadParameter("give a solo deal file or ID (or --batch FILE)", param_hint="DEAL")

    typer.echo(solo_solve_command(deal, deck, as_json, max_states, time_limit, count, parse_options(option)))


@solo_app.command("generate")
def solo_generate(
    count: int = typer.Option(1, "--count", help="Number of challenges (seeds S, S+1, ...)."),
    difficulty: str = typer.Option("medium", "--difficulty", help="easy, medium, hard or expert."),
    seed: int = typer.Option(0, "--seed", help="Seed of the first challenge."),
    piles: int = typer.Option(5, "--piles", help="Tableau piles: 5, or 6 for the harder game."),
    as_json: bool = typer.Option(False, "--json", help="JSON: deal, grade, measures, one solution."),
    svg: Optional[Path] = typer.Option(None, "--svg", help="Folder for printable SVG sheets (and answer sheets)."),
    booklet: Optional[Path] = typer.Option(None, "--booklet", help="Printable HTML booklet: a page per challenge, answers at the back."),
    deck: Optional[Path] = _DECK,
    option: Optional[list[str]] = _OPTION,
) -> None:
    """Verified, graded solo challenges. Example: tanglekit zangle solo generate --difficulty hard --svg out/."""
    typer.echo(solo_generate_command(count, difficulty, seed, piles, as_json, svg, deck,
                                     _options(option) if option else None, show_progress=True, booklet=booklet))


@app.command("stats")
def stats(
    deck: Optional[Path] = _DECK,
    deals: int = typer.Option(100_000, "--deals", help="Random 4+4 tables (numba batch kernel)."),
    seed: int = typer.Option(0, "--seed", help="Random seed."),
    solo_deals: int = typer.Option(100, "--solo-deals", help="Random solo deals per pile count (5 and 6)."),
    games: int = typer.Option(10, "--games", help="Turn games between two greedy bots."),
    max_states: int = typer.Option(2_000_000, "--max-states", help="Solver budget per solo deal."),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output."),
    option: Optional[list[str]] = _OPTION,
) -> None:
    """Monte Carlo statistics of random deals. Example: tanglekit zangle stats --deals 100000 --seed 1."""
    typer.echo(stats_command(deck, deals, seed, solo_deals, games, max_states, as_json,
                             _options(option) if option else None, show_progress=True))


@turn_app.command("go-out")
def turn_go_out(
    deal: str = typer.Argument(..., help="Deal file with middle, own, own_pile, middle_pile (and others), or a zangle:turn ID."),
    player: int = typer.Option(0, "--player", help="0 = 'own', 1.. = others in file order."),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output."),
    max_states: int = typer.Option(200_000, "--max-states", help="Search budget (states)."),
    deck: Optional[Path] = _DECK,
    option: Optional[list[str]] = _OPTION,
) -> None:
    """Can a player use all their cards if nobody interferes? Example: tanglekit zangle turn go-out deal.json."""
    typer.echo(go_out_command(deal, player, deck, as_json, max_states, _options(option)))


@turn_app.command("generate")
def turn_generate(
    players: int = typer.Option(2, "--players", help="Number of players."),
    seed: int = typer.Option(0, "--seed", help="Random seed."),
    prop: Optional[list[str]] = typer.Option(None, "--property", help="all_can_go_out, middle_no_zangle, "
                                             "first_no_zangle, all_start_zangle (repeatable)."),
    as_json: bool = typer.Option(False, "--json", help="Deal plus measured properties as one JSON object."),
    deck: Optional[Path] = _DECK,
    option: Optional[list[str]] = _OPTION,
) -> None:
    """A turn-game deal file with the asked properties. Example: tanglekit zangle turn generate --property all_can_go_out."""
    typer.echo(turn_generate_command(players, seed, prop or (), as_json, deck, _options(option) if option else None))


if __name__ == "__main__":
    from ...cli_common import run_app

    run_app(app)
