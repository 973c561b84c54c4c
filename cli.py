"""The `tanglekit` command line: a thin typer app that parses, calls the library and prints.

Heavy modules (numpy, numba, ortools) are imported inside the commands, so `tanglekit --help`
stays fast. Library errors (TanglekitError) become one line on stderr and exit code 2.
"""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Optional

import typer
from typer.core import TyperGroup

from . import __version__
from .cli_common import click_command, guard_outputs, print_json, run_app, write_text
from .errors import TanglekitError
from .limits import Deadline, LimitReached, UsageError, check_count, check_workers


def _game_groups() -> dict[str, str]:
    """Each game plugin's command group (family -> "module:app"), in listing order: loaded (module
    imported, commands built) only when a command of that game runs; `tanglekit --help` reads just
    their one-line help."""
    from .games.plugin import plugins  # start-up: loaded when the command runs

    return {p.family: p.cli for p in plugins() if p.cli}


class _LazyGroup(TyperGroup):
    """The root command group: a game's sub-app is imported and converted to commands only when
    it is invoked (building all ~50 commands costs about 30 ms of CPU; one game's, a few)."""

    def __init__(self, **attrs):
        super().__init__(**attrs)
        self._full: dict = {}
        guard_outputs(self)  # outputs never overwrite inputs (the game groups: in load)

    def list_commands(self, ctx) -> list[str]:
        return list(super().list_commands(ctx)) + [n for n in _game_groups() if n not in self.commands]

    def _sub_app(self, name: str):
        import importlib

        module, attr = _game_groups()[name].split(":")
        return getattr(importlib.import_module(module), attr)

    def load(self, name: str):
        """The full command group of game ``name`` (built once)."""
        cmd = self._full.get(name)
        if cmd is None:
            cmd = typer.main.get_group(self._sub_app(name))  # as add_typer builds it: no completion options
            cmd.name = name
            guard_outputs(cmd)
            self._full[name] = cmd
        return cmd

    def get_command(self, ctx, cmd_name):
        if cmd_name not in _game_groups() or cmd_name in self.commands:
            return super().get_command(ctx, cmd_name)
        if cmd_name in self._full:
            return self._full[cmd_name]
        # a listing (help): only the name and one-line help, no commands built
        info = self._sub_app(cmd_name).info
        text = getattr(info.help, "value", info.help)
        return TyperGroup(name=cmd_name, help=text, rich_markup_mode=self.rich_markup_mode)

    def resolve_command(self, ctx, args):
        if args and args[0] in _game_groups():
            cmd = self.load(args[0])
            return args[0], cmd, args[1:]
        try:
            return super().resolve_command(ctx, args)
        except typer.BadParameter.__mro__[1] as e:  # click's UsageError: suggest the games too
            from difflib import get_close_matches

            close = get_close_matches(args[0], list(_game_groups())) if args and "Did you mean" not in e.message else []
            if close:
                e.message = f"{e.message.rstrip('.')}. Did you mean {', '.join(map(repr, close))}?"
            raise


app = typer.Typer(
    help="Solve, generate and analyse puzzles for Zangle, Tanglung, QANGO, Zinga and Tangle.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    cls=_LazyGroup,
)
shapes_app = typer.Typer(help="Lattice shapes: enumerate, canonical forms, pictures.", no_args_is_help=True)
app.add_typer(shapes_app, name="shapes")

from .cli_play import register as _register_play  # noqa: E402  play, match, replay, bots

_register_play(app)
from .cli_serve import register as _register_serve  # noqa: E402  serve

_register_serve(app)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"tanglekit {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print the version and exit."
    ),
) -> None:
    """tanglekit: solvers, generators and analysis for five tabletop games."""


class LatticeName(str, Enum):
    triangle = "triangle"
    square = "square"


class Kind(str, Enum):
    fixed = "fixed"
    one_sided = "one-sided"
    free = "free"




class Executor(str, Enum):
    local = "local"
    ray = "ray"
    dask = "dask"


_EXECUTOR_HELP = ("With --count: split the count into subproblems run on local processes, a Ray or a "
                  "Dask cluster (see docs/cluster.md).")
_ADDRESS_HELP = "With --executor ray|dask: the cluster (default RAY_ADDRESS / DASK_SCHEDULER_ADDRESS, else one started here)."
_CHECKPOINT_HELP = "With --count: keep finished subproblems in FILE; a re-run skips them."
_CONNECT_HELP = ("With --executor ray|dask: seconds to reach the cluster, and the longest a Dask run waits "
                 "with no worker left (default $TANGLEKIT_CONNECT_TIMEOUT, else 30).")
_QUIET_HELP = "No progress on stderr (it is shown only on a terminal anyway)."


def _split_count(fn, label: str, quiet: bool = False, **kwargs) -> dict:
    """Run a split count of generators.executors with its progress on stderr (parts done of
    the total, elapsed time, time left; none with --quiet or when stderr is not a terminal)."""
    from .generators.executors import progress as count_progress  # start-up: loaded when the command runs

    with count_progress(label, enabled=not quiet) as on_progress:
        return fn(on_progress=on_progress, **kwargs)


# --- shapes ---------------------------------------------------------------------------------


@shapes_app.command("enumerate")
def shapes_enumerate(
    n: int = typer.Argument(..., help="Size (number of cells)."),
    lattice: LatticeName = typer.Option(LatticeName.triangle, help="Cell lattice."),
    kind: Kind = typer.Option(Kind.free, help="Equivalence: fixed, one-sided or free."),
    count: bool = typer.Option(False, "--count", help="Only count (fast numba kernel)."),
    by_size: bool = typer.Option(False, "--by-size", help="With --count: counts for every size 1..N."),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output."),
    svg: Optional[Path] = typer.Option(None, help="Write a sheet of the shapes as SVG."),
    executor: Optional[Executor] = typer.Option(None, "--executor", help=_EXECUTOR_HELP),
    address: Optional[str] = typer.Option(None, "--address", help=_ADDRESS_HELP),
    checkpoint: Optional[Path] = typer.Option(None, "--checkpoint", help=_CHECKPOINT_HELP),
    connect_timeout: Optional[float] = typer.Option(None, "--connect-timeout", help=_CONNECT_HELP),
    quiet: bool = typer.Option(False, "--quiet", help=_QUIET_HELP),
) -> None:
    """Enumerate (or count) the polyforms of size N. Example: tanglekit shapes enumerate 6."""
    if n < 1:
        raise UsageError("size N must be at least 1")
    if not count and n > 12:
        raise UsageError("listing shapes is limited to N <= 12; use --count for larger N")
    if by_size and not count:
        raise UsageError("--by-size goes with --count")
    if (executor or address or checkpoint or connect_timeout is not None) and not count:
        raise UsageError("--executor, --address, --connect-timeout and --checkpoint go with --count")
    if count and (executor or address or checkpoint or connect_timeout is not None):
        _check_count_size(n, lattice.value, split=True)
        from .generators.executors import count_polyforms as split_count  # start-up: loaded when the command runs
        from .solver.parallel import default_workers  # start-up: loaded when the command runs

        out = _split_count(split_count, "subproblems", quiet, n=n, lattice=lattice.value, kind=kind.value,
                           by_size=by_size, executor=(executor or Executor.local).value,
                           workers=default_workers(), address=address, checkpoint=checkpoint,
                           connect_timeout=connect_timeout)
        if as_json:
            print_json(out)
        elif by_size:
            for size, c in enumerate(out["counts"], 1):
                typer.echo(f"{size} {c}")
        else:
            typer.echo(f"{out['count']} {kind.value} {_plural(lattice.value, n)}")
        return
    if count:
        _check_count_size(n, lattice.value)
        from .shapes.enumerate import count_polyforms, count_polyforms_by_size  # loads numpy (only when this runs)

        if by_size:
            counts = count_polyforms_by_size(n, lattice.value, kind.value)
            if as_json:
                print_json({"lattice": lattice.value, "kind": kind.value, "size": n, "counts": counts})
            else:
                for size, c in enumerate(counts, 1):
                    typer.echo(f"{size} {c}")
            return
        c = count_polyforms(n, lattice.value, kind.value)
        if as_json:
            print_json({"lattice": lattice.value, "kind": kind.value, "size": n, "count": c})
        else:
            typer.echo(f"{c} {kind.value} {_plural(lattice.value, n)}")
        return
    from .shapes.enumerate import count_polyforms, iter_polyforms  # loads numpy (only when this runs)

    if n > 8 and count_polyforms(n, lattice.value, kind.value) > MAX_LISTED:
        raise UsageError(f"there are {count_polyforms(n, lattice.value, kind.value):,} {kind.value} "
                         f"{_plural(lattice.value, n)}: listing is limited to {MAX_LISTED:,} shapes; use --count")
    from .shapes.notation import format_shape  # start-up: loaded when the command runs

    shapes = sorted(iter_polyforms(n, lattice.value, kind.value))
    if svg is not None:
        from .shapes.notation import format_shape as _fmt  # start-up: loaded when the command runs
        from .shapes.render import svg_sheet  # start-up: loaded when the command runs

        labels = [_fmt(s, style="line") for s in shapes] if len(shapes) <= 400 else None
        write_text(svg, svg_sheet(shapes, cols=min(8, max(1, len(shapes))), labels=labels))
    if as_json:
        print_json(
            {
                "lattice": lattice.value,
                "kind": kind.value,
                "size": n,
                "count": len(shapes),
                "shapes": [[list(c) for c in s.cells] for s in shapes],
            }
        )
        return
    from .shapes.render import text_sheet  # start-up: loaded when the command runs

    if len(shapes) <= 200:
        typer.echo(text_sheet(shapes, cols=6))
    else:
        for s in shapes:
            typer.echo(format_shape(s, style="line"))
    typer.echo(f"{len(shapes)} {kind.value} {_plural(lattice.value, n)}")


MAX_LISTED = 200_000  # shapes one listing may hold
# The count kernel's cost grows about 3.5x (triangle) and 4x (square) per size; the largest
# sizes counted here take minutes on one core, the next would take most of an hour.
MAX_COUNT_SIZE = {"triangle": 21, "square": 18}
_COUNT_SECONDS = {"triangle": (17, 2.0, 3.5), "square": (16, 28.0, 4.0)}  # size, seconds, growth


def _check_count_size(n: int, lattice: str, split: bool = False) -> None:
    """Refuse sizes whose count cannot finish in reasonable time; warn when it takes a while
    (the split count shows its progress; the plain one does not)."""
    cap = MAX_COUNT_SIZE[lattice]
    if n > cap:
        raise UsageError(f"counting {_plural(lattice, n)} would take hours or more; --count is "
                         f"limited to N <= {cap} on the {lattice} lattice")
    size, secs, growth = _COUNT_SECONDS[lattice]
    est = secs * growth ** (n - size)
    if est > 20:
        minutes = f"{est / 60:.0f} minutes" if est >= 90 else f"{est:.0f} seconds"
        shown = "" if split else " (no progress is shown)"
        typer.echo(f"counting size {n} takes about {minutes} on one core{shown}", err=True)


def _plural(lattice: str, n: int) -> str:
    return f"{'polyiamonds' if lattice == 'triangle' else 'polyominoes'} of size {n}"


def _shape_arg(spec: str, lattice: Optional[LatticeName]):
    from .shapes.notation import load_shape_arg  # start-up: loaded when the command runs

    return load_shape_arg(spec, lattice.value if lattice else None)


@shapes_app.command("canon")
def shapes_canon(
    shape: str = typer.Argument(..., help="Shape: notation (^v^/v^v, ##/#.), JSON [[x,y],...] or @FILE."),
    kind: Kind = typer.Option(Kind.free, help="Equivalence: fixed, one-sided or free."),
    lattice: Optional[LatticeName] = typer.Option(None, help="Lattice (inferred from notation)."),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output."),
) -> None:
    """Canonical form and symmetry order of a shape. Example: tanglekit shapes canon '^v^v'."""
    from .shapes.notation import format_shape  # start-up: loaded when the command runs

    p = _shape_arg(shape, lattice)
    c = p.canonical(kind.value)
    info = {
        "lattice": p.lattice.name,
        "kind": kind.value,
        "area": p.area,
        "canonical": [list(x) for x in c.cells],
        "notation": format_shape(c, style="line"),
        "symmetry_order": p.symmetry_order(kind.value),
        "connected": p.is_connected(),
        "holes": p.holes(),
    }
    if as_json:
        print_json(info)
        return
    typer.echo(format_shape(c, style="art"))
    for k in ("lattice", "area", "notation", "symmetry_order", "connected", "holes"):
        typer.echo(f"{k}: {info[k]}")


@shapes_app.command("show")
def shapes_show(
    shape: str = typer.Argument(..., help="Shape: notation, JSON [[x,y],...] or @FILE."),
    lattice: Optional[LatticeName] = typer.Option(None, help="Lattice (inferred from notation)."),
    svg: Optional[Path] = typer.Option(None, help="Write the picture as SVG."),
    as_json: bool = typer.Option(False, "--json", help="Print the cells as JSON."),
) -> None:
    """Draw a shape in the terminal (and as SVG). Example: tanglekit shapes show '##/##' --svg sq.svg."""
    from .shapes.render import svg_shape, text_shape  # start-up: loaded when the command runs

    p = _shape_arg(shape, lattice)
    if svg is not None:
        write_text(svg, svg_shape(p))
    if as_json:
        print_json({"lattice": p.lattice.name, "cells": [list(c) for c in p.cells]})
    else:
        typer.echo(text_shape(p))


# --- tile ---------------------------------------------------------------------------------


class Each(str, Enum):
    exactly = "exactly"
    at_most = "at-most"
    any = "any"


class Backend(str, Enum):
    auto = "auto"
    dlx = "dlx"
    cpsat = "cpsat"


@app.command("tile")
def tile(
    region: Optional[str] = typer.Option(None, "--region", help="rect:WxH, parallelogram:AxB, triangle:N, hexagon:N or FILE."),
    pieces: Optional[str] = typer.Option(None, "--pieces", help="pentominoes, hexiamonds, ... or a JSON file of shapes."),
    each: Each = typer.Option(Each.exactly, "--each", help="How often each piece is used."),
    no_mirror: bool = typer.Option(False, "--no-mirror", help="Pieces may rotate but not flip."),
    first: bool = typer.Option(False, "--first", help="One solution (the default)."),
    all_: bool = typer.Option(False, "--all", help="List solutions (see --limit)."),
    limit: Optional[int] = typer.Option(None, "--limit", help="With --all: at most K solutions."),
    count: bool = typer.Option(False, "--count", help="Count the solutions."),
    up_to_symmetry: bool = typer.Option(False, "--up-to-symmetry", help="Merge solutions under the region's symmetries."),
    backend: Backend = typer.Option(Backend.auto, "--backend", help="dlx (numba dancing links) or cpsat."),
    time_limit: Optional[float] = typer.Option(None, "--time-limit", help="Stop after S seconds (result marked incomplete)."),
    workers: Optional[int] = typer.Option(
        None, "--workers", help="With --count: processes the count is split over (default, or 0: all CPUs)."
    ),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output."),
    svg: Optional[Path] = typer.Option(None, "--svg", help="Draw the solution(s) as SVG."),
    batch: Optional[str] = typer.Option(
        None, "--batch", help="Many problems: FILE or - with one region, or a JSON object of tile options, a line."
    ),
    executor: Optional[Executor] = typer.Option(None, "--executor", help=_EXECUTOR_HELP),
    address: Optional[str] = typer.Option(None, "--address", help=_ADDRESS_HELP),
    checkpoint: Optional[Path] = typer.Option(None, "--checkpoint", help=_CHECKPOINT_HELP),
    connect_timeout: Optional[float] = typer.Option(None, "--connect-timeout", help=_CONNECT_HELP),
    quiet: bool = typer.Option(False, "--quiet", help=_QUIET_HELP),
) -> None:
    """Tile a region with polyform pieces. Example: tanglekit tile --region rect:10x6 --pieces pentominoes --count."""
    if batch is not None:
        from .cli_batch import run_batch  # start-up: loaded when the command runs

        # each problem runs on one process: the batch itself spreads the problems over the CPUs
        return run_batch(batch, tile, dict(locals()), "region", refuse=("svg",),
                         forced={"workers": 1}, workers=workers, object_keys=True,
                         exclusive=("first", "all_", "count"))
    if region is None or pieces is None:
        raise typer.BadParameter("give --region and --pieces (or --batch FILE)", param_hint="--region")

    deadline = Deadline(time_limit)  # first: the limit covers parsing and placement generation too
    if sum([first, all_, count]) > 1:
        raise UsageError("choose one of --first, --all and --count")
    limit = check_count(limit, "--limit", minimum=1, maximum=10**12, allow_none=True)
    if limit is not None and not (all_ or count):
        raise UsageError("--limit goes with --all or --count")
    if (executor or address or checkpoint or connect_timeout is not None) and not count:
        raise UsageError("--executor, --address, --connect-timeout and --checkpoint go with --count")
    if count and (executor or address or checkpoint or connect_timeout is not None):
        if backend == Backend.cpsat:
            raise UsageError("--executor and --checkpoint split the dlx count; drop --backend cpsat")
        if limit is not None:
            raise UsageError("--limit does not combine with --executor / --checkpoint (the split counts all)")
        from .generators.executors import count_tiling  # start-up: loaded when the command runs
        from .solver.parallel import default_workers  # start-up: loaded when the command runs

        out = _split_count(count_tiling, "subproblems", quiet, region=region, pieces=pieces, each=each.value,
                           mirror=not no_mirror, up_to_symmetry=up_to_symmetry,
                           executor=(executor or Executor.local).value,
                           workers=workers or default_workers(), address=address,
                           checkpoint=checkpoint, time_limit=time_limit, connect_timeout=connect_timeout)
        if as_json:
            print_json(out)
            return
        done = "" if out["complete"] else " (stopped; re-run with the same --checkpoint to go on)"
        typer.echo(f"count: {'' if out['complete'] else 'at least '}{out['count']}{done}")
        if up_to_symmetry:
            typer.echo(f"up to symmetry: {out['count_up_to_symmetry']} (group of order "
                       f"{out['symmetry_order']}, {out['symmetry_method']})")
        typer.echo(f"subproblems: {out['parts_done']} of {out['parts']} on {out['executor']}, "
                   f"seconds: {out['seconds']:.3f}")
        return
    from .solver.tiling import parse_region, piece_set, solve_tiling  # start-up: loaded when the command runs

    reg = parse_region(region)
    shapes = piece_set(pieces, reg.lattice.name, mirror=not no_mirror)
    _check_tiling_size(reg, shapes, not no_mirror)
    query = "count" if count else "all" if all_ else "first"
    if count and workers is None:
        from .solver.parallel import default_workers  # start-up: loaded when the command runs

        workers = default_workers()
    if workers is not None:
        workers = check_workers(workers)
    try:
        deadline.check("set-up")
        res = solve_tiling(
            reg, shapes, each=each.value, mirror=not no_mirror, query=query, limit=limit,
            up_to_symmetry=up_to_symmetry, backend=backend.value, time_limit=time_limit, workers=workers,
            deadline=deadline,
        )
    except LimitReached:
        _tile_stopped(query, backend.value, deadline, as_json, up_to_symmetry)
        return
    res.seconds = deadline.elapsed()
    if svg is not None and res.solutions:
        from .shapes.render import svg_tiling, svg_tiling_sheet  # start-up: loaded when the command runs

        if len(res.solutions) == 1:
            write_text(svg, svg_tiling(reg, res.solutions[0].placed, labels=True))
        else:
            write_text(svg, svg_tiling_sheet([(reg, s.placed) for s in res.solutions], cols=4))
    if as_json:
        out = res.summary() if count else res.to_json()
        if not res.complete:
            out["reason"] = "time limit" if deadline.expired() else "limit"
        print_json(out)
        return
    if count:
        prefix = "" if res.complete else "at least "
        typer.echo(f"count: {prefix}{res.count}" + ("" if res.complete else " (stopped)"))
        if up_to_symmetry:
            typer.echo(
                f"up to symmetry: {res.count_up_to_symmetry} (group of order {res.symmetry_order}, "
                f"{res.symmetry_method})"
            )
        typer.echo(f"backend: {res.backend}, seconds: {res.seconds:.3f}")
        return
    from .shapes.render import text_tiling  # start-up: loaded when the command runs

    if not res.solutions:
        typer.echo("no solution" if res.complete else "no solution found before the time limit")
        return
    for sol in res.solutions:
        typer.echo(text_tiling(reg.cells, sol.placed))
        typer.echo("")
    more = "" if res.complete else " (limit reached)"
    typer.echo(f"{len(res.solutions)} solution{'s' if len(res.solutions) != 1 else ''}{more}")


MAX_PLACEMENTS = 3_000_000  # rows of the exact-cover matrix a tiling may have


def _check_tiling_size(reg, shapes, mirror: bool) -> None:
    """Refuse a tiling whose placements would not fit in memory (estimated before generating)."""
    kind = "free" if mirror else "one-sided"
    est = 0
    for p in shapes:
        if p.area > reg.area:
            continue
        est += len(p.orientations(kind)) * reg.area
        if est > MAX_PLACEMENTS:
            raise TanglekitError(f"this tiling would have more than {MAX_PLACEMENTS:,} placements "
                                 f"({len(shapes)} pieces in {reg.area:,} cells); use a smaller region or piece set")


def _tile_stopped(query: str, backend: str, deadline, as_json: bool, up_to_symmetry: bool) -> None:
    """The answer when the time limit ran out in set-up: nothing known, said so."""
    seconds = round(deadline.elapsed(), 4)
    if as_json:
        if query == "count":
            out = {"count": None, "count_up_to_symmetry": None, "backend": backend, "seconds": seconds,
                   "complete": False, "reason": "time limit"}
        else:
            out = {"count": None, "count_up_to_symmetry": None, "backend": backend, "seconds": seconds,
                   "complete": False, "symmetry_order": None, "solutions": [], "reason": "time limit"}
        print_json(out)
        return
    typer.echo(f"stopped: the time limit ({deadline.seconds:g} s) ran out while setting up; nothing found")


# --- demo ---------------------------------------------------------------------------------


@app.command("demo")
def demo(
    out: Path = typer.Option(Path("tanglekit-demo"), "--out", help="Folder for the pictures and files."),
    seed: int = typer.Option(1, "--seed", help="Seed of the random deals."),
    as_json: bool = typer.Option(False, "--json", help="Print the step records as JSON at the end."),
) -> None:
    """One real task per area on built-in defaults, pictures in a folder. Example: tanglekit demo."""
    from .cli_demo import run_demo  # start-up: loaded when the command runs

    records = run_demo(click_command(app), out, seed)
    total = sum(r["seconds"] for r in records)
    typer.echo(f"\n{len(records)} commands in {total:.1f} s; pictures and files in {out}/")
    if as_json:
        print_json(records)


# --- bench ----------------------------------------------------------------------------------


def _bench_names() -> list[str]:
    """The benchmark scripts: the modules of benchmarks/ (helpers start with an underscore)."""
    here = Path(__file__).resolve().parent / "benchmarks"
    return sorted(p.stem for p in here.glob("*.py") if not p.stem.startswith("_"))


@app.command("bench")
def bench(
    name: Optional[str] = typer.Argument(None, help="Benchmark: " + ", ".join(_bench_names()) + "; all if omitted."),
    quick: bool = typer.Option(False, "--quick", help="Smaller sizes, for a fast look (says what it leaves out)."),
    as_json: bool = typer.Option(False, "--json", help="Print the tables as JSON (rows of numbers) instead of Markdown."),
    as_csv: bool = typer.Option(False, "--csv", help="Print the tables as CSV instead of Markdown."),
    record: Optional[Path] = typer.Option(
        None, "--record", help="Also store each table with its command in this Markdown file (e.g. benchmarks/RESULTS.md)."
    ),
) -> None:
    """Run the benchmark scripts and print their tables. Example: tanglekit bench enumerate --quick."""
    import contextlib
    import importlib
    import io
    import time

    from .benchmarks._table import parse_markdown, peak_rss_mib, to_csv  # start-up: loaded when the command runs

    if as_json and as_csv:
        raise TanglekitError("choose one of --json and --csv")
    if record is not None:
        target = record.resolve()
        if record.suffix.lower() != ".md":
            raise TanglekitError("--record takes a Markdown file (.md)")
        if "site-packages" in target.parts or "dist-packages" in target.parts:
            raise TanglekitError(f"--record {record}: will not write into an installed package")
    names = _bench_names()
    if name is not None:
        if name not in names:
            raise TanglekitError(f"no benchmark {name!r}; available: {', '.join(names) or 'none'}")
        names = [name]
    docs = []
    for nm in names:
        mod = importlib.import_module(f"{__package__}.benchmarks.{nm}")
        buf = io.StringIO()
        c0, t0 = time.process_time(), time.perf_counter()
        with contextlib.redirect_stdout(buf):
            mod.main(["--quick"] if quick else [])
        cpu, wall = time.process_time() - c0, time.perf_counter() - t0
        text = buf.getvalue()
        footer = (f"Run: {wall:.1f} s wall, {cpu:.1f} s CPU in this process; peak memory of the bench "
                  f"process so far {peak_rss_mib():.0f} MiB (of its finished child processes "
                  f"{peak_rss_mib(children=True):.0f} MiB).")
        command = f"tanglekit bench {nm}" + (" --quick" if quick else "")
        if as_json or as_csv:
            doc = parse_markdown(text)
            doc.update(benchmark=nm, command=command, quick=quick, wall_s=round(wall, 3), cpu_s=round(cpu, 3),
                       peak_rss_mib=round(peak_rss_mib(), 1))
            docs.append(doc)
            if as_csv:
                typer.echo(to_csv(doc, nm), nl=False)
        else:
            typer.echo(f"## {nm}\n")
            typer.echo(text)
            typer.echo(footer + "\n")
        if record is not None:
            _record_result(record, nm, command, text + "\n" + footer)
    if as_json:
        print_json(docs if name is None else docs[0])


def _record_result(path: Path, name: str, command: str, table: str) -> None:
    """Replace (or add) the section of one benchmark in a Markdown results file."""
    import datetime
    import os
    import platform
    import re

    text = path.read_text(encoding="utf-8") if path.exists() else "# Benchmark results\n\n"
    stamp = datetime.date.today().isoformat()
    section = (
        f"## {name}\n\nCommand: `{command}` ({stamp}, {platform.machine()}, "
        f"{platform.python_implementation()} {platform.python_version()}, {os.cpu_count()} CPUs, "
        f"load average {os.getloadavg()[0]:.1f} at the end)\n\n"
        f"{table.strip()}\n\n"
    )
    pattern = re.compile(rf"^## {re.escape(name)}\n.*?(?=^## |\Z)", re.S | re.M)
    m = pattern.search(text)
    if m is None:
        text = text + section
    else:
        # the generated part ends with its "Run: ..." footer; anything written below it by hand
        # (a "### ..." table with its own command) is kept
        old = m.group(0)
        foot = re.search(r"^Run: [^\n]*\n", old, re.M)
        kept = old[foot.end():].lstrip("\n") if foot else ""
        text = text[: m.start()] + section + kept + text[m.end():]
    write_text(path, text, "benchmark results")


def main() -> None:
    """Console entry point: run the app, turning library errors into exit code 2."""
    run_app(app)


if __name__ == "__main__":
    main()
