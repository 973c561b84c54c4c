"""Ctrl-C stops a command within a second or two, prints ``interrupted`` (exit 130) and leaves no
partial file, also inside a long CP-SAT search (whose own SIGINT handler used to swallow it)."""

import os
import signal
import subprocess
import sys
import time

import pytest

TANGLEKIT = [sys.executable, "-c", "from tanglekit.cli import main; main()"]


def _interrupt_after(args, delay: float, cwd):
    p = subprocess.Popen(TANGLEKIT + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=cwd)
    time.sleep(delay)
    sent = time.monotonic()
    p.send_signal(signal.SIGINT)
    try:
        out, err = p.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        p.kill()
        p.communicate()
        pytest.fail(f"{' '.join(args)} still running 30 s after Ctrl-C")
    return p.returncode, time.monotonic() - sent, err


@pytest.mark.skipif(not hasattr(signal, "SIGINT") or os.name != "posix", reason="POSIX signals")
def test_ctrl_c_stops_a_long_cp_sat_search(tmp_path):
    out = tmp_path / "sheets.json"
    # a minute of CP-SAT effort per candidate: interrupted a few seconds in
    rc, seconds, err = _interrupt_after(["zinga", "sheets", "generate", "--effort", "60", "--games", "0",
                                         "--quiet", "--out", str(out)], 4.0, tmp_path)
    assert rc == 130 and err.strip().splitlines()[-1] == "interrupted", err[-2000:]
    assert seconds < 3.0, seconds
    assert not out.exists() and list(tmp_path.iterdir()) == []


@pytest.mark.skipif(os.name != "posix", reason="POSIX signals")
def test_ctrl_c_stops_a_batch_and_its_workers(tmp_path):
    # hard seed IDs: each regenerates and grades a challenge (seconds each), over the worker pool
    src = tmp_path / "ids.txt"
    src.write_text("".join(f"zangle:solo,piles=6,hard#{i}\n" for i in range(1, 400)))
    rc, seconds, err = _interrupt_after(["zangle", "solo", "solve", "--batch", str(src)], 5.0, tmp_path)
    assert rc == 130 and err.strip().splitlines()[-1] == "interrupted", err[-2000:]
    assert seconds < 3.0, seconds  # the workers were stopped, not awaited (26 s before)
