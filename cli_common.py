"""Helpers shared by the CLI modules: JSON printing, file writing, rule options, progress bars.

Imports only typer and the standard library, so `tanglekit --help` stays fast.
"""

from __future__ import annotations

import json
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import typer

from . import cli_coerce, outputs
from .errors import TanglekitError

cli_coerce.install()  # command-line values converted without loading pydantic


def print_json(obj) -> None:
    """Print one JSON document on stdout."""
    typer.echo(json.dumps(obj))


def write_text(path: Path, text: str, what: str = "picture") -> None:
    """Write a text file (SVG, JSON...) through the output layer (``outputs``: atomic, folders
    created, never onto an input of the command); a one-line error if it cannot."""
    outputs.write_text(path, text, what)
    typer.echo(f"wrote {path}", err=True)


def write_bytes(path: Path, data: bytes, what: str = "file") -> None:
    """Write a binary file (a .gz proof) through the output layer, as :func:`write_text`."""
    outputs.write_bytes(path, data, what)
    typer.echo(f"wrote {path}", err=True)


# --- outputs never overwrite inputs: checked before a command does its work -------------------

OUTPUT_FLAGS = frozenset({"--svg", "--solution-svg", "--out", "--proof", "--save", "--log", "--booklet",
                          "--checkpoint", "--record", "--json-out"})
"""Options that name a file (or folder) the command writes; every other path argument is an input."""


def _path_values(value) -> list[str]:
    if isinstance(value, (str, Path)) and str(value) not in ("", "-"):
        return [str(value)]
    if isinstance(value, (list, tuple)):
        return [str(v) for v in value if isinstance(v, (str, Path)) and str(v) not in ("", "-")]
    return []


def check_outputs(params: dict, outputs_: dict) -> None:
    """Refuse (one line) an output option naming a file that another argument of the same
    command reads (same resolved path, or same file by device and inode), or that another output
    option also names. ``params``: the command's other values by their shown name (``--from``,
    ``LAYOUT``); ``outputs_``: flag -> value."""
    import os

    seen: list[tuple[str, str]] = []
    for flag, value in outputs_.items():
        for out in _path_values(value):
            if "\x00" in out or len(out) > 4096:
                continue  # the writer refuses it
            for name, inp in params.items():
                for text in _path_values(inp):
                    if "\x00" in text or len(text) > 4096 or not os.path.exists(text) or os.path.isdir(text):
                        continue
                    if outputs.same_file(out, text):
                        raise TanglekitError(f"{flag} {one_line(out, 120)} would overwrite an input of this "
                                             f"command ({name}); choose another output file")
            for other_flag, other in seen:
                if outputs.same_file(out, other) and not os.path.isdir(out):
                    raise TanglekitError(f"{flag} and {other_flag} name the same file {one_line(out, 120)}")
            seen.append((flag, out))


def guard_outputs(command) -> None:
    """Wrap the callback of every command under click ``command`` that has an output option:
    before it runs, its outputs are checked against its inputs (:func:`check_outputs`), and while
    it runs the files it reads are recorded (``outputs.command_scope``), so that no write of
    the command lands on one of them. Idempotent."""
    import functools

    stack = [command]
    while stack:
        cmd = stack.pop()
        subs = getattr(cmd, "commands", None)
        if subs:
            stack.extend(subs.values())
        callback = getattr(cmd, "callback", None)
        if callback is None or getattr(callback, "_tanglekit_guarded", False):
            continue
        out_names = {p.name: next(o for o in p.opts if o in OUTPUT_FLAGS) for p in cmd.params
                     if any(o in OUTPUT_FLAGS for o in getattr(p, "opts", ()))}
        if not out_names:
            continue
        shown = {p.name: (p.opts[0] if getattr(p, "param_type_name", "") == "option" else str(p.name).upper())
                 for p in cmd.params}

        @functools.wraps(callback)
        def guarded(*args, __callback=callback, __outs=out_names, __shown=shown, **kwargs):
            check_outputs({__shown.get(k, k): v for k, v in kwargs.items() if k not in __outs},
                          {flag: kwargs.get(name) for name, flag in __outs.items()})
            with outputs.command_scope():
                return __callback(*args, **kwargs)

        guarded._tanglekit_guarded = True  # type: ignore[attr-defined]
        cmd.callback = guarded


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
    """A rich progress bar on stderr; yields `advance(n=1)`. Silent when disabled or when stderr
    is not a terminal (a log file gets no bar and no stray blank line)."""
    from rich.console import Console

    console = Console(stderr=True)
    if not enabled or not console.is_terminal:
        yield lambda n=1: None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    with Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
    ) as bar:
        task = bar.add_task(label, total=total)
        yield lambda n=1: bar.advance(task, n)


# --- running the app: every failure is one line on stderr -----------------------------------

MAX_MESSAGE = 300  # characters of an error message; longer ones (a huge input echoed back) are cut
DEBUG_ENV = "TANGLEKIT_DEBUG"
COMPILE_NOTICE = "compiling solver kernels, first run only \u2014 later runs start fast"


MAX_WORD = 80  # a longer run without spaces (an input echoed back) is cut to its start


def one_line(text: object, limit: int = MAX_MESSAGE) -> str:
    """A message as one line of at most ``limit`` characters: whitespace runs become one space,
    and a word longer than MAX_WORD (an echoed input) is cut, so the reason after it stays."""
    words = [w if len(w) <= MAX_WORD else _cut_word(w) for w in str(text).split()]
    line = " ".join(words)
    return line if len(line) <= limit else line[: limit - 3] + "..."


def _cut_word(w: str) -> str:
    """A long word cut in the middle: its start and its end (a path keeps its file name)."""
    keep = MAX_WORD - 24
    return f"{w[:keep // 2]}...({len(w):,} chars)...{w[-(keep - keep // 2):]}"


def _say(text: str) -> None:
    """One line on stderr; never fails (stderr may be closed or unable to encode the text)."""
    import sys

    try:
        stream = sys.stderr
        try:
            stream.write(text + "\n")
        except UnicodeEncodeError:
            stream.write(text.encode("ascii", "replace").decode("ascii") + "\n")
        stream.flush()
    except (OSError, ValueError, AttributeError):
        pass


def _click_exceptions():
    """(ClickException, UsageError) of the click that typer uses (its own copy in newer typers)."""
    mro = typer.BadParameter.__mro__  # BadParameter -> UsageError -> ClickException -> ...
    return mro[2], mro[1]


def _silence_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's final flush of a dead stream stays quiet."""
    import os
    import sys

    try:
        fd = os.open(os.devnull, os.O_WRONLY)
        os.dup2(fd, sys.stdout.fileno())
        os.close(fd)
    except (OSError, ValueError, AttributeError):
        pass


def _os_error_message(e: OSError) -> str:
    what = e.strerror or type(e).__name__
    name = e.filename if e.filename is not None else None
    return f"{what}: {name}" if name is not None else what


_COMMANDS = None  # app -> its click command (a WeakKeyDictionary, made on first use)


def click_command(app: typer.Typer):
    """The click command typer builds from ``app``, built once per app and process: a build
    walks every command's signature (about 50 ms for tanglekit's app), which in-process callers
    (tests, the demo) would otherwise pay on every call. Click commands keep no state between
    invocations (each gets a fresh context)."""
    global _COMMANDS
    import weakref

    if _COMMANDS is None:
        _COMMANDS = weakref.WeakKeyDictionary()
    command = _COMMANDS.get(app)
    if command is None:
        command = _COMMANDS[app] = typer.main.get_command(app)
        guard_outputs(command)
    return command


def execute(app: typer.Typer, args: list[str], prog_name: str = "tanglekit") -> int:
    """Run the typer app on ``args`` and return its exit code; in-process and testable.

    Every failure prints one line on stderr: bad input (a TanglekitError, a usage error, a file
    that cannot be read or written) ``error: ...`` with exit 2, Ctrl-C ``interrupted`` with 130,
    an unexpected exception (a bug) ``internal error: ...`` with 1 (TANGLEKIT_DEBUG=1 re-raises
    it, traceback and all). A closed stdout (``| head -1``) ends quietly.
    """
    import errno
    import os
    import sys

    click_exception, usage_error = _click_exceptions()
    debug = os.environ.get(DEBUG_ENV, "") not in ("", "0")
    watch_compiles()
    command = click_command(app)
    try:
        try:
            with command.make_context(prog_name, list(args)) as ctx:
                command.invoke(ctx)
            sys.stdout.flush()  # a full disk or closed pipe on stdout shows here, not at exit
            return 0
        finally:
            try:
                sys.stdout.flush()
            except (OSError, ValueError):
                pass
    except typer.Exit as e:
        return e.exit_code
    except SystemExit as e:
        return e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    except (KeyboardInterrupt, typer.Abort):
        _say("interrupted")
        return 130
    except TanglekitError as e:
        _say(f"error: {one_line(e)}")
        return 2
    except usage_error as e:
        if type(e).__name__ == "NoArgsIsHelpError":  # a bare group: show its help
            typer.echo(e.format_message())
            return 2
        where = e.ctx.command_path if getattr(e, "ctx", None) is not None else prog_name
        hint = f" (see '{where} --help')"
        _say(f"error: {one_line(e.format_message())}{hint}")
        return 2
    except click_exception as e:
        _say(f"error: {one_line(e.format_message())}")
        return 2
    except OSError as e:
        if e.errno == errno.EPIPE or isinstance(e, BrokenPipeError):
            _silence_stdout()  # the reader went away (| head): nothing more to say
            return 141
        if sys.stdout is not None and e.errno == errno.ENOSPC:
            _silence_stdout()
        _say(f"error: {one_line(_os_error_message(e))}")
        return 2
    except MemoryError:
        _say("error: out of memory (ask for a smaller size, count or limit)")
        return 2
    except Exception as e:  # a bug: say so in one line, exit 1 (never 2, never a traceback)
        if debug:
            raise
        _say(f"internal error: {one_line(f'{type(e).__name__}: {e}', MAX_MESSAGE - 60)} "
             f"(set {DEBUG_ENV}=1 to see the traceback)")
        return 1


def run_app(app: typer.Typer) -> None:
    """Console entry point of a typer app: ``execute`` on the command line, then exit."""
    import sys

    sys.exit(execute(app, sys.argv[1:]))


# --- first-run notice: numba compiling a kernel (a cache miss) ------------------------------

_COMPILE_STATE = {"hooked": False, "said": False}


def _first_compile(dispatcher) -> bool:
    """Whether this compile fills an empty disk cache. Code numba cannot cache (an `objmode`
    block lifted out of a kernel is compiled on every run) and kernels whose cache index already
    exists (a new signature) do not count: the notice must stay true."""
    import os

    cache = getattr(dispatcher, "_cache", None)
    if cache is None or type(cache).__name__ == "NullCache":
        return False
    try:
        return not os.path.exists(cache._cache_file._index_path)
    except AttributeError:
        return True


def _compile_listener():
    """A numba event listener that prints COMPILE_NOTICE once, on the first tanglekit kernel
    compiled (numba fires "numba:compile" only on a cache miss, never when loading from cache)."""
    from numba.core import event

    class _Notice(event.Listener):
        def on_start(self, ev):
            if _COMPILE_STATE["said"]:
                return
            dispatcher = (ev.data or {}).get("dispatcher")
            module = getattr(getattr(dispatcher, "py_func", None), "__module__", "") or ""
            if module.split(".")[0] == __package__.split(".")[0] and _first_compile(dispatcher):
                _COMPILE_STATE["said"] = True
                _say(COMPILE_NOTICE)

        def on_end(self, ev):
            pass

    event.register("numba:compile", _Notice())


def watch_compiles() -> None:
    """Arrange for COMPILE_NOTICE once numba is imported (now, or later by a command), without
    importing numba here: a finder on sys.meta_path hooks numba's import."""
    import importlib.abc
    import sys

    if _COMPILE_STATE["hooked"]:
        return
    _COMPILE_STATE["hooked"] = True
    if "numba.core.event" in sys.modules:
        _compile_listener()
        return

    class _AfterNumba(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path, target=None):
            if name != "numba":
                return None
            sys.meta_path.remove(self)
            spec = None
            for finder in sys.meta_path:
                find = getattr(finder, "find_spec", None)
                spec = find(name, path, target) if find else None
                if spec is not None:
                    break
            if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
                return spec
            loader_exec = spec.loader.exec_module

            def exec_module(module):
                loader_exec(module)
                try:
                    _compile_listener()
                except Exception:  # the notice is a courtesy; never break numba's import
                    pass

            spec.loader.exec_module = exec_module
            return spec

    sys.meta_path.insert(0, _AfterNumba())
