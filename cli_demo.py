"""`tanglekit demo`: one real task per area on built-in defaults, with pictures in a folder.

The demo runs the ordinary commands in-process, printing each command line before its output,
so every step is something a user can copy and run alone.
"""

from __future__ import annotations

import time
from pathlib import Path

import typer

from .errors import TanglekitError


def demo_steps(out: Path, seed: int) -> list[tuple[str, list[list[str]]]]:
    """(area, commands) in order; each command is an argv list for `tanglekit`."""
    from .games.plugin import plugins  # start-up: loaded when the command runs

    o = str(out)
    steps = [
        ("shapes", [
            ["shapes", "enumerate", "6", "--svg", f"{o}/hexiamonds.svg"],
            ["shapes", "enumerate", "16", "--kind", "fixed", "--count"],
        ]),
        ("tile", [
            ["tile", "--region", "parallelogram:6x6", "--pieces", "hexiamonds", "--svg", f"{o}/hexiamonds-6x6.svg"],
            ["tile", "--region", "parallelogram:6x6", "--pieces", "hexiamonds", "--count", "--up-to-symmetry"],
            ["tile", "--region", "rect:10x6", "--pieces", "pentominoes", "--count", "--up-to-symmetry"],
        ]),
    ]
    for p in plugins():
        commands = p.demo(o, seed)
        if commands:
            steps.append((p.family, commands))
    return steps


def run_demo(command, out: Path, seed: int) -> list[dict]:
    """Run every step's commands with the click ``command`` (the CLI's root); returns one record
    per command (area, command, seconds)."""
    if out.exists() and not out.is_dir():
        raise TanglekitError(f"--out {out} is not a folder")
    out.mkdir(parents=True, exist_ok=True)
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
