"""`--batch FILE|-`: run one command on many inputs in one process, both cores, JSON lines out.

Each input line (an ID, a path, a layout... or a JSON object) is given to the very command
function that the single-input form runs, with ``--json`` on and its printed JSON captured: an
answer is ``{"line": n, "result": {...}}`` holding exactly what ``--json`` prints for that input
alone; a failing line becomes ``{"line": n, "error": "..."}`` and the batch goes on. The first
line runs in this process (loading the kernels it needs); the rest go in chunks to a forked
process pool, so the workers start warm. Output keeps input order. Imports only the standard library and typer.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
import tempfile
from enum import Enum
from typing import Callable, Iterable, Iterator

import typer

from .errors import TanglekitError
from .jsonio import read_text_file

_JSON_FIELD = "as_json"


def read_lines(source: str) -> list[tuple[int, str]]:
    """(line number, text) of every non-blank line of FILE, or of standard input for ``-``."""
    if source == "-":
        text = sys.stdin.read()
    else:  # a regular file only, through the one input layer (a FIFO or a device is refused)
        text = read_text_file(source, "batch file")
    return [(n, ln.strip()) for n, ln in enumerate(text.splitlines(), 1) if ln.strip()]


def batch_workers(n_items: int, workers: int | None = None) -> int:
    """Processes for a batch: the CPUs this process may use (or ``workers``), never more than the
    items left after the first."""
    if workers is None:
        try:
            workers = len(os.sched_getaffinity(0))
        except (AttributeError, OSError):
            workers = os.cpu_count() or 1
    return max(1, min(workers, n_items - 1))


def _error_text(e: BaseException) -> str:
    if isinstance(e, (FileNotFoundError, IsADirectoryError, PermissionError)) and e.filename:
        return f"{e.strerror}: {e.filename}"
    fmt = getattr(e, "format_message", None)  # typer/click parameter errors
    if callable(fmt):
        return str(fmt())
    if isinstance(e, (TanglekitError, ValueError, OSError)):
        return str(e)
    return f"{type(e).__name__}: {e}"


class _Item:
    """How a command takes one batch line: which parameter gets the text, which are forced."""

    def __init__(self, fn: Callable, kwargs: dict, arg: str | None, json_field: str | None,
                 forced: dict, object_keys: bool, exclusive: tuple = (), bulk: Callable | None = None):
        self.fn = fn
        self.kwargs = kwargs
        self.arg = arg
        self.json_field = json_field
        self.forced = forced
        self.object_keys = object_keys
        self.exclusive = exclusive
        self.bulk = bulk

    def call_many(self, lines: list[tuple[int, str]], tmpdir: str) -> list[str]:
        """Output lines for ``lines``: those the command's bulk solver takes (one kernel call for
        many inputs, the same answers), then the rest one by one through :meth:`call`."""
        done: dict = {}
        if self.bulk is not None:
            try:
                done = self.bulk({**self.kwargs, **self.forced}, lines)
            except KeyboardInterrupt:
                raise
            except Exception:  # noqa: BLE001 - the per-line path answers (or reports) each line
                done = {}
        return [done[n] if n in done else self.call(n, t, tmpdir) for n, t in lines]

    def call(self, n: int, text: str, tmpdir: str) -> str:
        try:
            kw = dict(self.kwargs)
            kw.update(self.forced)
            if text.startswith("{"):
                try:
                    obj = json.loads(text)
                except json.JSONDecodeError as e:
                    raise TanglekitError(f"bad JSON ({e.msg} at column {e.colno})") from None
                if not isinstance(obj, dict):
                    raise TanglekitError("a JSON line must be an object")
                if self.object_keys:  # keys are the command's options (tile)
                    modes = [m for m in self.exclusive if obj.get(m.rstrip("_")) or obj.get(m)]
                    if modes:  # a line's own mode replaces the command line's
                        kw.update({m: False for m in self.exclusive})
                    for k, v in obj.items():
                        key = k.replace("-", "_")
                        key = {"all": "all_"}.get(key, key)
                        if key not in kw or key in self.forced or key == "batch":
                            raise TanglekitError(f"unknown or fixed key {k!r} in a batch line")
                        old = kw[key]
                        if isinstance(old, Enum):
                            try:
                                v = type(old)(v)
                            except ValueError:
                                raise TanglekitError(f"bad {k!r}: {v!r}") from None
                        kw[key] = v
                else:  # the object is what the command would read from a file
                    path = os.path.join(tmpdir, f"line{n}.json")
                    with open(path, "w", encoding="utf-8") as fh:
                        fh.write(text)
                    kw[self.arg] = path
            else:
                kw[self.arg] = text
            buf = io.StringIO()
            with contextlib.redirect_stdout(buf):
                self.fn(**kw)
            out = buf.getvalue().strip()
            try:
                res = json.loads(out)
            except json.JSONDecodeError:
                raise TanglekitError(f"no JSON answer: {out[:200]!r}") from None
            return json.dumps({"line": n, "result": res}, separators=(",", ":"))
        except KeyboardInterrupt:
            raise
        except BaseException as e:  # noqa: BLE001 - a bad line never aborts the batch
            if isinstance(e, SystemExit) and e.code in (0, None):
                return json.dumps({"line": n, "error": "no answer"})
            return json.dumps({"line": n, "error": _error_text(e)}, separators=(",", ":"))


_CURRENT: _Item | None = None  # the item runner inherited by forked workers


def _run_chunk(chunk: list[tuple[int, str]]) -> list[str]:
    assert _CURRENT is not None
    with tempfile.TemporaryDirectory(prefix="tanglekit-batch-") as tmp:
        return _CURRENT.call_many(chunk, tmp)


def iter_batch(item: _Item, lines: list[tuple[int, str]], workers: int | None = None,
               chunk_size: int | None = None) -> Iterator[str]:
    """Output lines (compact JSON) for ``lines``, in order. The first runs here, warming the
    kernels; the rest are chunked over a forked pool (or run here with one worker)."""
    global _CURRENT
    _CURRENT = item
    if not lines:
        return
    yield from _run_chunk(lines[:1])
    rest = lines[1:]
    if not rest:
        return
    # everything loaded so far (modules, kernels, tables) stays: out of the collector's sight, so
    # collections stay cheap and forked workers do not copy those pages by touching them
    import gc

    gc.freeze()
    try:
        yield from _run_rest(rest, len(lines), workers, chunk_size)
    finally:
        gc.unfreeze()


def _run_rest(rest: list[tuple[int, str]], n_lines: int, workers: int | None, chunk_size: int | None) -> Iterator[str]:
    """The lines after the first: over a forked pool of ``batch_workers`` processes, in order."""
    w = batch_workers(n_lines, workers)
    import multiprocessing as mp

    if w <= 1 or "fork" not in mp.get_all_start_methods():
        for i in range(0, len(rest), 256):
            yield from _run_chunk(rest[i:i + 256])
        return
    from concurrent.futures import ProcessPoolExecutor

    size = chunk_size or max(1, min(128, len(rest) // (8 * w)))
    chunks = [rest[i:i + size] for i in range(0, len(rest), size)]
    with ProcessPoolExecutor(max_workers=min(w, len(chunks)), mp_context=mp.get_context("fork")) as pool:
        for out in pool.map(_run_chunk, chunks):
            yield from out


def run_batch(source: str, fn: Callable, kwargs: dict, arg: str | None, *, json_field: str = _JSON_FIELD,
              forced: dict | None = None, refuse: Iterable[str] = (), workers: int | None = None,
              object_keys: bool = False, exclusive: tuple = (), bulk: Callable | None = None) -> None:
    """Run command ``fn`` once per line of ``source`` and print one JSON object per line.

    ``kwargs`` are the command's own parameters (its ``locals()``); ``arg`` is the parameter the
    line goes to; ``refuse`` names options that make no sense per line (pictures, proofs).
    ``bulk(kwargs, lines)``, if given, answers many lines at once: it returns {line number:
    output line} for the lines it took, each exactly what ``fn`` would print for it (but
    ``seconds``), and leaves the others (any it is unsure of) to ``fn``."""
    for name in refuse:
        if kwargs.get(name) not in (None, False):
            raise TanglekitError(f"--{name.replace('_', '-')} cannot be used with --batch")
    import inspect

    params = inspect.signature(fn).parameters
    kw = {k: v for k, v in kwargs.items() if k in params and k != "batch"}
    fixed = {"batch": None, **({json_field: True} if json_field else {}), **(forced or {})}
    item = _Item(fn, kw, arg, json_field, fixed, object_keys, exclusive, bulk)
    # many solves: load the numba kernels at once rather than trying plain Python first
    os.environ.setdefault("TANGLEKIT_ENGINE", "kernel")
    lines = read_lines(source)
    for out in iter_batch(item, lines, workers):
        typer.echo(out)


# --------------------------------------------------------------------------------------------
BATCH_HELP = ("Many inputs: FILE (or - for standard input) with one input per line; prints one JSON "
              "object per line, in order, errors as {\"line\": n, \"error\": ...}. Uses all CPUs.")

__all__ = ["BATCH_HELP", "batch_workers", "iter_batch", "read_lines", "run_batch"]
