"""Issue 25, special files: every input path reads regular files only. A FIFO (which would block
the open until a writer comes), a device (/dev/null reads as an empty file, /dev/zero never
ends), a folder and a socket are refused with one line and exit 2, found with ``os.stat`` before
any open (``jsonio.check_regular_file``, used by ``jsonio.read_bytes``, the one reading layer).

Each command runs in this process under ``signal.alarm``: a regression that blocks again fails
with a traceback (``run_cli`` turns the alarm's exception into exit 1) instead of hanging.
"""

from __future__ import annotations

import os
import signal
import socket
import time

import pytest
from hostile import assert_refused
from tanglekit.errors import FormatError
from tanglekit.jsonio import check_regular_file, read_bytes, read_json_file, read_text_file

GUARD_SECONDS = 20  # a hang fails after this; a refusal takes milliseconds


def _special(tmp_path) -> dict[str, str]:
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    folder = tmp_path / "folder.json"
    folder.mkdir()
    out = {"fifo": str(fifo), "dev_null": "/dev/null", "dev_zero": "/dev/zero", "folder": str(folder)}
    sock_path = tmp_path / "sock.json"
    try:
        s = socket.socket(socket.AF_UNIX)
        s.bind(str(sock_path))
        s.close()
        out["socket"] = str(sock_path)
    except OSError:  # no Unix sockets here: the other kinds still run
        pass
    link = tmp_path / "link-to-fifo.json"
    link.symlink_to(fifo)
    out["symlink_to_fifo"] = str(link)
    return out


@pytest.fixture
def alarm():
    """Fail (not hang) when the body runs longer than GUARD_SECONDS."""
    def _timeout(signum, frame):
        raise TimeoutError(f"still reading after {GUARD_SECONDS} s: a special file blocked")

    old = signal.signal(signal.SIGALRM, _timeout)
    signal.alarm(GUARD_SECONDS)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


# A sample of file-taking commands of every game and of the generic layer: {f} is the special file.
COMMANDS = [
    ["qango", "verify-proof", "{f}"],
    ["qango", "solve", "{f}"],
    ["qango", "puzzle", "solve", "{f}"],
    ["qango", "solve", "empty", "--board", "{f}"],
    ["tanglung", "analyze", "{f}"],
    ["tanglung", "solo", "solve", "{f}"],
    ["tanglung", "solo", "solve", "CRBF/HDFR/BHFB/RHDC", "--cards", "{f}"],
    ["zangle", "solo", "solve", "{f}"],
    ["zangle", "find", "{f}"],
    ["zangle", "replay", "{f}"],
    ["zangle", "solo", "solve", "--batch", "{f}"],
    ["zinga", "sheets", "show", "{f}"],
    ["tangle", "best-turn", "{f}"],
    ["play", "{f}"],
    ["replay", "{f}"],
    ["tile", "--region", "rect:5x4", "--pieces", "{f}", "--count"],
]


@pytest.mark.parametrize("cmd", COMMANDS, ids=lambda c: " ".join(c[:3]))
def test_commands_refuse_special_files(cmd, tmp_path, alarm):
    specials = _special(tmp_path)
    for kind, path in specials.items():
        args = [a.replace("{f}", path) for a in cmd]
        t0 = time.monotonic()
        line = assert_refused(args, tmp_path)
        took = time.monotonic() - t0
        assert took < 10, (args, took)  # well within the guard: milliseconds once imported
        if kind in ("fifo", "dev_null", "dev_zero", "socket", "symlink_to_fifo", "folder"):
            assert "regular file" in line or "is a folder" in line or "not a file" in line, (args, line)


@pytest.mark.parametrize("reader", [read_bytes, read_text_file, read_json_file, check_regular_file])
def test_reading_layer_refuses_without_opening(reader, tmp_path, alarm):
    """The layer itself: every special kind is a FormatError saying what it is."""
    for kind, path in _special(tmp_path).items():
        with pytest.raises(FormatError) as e:
            reader(path)
        msg = str(e.value)
        assert "\n" not in msg
        word = {"fifo": "named pipe", "symlink_to_fifo": "named pipe", "dev_null": "character device",
                "dev_zero": "character device", "folder": "folder", "socket": "socket"}[kind]
        assert word in msg, (kind, msg)


def test_regular_files_and_links_to_them_still_read(tmp_path):
    f = tmp_path / "a.json"
    f.write_text('{"a": 1}')
    link = tmp_path / "b.json"
    link.symlink_to(f)
    assert read_json_file(f) == {"a": 1} and read_json_file(link) == {"a": 1}
