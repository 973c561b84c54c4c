"""`tanglekit demo`: one real task per area on built-in defaults, with pictures in a folder.

Each step calls the library exactly as the matching command would and prints one summary
line; the pictures and the files it made go to the output folder.
"""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Callable

import typer

from .cli_common import write_text

Step = Callable[[Path, int], str]


def _shapes(out: Path, seed: int) -> str:
    from .shapes.enumerate import count_polyforms, iter_polyforms
    from .shapes.notation import format_shape
    from .shapes.render import svg_sheet

    shapes = sorted(iter_polyforms(6, "triangle", "free"))
    write_text(out / "hexiamonds.svg", svg_sheet(shapes, cols=6, labels=[format_shape(s) for s in shapes]))
    fixed16 = count_polyforms(16, "triangle", "fixed")
    return f"{len(shapes)} free hexiamonds drawn; {fixed16:,} fixed polyiamonds of size 16 counted"


def _tiling(out: Path, seed: int) -> str:
    from .shapes.render import svg_tiling
    from .solver.tiling import parse_region, piece_set, solve_tiling

    region = parse_region("parallelogram:6x6")
    pieces = piece_set("hexiamonds")
    res = solve_tiling(region, pieces, query="count", up_to_symmetry=True)
    first = solve_tiling(region, pieces, query="first")
    write_text(out / "hexiamonds-6x6.svg", svg_tiling(region, first.solutions[0].placed, labels=True))
    pent = solve_tiling(parse_region("rect:10x6"), piece_set("pentominoes"), query="count", up_to_symmetry=True)
    return (
        f"12 hexiamonds tile the 6x6 rhombus in {res.count} ways ({res.count_up_to_symmetry} up to "
        f"symmetry); 12 pentominoes tile 6x10 in {pent.count} ways ({pent.count_up_to_symmetry} up to symmetry)"
    )


def _zangle(out: Path, seed: int) -> str:
    from .cli_zangle import find_command
    from .games.zangle.cards import default_deck

    deck = default_deck()
    rng = random.Random(seed)
    cards = rng.sample([c.id for c in deck.cards], 8)
    deal = out / "zangle-deal.json"
    write_text(deal, json.dumps({"middle": cards[:4], "own": cards[4:]}), "deal")
    found = json.loads(find_command(deal, as_json=True))["zangles"]
    if found:
        find_command(deal, svg_path=out / "zangle-best.svg")
        best = found[0]
        return (
            f"deal {seed}: {len(found)} Zangles; the best uses {best['cards']} cards and "
            f"{best['triangles']} triangles (zangle-best.svg)"
        )
    return f"deal {seed}: no Zangle on this table"


STEPS: list[tuple[str, Step]] = [
    ("shapes", _shapes),
    ("tiling", _tiling),
    ("zangle", _zangle),
]


def run_demo(out: Path, seed: int) -> list[dict]:
    """Run every step; returns one record per step (name, summary, seconds)."""
    out.mkdir(parents=True, exist_ok=True)
    records = []
    for name, step in STEPS:
        t0 = time.perf_counter()
        summary = step(out, seed)
        seconds = time.perf_counter() - t0
        records.append({"step": name, "summary": summary, "seconds": round(seconds, 2)})
        typer.echo(f"[{name}] {summary}  ({seconds:.1f} s)")
    return records
