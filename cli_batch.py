"""`--batch FILE|-`: run one command on many inputs in one process, both cores, JSON lines out.

Each input line (an ID, a path, a layout... or a JSON object) is given to the very command
function that the single-input form runs, with ``--json`` on and its printed JSON captured: an
answer is ``{"line": n, "result": {...}}`` holding exactly what ``--json`` prints for that input
alone; a failing line becomes ``{"line": n, "error": "..."}`` and the batch goes on. The first
line runs in this process (loading the kernels it needs); the rest go in chunks to a forked
process pool, so the workers start warm. Output keeps input order. Imports only the standard library,
typer and the cheap base modules.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import stat
import sys
from enum import Enum
from pathlib import Path
from typing import Callable, Iterable, Iterator

import typer

from .cli_common import OUTPUT_FLAGS
from .errors import TanglekitError
from .jsonio import _name, check_regular_file, parse_json_text
from .outputs import note_input
from .pools import start_method, stop_workers

_JSON_FIELD = "as_json"


MAX_LINE = 1 << 20  # bytes of one input line; a longer one is an error line, skipped unread
_READ = 1 << 16
_AHEAD_LINES = 4096  # lines read ahead before the pool starts (a small input is split as a whole)
_AHEAD_BYTES = 16 << 20
_CHUNK_BYTES = 8 << 20  # a chunk of lines sent to a worker holds at most this much text


class LineError(str):
    """The error text of an input line that cannot be read (not UTF-8, too long, a NUL byte):
    answered as ``{"line": n, "error": ...}`` without running the command."""


class _TextAsBytes:
    """A text stream (a test's ``StringIO`` standing in for stdin) read as UTF-8 bytes."""

    def __init__(self, stream) -> None:
        self.stream = stream

    def read(self, n: int) -> bytes:
        return self.stream.read(n).encode("utf-8", "surrogateescape")


def _open_source(source: str):
    """A binary stream of the batch input: standard input for ``-``, else a regular file (a
    folder, FIFO or device is refused: the input must end and must not block the command)."""
    if source == "-":
        buf = getattr(sys.stdin, "buffer", None)
        return buf if buf is not None else _TextAsBytes(sys.stdin)
    name = _name(Path(source))
    if "\x00" in source:
        raise TanglekitError(f"batch file {name}: a path cannot contain a NUL character")
    check_regular_file(source, "batch file")  # a FIFO, device, socket or folder: refused before any open
    try:  # O_NONBLOCK: a path swapped for a FIFO in between must not wait for a writer either
        fd = os.open(source, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as e:
        raise TanglekitError(f"cannot read batch file {name}: {e.strerror or e}") from None
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode):
        os.close(fd)
        kind = ("a folder" if stat.S_ISDIR(st.st_mode) else "a FIFO (named pipe)" if stat.S_ISFIFO(st.st_mode)
                else "a device" if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode) else "not a regular file")
        raise TanglekitError(f"batch file {name} is {kind}; give a regular file, or - to read standard input")
    if hasattr(os, "set_blocking"):
        os.set_blocking(fd, True)
    note_input(source, st)
    return os.fdopen(fd, "rb")


def _decode_line(raw: bytes) -> str:
    """A line's text, or a LineError saying why it has none."""
    if b"\x00" in raw:
        return LineError("the line contains a NUL byte (binary data, or UTF-16 text), expected UTF-8 text")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as e:
        return LineError(f"the line is not UTF-8 text (bad byte at column {e.start + 1})")


def iter_lines(stream, max_line: int = MAX_LINE) -> Iterator[tuple[int, str]]:
    """(line number, text) of every non-blank line of a binary stream, read as it comes.

    Lines end at ``\\n`` only (a ``\\r`` before it is dropped; form feeds, U+0085 and U+2028
    are characters of the line, never line breaks), so line n is what ``sed -n Np`` shows. A
    UTF-8 BOM at the start of the input is skipped; UTF-16 input is refused. A line that is not
    UTF-8, holds a NUL byte or is longer than ``max_line`` bytes comes as a :class:`LineError`
    (a long line is skipped without being held in memory). Text is stripped of surrounding
    whitespace; blank lines are left out."""
    read = getattr(stream, "read1", None) or stream.read
    head = b""
    while len(head) < 3:  # the first bytes: a byte order mark?
        data = read(_READ)
        if not data:
            break
        head += data
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise TanglekitError("the batch input is UTF-16 text; save it as UTF-8")
    if head.startswith(b"\xef\xbb\xbf"):
        head = head[3:]
    n = 0
    buf = bytearray()
    too_long = False
    data = head
    while True:
        start = 0
        while True:
            i = data.find(b"\n", start)
            piece = data[start:] if i < 0 else data[start:i]
            if not too_long:
                if len(buf) + len(piece) > max_line + 1:  # +1: a \r before the newline
                    too_long = True
                    buf.clear()
                else:
                    buf += piece
            if i < 0:
                break
            n += 1
            item = _finish(n, buf, too_long, max_line)
            if item is not None:
                yield item
            buf.clear()
            too_long = False
            start = i + 1
        data = read(_READ)
        if not data:
            break
    if buf or too_long:
        item = _finish(n + 1, buf, too_long, max_line)
        if item is not None:
            yield item


def _finish(n: int, buf: bytearray, too_long: bool, max_line: int) -> tuple[int, str] | None:
    raw = bytes(buf[:-1] if buf.endswith(b"\r") else buf)
    if too_long or len(raw) > max_line:
        return n, LineError(f"the line is longer than {max_line:,} bytes")
    text = _decode_line(raw)
    if isinstance(text, LineError):
        return n, text
    text = text.strip()
    return (n, text) if text else None


def read_lines(source: str) -> list[tuple[int, str]]:
    """(line number, text) of every non-blank line of FILE, or of standard input for ``-``
    (unreadable lines as :class:`LineError` texts); see :func:`iter_lines`."""
    stream = _open_source(source)
    try:
        return list(iter_lines(stream))
    finally:
        if source != "-":
            stream.close()


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


def _checker(tp) -> tuple[Callable, str] | None:
    """(convert, what) for a batch-line value of an option of type ``tp`` (strict JSON types:
    booleans are true/false, whole numbers are ints, enums their value text), or None when such
    an option cannot be set from a line."""
    import typing

    origin, args = typing.get_origin(tp), typing.get_args(tp)
    optional = False
    if origin is typing.Union or type(tp).__name__ == "UnionType":
        rest = [a for a in args if a is not type(None)]
        optional = len(rest) < len(args)
        if len(rest) != 1:
            return None
        tp = rest[0]
        origin, args = typing.get_origin(tp), typing.get_args(tp)
    if tp is bool:
        ok, what = (lambda v: type(v) is bool), "true or false"
    elif tp is int:
        ok, what = (lambda v: type(v) is int), "a whole number"
    elif tp is float:
        ok, what = (lambda v: type(v) in (int, float)), "a number"
    elif tp is str:
        ok, what = (lambda v: type(v) is str), "text"
    elif origin in (list, typing.List) and args == (str,):
        ok, what = (lambda v: type(v) is list and all(type(x) is str for x in v)), "a list of texts"
    elif isinstance(tp, type) and issubclass(tp, Enum):
        values = [m.value for m in tp]
        what = "one of " + ", ".join(map(str, values))

        def convert(v, _tp=tp, _values=values, _what=what):
            if type(v) is not str or v not in _values:
                raise TanglekitError(f"expected {_what}")
            return _tp(v)

        return (lambda v: None if v is None and optional else convert(v)), what + (" or null" if optional else "")
    else:
        return None

    def check(v, _ok=ok, _what=what):
        if v is None and optional:
            return None
        if not _ok(v):
            raise TanglekitError(f"expected {_what}{' or null' if optional else ''}")
        return v

    return check, what


def _line_schema(fn: Callable, settable: Iterable[str]) -> dict[str, tuple[Callable, str] | None]:
    """Python name -> checker (None: not settable from a line) of the options in ``settable``."""
    import typing

    try:
        hints = typing.get_type_hints(fn)
    except Exception:  # noqa: BLE001 - unresolvable annotations: nothing settable
        hints = {}
    return {k: _checker(hints[k]) if k in hints else None for k in settable}


def _flags(fn: Callable) -> dict[str, tuple[str, ...]]:
    """Python name -> the option's flags (``--svg``...) of a typer command function."""
    import inspect

    return {k: tuple(getattr(p.default, "param_decls", None) or ()) for k, p in inspect.signature(fn).parameters.items()}


class _Item:
    """How a command takes one batch line: which parameter gets the text, which are forced."""

    def __init__(self, fn: Callable, kwargs: dict, arg: str | None, json_field: str | None,
                 forced: dict, object_keys: bool, exclusive: tuple = (), bulk: Callable | None = None,
                 schema: dict | None = None, writes: Iterable[str] = ()):
        self.fn = fn
        self.kwargs = kwargs
        self.arg = arg
        self.json_field = json_field
        self.forced = forced
        self.object_keys = object_keys
        self.exclusive = exclusive
        self.bulk = bulk
        self.schema = schema if schema is not None else {}
        self.writes = frozenset(writes)

    def call_many(self, lines: list[tuple[int, str]]) -> list[str]:
        """Output lines for ``lines``: those the command's bulk solver takes (one kernel call for
        many inputs, the same answers), then the rest one by one through :meth:`call`."""
        done: dict = {}
        if self.bulk is not None:
            good = [(n, t) for n, t in lines if not isinstance(t, LineError)]
            try:
                done = self.bulk({**self.kwargs, **self.forced}, good) if good else {}
            except KeyboardInterrupt:
                raise
            except Exception:  # noqa: BLE001 - the per-line path answers (or reports) each line
                done = {}
        return [done[n] if n in done else self.call(n, t) for n, t in lines]

    def _options(self, text: str) -> dict:
        """A JSON object line of options (tile): checked against the command's own option types."""
        obj = parse_json_text(text, "batch line", "batch line")
        if not isinstance(obj, dict):
            raise TanglekitError("a JSON line must be an object")
        out = {}
        for k, v in obj.items():
            key = k.replace("-", "_")
            if key not in self.schema and key + "_" in self.schema:
                key += "_"  # all -> all_
            shown = short(k)
            if key in self.writes:
                raise TanglekitError(f"key {shown} writes a file; batch lines never write files")
            if key not in self.schema or key in self.forced or key == "batch" or self.schema[key] is None:
                raise TanglekitError(f"unknown or fixed key {shown} in a batch line")
            convert, _ = self.schema[key]
            try:
                out[key] = convert(v)
            except TanglekitError as e:
                raise TanglekitError(f"bad {shown}: {e}") from None
        return out

    def call(self, n: int, text: str) -> str:
        try:
            if isinstance(text, LineError):
                raise TanglekitError(str(text))
            kw = dict(self.kwargs)
            kw.update(self.forced)
            if text.startswith("{") and self.object_keys:  # keys are the command's options (tile)
                opts = self._options(text)
                if any(opts.get(m) for m in self.exclusive):  # a line's own mode replaces the command line's
                    kw.update({m: False for m in self.exclusive})
                kw.update(opts)
            else:  # an ID, a path, or inline JSON: the command reads it as it would the argument
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


def short(value) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:35] + "...'"


_CURRENT: _Item | None = None  # the item runner inherited by forked workers


def _run_chunk(chunk: list[tuple[int, str]]) -> list[str]:
    assert _CURRENT is not None
    return _CURRENT.call_many(chunk)


def iter_batch(item: _Item, lines: Iterable[tuple[int, str]], workers: int | None = None,
               chunk_size: int | None = None) -> Iterator[str]:
    """Output lines (compact JSON) for ``lines``, in order, as the lines come (``lines`` may be
    a stream). The first runs here, warming the kernels; the rest are chunked over a forked pool
    (or run here with one worker), a bounded number of chunks ahead of the output."""
    global _CURRENT
    _CURRENT = item
    it = iter(lines)
    first = next(it, None)
    if first is None:
        return
    yield from _run_chunk([first])
    head: list[tuple[int, str]] = []
    size = 0
    ended = True
    for ln in it:  # read ahead: an input of a few thousand lines is split as a whole
        head.append(ln)
        size += len(ln[1])
        if len(head) >= _AHEAD_LINES or size >= _AHEAD_BYTES:
            ended = False
            break
    if not head:
        return
    # everything loaded so far (modules, kernels, tables) stays: out of the collector's sight, so
    # collections stay cheap and forked workers do not copy those pages by touching them
    import gc

    gc.freeze()
    try:
        yield from _run_rest(head, it, ended, workers, chunk_size)
    finally:
        gc.unfreeze()


def _chunks(lines: Iterable[tuple[int, str]], size: int) -> Iterator[list[tuple[int, str]]]:
    chunk: list[tuple[int, str]] = []
    text = 0
    for ln in lines:
        chunk.append(ln)
        text += len(ln[1])
        if len(chunk) >= size or text >= _CHUNK_BYTES:
            yield chunk
            chunk, text = [], 0
    if chunk:
        yield chunk


def _run_rest(head: list[tuple[int, str]], more: Iterator[tuple[int, str]], ended: bool, workers: int | None,
              chunk_size: int | None) -> Iterator[str]:
    """The lines after the first (``head``, then ``more`` unless ``ended``): over a forked pool of
    ``batch_workers`` processes, in order."""
    import itertools

    w = batch_workers(1 + len(head) if ended else 1 << 30, workers)
    rest = head if ended else itertools.chain(head, more)
    import multiprocessing as mp

    # the workers inherit the item runner by fork: only while no other thread runs (a thread's
    # held locks would be copied into the children held for ever); else the lines run here
    if w <= 1 or start_method() != "fork":
        for chunk in _chunks(rest, 256):
            yield from _run_chunk(chunk)
        return
    from collections import deque
    from concurrent.futures import ProcessPoolExecutor

    size = chunk_size or (max(1, min(128, len(head) // (8 * w))) if ended else 128)
    chunks = _chunks(rest, size)
    n_workers = min(w, -(-len(head) // size)) if ended else w
    pool = ProcessPoolExecutor(max_workers=n_workers, mp_context=mp.get_context("fork"))
    pending: deque = deque()
    try:
        for chunk in chunks:
            pending.append(pool.submit(_run_chunk, chunk))
            while len(pending) > 2 * n_workers + 2:  # bounded: the input is read as the answers go out
                yield from _result(pending.popleft())
        while pending:
            yield from _result(pending.popleft())
    except BaseException:  # Ctrl-C, a dead worker, the reader gone: the workers stop at once
        stop_workers(pool)
        raise
    pool.shutdown(wait=True)


def _result(fut) -> list[str]:
    """A chunk's output lines; a worker that died is one error, not a hang."""
    from concurrent.futures.process import BrokenProcessPool

    try:
        return fut.result()
    except BrokenProcessPool:
        raise TanglekitError("a batch worker process died (killed or out of memory); "
                             "the lines answered so far are above") from None


def run_batch(source: str, fn: Callable, kwargs: dict, arg: str | None, *, json_field: str = _JSON_FIELD,
              forced: dict | None = None, refuse: Iterable[str] = (), workers: int | None = None,
              object_keys: bool = False, exclusive: tuple = (), bulk: Callable | None = None) -> None:
    """Run command ``fn`` once per line of ``source`` and print one JSON object per line.

    ``kwargs`` are the command's own parameters (its ``locals()``); ``arg`` is the parameter the
    line goes to; ``refuse`` names options that make no sense per line (pictures, proofs); every
    option that writes a file (``cli_common.OUTPUT_FLAGS``) is refused too, on the command line
    and in a line: a batch writes nothing but its answers. With ``object_keys``, a JSON object
    line sets the command's options, each checked against the option's type.
    ``bulk(kwargs, lines)``, if given, answers many lines at once: it returns {line number:
    output line} for the lines it took, each exactly what ``fn`` would print for it (but
    ``seconds``), and leaves the others (any it is unsure of) to ``fn``."""
    flags = _flags(fn)
    writes = {k for k, fl in flags.items() if OUTPUT_FLAGS.intersection(fl)}
    for name in [*refuse, *sorted(writes)]:
        if kwargs.get(name) not in (None, False):
            shown = (flags.get(name) or (f"--{name.replace('_', '-')}",))[0]
            raise TanglekitError(f"{shown} cannot be used with --batch (a batch writes only its answers, "
                                 "on standard output)")
    import inspect

    params = inspect.signature(fn).parameters
    kw = {k: v for k, v in kwargs.items() if k in params and k != "batch"}
    fixed = {"batch": None, **({json_field: True} if json_field else {}), **(forced or {})}
    schema = _line_schema(fn, [k for k in kw if k not in fixed and k not in writes and k not in refuse]) \
        if object_keys else {}
    item = _Item(fn, kw, arg, json_field, fixed, object_keys, exclusive, bulk, schema, writes | set(refuse))
    # many solves: load the numba kernels at once rather than trying plain Python first
    os.environ.setdefault("TANGLEKIT_ENGINE", "kernel")
    stream = _open_source(source)
    try:
        for out in iter_batch(item, iter_lines(stream), workers):
            typer.echo(out)
    finally:
        if source != "-":
            stream.close()


# --------------------------------------------------------------------------------------------
BATCH_HELP = ("Many inputs: FILE (or - for standard input) with one input per line; prints one JSON "
              "object per line, in order, errors as {\"line\": n, \"error\": ...}. Uses all CPUs.")

__all__ = ["BATCH_HELP", "MAX_LINE", "LineError", "batch_workers", "iter_batch", "iter_lines", "read_lines", "run_batch"]
