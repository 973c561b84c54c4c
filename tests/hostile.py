"""Shared fuzz harness: a corpus of hostile inputs and an in-process CLI runner that asserts
the one-line, exit-2, no-traceback, nothing-written contract of issue 13.

Use it from a game's fuzz test::

    from hostile import hostile_files, assert_refused, run_cli
    @pytest.mark.parametrize("name", HOSTILE_NAMES)
    def test_solve_refuses(name, tmp_path):
        path = hostile_files()[name]
        assert_refused(["zangle", "solo", "solve", str(path)], tmp_path)
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from hypothesis import strategies as st

if TYPE_CHECKING:
    import subprocess

# name -> bytes; every one of these must be refused by every reader (not taken as an empty game)
_CORPUS: dict[str, bytes] = {
    "binary": bytes(range(256)) * 4,
    "utf16": json.dumps({"middle": [], "own": []}).encode("utf-16"),
    "latin1": '{"name": "caf\xe9"}'.encode("latin-1"),
    "deep": b"[" * 200_000 + b"]" * 200_000,
    "deep_object": b'{"a":' * 50_000 + b"1" + b"}" * 50_000,
    "bigint": b'{"seed": 1' + b"0" * 5000 + b"}",
    "bigint_list": b"[[1" + b"0" * 5000 + b", 0]]",
    "nan": b'{"a": NaN}',
    "infinity": b"[Infinity, -Infinity]",
    "huge_float": b"[1e999]",
    "empty": b"",
    "whitespace": b"   \n\t  ",
    "list": b"[]",
    "object": b"{}",
    "number": b"42",
    "string": b'"hello"',
    "null": b"null",
    "true": b"true",
    "truncated": b'{"middle": [1, 2',
    "trailing": b'{"a": 1} {"b": 2}',
    "foo": b'{"foo": 1}',
    "wrong_format": b'{"format": "tanglekit/no-such-thing", "version": 1}',
    "future_version": b'{"format": "tanglekit/zangle-solo", "version": 999}',
    "nested_lists": json.dumps([[[[[]]]]]).encode(),
    "null_fields": json.dumps({"middle": None, "own": None, "piles": None, "draw": None,
                               "board": None, "cells": None, "moves": None}).encode(),
    "huge_coords": json.dumps({"cells": [[10**18, 10**18]], "middle": [[[10**18, 0]]],
                               "own": [[[0, 10**18]]]}).encode(),
}

HOSTILE_NAMES = sorted(_CORPUS)


_FILES: dict[str, Path] = {}


def hostile_files() -> dict[str, Path]:
    """The corpus as files: name -> path, plus ``folder_path`` (a folder) and ``missing`` (a path
    that does not exist). Written once per test process into a temporary folder removed at exit
    (readers only read them; a copy per test would cost 27 files each)."""
    if not _FILES:
        import atexit
        import shutil
        import tempfile

        root = Path(tempfile.mkdtemp(prefix="tanglekit-hostile-"))
        atexit.register(shutil.rmtree, root, True)
        for name, data in _CORPUS.items():
            (root / f"{name}.json").write_bytes(data)
            _FILES[name] = root / f"{name}.json"
        _FILES["folder_path"] = root
        _FILES["missing"] = root / "does-not-exist.json"
    return dict(_FILES)


def run_cli(args: list[str], cwd: Path | None = None, stdin: str = "") -> tuple[int, str, str]:
    """Run ``tanglekit ARGS`` in this process as the console script would: (exit code, stdout, stderr)."""
    from tanglekit import cli

    out, err = io.StringIO(), io.StringIO()
    old_argv, old_cwd, old_stdin = sys.argv, os.getcwd(), sys.stdin
    code = 0
    try:
        sys.argv = ["tanglekit", *map(str, args)]
        sys.stdin = io.StringIO(stdin)
        if cwd is not None:
            os.chdir(cwd)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                cli.main()
            except SystemExit as e:
                code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
            except BaseException:  # a traceback the console script would have shown
                import traceback

                traceback.print_exc(file=err)
                code = 1
    finally:
        sys.argv, sys.stdin = old_argv, old_stdin
        os.chdir(old_cwd)
    return code, out.getvalue(), err.getvalue()


def run(args: list[str], cwd: Path | None = None, stdin: str = "") -> "subprocess.CompletedProcess[str]":
    """``run_cli`` with the result shaped as ``subprocess.run(..., capture_output=True, text=True)``
    gives it (``returncode``, ``stdout``, ``stderr``): a drop-in for tests that ran the console
    script in a subprocess where a fresh process adds nothing."""
    import subprocess

    code, out, err = run_cli(args, cwd=cwd, stdin=stdin)
    return subprocess.CompletedProcess(["tanglekit", *map(str, args)], code, out, err)


def _snapshot(folder: Path) -> set[str]:
    return {str(p.relative_to(folder)) for p in Path(folder).rglob("*")} if folder else set()


def assert_refused(args: list[str], folder: Path | None = None, stdin: str = "") -> str:
    """The command must refuse: exit 2, exactly one line on stderr (no traceback), nothing on
    stdout, and no new file in ``folder`` or beside the corpus files. Returns the message."""
    corpus = _FILES.get("folder_path")  # nothing may be written beside an input file either
    before = (_snapshot(folder) if folder else set(), _snapshot(corpus))
    code, out, err = run_cli(args, cwd=folder, stdin=stdin)
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert code == 2, (args, code, out[-500:], err[-1500:])
    assert len(lines) == 1, (args, err[-1500:])
    assert "Traceback" not in err and len(lines[0]) <= 400, (args, err[-1500:])
    assert not out.strip(), (args, out[-500:])
    after = (_snapshot(folder) if folder else set(), _snapshot(corpus))
    assert after == before, (args, after[0] - before[0], after[1] - before[1])
    return lines[0]


# Hypothesis strategies -----------------------------------------------------------------------
def _json_containers(children):
    # a named function: hypothesis reads a lambda's source to check that it recurses, and cannot
    # when the lambda sits inside a call spread over several lines
    return st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=10), children, max_size=5)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**30), 10**30) | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20),
    _json_containers,
    max_leaves=25,
)
"""Arbitrary JSON documents (to write into a file a reader must refuse or accept cleanly)."""

hostile_text = st.one_of(
    st.text(max_size=200),
    st.text(alphabet="XO.#/\n:,=CRBFHD^v0123456789", max_size=120),
    st.sampled_from(["", " ", ":", "#", "::", "qango:", "zangle:solo#", "tanglung:solo,hard#-1",
                     "qango:6,k3#99999999999999999999999", "x" * 5000, "\x00", "../../etc/passwd"]),
)
"""Arbitrary inline arguments (IDs, layouts, positions, shapes)."""
