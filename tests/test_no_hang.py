"""The default test run cannot hang: every test has a timeout (pyproject.toml), and a test stuck
where the timeout's signal cannot reach it is ended by the C-level watchdog (tests/conftest.py)."""

import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

PROBE = '''
import signal, time

def test_sleeps():
    time.sleep(600)

def test_stuck_where_no_signal_reaches():
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})  # the timeout's alarm never arrives
    time.sleep(600)
'''


def _run(tmp_path, name, backstop):
    (tmp_path / "test_probe.py").write_text(PROBE)
    (tmp_path / "conftest.py").write_text((ROOT / "tests" / "conftest.py").read_text())
    env = {**os.environ, "TANGLEKIT_TEST_BACKSTOP": str(backstop)}
    t = time.monotonic()
    p = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-c", str(ROOT / "pyproject.toml"),
                        "--rootdir", str(tmp_path), "-o", "timeout=2", f"{tmp_path / 'test_probe.py'}::{name}"],
                       capture_output=True, text=True, env=env, timeout=120, cwd=tmp_path)
    return p, time.monotonic() - t


def test_a_sleeping_test_times_out(tmp_path):
    p, seconds = _run(tmp_path, "test_sleeps", 60)
    assert p.returncode == 1 and "Timeout" in p.stdout and seconds < 60, (p.stdout[-1500:], p.stderr[-1500:])


def test_a_test_the_alarm_cannot_reach_ends_the_run(tmp_path):
    p, seconds = _run(tmp_path, "test_stuck_where_no_signal_reaches", 3)
    assert p.returncode != 0 and seconds < 60, (p.stdout[-1500:], p.stderr[-1500:])  # ended, not hung
