"""Counts and the census on REAL clusters: a Ray head and a Dask scheduler + worker started by
the test as separate processes on 127.0.0.1, and stopped by it (by their process group).

Skipped when ray / dask[distributed] are not installed (dask[distributed] is in the `test`
extra; ray is the `ray` extra). The whole module takes 45-55 s on a loaded 2-core machine, most
of it starting Ray (8-11 s) and the Dask scheduler + worker (3 s, twice: the module's shared
cluster and one whose worker a test kills); without Ray, about 25 s.

Nothing may wait for ever: unreachable addresses (a closed loopback port, a port that never
answers) end with one line within the connect timeout, a Dask cluster that loses all its
workers ends with one line and a checkpoint the next run resumes, Ctrl-C leaves no traceback.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

BIN = Path(sys.executable).parent
LOOPBACK = "127.0.0.1"
#: keep every Ray process on the loopback address, silent towards the internet, and without
#: an auth token (the cluster lives on 127.0.0.1 for the length of this module)
RAY_ENV = {"RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0", "RAY_USAGE_STATS_ENABLED": "0",
           "RAY_AUTH_MODE": "disabled"}  # a throwaway loopback cluster: no token


def _free_port() -> int:
    with socket.socket() as s:
        s.bind((LOOPBACK, 0))
        return s.getsockname()[1]


def _wait_port(port: int, proc: subprocess.Popen, timeout: float = 90.0) -> None:
    t_end = time.monotonic() + timeout
    while time.monotonic() < t_end:
        if proc.poll() is not None:
            raise RuntimeError(f"cluster process exited early ({proc.returncode})")
        with socket.socket() as s:
            s.settimeout(0.5)
            if s.connect_ex((LOOPBACK, port)) == 0:
                return
        time.sleep(0.3)
    raise RuntimeError(f"nothing listens on {LOOPBACK}:{port} after {timeout} s")


def _start(args: list[str], log: Path, env: dict | None = None) -> subprocess.Popen:
    """A cluster process in its own process group (so stopping it stops its children)."""
    full = {**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})}
    return subprocess.Popen(args, stdout=log.open("wb"), stderr=subprocess.STDOUT, env=full,
                            start_new_session=True)


def _stop(proc: subprocess.Popen) -> None:
    """SIGTERM to the process we started (it stops its own children), then SIGKILL to
    whatever is left of its process group."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)
    try:  # leftovers of the group (Ray's daemons), if any
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


@pytest.fixture(scope="module")
def ray_cluster(tmp_path_factory):
    """`ray start --head --block` on 127.0.0.1, one CPU; yields the address."""
    if not (BIN / "ray").exists():
        pytest.skip("ray is not installed (pip install 'tanglekit[ray]')")
    # before ray is imported here: its constants read these once (else the driver swaps
    # 127.0.0.1 for the machine's network address)
    mp = pytest.MonkeyPatch()
    for k, v in RAY_ENV.items():
        mp.setenv(k, v)
    if "ray" in sys.modules:
        from ray._private import ray_constants

        if ray_constants.ENABLE_RAY_CLUSTER:
            mp.undo()
            pytest.skip("ray was imported before this test could keep it on 127.0.0.1")
    pytest.importorskip("ray")
    port = _free_port()
    log = tmp_path_factory.mktemp("ray") / "head.log"
    proc = _start([str(BIN / "ray"), "start", "--head", f"--port={port}", "--num-cpus=1",
                   "--include-dashboard=false", f"--node-ip-address={LOOPBACK}",
                   f"--dashboard-port={_free_port()}", f"--dashboard-agent-listen-port={_free_port()}",
                   "--disable-usage-stats", "--block"], log, RAY_ENV)
    try:
        _wait_port(port, proc)
        # the head is up once it says so (the raylet follows the GCS port)
        t_end = time.monotonic() + 90
        while b"Ray runtime started" not in log.read_bytes():
            if proc.poll() is not None or time.monotonic() > t_end:
                raise RuntimeError("ray head did not start:\n" + log.read_text(errors="replace")[-2000:])
            time.sleep(0.3)
        yield f"{LOOPBACK}:{port}"
    finally:
        _stop(proc)
        mp.undo()


def _dask(d: Path):
    """`dask scheduler` + `dask worker` (1 process, 1 thread) on 127.0.0.1, logs in ``d``; yields
    (address, the worker's process) once the worker has joined; stops both."""
    if not (BIN / "dask").exists():
        pytest.skip("dask[distributed] is not installed (pip install 'tanglekit[dask]')")
    distributed = pytest.importorskip("dask.distributed")
    port = _free_port()
    address = f"tcp://{LOOPBACK}:{port}"
    sched = _start([str(BIN / "dask"), "scheduler", "--host", LOOPBACK, "--port", str(port),
                    "--no-dashboard"], d / "scheduler.log")
    worker = None
    try:
        _wait_port(port, sched)
        worker = _start([str(BIN / "dask"), "worker", address, "--nthreads", "1", "--nworkers", "1",
                         "--host", LOOPBACK, "--no-dashboard"], d / "worker.log")
        with distributed.Client(address, timeout=60) as client:
            client.wait_for_workers(1, timeout=90)
        yield address, worker
    finally:
        if worker is not None:
            _stop(worker)
        _stop(sched)


@pytest.fixture(scope="module")
def dask_cluster(tmp_path_factory):
    """A Dask scheduler + worker shared by the module's tests; yields the address."""
    for address, _ in _dask(tmp_path_factory.mktemp("dask")):
        yield address


@pytest.fixture
def doomed_dask_cluster(tmp_path):
    """A Dask scheduler + worker of its own, for a test that kills the worker: (address, worker)."""
    yield from _dask(tmp_path)


@pytest.fixture
def ray_env(monkeypatch):
    for k, v in RAY_ENV.items():
        monkeypatch.setenv(k, v)
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    monkeypatch.delenv("DASK_SCHEDULER_ADDRESS", raising=False)


def _tile_local():
    from tanglekit.solver.tiling import solve_tiling

    return solve_tiling("rect:5x4", "tetrominoes", each="any", query="count").count


def test_ray_tile_count_with_checkpoint(ray_cluster, ray_env, tmp_path):
    """A split tiling count on the Ray head equals one process; a re-run resumes from the file."""
    from tanglekit.generators.executors import count_tiling

    cp = tmp_path / "tile.json"
    first = count_tiling("rect:5x4", "tetrominoes", each="any", executor="ray",
                         address=ray_cluster, checkpoint=cp, min_parts=8)
    assert first["complete"] and first["count"] == _tile_local() == 454
    seen = []
    again = count_tiling("rect:5x4", "tetrominoes", each="any", executor="ray", address=ray_cluster,
                         checkpoint=cp, min_parts=8, on_progress=lambda d, t: seen.append((d, t)))
    assert again["count"] == 454 and seen == [(first["parts"], first["parts"])]  # nothing re-run


def test_ray_census_and_enumeration(ray_cluster, ray_env, monkeypatch):
    """The census (a tiny sample) and a polyform count on the Ray head, through RAY_ADDRESS."""
    import ray

    from tanglekit.generators.executors import count_polyforms
    from tanglekit.games.tanglung.generate import census

    local = census(sample=12, seed=3, workers=1)
    monkeypatch.setenv("RAY_ADDRESS", ray_cluster)  # gone after the test
    assert census(sample=12, seed=3, workers=1, executor="ray") == local
    assert not ray.is_initialized()  # the driver disconnected; the cluster stays up
    out = count_polyforms(9, "triangle", "free", executor="ray", min_parts=6)
    assert out["count"] == 160 and out["parts"] >= 6  # A000577


def test_dask_tile_count_census_and_enumeration(dask_cluster, ray_env, tmp_path, monkeypatch):
    """Tiling count (checkpointed), census sample and polyform count on the Dask scheduler."""
    from dask.distributed import Client

    from tanglekit.generators.executors import count_polyforms, count_tiling
    from tanglekit.games.tanglung.generate import census

    cp = tmp_path / "tile.json"
    out = count_tiling("rect:5x4", "tetrominoes", each="any", executor="dask", address=dask_cluster,
                       checkpoint=cp, min_parts=8)
    assert out["complete"] and out["count"] == 454 and cp.exists()
    local = census(sample=12, seed=3, workers=1)
    monkeypatch.setenv("DASK_SCHEDULER_ADDRESS", dask_cluster)  # gone after the test
    assert census(sample=12, seed=3, workers=1, executor="dask") == local
    out = count_polyforms(8, "square", "one-sided", by_size=True, executor="dask", min_parts=6)
    assert out["counts"] == [1, 1, 2, 7, 18, 60, 196, 704]  # A000988
    with Client(dask_cluster, timeout=30) as client:
        assert len(client.scheduler_info()["workers"]) == 1  # the cluster is still up


def test_cli_tile_count_on_dask(dask_cluster, ray_env):
    """The documented command with --executor dask --address."""
    import json

    from typer.testing import CliRunner

    from tanglekit.cli import app

    res = CliRunner().invoke(app, ["tile", "--region", "rect:5x4", "--pieces", "tetrominoes", "--each",
                                   "any", "--count", "--executor", "dask", "--address", dask_cluster,
                                   "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["count"] == 454


# --- nothing waits for ever: unreachable addresses, lost workers, Ctrl-C ----------------------


def _one_line_error(args: list[str], budget: float) -> str:
    """Run the CLI in this process; it must fail (exit 2) with one line on stderr within
    ``budget`` seconds. Returns that line."""
    from hostile import run

    t0 = time.monotonic()
    p = run(args)
    took = time.monotonic() - t0
    assert p.returncode == 2 and p.stdout == "", (p.returncode, p.stdout, p.stderr)
    assert p.stderr.count("\n") == 1 and p.stderr.startswith("error: "), p.stderr
    assert took < budget, (took, p.stderr)
    return p.stderr.strip()


TILE = ["tile", "--region", "rect:5x4", "--pieces", "tetrominoes", "--each", "any", "--count"]


def test_unreachable_dask_address_is_one_line(ray_env, tmp_path, monkeypatch):
    """A closed loopback port: one line within the connect timeout (was: 30 s, fixed); the
    timeout comes from --connect-timeout or TANGLEKIT_CONNECT_TIMEOUT; the checkpoint stays."""
    pytest.importorskip("dask.distributed")
    port = _free_port()  # bound, then closed: nothing listens there
    cp = tmp_path / "cp.json"
    line = _one_line_error([*TILE, "--executor", "dask", "--address", f"tcp://{LOOPBACK}:{port}",
                            "--connect-timeout", "2", "--checkpoint", str(cp)], 2 + 4)
    assert line == f"error: cannot reach the Dask scheduler at tcp://{LOOPBACK}:{port} within 2 s (connection refused)"
    assert cp.exists()
    monkeypatch.setenv("TANGLEKIT_CONNECT_TIMEOUT", "1")
    line = _one_line_error(["tanglung", "census", "--sample", "12", "--executor", "dask", "--address",
                            f"{LOOPBACK}:{port}"], 1 + 4)
    assert line == f"error: cannot reach the Dask scheduler at {LOOPBACK}:{port} within 1 s (connection refused)"


def test_silent_port_is_one_line(ray_env):
    """A port that accepts connections but never answers (not a scheduler at all): still one
    line within the connect timeout (Dask's own connect waited for ever here)."""
    pytest.importorskip("dask.distributed")
    with socket.socket() as server:
        server.bind((LOOPBACK, 0))
        server.listen(8)
        port = server.getsockname()[1]
        line = _one_line_error([*TILE, "--executor", "dask", "--address", f"tcp://{LOOPBACK}:{port}",
                                "--connect-timeout", "1.5"], 1.5 + 4)
    assert line.endswith("within 1.5 s (its port answers, but not as a Dask scheduler)")


def test_dask_losing_all_its_workers_is_one_line_and_resumable(doomed_dask_cluster, dask_cluster, ray_env, tmp_path):
    """The only worker (nanny and all) killed after the first part: the run ends within the
    connect timeout with one line saying what the checkpoint keeps (it used to hang, then print
    an asyncio traceback on Ctrl-C); the same count on a live cluster goes on from the file."""
    from tanglekit.generators.executors import ClusterLost, count_tiling

    address, worker = doomed_dask_cluster
    cp = tmp_path / "tile.json"
    killed: list = []

    def kill_after_first(done, total):
        if done == 1 and not killed:
            os.killpg(worker.pid, signal.SIGKILL)
            killed.append(time.monotonic())

    with pytest.raises(ClusterLost) as err:
        count_tiling("rect:12x5", "pentominoes", executor="dask", address=address, checkpoint=cp,
                     connect_timeout=2, on_progress=kill_after_first)
    assert killed and time.monotonic() - killed[0] < 2 + 5
    msg = str(err.value)
    assert "\n" not in msg, msg
    assert msg.startswith(f"the Dask cluster at {address} lost all its workers (none for 2 s); 1 of "), msg
    assert msg.endswith(f"parts done, checkpoint kept in {cp} (the same command goes on from there)")
    seen: list = []
    out = count_tiling("rect:12x5", "pentominoes", executor="dask", address=dask_cluster, checkpoint=cp,
                       on_progress=lambda d, t: seen.append(d))
    assert out["complete"] and out["count"] == 4040 and seen[0] == 1  # 1010 tilings x 4 symmetries


def test_dask_ctrl_c_keeps_the_checkpoint_without_a_traceback(dask_cluster, ray_env, tmp_path, capfd):
    """Ctrl-C in the middle of a Dask run: KeyboardInterrupt (the CLI says `interrupted`), the
    finished parts in the checkpoint, and no asyncio traceback from the client's tasks."""
    from tanglekit.generators.executors import count_tiling

    cp = tmp_path / "tile.json"

    def interrupt(done, total):
        if done == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        count_tiling("rect:5x4", "tetrominoes", each="any", executor="dask", address=dask_cluster,
                     checkpoint=cp, min_parts=8, on_progress=interrupt)
    import gc

    gc.collect()
    err = capfd.readouterr().err
    assert "Traceback" not in err and "exception was never retrieved" not in err, err
    assert len(json.loads(cp.read_text())["done"]) == 2


def test_unreachable_ray_address_is_one_line(ray_env, tmp_path):
    """A closed loopback port for Ray: one line within the connect timeout (was: minutes of
    retries and GCS warnings, no message of ours)."""
    pytest.importorskip("ray")
    port = _free_port()
    line = _one_line_error([*TILE, "--executor", "ray", "--address", f"{LOOPBACK}:{port}",
                            "--connect-timeout", "2", "--checkpoint", str(tmp_path / "cp.json")], 2 + 6)
    assert line == f"error: cannot reach the Ray cluster at {LOOPBACK}:{port} within 2 s (connection refused)"
