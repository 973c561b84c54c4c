"""Worker pools cannot hang their caller (issue 25): fork only without other threads (forkserver
otherwise), a deadline on every wait, a dead worker is an error at once, leaving the pool stops
its workers; and every pool path of the package runs many times in a row."""

import os
import threading
import time

import pytest

from tanglekit.errors import SolverError
from tanglekit.pools import PoolTimeout, WorkerPool, start_method


def _square(x):
    return x * x


def _die(x):
    if x == 3:
        os._exit(7)  # a worker killed under the pool (out of memory, a crash in a kernel)
    time.sleep(0.05)
    return x


def _sleep(x):
    time.sleep(x)
    return x


def test_fork_only_without_other_threads():
    assert start_method() in ("fork", "forkserver", "spawn")
    if threading.active_count() == 1:
        assert start_method() == "fork"
    stop = threading.Event()
    t = threading.Thread(target=stop.wait, daemon=True)
    t.start()
    try:
        assert start_method() != "fork"  # a thread runs: a forked child could inherit its locks
        with WorkerPool(2) as pool:
            assert pool.method != "fork"
            assert sorted(pool.map_unordered(_square, range(6))) == [0, 1, 4, 9, 16, 25]
    finally:
        stop.set()
        t.join()


def test_a_dead_worker_is_an_error_at_once():
    t = time.monotonic()
    with pytest.raises(SolverError, match="worker process died"):
        with WorkerPool(2, time.monotonic() + 60) as pool:
            list(pool.map_unordered(_die, range(8)))
    assert time.monotonic() - t < 20


def test_the_deadline_stops_the_workers():
    t = time.monotonic()
    with pytest.raises(PoolTimeout):
        with WorkerPool(2, time.monotonic() + 0.5) as pool:
            list(pool.map_unordered(_sleep, [30, 30, 30]))
    assert time.monotonic() - t < 10  # the 30 s sleepers were killed, not awaited


def test_an_early_answer_stops_the_others():
    t = time.monotonic()
    with WorkerPool(2) as pool:
        first = next(iter(pool.map_unordered(_sleep, [0.01, 30])))
    assert first == 0.01 and time.monotonic() - t < 10


def test_every_pool_path_many_times_in_a_row():
    """The QANGO root split, the exact-cover parallel counts (parts and first-cell boards) and the
    census executor, each run repeatedly with the answers checked (a hang here fails by the test
    timeout); the batch pool's runs are in tests/test_batch_input.py and tests/test_interrupt.py."""
    from tanglekit.games.qango import load_board
    from tanglekit.games.qango.solve import QangoSolver

    from tanglekit.benchmarks._xc_problems import n_queens as queens
    from tanglekit.generators.executors import map_unordered
    from tanglekit.solver.dlx_firstcell import FirstCellMatrix, firstcell_count_parallel
    from tanglekit.solver.parallel import count_parallel
    from tanglekit.solver.tiling import TilingProblem, parse_region, piece_set
    from tanglekit.solver.xc_problem import reduce_multiplicities

    board = load_board("6")
    x = sum(1 << c for c in (0, 1, 7))  # X to move with three counters down, O with two
    o = sum(1 << c for c in (30, 35))
    want = QangoSolver(board, None, tt_bits=16).prove(x, o, True)
    prob = TilingProblem(parse_region("parallelogram:6x6"), piece_set("hexiamonds"))
    red = reduce_multiplicities(prob.exact_cover)
    m = FirstCellMatrix(prob.exact_cover.n_items, red.ptr, red.items, prob.exact_cover.item_order)
    for _ in range(6):
        assert QangoSolver(board, None, tt_bits=16).prove_split(x, o, True, 2) == want
        assert count_parallel(queens(8), workers=2) == (92, True)
        assert firstcell_count_parallel(m, 2) == 624
        assert sorted(map_unordered(_square, range(5), "local", workers=2)) == [0, 1, 4, 9, 16]
