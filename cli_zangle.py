"""The ``tanglekit zangle`` commands: find, deck show, play, replay, solve-solo.

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
                       max_nodes: int = 200_000) -> str:
    """``tanglekit zangle solve-solo [--seed S] [--deck FILE] [--piles 6]``: is this solo deal winnable
    with every card known? Prints yes (with the moves), no, or unknown (search budget ran out)."""
    from .games.zangle.solo import SoloGame, solve_solo

    state = SoloGame(seed=seed, options=options, deck=load_deck(deck_path) if deck_path else None)
    ok, path = solve_solo(state, max_nodes=max_nodes)
    if ok is None:
        return f"solo deal {seed}: unknown (more than {max_nodes} positions)"
    if not ok:
        return f"solo deal {seed}: cannot be won"
    return f"solo deal {seed}: winnable in {len(path)} moves\n" + "\n".join(
        f"{i + 1}. {a}" for i, a in enumerate(path)
    )


# --- typer app ------------------------------------------------------------------------------

app = typer.Typer(help="Zangle: find Zangles in a deal, play games between bots, show the deck.",
                  no_args_is_help=True)
deck_app = typer.Typer(help="The card deck.", no_args_is_help=True)
app.add_typer(deck_app, name="deck")

_DECK = typer.Option(None, "--deck", help="Deck file (JSON or TOML); default: the assumed 120-card deck.")
_OPTION = typer.Option(None, "--option", help="Rule option NAME=VALUE (repeatable), e.g. piles=6.")


def _options(pairs):
    from .cli_common import parse_options
    from .games.zangle.rules import ZangleOptions

    return ZangleOptions.from_strings(parse_options(pairs))


@app.command("find")
def find(
    deal: Path = typer.Argument(..., help="Deal file: {\"middle\": [...], \"own\": [...]}."),
    deck: Optional[Path] = _DECK,
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output."),
    svg: Optional[Path] = typer.Option(None, "--svg", help="Draw the best Zangle as SVG."),
    option: Optional[list[str]] = _OPTION,
) -> None:
    """All Zangles of a table, best first. Example: tanglekit zangle find deal.json --svg best.svg."""
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
    max_nodes: int = typer.Option(200_000, "--max-nodes", help="Search budget (positions)."),
) -> None:
    """Can the seeded solo deal be won with every card known? Example: tanglekit zangle solve-solo --seed 3."""
    typer.echo(solve_solo_command(seed, deck, _options(option), max_nodes))


if __name__ == "__main__":
    from .cli_common import run_app

    run_app(app)
