"""`tanglekit tanglung duel ...`: the exact duel solver (`solve`) and the fairness table (`table`).

Imports only typer and the standard library at module level (the CLI stays fast to load).
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import List, Optional

import typer

from ...cli_common import print_json, progress
from ...errors import FormatError, TanglekitError
from ...jsonio import expect_format, load_json_source, looks_like_json, validate
from ...limits import check_count, check_time_limit, check_workers
from .api import decode_duel
from .cards import load_card_set
from .cli_inputs import _load_layout, _options
from .duel import Match, describe_action
from .duel_table import entries, fairness_table
from .formats import STATE_FORMAT

duel_app = typer.Typer(help="Two-player duel: exact match values (solve) and the fairness table (table).",
                       no_args_is_help=True)

_OPTION_HELP = "Rule option NAME=VALUE (repeatable): literal_blocking, horse_fan_route, repetition, ..."


def _position(spec: str, option, cards):
    """A live Match from a state (JSON file or inline), a layout or a Tanglung ID (its set-up)."""

    text = spec.strip()
    data = where = None
    if looks_like_json(text) or (text.endswith(".json") and Path(text).exists()):
        # read through the input layer (regular files only): a state has a layout and matchboxes
        data, where = load_json_source(text, STATE_FORMAT.title)
    is_state = isinstance(data, dict) and "layout" in data and "boxes" in data
    if is_state:
        expect_format(data, STATE_FORMAT, where)
        validate(data, STATE_FORMAT.schema(), where)
        body = {k: v for k, v in data.items() if k not in ("format", "version")}
        if option:
            base = dict(body.get("options") or {})
            body["options"] = _options(option, base).to_json()
        try:
            m = Match.from_json(body)
        except TanglekitError as e:
            raise FormatError(f"{where}: {e}") from None
        return m
    layout, opts, card_set, _ = _load_layout(text, option, cards)
    layout.validate(card_set, opts)
    return Match(layout, opts, 0, card_set)


def _num(v):
    if isinstance(v, Fraction):
        return float(v)
    return v


def _frac(v):
    return str(v) if isinstance(v, Fraction) else None


@duel_app.command("solve")
def solve_cmd(
    position: str = typer.Argument(..., help="A layout (its set-up, player 1 places first), a Tanglung ID, or a match state (JSON file or inline)."),
    time_limit: Optional[float] = typer.Option(None, "--time-limit", help="Seconds (0 = stop at once); then complete is false."),
    node_limit: Optional[int] = typer.Option(None, "--node-limit", help="Positions to expand at most."),
    max_states: int = typer.Option(40_000_000, "--max-states", help="Positions the kernel may keep (about 70 bytes each); past it: incomplete."),
    engine: str = typer.Option("auto", "--engine", help="auto (exact fractions when small, else the kernel), kernel (floats) or exact."),
    option: Optional[List[str]] = typer.Option(None, "--option", help=_OPTION_HELP),
    cards: Optional[str] = typer.Option(None, "--cards", help="Card set of a layout (file or inline counts)."),
    as_json: bool = typer.Option(False, "--json", help="Print the result as JSON."),
) -> None:
    """Exact value of a duel match position for the player to move (expectiminimax over the
    unseen cards; repetitions are draws). Example: tanglekit tanglung duel solve state.json --json"""
    from .duel_solve import solve_match  # loads numpy (only when this runs)

    time_limit = check_time_limit(time_limit)
    node_limit = check_count(node_limit, "--node-limit", minimum=0, maximum=10**13, allow_none=True)
    m = _position(position, option, cards)
    if m.is_over():
        raise FormatError(f"the match is already over (winner: {m.winner})")
    max_states = check_count(max_states, "--max-states", minimum=1000, maximum=10**10)
    r = solve_match(m, time_limit=time_limit, node_limit=node_limit, engine=engine, max_states=max_states)
    text = lambda a: describe_action(decode_duel(a))  # noqa: E731
    res = {"to_move": m.to_move, "value": _num(r.value), "value_fraction": _frac(r.value),
           "match_points": None if r.value is None else _num((r.value + 1) / 2),
           "best": text(r.best) if r.best is not None else None,
           "plies": r.plies if r.plies >= 0 else None,
           "actions": [{"action": text(a.action), "value": _num(a.value), "value_fraction": _frac(a.value),
                        "plies": a.plies if a.plies >= 0 else None} for a in
                       sorted(r.actions, key=lambda a: -float(a.value))],
           "states": r.states, "expanded": r.expanded, "engine": r.engine, "complete": r.complete,
           "seconds": round(r.seconds, 3)}
    if not r.complete:
        res["reason"] = r.reason
    if as_json:
        print_json(res)
        return
    typer.echo(m.render_text(reveal=False))
    if not r.complete:
        typer.echo(f"player {m.to_move + 1} to move: not solved ({r.reason}; {r.states:,} states, {r.seconds:.1f} s)")
        return
    v = res["value_fraction"] or f"{res['value']:.6f}"
    typer.echo(f"player {m.to_move + 1} to move: value {v} (match points {res['match_points']:.4f})"
               + (f", {'won' if res['value'] > 0 else 'lost'} in {r.plies} plies" if r.plies >= 0 else ""))
    typer.echo(f"best action: {res['best']}   ({r.states:,} states, {r.seconds:.2f} s, {r.engine})")
    for a in res["actions"][:12]:
        typer.echo(f"  {a['action']:<24} {a['value_fraction'] or format(a['value'], '.6f')}"
                   + (f"  ({a['plies']} plies)" if a["plies"] is not None else ""))
    if len(res["actions"]) > 12:
        typer.echo(f"  ... {len(res['actions']) - 12} more (--json lists them all)")


@duel_app.command("table")
def table_cmd(
    grid: str = typer.Option("4x4", "--grid", help="ROWSxCOLS: 4x4 (the game) or a reduced grid for tests (e.g. 3x3, 2x4)."),
    lanterns: Optional[str] = typer.Option(None, "--lanterns", help="Reduced grid: its lanterns as letters (e.g. RBFHDRB)."),
    cards: Optional[str] = typer.Option(None, "--cards", help="4x4: the card set (file or inline counts)."),
    option: Optional[List[str]] = typer.Option(None, "--option", help=_OPTION_HELP),
    executor: str = typer.Option("local", "--executor", help="local, ray or dask."),
    workers: int = typer.Option(1, "--workers", help="Worker processes (0 = every CPU)."),
    checkpoint: Optional[Path] = typer.Option(None, "--checkpoint", help="Resumable checkpoint file."),
    time_limit: Optional[float] = typer.Option(None, "--time-limit", help="Seconds for the whole run (stops between entries)."),
    entry_time_limit: float = typer.Option(600.0, "--entry-time-limit", help="Seconds per entry before it is recorded unfinished."),
    max_states: int = typer.Option(40_000_000, "--max-states", help="Positions an entry's solve may keep (about 70 bytes each)."),
    exact: bool = typer.Option(False, "--exact", help="Exact fractions (the plain-Python solver: small grids only)."),
    as_json: bool = typer.Option(False, "--json", help="Print the table as JSON."),
) -> None:
    """The fairness table: the starting player's exact match value for every combination of the
    visible centre cards (up to symmetry), and over the whole deal.
    Example: tanglekit tanglung duel table --grid 3x3 --lanterns RBFHDRB --json"""
    try:
        rows, cols = (int(x) for x in grid.lower().split("x"))
    except ValueError:
        raise FormatError("--grid: expected ROWSxCOLS like 3x3") from None
    if not (2 <= rows <= 4 and 2 <= cols <= 4):
        raise FormatError("--grid: 2..4 rows and 2..4 columns")
    time_limit = check_time_limit(time_limit)
    entry_time_limit = check_time_limit(entry_time_limit, "--entry-time-limit")
    card_set = load_card_set(cards) if cards is not None else None
    opts = _options(option)
    n = len(entries(rows, cols, lanterns, card_set))
    workers = check_workers(workers, n)
    with progress(n, "entries", enabled=not as_json) as advance:
        last = [0]

        def on_progress(done, total):
            advance(done - last[0])
            last[0] = done

        t = fairness_table(rows, cols, lanterns, card_set, opts, executor, workers, checkpoint, time_limit,
                           entry_time_limit, on_progress, max_states=check_count(max_states, "--max-states",
                                                                                 minimum=1000, maximum=10**10), exact=exact)
    if as_json:
        print_json(t)
        return
    typer.echo(f"grid {t['grid']}, lanterns {t['lanterns']}: {t['finished']} of {t['entries']} entries solved "
               f"({t['cost_seconds']} s of solving)")
    typer.echo(f"{'centre':<8} {'orbit':>5} {'weight':>9} {'value':>9}  states")
    for r in t["rows"]:
        val = (r.get("value_fraction") or f"{r['value']:+.5f}") if r.get("complete") else ("unfinished" if "complete" in r else "not tried")
        typer.echo(f"{r['centre']:<8} {r['orbit']:>5} {r['weight']:>9.5f} {val:>9}  {r.get('states', '')}")
    if "value" in t:
        typer.echo(f"over the deal: value {t.get('value_fraction') or format(t['value'], '+.6f')} for the starting player (match points "
                   f"{t['starter_match_points']:.6f}); {t['should_start']} should start; P(first starter wins "
                   f"the first-to-2 game) = {t['starter_duel_probability']:.6f}")
