"""`tanglekit demo`: one real task per area on built-in defaults, with pictures in a folder.

The demo runs the ordinary commands in-process, printing each command line before its output,
so every step is something a user can copy and run alone.
"""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

import typer

from .cli_common import click_command
from .errors import TanglekitError


def _zangle_deal(out: Path, seed: int) -> str:
    """A seeded 4 + 4 table from the default deck, written as a deal file."""
    from .games.zangle.cards import default_deck

    ids = [c.id for c in default_deck().cards]
    cards = random.Random(seed).sample(ids, 8)
    path = out / "zangle-deal.json"
    path.write_text(json.dumps({"middle": cards[:4], "own": cards[4:]}), encoding="utf-8")
    return str(path)


def demo_steps(out: Path, seed: int) -> list[tuple[str, list[list[str]]]]:
    """(area, commands) in order; each command is an argv list for `tanglekit`."""
    o = str(out)
    return [
        ("shapes", [
            ["shapes", "enumerate", "6", "--svg", f"{o}/hexiamonds.svg"],
            ["shapes", "enumerate", "16", "--kind", "fixed", "--count"],
        ]),
        ("tile", [
            ["tile", "--region", "parallelogram:6x6", "--pieces", "hexiamonds", "--svg", f"{o}/hexiamonds-6x6.svg"],
            ["tile", "--region", "parallelogram:6x6", "--pieces", "hexiamonds", "--count", "--up-to-symmetry"],
            ["tile", "--region", "rect:10x6", "--pieces", "pentominoes", "--count", "--up-to-symmetry"],
        ]),
        ("zangle", [
            ["zangle", "find", _zangle_deal(out, seed), "--svg", f"{o}/zangle-best.svg"],
            ["zangle", "solo", "generate", "--difficulty", "medium", "--seed", str(seed), "--svg", o],
        ]),
        ("tanglung", [
            ["tanglung", "solo", "solve", "CRBF/HDFR/BHFB/RHDC", "--svg", f"{o}/tanglung-tour.svg"],
            ["tanglung", "solo", "generate", "--difficulty", "hard", "--seed", str(seed), "--svg", o],
        ]),
        ("qango", [
            ["qango", "solve", "empty", "--board", "6", "--proof", f"{o}/qango6-proof.json"],
            ["qango", "verify-proof", f"{o}/qango6-proof.json"],
            ["qango", "puzzle", "generate", "--k", "3", "--seed", str(seed), "--svg", f"{o}/qango-puzzle.svg"],
        ]),
        ("zinga", [
            ["zinga", "odds"],
            ["zinga", "sheets", "show", "--svg", o],
        ]),
        ("tangle", [
            ["tangle", "puzzle", "generate", "--seed", str(seed), "--svg", f"{o}/tangle-puzzle.svg",
             "--solution-svg", f"{o}/tangle-solution.svg"],
        ]),
    ]


def run_demo(out: Path, seed: int) -> list[dict]:
    """Run every step's commands; returns one record per command (area, command, seconds)."""
    from .cli import app

    if out.exists() and not out.is_dir():
        raise TanglekitError(f"--out {out} is not a folder")
    out.mkdir(parents=True, exist_ok=True)
    command = click_command(app)
    records = []
    for area, commands in demo_steps(out, seed):
        for argv in commands:
            line = "tanglekit " + " ".join(argv)
            typer.secho(f"\n$ {line}", bold=True)
            t0 = time.perf_counter()
            command.main(args=argv, prog_name="tanglekit", standalone_mode=False)
            seconds = time.perf_counter() - t0
            records.append({"area": area, "command": line, "seconds": round(seconds, 2)})
    return records
