"""Helpers shared by the CLI modules: JSON printing, file writing, rule options, progress bars.

Imports only typer and the standard library, so `tanglekit --help` stays fast.
"""

from __future__ import annotations

import json
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import typer

from .errors import TanglekitError


def print_json(obj) -> None:
    """Print one JSON document on stdout."""
    typer.echo(json.dumps(obj))


def write_text(path: Path, text: str, what: str = "picture") -> None:
    """Write a text file (SVG, JSON...), creating folders; a clear error if it cannot."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    except OSError as e:
        raise TanglekitError(f"cannot write {what} to {path}: {e.strerror}") from None
    typer.echo(f"wrote {path}", err=True)


def parse_options(pairs: list[str] | None) -> dict[str, str]:
    """`--option NAME=VALUE` pairs as a dict of strings (the game's options class converts them)."""
    out: dict[str, str] = {}
    for pair in pairs or []:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise TanglekitError(f"bad --option {pair!r}: expected NAME=VALUE")
        out[name.strip()] = value.strip()
    return out


@contextmanager
def progress(total: int | None, label: str, enabled: bool = True) -> Iterator:
    """A rich progress bar on stderr; yields `advance(n=1)`. Silent when disabled."""
    if not enabled:
        yield lambda n=1: None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    with Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
    ) as bar:
        task = bar.add_task(label, total=total)
        yield lambda n=1: bar.advance(task, n)


def run_app(app: typer.Typer) -> None:
    """Run a typer app, turning library errors into one line on stderr and exit code 2."""
    import sys

    try:
        app()
    except TanglekitError as e:
        typer.echo(f"error: {e}", err=True)
        sys.exit(2)
    except (FileNotFoundError, IsADirectoryError, PermissionError) as e:
        typer.echo(f"error: {e.strerror}: {e.filename}", err=True)
        sys.exit(2)
    except KeyboardInterrupt:
        typer.echo("interrupted", err=True)
        sys.exit(130)
