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

if TYPE_CHECKING:
    from .games.zangle.cards import Deck
    from .games.zangle.rules import ZangleOptions


def load_deck(path):
    from .games.zangle.cards import load_deck as _load

    return _load(path)


def load_deal(path, deck):
    from .games.zangle.deal import load_deal as _load

    return _load(path, deck)


def find_command(deal_path: str | Path, deck_path: str | Path | None = None, as_json: bool = False,
                 svg_path: str | Path | None = None, options: ZangleOptions | None = None) -> str:
    """``tanglekit zangle find DEAL.json [--deck FILE] [--json] [--svg FILE]``."""
    from .solver.zangle_finder import (
        find_zangles_in_deal,
        format_zangles,
        zangle_svg,
        zangles_to_json,
    )

    deck = load_deck(deck_path)
    deal = load_deal(deal_path, deck)
    zs = find_zangles_in_deal(deal, deck, options)
    if svg_path is not None and zs:
        Path(svg_path).write_text(zangle_svg(deal, zs[0]), encoding="utf-8")
    if as_json:
        return json.dumps(zangles_to_json(deal, zs), indent=1)
    text = f"{len(zs)} Zangle{'s' if len(zs) != 1 else ''}, best first\n" + format_zangles(deal, zs)
    if zs:
        text += "\n\nbest:\n" + best_picture(deal, zs[0])
    if svg_path is not None and not zs:
        text += f"\n(no Zangle: {svg_path} not written)"
    return text


def best_picture(deal, z) -> str:
    """The target of a Zangle as letters, one letter per piece (A = first piece)."""
    from .shapes.polyform import Polyform
    from .shapes.render import text_tiling

    target = deal.cards(z.target.place)[z.target.index]
    return text_tiling(target.shape, [Polyform(c) for c in z.cells])


def deck_show_command(deck_path: str | Path | None = None, svg_path: str | Path | None = None) -> str:
    """``tanglekit zangle deck show [--deck FILE] [--svg FILE]``: card kinds, counts, shapes."""
    deck = load_deck(deck_path)
    if svg_path is not None:
        Path(svg_path).write_text(deck_svg(deck), encoding="utf-8")
    return deck_text(deck)


def deck_text(deck: Deck) -> str:
    from .shapes.render import text_sheet

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
    """The deck's card kinds in their colours, one per slot, captioned with kind and count.

    Z cards (no triangles) are drawn as an empty dashed card outline.
    """
    from xml.sax.saxutils import escape

    from .games.zangle.cards import PAINT

    from .shapes.lattice import TRIANGLE

    slot_w, slot_h, cols = 4.2, 3.6, 4
    parts = []
    for i, (kind, colour, shape, count) in enumerate(deck.kinds):
        r, c = divmod(i, cols)
        x0, y0 = c * slot_w, r * slot_h
        if shape is None:
            parts.append(
                f'<rect x="{x0 + 1.3:.3f}" y="{y0 + 0.3:.3f}" width="1.6" height="2.2" fill="none" '
                'stroke="#888888" stroke-width="0.05" stroke-dasharray="0.15,0.1"/>'
            )
        else:
            q = shape.normalized()
            pts_all = [pt for cell in q.cells for pt in TRIANGLE.polygon(cell)]
            w = max(p[0] for p in pts_all) - min(p[0] for p in pts_all)
            h = max(p[1] for p in pts_all) - min(p[1] for p in pts_all)
            dx = x0 + (slot_w - w) / 2 - min(p[0] for p in pts_all)
            dy = y0 + 0.3 + (2.4 - h) / 2 - min(p[1] for p in pts_all)
            fill = PAINT.get(colour, "#999999")
            for cell in q.cells:
                pts = " ".join(f"{x + dx:.3f},{y + dy:.3f}" for x, y in TRIANGLE.polygon(cell))
                parts.append(f'<polygon points="{pts}" fill="{fill}" stroke="#ffffff" stroke-width="0.03"/>')
            for a, b in q.boundary_edges():
                parts.append(
                    f'<line x1="{a[0] + dx:.3f}" y1="{a[1] + dy:.3f}" x2="{b[0] + dx:.3f}" '
                    f'y2="{b[1] + dy:.3f}" stroke="#222222" stroke-width="0.06" stroke-linecap="round"/>'
                )
        parts.append(
            f'<text x="{x0 + slot_w / 2:.3f}" y="{y0 + 3.2:.3f}" font-family="sans-serif" font-size="0.42" '
            f'text-anchor="middle" fill="#222222">{escape(kind)} x{count}</text>'
        )
    rows = (len(deck.kinds) + cols - 1) // cols
    w, h = cols * slot_w, rows * slot_h
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w * unit:.0f}" height="{h * unit:.0f}" '
        f'viewBox="0 0 {w:.3f} {h:.3f}">\n<rect width="{w:.3f}" height="{h:.3f}" fill="#ffffff"/>\n'
        + "\n".join(parts)
        + "\n</svg>\n"
    )


def play_command(mode: str, players: int | None = None, bots: Sequence[str] | None = None, seed: int = 0,
                 log_path: str | Path | None = None, deck_path: str | Path | None = None,
                 options: ZangleOptions | None = None, as_json: bool = False) -> str:
    """``tanglekit zangle play turn|speed|solo [--players N] [--bots B ...] [--seed S] [--log FILE]``."""
    from .games.zangle.play import format_result, play_game

    deck = load_deck(deck_path) if deck_path else None
    res = play_game(mode, players, bots, seed, log_path, options=options, deck=deck)
    return json.dumps(res, indent=1) if as_json else format_result(res)


def replay_command(log_path: str | Path, deck_path: str | Path | None = None) -> str:
    """``tanglekit zangle replay LOG``: replay a move log (checking every move), print the result."""
    from .games.zangle.engine import replay_log
    from .games.zangle.play import format_result

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
    return f"{len(state.history)} moves replayed, game {status}\n" + format_result(res)


def solve_solo_command(seed: int = 0, deck_path: str | Path | None = None, options: ZangleOptions | None = None,
                       max_nodes: int = 2_000_000) -> str:
    """``tanglekit zangle solve-solo [--seed S] [--deck FILE] [--piles 6]``: is this solo deal winnable
    with every card known? Prints yes (with the moves), no, or unknown (search budget ran out)."""
    from .solver.zangle_solo import SoloDeal, solve_deal

    deal = SoloDeal.from_seed(seed, options, load_deck(deck_path) if deck_path else None)
    res = solve_deal(deal, max_states=max_nodes)
    ok, path = res.solvable, res.line
    if ok is None:
        return f"solo deal {seed}: unknown (more than {max_nodes} positions)"
    if not ok:
        return f"solo deal {seed}: cannot be won"
    return f"solo deal {seed}: winnable in {len(path)} moves\n" + "\n".join(
        f"{i + 1}. {a}" for i, a in enumerate(path)
    )


def solo_solve_command(source: str, deck_path: str | Path | None = None, as_json: bool = False,
                       max_states: int = 2_000_000, time_limit: float | None = None, count: bool = False,
                       options: dict[str, str] | None = None) -> str:
    """``tanglekit zangle solo solve DEAL.json|ID [--json] [--count]``: decide a solo deal."""
    from .solver.zangle_solo import load_solo_deal, solve_deal

    deck = load_deck(deck_path) if deck_path else None
    deal = load_solo_deal(source, deck)
    if options:
        # --option NAME=VALUE pairs override the deal file's own options
        from .games.zangle.rules import ZangleOptions as _Opts

        base = {k: v for k, v in deal.options.to_json().items()}
        changed = _Opts.from_strings(dict(options)).to_json()
        base.update({k: changed[k] for k in options})
        deal = type(deal)(deal.middle, deal.draw, deal.piles, _Opts.from_json(base).with_(piles=len(deal.piles)),
                          deal.deck)
    res = solve_deal(deal, max_states=max_states, time_limit=time_limit, count=count)
    if as_json:
        d = res.to_json()
        if count:
            d.update(lines=res.lines, lines_capped=res.lines_capped, playouts=res.playouts,
                     playout_wins=res.playout_wins)
        return json.dumps(d)
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
    from .cli_common import progress, write_text
    from .games.zangle.rules import ZangleOptions as _Opts
    from .generators.zangle import challenge_answer_svg, challenge_svg, generate_challenges

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
        from .generators.booklet import BookletPage, booklet_html

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
    from .cli_common import progress
    from .generators.zangle import deal_stats, format_stats

    deck = load_deck(deck_path) if deck_path else None
    total = (deals + 9999) // 10000 + 2 * solo_deals + games
    with progress(total, "simulating", enabled=show_progress) as step:
        s = deal_stats(deck, deals, seed, solo_deals, games, max_states, progress=step, options=options)
    return json.dumps(s) if as_json else format_stats(s)


def go_out_command(deal_path: str | Path, player: int = 0, deck_path: str | Path | None = None,
                   as_json: bool = False, max_states: int = 200_000, options: ZangleOptions | None = None) -> str:
    """``tanglekit zangle turn go-out DEAL.json [--player P] [--json]``: can that player use all
    their cards if the others never take or draw a card (middle pile order as in the file)?"""
    from .games.zangle.turn import TurnGame
    from .solver.zangle_solo import turn_go_out

    deck = load_deck(deck_path)
    deal = load_deal(deal_path, deck)
    g = TurnGame.from_deal(deal, deck=deck, options=options, rounds=1)
    if not 0 <= player < g.players:
        from .errors import RuleError

        raise RuleError(f"player must be 0..{g.players - 1} (0 = 'own' in the deal file)")
    ok, line, states = turn_go_out(g, player, max_states=max_states)
    if as_json:
        return json.dumps({"can_go_out": ok, "line": [a.to_json() for a in line], "states": states})
    if ok is None:
        return f"player {player}: unknown (more than {max_states} states)"
    if not ok:
        return f"player {player} cannot go out ({states} states searched)"
    return f"player {player} can go out in {len(line)} actions:\n" + "\n".join(
        f"{i + 1}. {a}" for i, a in enumerate(line))


def turn_generate_command(players: int = 2, seed: int = 0, properties: Sequence[str] = (), as_json: bool = False,
                          deck_path: str | Path | None = None, options: ZangleOptions | None = None) -> str:
    """``tanglekit zangle turn generate [--players N] [--seed S] [--property P ...]``: a deal file."""
    from .generators.zangle import generate_turn_deal

    deck = load_deck(deck_path) if deck_path else None
    res = generate_turn_deal(players, seed, tuple(properties), options, deck)
    if as_json:
        return json.dumps(res)
    return json.dumps(res["deal"], indent=1)


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
    from .cli_common import parse_options
    from .games.zangle.rules import ZangleOptions

    return ZangleOptions.from_strings(parse_options(pairs))


@app.command("find")
def find(
    deal: Optional[Path] = typer.Argument(None, help="Deal file: {\"middle\": [...], \"own\": [...]}."),
    deck: Optional[Path] = _DECK,
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output."),
    svg: Optional[Path] = typer.Option(None, "--svg", help="Draw the best Zangle as SVG."),
    option: Optional[list[str]] = _OPTION,
    batch: Optional[str] = typer.Option(None, "--batch", help="Many deals: FILE or - with one deal file or JSON object a line; JSON lines out."),
) -> None:
    """All Zangles of a table, best first. Example: tanglekit zangle find deal.json --svg best.svg."""
    if batch is not None:
        from .cli_batch import run_batch

        return run_batch(batch, find, dict(locals()), "deal", refuse=("svg",))
    if deal is None:
        raise typer.BadParameter("give a deal file (or --batch FILE)", param_hint="DEAL")
    typer.echo(find_command(deal, deck, as_json, svg, _options(option)))


@deck_app.command("show")
def deck_show(deck: Optional[Path] = _DECK,
              svg: Optional[Path] = typer.Option(None, "--svg", help="Write the deck sheet as SVG.")) -> None:
    """Card kinds, colours and counts. Example: tanglekit zangle deck show --svg deck.svg."""
    typer.echo(deck_show_command(deck, svg))


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
def replay(log: Path = typer.Argument(..., help="Move log written by play --log."), deck: Optional[Path] = _DECK) -> None:
    """Replay a move log, checking every move. Example: tanglekit zangle replay game.jsonl."""
    typer.echo(replay_command(log, deck))


@app.command("solve-solo")
def solve_solo(
    seed: int = typer.Option(0, "--seed", help="Seed of the solo deal."),
    deck: Optional[Path] = _DECK,
    option: Optional[list[str]] = _OPTION,
    max_nodes: int = typer.Option(2_000_000, "--max-nodes", help="Search budget (positions)."),
) -> None:
    """Can the seeded solo deal be won with every card known? Example: tanglekit zangle solve-solo --seed 3."""
    typer.echo(solve_solo_command(seed, deck, _options(option), max_nodes))


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
    from .cli_common import parse_options

    if batch is not None:
        from .cli_batch import run_batch

        return run_batch(batch, solo_solve, dict(locals()), "deal")
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
    deal: Path = typer.Argument(..., help="Deal file with middle, own, own_pile, middle_pile (and others)."),
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
    from .cli_common import run_app

    run_app(app)
