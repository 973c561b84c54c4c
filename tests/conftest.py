"""Test set-up: the tests folder is importable (shared harnesses such as ``hostile``), the
garbage collector's threshold, and the hypothesis profiles: "fast" (the default run: property
tests try 40 % of the examples they were written for, see ``budget.examples``) and "thorough"
(all of them), chosen with ``--hypothesis-profile thorough`` or HYPOTHESIS_PROFILE=thorough."""

import faulthandler
import gc
import os
import sys
from pathlib import Path

import pytest
from hypothesis import settings

sys.path.insert(0, str(Path(__file__).resolve().parent))

settings.register_profile("fast", max_examples=40)
settings.register_profile("thorough", max_examples=100)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "fast"))

# The cyclic garbage collector walks a heap full of numba types and test items: collecting after
# 20,000 allocations instead of 700 cuts its share of the default run from about 6.7 s of CPU to
# 2.8 s (30 full collections to 6; measured with gc.callbacks).
gc.set_threshold(20_000, 10, 10)


#: seconds a slow-marked test may take (the default run's tests have pyproject.toml's 300)
SLOW_TIMEOUT = 3600


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """A backstop under pytest-timeout (whose SIGALRM cannot stop a test stuck in C code: a kernel,
    a lock): a C-level watchdog dumps every thread's stack and ends the run a minute after the
    test's own timeout, so the run can never hang (it fails instead)."""
    marker = item.get_closest_marker("timeout")
    limit = float(marker.args[0]) if marker is not None and marker.args else float(item.config.getini("timeout") or 0)
    if limit > 0:
        faulthandler.dump_traceback_later(limit + float(os.environ.get("TANGLEKIT_TEST_BACKSTOP", 60)), exit=True)
    try:
        yield
    finally:
        if limit > 0:
            faulthandler.cancel_dump_traceback_later()


def pytest_collection_modifyitems(config, items):
    """Slow tests (certificates that verify for minutes) get a longer per-test timeout."""
    for item in items:
        if item.get_closest_marker("slow") is not None and item.get_closest_marker("timeout") is None:
            item.add_marker(pytest.mark.timeout(SLOW_TIMEOUT))


@pytest.fixture(scope="module")
def base():
    """`tanglekit serve` in a thread for one test module: its address without the trailing slash."""
    from tanglekit.web.server import start_in_thread, url_of  # only modules that ask for a server

    httpd, thread = start_in_thread("127.0.0.1", 0)
    yield url_of(httpd).rstrip("/")
    httpd.shutdown()
    httpd.server_close()
    thread.join(5)
