"""One executor layer for long counts: a local process pool, a Ray cluster or a Dask cluster.

``map_unordered`` maps a picklable function over tasks and yields the results as they finish.
``run_parts`` adds a resumable checkpoint on top: every finished subproblem is written to a
tagged, checksummed JSON file at once, so a re-run (after Ctrl-C, a lost worker or a time
limit) skips what is done. ``count_tiling`` and ``count_polyforms`` split the two big counts
(exact cover of a tiling, Redelmeier enumeration) into such subproblems; the Tanglung census
maps its chunks through ``map_unordered`` too.

Cluster address: the ``address`` argument, else ``RAY_ADDRESS`` / ``DASK_SCHEDULER_ADDRESS``,
else a local cluster of ``workers`` CPUs started for the run and stopped after it. Workers
import tanglekit themselves, so every machine of the cluster needs it installed.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from .. import jsonio
from ..errors import FormatError, SolverError
from ..outputs import write_text
from ..solver.exact_cover import count_solutions
from ..solver.parallel import split_problem
from ..solver.tiling import TilingProblem, _dropping, parse_region, piece_set

EXECUTORS = ("local", "ray", "dask")

#: the checkpoint file of a split count (tile --count, shapes enumerate --count)
CHECKPOINT_FORMAT = jsonio.register_format("tanglekit/count-checkpoint", 1, "count checkpoint")


# --- mapping ----------------------------------------------------------------------------------


def map_unordered(fn: Callable, tasks: Iterable, executor: str = "local", workers: int = 1,
                  address: str | None = None) -> Iterator:
    """Yield ``fn(task)`` for every task, in the order they finish, on the chosen executor.

    ``local``: in this process with ``workers <= 1``, else a pool of ``workers`` processes.
    ``ray`` / ``dask``: the cluster at ``address`` (or the environment variable), else one
    started here. Closing the generator early (break, Ctrl-C) cancels what is still queued.
    """
    if executor not in EXECUTORS:
        raise SolverError(f"unknown executor {executor!r} (local, ray or dask)")
    workers = max(1, int(workers or 1))
    tasks = list(tasks)
    if executor == "local":
        if address:
            raise SolverError("--address needs --executor ray or dask")
        return _map_local(fn, tasks, workers)
    if executor == "ray":
        return _map_ray(fn, tasks, workers, address)
    return _map_dask(fn, tasks, workers, address)


def _quiet_sigint() -> None:
    """Pool workers leave Ctrl-C to the parent, which stops them (no traceback per worker)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _map_local(fn, tasks, workers):
    if workers <= 1 or len(tasks) <= 1:
        for t in tasks:
            yield fn(t)
        return
    import multiprocessing as mp

    # spawn: a clean interpreter per worker (no inherited threads or numba state)
    pool = mp.get_context("spawn").Pool(min(workers, len(tasks)), initializer=_quiet_sigint)
    try:
        yield from pool.imap_unordered(fn, tasks)
        pool.close()
    finally:
        pool.terminate()
        pool.join()


def _map_ray(fn, tasks, workers, address):
    """Ray: the cluster at ``address`` / RAY_ADDRESS, else a local Ray of ``workers`` CPUs
    started here and shut down afterwards; an already initialised Ray is used as it is."""
    try:
        import ray
    except ImportError:
        raise SolverError("executor 'ray' needs the ray package (pip install 'tanglekit[ray]')") from None
    started = False
    if not ray.is_initialized():
        address = address or os.environ.get("RAY_ADDRESS") or None
        kwargs: dict = {} if address else {"num_cpus": workers, "include_dashboard": False}
        os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")  # no usage report to the internet
        try:
            ray.init(address=address or "local", ignore_reinit_error=True, log_to_driver=False,
                     configure_logging=False, **kwargs)
        except (ConnectionError, RuntimeError, ValueError) as e:
            raise SolverError(f"cannot reach the Ray cluster at {address}: {str(e).splitlines()[0][:200]}") from None
        started = True
    pending: list = []
    try:
        remote = ray.remote(fn)
        pending = [remote.remote(t) for t in tasks]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            yield ray.get(done[0])
    finally:
        for ref in pending:
            try:
                ray.cancel(ref, force=True)
            except Exception:  # already finished or gone: nothing to cancel
                pass
        if started:
            ray.shutdown()


def _map_dask(fn, tasks, workers, address):
    """Dask: the scheduler at ``address`` / DASK_SCHEDULER_ADDRESS, else a LocalCluster of
    ``workers`` single-threaded processes; the client (and cluster) made here are closed."""
    try:
        from dask.distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise SolverError("executor 'dask' needs dask[distributed] (pip install 'tanglekit[dask]')") from None
    address = address or os.environ.get("DASK_SCHEDULER_ADDRESS") or None
    cluster = None
    if address:
        try:
            client = Client(address, timeout=30)
        except (OSError, TimeoutError, ValueError) as e:
            raise SolverError(f"cannot reach the Dask scheduler at {address}: {str(e).splitlines()[0][:200]}") from None
    else:
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                               dashboard_address=None, host="127.0.0.1")
        client = Client(cluster)
    futures: list = []
    try:
        futures = client.map(fn, tasks, pure=False)
        for fut in as_completed(futures):
            yield fut.result()
    finally:
        try:
            client.cancel([f for f in futures if not f.done()])
        except Exception:  # the scheduler may already be gone
            pass
        client.close()
        if cluster is not None:
            cluster.close()


# --- checkpointed parts -----------------------------------------------------------------------


def _load_checkpoint(path: Path, problem: dict) -> dict:
    """The finished parts stored in ``path`` for ``problem`` (empty when the file is absent)."""
    if not path.exists():
        return {}
    where = str(path)
    data = jsonio.read_json_file(path, CHECKPOINT_FORMAT.title, state=True)
    jsonio.expect_format(data, CHECKPOINT_FORMAT, where)
    body = jsonio.verify_checksum(data, where)
    if not jsonio.same_json(body.get("problem"), problem):  # typed: 4.0 or true is not the problem's 4 or 1
        raise FormatError(f"{where}: the checkpoint was written for another problem "
                          f"({_describe(body.get('problem'))}); remove it or choose another file")
    done = body.get("done")
    if not isinstance(done, dict):
        raise FormatError(f"{where}: 'done' must be an object")
    for key, counts in done.items():  # a count per part, or a list of counts: whole numbers only
        if not all(jsonio.whole_number(c, 0) for c in (counts if isinstance(counts, list) else [counts])):
            raise FormatError(f"{where}: part {jsonio.short(key)} must hold whole numbers >= 0 "
                              "(not true/false or decimals)")
    return done


def _describe(problem: Any) -> str:
    if not isinstance(problem, dict):
        return "unknown"
    return ", ".join(f"{k}={v}" for k, v in problem.items() if k != "digest")[:200]


def _save_checkpoint(path: Path, problem: dict, done: dict) -> None:
    doc = jsonio.with_checksum(jsonio.tagged(CHECKPOINT_FORMAT, {"problem": problem, "done": done}))
    write_text(path, json.dumps(doc), "checkpoint")  # atomic: an interrupted write keeps the old one


def run_parts(fn: Callable, parts: list[tuple[str, Any]], problem: dict, executor: str = "local",
              workers: int = 1, address: str | None = None, checkpoint: str | Path | None = None,
              time_limit: float | None = None, on_progress: Callable[[int, int], None] | None = None,
              ) -> tuple[dict, bool]:
    """Run ``fn((key, task)) -> (key, result)`` over the parts not yet in ``checkpoint``.

    Returns ({key: result} of every finished part, complete). ``problem`` names the problem in
    the checkpoint: a file written for another problem is refused. The checkpoint is rewritten
    after each part, so Ctrl-C or a time limit keeps everything finished so far.
    ``on_progress(done, total)`` is called at the start and after each part.
    """
    if time_limit is not None and time_limit < 0:
        raise SolverError("the time limit must be at least 0")
    keys = [k for k, _ in parts]
    if len(set(keys)) != len(keys):
        raise SolverError("subproblem keys must be distinct")
    cp = Path(checkpoint) if checkpoint is not None else None
    done: dict = {}
    if cp is not None:
        stored = _load_checkpoint(cp, problem)
        wanted = set(keys)
        done = {k: v for k, v in stored.items() if k in wanted}
    todo = [(k, t) for k, t in parts if k not in done]
    total = len(parts)
    if on_progress:
        on_progress(len(done), total)
    if cp is not None and not cp.exists():
        _save_checkpoint(cp, problem, done)
    if not todo:
        return done, True
    if time_limit == 0:
        return done, False
    t_end = None if time_limit is None else time.monotonic() + time_limit
    it = map_unordered(fn, todo, executor, workers, address)
    complete = True
    try:
        for key, result in it:
            done[key] = result
            if cp is not None:
                _save_checkpoint(cp, problem, done)
            if on_progress:
                on_progress(len(done), total)
            if t_end is not None and time.monotonic() >= t_end and len(done) < total:
                complete = False
                break
    finally:
        close = getattr(it, "close", None)
        if close:
            close()  # stops the pool / cancels queued cluster tasks
    return done, complete and len(done) == total


# --- tiling counts ------------------------------------------------------------------------------


def _tile_part(item):
    """Worker: the count of one exact-cover subproblem times its factor."""
    key, (problem, factor) = item

    n, _ = count_solutions(problem, "dlx")
    return key, int(n) * int(factor)


def _ec_digest(ec, factor: int = 1) -> str:
    return jsonio.checksum([ec.n_primary, ec.n_secondary, [list(o) for o in ec.options],
                            [list(c) for c in ec.colours], factor])


def count_tiling(region: str, pieces: str, each: str = "exactly", mirror: bool = True,
                 up_to_symmetry: bool = False, executor: str = "local", workers: int = 1,
                 address: str | None = None, checkpoint: str | Path | None = None,
                 time_limit: float | None = None, min_parts: int | None = None,
                 on_progress: Callable[[int, int], None] | None = None) -> dict:
    """Count the tilings of ``region`` by ``pieces`` split into independent exact-cover
    subproblems (``solver.parallel.split_problem``) on an executor: the same count as one
    process. The result has count, count_up_to_symmetry, complete, parts, parts_done."""
    t0 = time.perf_counter()
    reg = parse_region(region)
    shapes = piece_set(pieces, reg.lattice.name)
    prob = TilingProblem(reg, shapes, each, mirror)
    ec = prob.exact_cover
    order = 1
    method = None
    if up_to_symmetry:
        order = len(prob.group())
        fp = prob.fundamental_piece()
        if fp is None and order > 1:
            raise SolverError("--up-to-symmetry on a cluster needs a piece that can be fixed "
                              "(one used exactly once with a free orbit); count without it")
        if fp is not None:
            method = f"fixed piece {fp[0]}"
            ec = _dropping(ec, prob.option_piece, fp[0], set(fp[1]))
        else:
            method = "trivial group"
    if ec.bounds:
        raise SolverError("this problem has multiplicity bounds, which the split does not handle")
    problem = {"command": "tile", "region": region, "pieces": pieces, "each": each, "mirror": mirror,
               "up_to_symmetry": up_to_symmetry, "digest": _ec_digest(ec)}
    if prob.area_mismatch():
        parts = []
    else:
        n_parts = min_parts if min_parts is not None else 16 * max(1, workers)
        split = split_problem(ec, n_parts)
        # a part's key is a digest of its content, so a resumed run matches parts, not positions
        parts = [(_ec_digest(p, f), (p, f)) for p, f in split]
        merged: dict = {}
        for k, (p, f) in parts:  # equal parts (rare) are counted once each: add their factors
            if k in merged:
                merged[k] = (p, merged[k][1] + f)
            else:
                merged[k] = (p, f)
        parts = sorted(merged.items(), key=lambda kv: -kv[1][0].n_options)
    done, complete = run_parts(_tile_part, parts, problem, executor, workers, address, checkpoint,
                               time_limit, on_progress)
    n = sum(int(v) for v in done.values())
    out = {"count": n if not up_to_symmetry else n * order, "count_up_to_symmetry": None,
           "complete": complete, "parts": len(parts), "parts_done": len(done), "executor": executor,
           "seconds": round(time.perf_counter() - t0, 4)}
    if up_to_symmetry:
        out["count_up_to_symmetry"] = n
        out["symmetry_order"] = order
        out["symmetry_method"] = method
    return out


# --- polyform counts ---------------------------------------------------------------------------


def _enum_part(item):
    key, (lattice, n, kind, prefix, all_sizes) = item
    from ..shapes.enumerate_split import count_prefix  # loads numpy (only when this runs)

    return key, count_prefix(n, lattice, kind, prefix, all_sizes)


def count_polyforms(n: int, lattice: str = "triangle", kind: str = "free", by_size: bool = False,
                    executor: str = "local", workers: int = 1, address: str | None = None,
                    checkpoint: str | Path | None = None, time_limit: float | None = None,
                    min_parts: int | None = None,
                    on_progress: Callable[[int, int], None] | None = None) -> dict:
    """Count the polyforms of size n (every size 1..n with ``by_size``) split by the first
    growth steps (``shapes.enumerate_split``) on an executor: the same counts as one process.
    The result has count (or counts), complete, parts, parts_done and depth."""
    from ..shapes.enumerate import count_polyforms_by_size  # loads numpy (only when this runs)
    from ..shapes.enumerate_split import prefix_key, split_prefixes  # loads numpy (only when this runs)

    t0 = time.perf_counter()
    n_parts = min_parts if min_parts is not None else 16 * max(1, workers)
    depth, prefixes = split_prefixes(n, lattice, kind, n_parts)
    problem = {"command": "shapes enumerate", "lattice": lattice, "kind": kind, "size": int(n),
               "by_size": by_size, "depth": depth}
    parts = [(prefix_key(p), (lattice, int(n), kind, p, by_size)) for p in prefixes]
    done, complete = run_parts(_enum_part, parts, problem, executor, workers, address, checkpoint,
                               time_limit, on_progress)
    out: dict = {"lattice": lattice, "kind": kind, "size": int(n)}
    if by_size:
        # the prefixes hold the sizes up to the split depth; the parts count the larger ones
        counts = count_polyforms_by_size(depth, lattice, kind) if depth else []
        counts = counts + [0] * (int(n) - len(counts))
        for part in done.values():
            for s in range(depth, int(n)):
                counts[s] += int(part[s])
        out["counts"] = counts
    else:
        out["count"] = sum(int(v[-1]) for v in done.values())
    out.update({"complete": complete, "parts": len(parts), "parts_done": len(done), "depth": depth,
                "executor": executor, "seconds": round(time.perf_counter() - t0, 4)})
    return out


__all__ = ["CHECKPOINT_FORMAT", "EXECUTORS", "count_polyforms", "count_tiling", "map_unordered",
           "run_parts"]
