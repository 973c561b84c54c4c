"""The one output layer: every file tanglekit writes (pictures, proofs, logs, saves, booklets,
checkpoints, caches) goes through :func:`write_bytes` / :func:`write_text`.

Rules (issue 25):

* **Atomic.** The data goes to a temporary file in the target's folder, then ``os.replace``
  puts it in place, so an interrupted or failed write leaves the old file as it was (a target
  that is not a regular file, such as ``/dev/stdout``, is written directly). A new file gets the
  usual permissions (0666 less the umask); a replaced one keeps its mode. A symlink is followed:
  the file it points to is replaced.
* **Missing folders are created** (``--proof new/sub/p.json.gz`` as ``--svg new/x.svg``).
* **Never onto an input.** While a command runs (:func:`command_scope`), the input layer
  (``jsonio.read_bytes``) records every file it reads; writing onto one of them (the same
  resolved path, or the same file by ``st_dev``/``st_ino``: symlinks and hard links count) is
  refused with a one-line ``TanglekitError`` before anything is written. The CLI also checks a
  command's output options against its other arguments before the work starts
  (``cli_common.guard_outputs``).

Standard library only (a base module).
"""

from __future__ import annotations

import os
import stat
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from .errors import TanglekitError

_MAX_INPUTS = 4096  # files remembered per command (a batch may read many; the oldest go first)


class _Inputs:
    """The files read by the command running now: (st_dev, st_ino) -> resolved path."""

    def __init__(self) -> None:
        self.active = False
        self.files: dict[tuple[int, int], str] = {}
        self.paths: set[str] = set()


_STATE = _Inputs()


@contextmanager
def command_scope() -> Iterator[None]:
    """Record the inputs read inside the block (one command), forgetting them after; nests (a
    command that runs others in-process gets its own record back afterwards)."""
    saved = (_STATE.active, _STATE.files, _STATE.paths)
    _STATE.active, _STATE.files, _STATE.paths = True, {}, set()
    try:
        yield
    finally:
        _STATE.active, _STATE.files, _STATE.paths = saved


def _resolved(path: str | Path) -> str:
    try:
        return os.path.realpath(os.fspath(path))
    except (OSError, ValueError):
        return os.path.abspath(os.fspath(path))


def note_input(path: str | Path, st: os.stat_result | None = None) -> None:
    """Remember that the running command read ``path`` (``st``: its ``os.fstat``, if at hand)."""
    if not _STATE.active:
        return
    try:
        st = st if st is not None else os.stat(path)
    except (OSError, ValueError):
        return
    if len(_STATE.files) >= _MAX_INPUTS:
        _STATE.files.pop(next(iter(_STATE.files)))
    real = _resolved(path)
    _STATE.files[(st.st_dev, st.st_ino)] = real
    if len(_STATE.paths) < _MAX_INPUTS:
        _STATE.paths.add(real)


def inputs_read() -> list[str]:
    """Resolved paths of the files the running command has read (for tests and messages)."""
    return sorted(set(_STATE.files.values()) | _STATE.paths)


def same_file(a: str | Path, b: str | Path) -> bool:
    """Whether two paths name the same file: the same resolved path, or the same device and
    inode (a hard link, a symlink, a bind mount)."""
    if _resolved(a) == _resolved(b):
        return True
    try:
        sa, sb = os.stat(a), os.stat(b)
    except (OSError, ValueError):
        return False
    return (sa.st_dev, sa.st_ino) == (sb.st_dev, sb.st_ino)


def _show(path: str | Path) -> str:
    s = os.fspath(path)
    if not s.isprintable():
        s = repr(s)[1:-1]
    return s if len(s) <= 120 else "…" + s[-100:]


def check_output(path: str | Path, what: str = "file") -> None:
    """Refuse (one line) to write ``what`` onto a file the running command has read."""
    if not _STATE.active:
        return
    real = _resolved(path)
    hit = real in _STATE.paths
    if not hit:
        try:
            st = os.stat(path)
            hit = (st.st_dev, st.st_ino) in _STATE.files
        except (OSError, ValueError):
            hit = False
    if hit:
        raise TanglekitError(f"refusing to write the {what} to {_show(path)}: that file is an input of "
                             "this command (choose another output file)")


_UMASK: list[int] = []


def _new_file_mode() -> int:
    if not _UMASK:
        m = os.umask(0o022)
        os.umask(m)
        _UMASK.append(m)
    return 0o666 & ~_UMASK[0]


def _fail(what: str, path: str | Path, e: OSError) -> TanglekitError:
    return TanglekitError(f"cannot write {what} to {_show(path)}: {e.strerror or type(e).__name__}")


def write_bytes(path: str | Path, data: bytes, what: str = "file", check_inputs: bool = True) -> None:
    """Write ``data`` to ``path`` atomically (see the module's rules); errors are one line.

    ``check_inputs=False`` is for a command's own state file (a checkpoint it reads back and
    rewrites on purpose)."""
    p = Path(path)
    if "\x00" in os.fspath(p):
        raise TanglekitError(f"cannot write {what}: a path cannot contain a NUL character")
    if check_inputs:
        check_output(p, what)
    target = Path(os.path.realpath(p)) if p.is_symlink() else p  # a symlink: replace what it points to
    try:
        st = os.stat(target)
    except FileNotFoundError:
        st = None
    except OSError as e:
        raise _fail(what, p, e) from None
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise TanglekitError(f"cannot write {what} to {_show(p)}: is a folder")
    if st is not None and not stat.S_ISREG(st.st_mode):  # a device or pipe (/dev/stdout): no atomicity
        try:
            with open(target, "wb") as fh:
                fh.write(data)
        except OSError as e:
            raise _fail(what, p, e) from None
        return
    folder = target.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise _fail(what, p, e) from None
    tmp = None
    try:
        import tempfile

        fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{target.name[:80]}.", suffix=".tmp")
        try:
            os.fchmod(fd, (st.st_mode & 0o7777) if st is not None else _new_file_mode())
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
        finally:
            os.close(fd)
        os.replace(tmp, target)
        tmp = None
    except OSError as e:
        raise _fail(what, p, e) from None
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def write_text(path: str | Path, text: str, what: str = "file", check_inputs: bool = True) -> None:
    """Write UTF-8 ``text`` to ``path`` through :func:`write_bytes`."""
    write_bytes(path, text.encode("utf-8", "replace"), what, check_inputs)


__all__ = ["check_output", "command_scope", "inputs_read", "note_input", "same_file", "write_bytes", "write_text"]
