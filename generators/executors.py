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

Nothing waits for ever: a cluster that cannot be reached within the connect timeout
(``--connect-timeout``, ``TANGLEKIT_CONNECT_TIMEOUT``, 30 s) is a one-line error; a Dask cluster
left without workers for that long, or a local worker process that dies, ends the run with a
one-line ``ClusterLost`` that says how many parts the checkpoint keeps; a time limit stops the
waiting itself. ``progress`` draws the parts done, the elapsed time and an estimate on stderr.
"""

from __future__ import annotations

import contextlib
import contextvars
import gc
import json
import logging
import os
import socket
import threading
import time
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from .. import jsonio
from ..errors import FormatError, SolverError
from ..limits import check_number
from ..outputs import write_text
from ..pools import PoolTimeout, WorkerPool
from ..solver.exact_cover import count_solutions
from ..solver.parallel import split_problem
from ..solver.tiling import TilingProblem, _dropping, parse_region, piece_set

EXECUTORS = ("local", "ray", "dask")

#: the checkpoint file of a split count (tile --count, shapes enumerate --count)
CHECKPOINT_FORMAT = jsonio.register_format("tanglekit/count-checkpoint", 1, "count checkpoint")


# --- settings -----------------------------------------------------------------------------------

#: seconds to reach a Ray or Dask cluster, and the longest a Dask run waits with no worker left
#: (``--connect-timeout``; else the environment variable CONNECT_TIMEOUT_ENV; else this)
CONNECT_TIMEOUT = 30.0
CONNECT_TIMEOUT_ENV = "TANGLEKIT_CONNECT_TIMEOUT"
#: how often (seconds) a cluster run looks for results, its deadline and its workers
POLL = 0.25

_SETTINGS: contextvars.ContextVar[dict | None] = contextvars.ContextVar("tanglekit_cluster_settings", default=None)


class ClusterLost(SolverError):
    """The run lost what ran its parts: a local worker process died, a Dask cluster had no worker
    (or no scheduler) for the connect timeout, a Ray task's worker died for good."""


@contextlib.contextmanager
def cluster_settings(address: str | None = None, connect_timeout: float | None = None) -> Iterator[None]:
    """Defaults for the ``map_unordered`` calls made in the block that do not pass them (the
    Tanglung census): the cluster ``address`` and the ``connect_timeout``."""
    given = {k: v for k, v in (("address", address), ("connect_timeout", connect_timeout)) if v is not None}
    token = _SETTINGS.set({**(_SETTINGS.get() or {}), **given})
    try:
        yield
    finally:
        _SETTINGS.reset(token)


def resolve_connect_timeout(value: float | None = None) -> float:
    """Seconds: ``value``, else the block's ``cluster_settings``, else $TANGLEKIT_CONNECT_TIMEOUT,
    else CONNECT_TIMEOUT (30 s)."""
    name = "--connect-timeout"
    if value is None:
        value = (_SETTINGS.get() or {}).get("connect_timeout")
    if value is None:
        raw = os.environ.get(CONNECT_TIMEOUT_ENV, "").strip()
        if not raw:
            return CONNECT_TIMEOUT
        try:
            value = float(raw)
        except ValueError:
            raise SolverError(f"{CONNECT_TIMEOUT_ENV} must be a number of seconds, not {raw[:20]!r}") from None
        name = CONNECT_TIMEOUT_ENV
    return float(check_number(name, value, minimum=0.1, maximum=24 * 3600.0))


@contextlib.contextmanager
def _quiet_loggers(*names: str) -> Iterator[None]:
    """The libraries' own loggers (Ray's, Dask's, asyncio's) say nothing below CRITICAL in the
    block: a lost worker or an unreachable address is reported by us, in one line."""
    known = list(logging.Logger.manager.loggerDict)  # their children too: dask sets their levels itself
    loggers = [logging.getLogger(n) for n in {*names, *(k for k in known if k.split(".")[0] in names)}]
    levels = [lg.level for lg in loggers]
    for lg in loggers:
        lg.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        for lg, level in zip(loggers, levels):
            lg.setLevel(level)


def _fmt_seconds(s: float) -> str:
    return f"{s:g}" if s < 100 else f"{s:.0f}"


# --- mapping ----------------------------------------------------------------------------------


def map_unordered(fn: Callable, tasks: Iterable, executor: str = "local", workers: int = 1,
                  address: str | None = None, *, connect_timeout: float | None = None,
                  deadline: float | None = None) -> Iterator:
    """Yield ``fn(task)`` for every task, in the order they finish, on the chosen executor.

    ``local``: in this process with ``workers <= 1``, else a ``pools.WorkerPool`` of ``workers``
    processes. ``ray`` / ``dask``: the cluster at ``address`` (or the environment variable),
    else one started here. Closing the generator early (break, Ctrl-C) stops the workers or
    cancels what is still queued on the cluster.

    Nothing waits for ever: ``deadline`` (a ``time.monotonic()`` value) raises ``PoolTimeout``
    (a ``LimitReached``) once passed; a cluster not reached within ``connect_timeout`` seconds
    (see ``resolve_connect_timeout``) is a one-line ``SolverError``; a dead local worker, or a
    Dask cluster with no worker for ``connect_timeout`` seconds, is a ``ClusterLost``.
    """
    if executor not in EXECUTORS:
        raise SolverError(f"unknown executor {executor!r} (local, ray or dask)")
    workers = max(1, int(workers or 1))
    tasks = list(tasks)
    address = address or (_SETTINGS.get() or {}).get("address")
    if executor == "local":
        if address:
            raise SolverError("--address needs --executor ray or dask")
        if deadline is None:  # (tests/test_docs_commands.py replaces _map_local with a 3-argument stand-in)
            return _map_local(fn, tasks, workers)
        return _map_local(fn, tasks, workers, deadline)
    timeout = resolve_connect_timeout(connect_timeout)
    if executor == "ray":
        return _map_ray(fn, tasks, workers, address, timeout, deadline)
    return _map_dask(fn, tasks, workers, address, timeout, deadline)


def _quiet_sigint() -> None:
    """Pool workers leave Ctrl-C to the parent, which stops them (no traceback per worker)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _past(deadline: float | None) -> bool:
    return deadline is not None and time.monotonic() >= deadline


def _map_local(fn, tasks, workers, deadline=None):
    if workers <= 1 or len(tasks) <= 1:
        for t in tasks:
            if _past(deadline):
                raise PoolTimeout("the time limit was reached")
            yield fn(t)
        return
    # pools.WorkerPool: a deadline on every wait, a dead worker an error at once, its workers
    # killed when the generator is closed (a time limit, an error, Ctrl-C)
    with WorkerPool(min(workers, len(tasks)), deadline, initializer=_quiet_sigint) as pool:
        try:
            yield from pool.map_unordered(fn, tasks)
        except SolverError as e:
            if isinstance(e.__context__, BrokenProcessPool):
                raise ClusterLost("a worker process died (killed or out of memory)") from None
            raise


# --- Ray --------------------------------------------------------------------------------------


def _host_port(address: str, default_port: int | None = None) -> tuple[str, int] | None:
    """(host, port) of ``host:port``, ``[v6]:port`` or ``scheme://host:port``; None if it is not one
    (an in-process ``inproc://`` scheduler, or another transport, is not probed over TCP)."""
    scheme, sep, _ = address.partition("://")
    if sep and scheme.lower() not in ("tcp", "tls", "ws", "wss", "ray", "http", "https"):
        return None
    rest = address.split("://", 1)[-1].split("/", 1)[0]
    if rest.startswith("["):
        host, _, tail = rest[1:].partition("]")
        port = tail[1:] if tail.startswith(":") else ""
    else:
        host, _, port = rest.rpartition(":") if ":" in rest else (rest, "", "")
    if not host:
        return None
    if not port:
        return (host, default_port) if default_port else None
    try:
        return host, int(port)
    except ValueError:
        return None


def _probe(address: str, host: str, port: int, timeout: float, what: str) -> float:
    """Open (and close) a TCP connection to host:port, retrying until ``timeout`` seconds (a
    cluster that is starting); returns the seconds left, or raises the one-line SolverError."""
    t_end = time.monotonic() + timeout
    reason = "no answer"
    while True:
        left = t_end - time.monotonic()
        if left <= 0:
            break
        try:
            with socket.create_connection((host, port), timeout=min(left, 5.0)):
                return max(0.1, t_end - time.monotonic())
        except TimeoutError:  # socket.timeout
            reason = "no answer"
        except OSError as e:
            reason = (e.strerror or type(e).__name__).lower()
        time.sleep(min(0.25, max(0.0, t_end - time.monotonic())))
    raise SolverError(f"cannot reach the {what} at {address} within {_fmt_seconds(timeout)} s ({reason})")


def _map_ray(fn, tasks, workers, address, timeout, deadline):
    """Ray: the cluster at ``address`` / RAY_ADDRESS, else a local Ray of ``workers`` CPUs
    started here and shut down afterwards; an already initialised Ray is used as it is.

    Connecting is bounded: the GCS port must accept a TCP connection within ``timeout``
    seconds (ray.init itself retries for minutes, printing warnings), and ray.init must then
    return within what is left of it."""
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")  # no usage report to the internet
    try:
        import ray
    except ImportError:
        raise SolverError("executor 'ray' needs the ray package (pip install 'tanglekit[ray]')") from None
    started = False
    if not ray.is_initialized():
        address = address or os.environ.get("RAY_ADDRESS") or None
        with _quiet_loggers("ray"):
            if address and address != "auto":
                hp = _host_port(address, 10001 if address.startswith("ray://") else 6379)
                left = _probe(address, *hp, timeout, "Ray cluster") if hp else timeout
                _ray_init_bounded(ray, address, timeout, left)
            else:
                _ray_init(ray, address or "local", {"num_cpus": workers, "include_dashboard": False}
                          if not address else {})
        started = True
    pending: list = []
    try:
        remote = ray.remote(fn)
        pending = [remote.remote(t) for t in tasks]
        lost = tuple(getattr(ray.exceptions, n) for n in ("WorkerCrashedError", "NodeDiedError",
                                                          "ObjectLostError", "OutOfMemoryError")
                     if hasattr(ray.exceptions, n))
        while pending:
            if _past(deadline):
                raise PoolTimeout("the time limit was reached")
            wait_s = POLL * 4 if deadline is None else max(0.0, min(POLL * 4, deadline - time.monotonic()))
            done, pending = ray.wait(pending, num_returns=1, timeout=wait_s)
            for ref in done:
                try:
                    result = ray.get(ref)
                except lost as e:
                    raise ClusterLost(f"a Ray worker died running a part ({type(e).__name__})") from None
                yield result
    finally:
        for ref in pending:
            try:
                ray.cancel(ref, force=True)
            except Exception:  # already finished or gone: nothing to cancel
                pass
        if started:
            ray.shutdown()


def _ray_init(ray, address, kwargs):
    try:
        ray.init(address=address, ignore_reinit_error=True, log_to_driver=False, configure_logging=False,
                 **kwargs)
    except (ConnectionError, RuntimeError, ValueError) as e:
        raise SolverError(f"cannot reach the Ray cluster at {address}: {str(e).splitlines()[0][:200]}") from None


def _ray_init_bounded(ray, address, timeout, left):
    """ray.init(address), given up after ``left`` seconds (``_bounded``)."""
    _bounded(lambda: _ray_init(ray, address, {}), left,
             f"cannot reach the Ray cluster at {address} within {_fmt_seconds(timeout)} s "
             "(its port answers, but not as a Ray cluster)")


def _bounded(connect: Callable[[], Any], seconds: float, message: str) -> Any:
    """``connect()`` in a helper thread, awaited for ``seconds``: its result, its exception, or
    past them a SolverError(message). The libraries' own connects can wait far longer than
    their timeouts (a port that accepts but never answers); the helper is a daemon thread,
    left to end with the process."""
    box: dict = {}

    def run():
        try:
            box["result"] = connect()
        except BaseException as e:  # handed to the caller's thread
            box["error"] = e

    th = threading.Thread(target=run, name="tanglekit-cluster-connect", daemon=True)
    th.start()
    th.join(seconds)
    if th.is_alive():
        raise SolverError(message)
    if "error" in box:
        raise box["error"]
    return box.get("result")


# --- Dask -------------------------------------------------------------------------------------


def _map_dask(fn, tasks, workers, address, timeout, deadline):
    """Dask: the scheduler at ``address`` / DASK_SCHEDULER_ADDRESS, else a LocalCluster of
    ``workers`` single-threaded processes; the client (and cluster) made here are closed.

    A worker that dies is survived (its parts run again elsewhere, or on the worker its nanny
    restarts); a cluster that has had no worker, or whose scheduler has not answered, for
    ``timeout`` seconds ends the run with ``ClusterLost``."""
    try:
        from dask.distributed import Client, LocalCluster, as_completed
        from distributed.scheduler import KilledWorker
    except ImportError:
        raise SolverError("executor 'dask' needs dask[distributed] (pip install 'tanglekit[dask]')") from None
    address = address or os.environ.get("DASK_SCHEDULER_ADDRESS") or None
    where = f"the Dask cluster at {address}" if address else "the local Dask cluster"
    with _quiet_loggers("distributed", "asyncio", "tornado"):
        cluster = None
        if address:
            hp = _host_port(address, 8786)
            left = _probe(address, *hp, timeout, "Dask scheduler") if hp else timeout
            try:
                # Client's own timeout does not cover a port that accepts but never answers
                client = _bounded(lambda: Client(address, timeout=left, set_as_default=False), left + 1,
                                  f"cannot reach the Dask scheduler at {address} within {_fmt_seconds(timeout)} s "
                                  "(its port answers, but not as a Dask scheduler)")
            except SolverError:
                raise
            except (OSError, TimeoutError) as e:
                reason = "no answer" if isinstance(e, TimeoutError) or "Timed out" in str(e) else str(e).splitlines()[0][:120]
                raise SolverError(f"cannot reach the Dask scheduler at {address} within "
                                  f"{_fmt_seconds(timeout)} s ({reason})") from None
            except ValueError as e:
                raise SolverError(f"cannot reach the Dask scheduler at {address}: {str(e).splitlines()[0][:200]}") from None
        else:
            # no dashboard; the scheduler's plain HTTP server on a free loopback port (its
            # default, 8787, may be taken by another cluster on this machine)
            cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                                   dashboard_address=None,
                                   scheduler_kwargs={"dashboard": False, "dashboard_address": "127.0.0.1:0"})
            client = Client(cluster, set_as_default=False)
        futures: list = []
        try:
            futures = client.map(fn, tasks, pure=False)
            ready = as_completed(futures, loop=client.loop)
            alone_since: float | None = None  # when the cluster was last seen without a worker
            next_look = time.monotonic()
            while not ready.is_empty():
                batch = ready.next_batch(block=False) if ready.has_ready() else []
                for fut in batch:
                    while True:
                        try:
                            result = fut.result(timeout=max(1.0, POLL * 4))
                            break
                        except KilledWorker:
                            raise ClusterLost(f"{where}: the workers running a part died again and "
                                              "again (it may need more memory than they have)") from None
                        except TimeoutError:  # the worker holding it died: Dask computes it again
                            alone_since = _dask_check(client, where, timeout, alone_since, deadline)
                    yield result
                now = time.monotonic()
                if now >= next_look:
                    alone_since = _dask_check(client, where, timeout, alone_since, deadline)
                    next_look = now + POLL * 4
                if not batch:
                    time.sleep(POLL / 2)
        finally:
            try:
                client.cancel([f for f in futures if not f.done()])
            except Exception:  # the scheduler may already be gone
                pass
            try:
                client.close(timeout=min(timeout, 10))
            except Exception:  # the scheduler is gone: nothing left to close
                pass
            if cluster is not None:
                cluster.close(timeout=min(timeout, 10))
            # a gather cut short leaves a finished asyncio task whose error nobody read: it is
            # collected here, while asyncio's logger is quiet, not at exit as a stray traceback
            gc.collect()


def _dask_check(client, where, timeout, alone_since, deadline):
    """Raise PoolTimeout past the deadline, ClusterLost once the cluster has been without a
    worker (or without an answering scheduler) for ``timeout`` seconds; else the new
    ``alone_since``."""
    if _past(deadline):
        raise PoolTimeout("the time limit was reached")
    n = 0
    if client.status == "running":
        try:
            n = len(client.nthreads(callback_timeout=min(timeout, 5.0)))
        except Exception:  # no answer from the scheduler (gone, or busy for seconds): no worker known
            n = 0
    now = time.monotonic()
    if n:
        return None
    if alone_since is None:
        return now
    if now - alone_since >= timeout:
        raise ClusterLost(f"{where} lost all its workers (none for {_fmt_seconds(timeout)} s)")
    return alone_since


# --- progress ---------------------------------------------------------------------------------


def _clock(seconds: float) -> str:
    s = round(seconds)
    h, m = divmod(s // 60, 60)
    return f"{h}:{m:02d}:{s % 60:02d}" if h else f"{m}:{s % 60:02d}"


def progress_text(done: int, total: int, elapsed: float, done_before: int = 0, unit: str = "parts") -> str:
    """One progress line: ``12 of 63 parts done, 0:05 elapsed, about 0:20 left``. The estimate
    comes from the parts finished in this run (``done_before`` came from the checkpoint)."""
    text = f"{done:,} of {total:,} {unit} done, {_clock(elapsed)} elapsed"
    ran = done - done_before
    if done >= total:
        return text
    if ran <= 0 or elapsed <= 0:
        return text + ", estimating the time left"
    return text + f", about {_clock(elapsed / ran * (total - done))} left"


@contextlib.contextmanager
def progress(label: str = "subproblems", enabled: bool = True, unit: str = "parts",
             console=None) -> Iterator[Callable[[int, int], None]]:
    """``on_progress(done, total)`` for ``run_parts`` and the census: a bar on stderr with the
    parts done of the total, the elapsed time and an estimate of the time left
    (``progress_text``). Silent when not ``enabled`` or when stderr is not a terminal."""
    from rich.console import Console  # loads rich (only for a command that shows progress)

    console = console or Console(stderr=True)
    if not enabled or not console.is_terminal:
        yield lambda done, total: None
        return
    from rich.progress import BarColumn, Progress, ProgressColumn  # loads rich (as above)
    from rich.text import Text  # loads rich (as above)

    class _Line(ProgressColumn):
        def render(self, task):
            return Text(progress_text(int(task.completed), int(task.total or 0), task.elapsed or 0.0,
                                      task.fields.get("before", 0), unit))

    with Progress("[progress.description]{task.description}", BarColumn(), _Line(), console=console,
                  transient=True) as bar:
        state: dict = {}

        def update(done: int, total: int) -> None:
            if "task" not in state:  # the first call: what the checkpoint already had
                state["task"] = bar.add_task(label, total=total, completed=done, before=done)
            bar.update(state["task"], completed=done, total=total)

        yield update


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
    # a count per part, or a list of counts: whole numbers only; a problem whose parts are records
    # of values (``"values": "real"``: probabilities with their search figures) keeps its records
    # as written (the checksum above vouches for them)
    if problem.get("values") == "real":
        return done
    for key, counts in done.items():
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
              connect_timeout: float | None = None) -> tuple[dict, bool]:
    """Run ``fn((key, task)) -> (key, result)`` over the parts not yet in ``checkpoint``.

    Returns ({key: result} of every finished part, complete). ``problem`` names the problem in
    the checkpoint: a file written for another problem is refused. The checkpoint is rewritten
    after each part, so Ctrl-C, a time limit or a lost cluster keeps everything finished so far.
    ``time_limit`` (seconds) stops the waiting when it is reached (the parts still running are
    stopped; complete is then False). A lost cluster or worker (``ClusterLost``) is raised
    again with the parts done and where they are kept. ``on_progress(done, total)`` is called
    at the start and after each part.
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
    it = map_unordered(fn, todo, executor, workers, address, connect_timeout=connect_timeout,
                       deadline=t_end)
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
    except PoolTimeout:
        complete = False
    except ClusterLost as e:
        kept = (f", checkpoint kept in {str(cp)[-120:]} (the same command goes on from there)" if cp is not None
                else " (--checkpoint FILE keeps finished parts for a re-run)")
        raise ClusterLost(f"{e}; {len(done)} of {total} parts done{kept}") from None
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
                 on_progress: Callable[[int, int], None] | None = None,
                 connect_timeout: float | None = None) -> dict:
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
                               time_limit, on_progress, connect_timeout)
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
                    on_progress: Callable[[int, int], None] | None = None,
                    connect_timeout: float | None = None) -> dict:
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
                               time_limit, on_progress, connect_timeout)
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


__all__ = ["CHECKPOINT_FORMAT", "CONNECT_TIMEOUT", "CONNECT_TIMEOUT_ENV", "EXECUTORS", "ClusterLost",
           "cluster_settings", "count_polyforms", "count_tiling", "map_unordered", "progress", "progress_text",
           "resolve_connect_timeout", "run_parts"]
