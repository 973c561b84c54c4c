"""Benchmark tables as data: the Markdown a benchmark prints, read back into rows for --json/--csv.

Every benchmark prints GitHub pipe tables (header, ---|--- line, rows), each optionally under a
``### title`` line; notes are the other lines. ``parse_markdown`` turns such text into
``{"tables": [{"title", "columns", "rows"}], "notes": [...]}`` so that ``tanglekit bench NAME
--json`` and ``--csv`` give the very numbers of the printed table. Also: process CPU time and
peak memory helpers shared by the benchmarks, and the one table layout they all print
(:data:`COLUMNS`, one unit per quantity: :data:`UNITS`), each row measured in a forked child
process (:func:`measure`) for its CPU time and peak memory.
"""

from __future__ import annotations

import csv
import io
import re

_NUM = re.compile(r"^[-+]?[\d,]*\.?\d+(e[-+]?\d+)?$", re.I)


def _cell(text: str):
    """A table cell as a number when it is one (1,234.5 -> 1234.5), else the text."""
    t = text.strip()
    core = t.rstrip("x").strip() if t.endswith("x") and _NUM.match(t.rstrip("x").strip() or "-") else t
    if core and _NUM.match(core):
        v = float(core.replace(",", ""))
        return int(v) if v.is_integer() and "." not in core and "e" not in core.lower() else v
    return t if t not in ("-", "") else None


def _split(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def parse_markdown(text: str) -> dict:
    """Tables and notes of a benchmark's Markdown output."""
    tables: list[dict] = []
    notes: list[str] = []
    title = None
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        ln = lines[i]
        if ln.startswith("#"):
            title = ln.lstrip("#").strip()
            i += 1
            continue
        if ln.strip().startswith("|") and i + 1 < len(lines) and re.match(r"^\s*\|?[\s:|-]+\|?\s*$", lines[i + 1]) \
                and "-" in lines[i + 1]:
            cols = _split(ln)
            rows = []
            i += 2
            while i < len(lines) and lines[i].strip().startswith("|"):
                cells = _split(lines[i])
                rows.append({c: _cell(v) for c, v in zip(cols, cells)})
                i += 1
            tables.append({"title": title, "columns": cols, "rows": rows})
            title = None
            continue
        if ln.strip():
            notes.append(ln.strip())
        i += 1
    return {"tables": tables, "notes": notes}


def to_csv(doc: dict, benchmark: str) -> str:
    """All tables of one parsed benchmark as CSV: benchmark, table, column, ... (one header per table)."""
    buf = io.StringIO()
    w = csv.writer(buf)
    for t in doc["tables"]:
        w.writerow(["benchmark", "table"] + t["columns"])
        for r in t["rows"]:
            w.writerow([benchmark, t["title"] or ""] + ["" if r.get(c) is None else r.get(c) for c in t["columns"]])
    return buf.getvalue()


# --- one table layout and one unit per quantity, for every benchmark --------------------------

COLUMNS = ("task", "method", "items", "CPU s", "wall s", "CPU µs/item", "items/s", "peak MiB", "ratio", "notes")
UNITS = ("Units in every table: CPU s and wall s are seconds (3 decimals) for all the items of the row; "
         "CPU µs/item is microseconds of CPU per item (3 decimals); items/s is items per CPU second; "
         "peak MiB is the maximum resident set (getrusage ru_maxrss) of the forked child process that "
         "ran the row, a copy of the bench process with the kernels already loaded; ratio is the row's "
         "items/s over the items/s of the row its notes name (\"vs ...\"); a row stopped by a time limit "
         "says \"time-limited\" and gets no ratio.")


class Measure:
    """CPU and wall seconds of ``reps`` calls, the process's peak memory, the last call's value."""

    __slots__ = ("value", "cpu_s", "wall_s", "peak_mib", "reps")

    def __init__(self, value, cpu_s: float, wall_s: float, peak_mib: float | None, reps: int):
        self.value, self.cpu_s, self.wall_s, self.peak_mib, self.reps = value, cpu_s, wall_s, peak_mib, reps


def _run_reps(fn, args, kw, reps: int, min_cpu: float):
    import time

    value = None
    done = 0
    c0, t0 = time.process_time(), time.perf_counter()
    while done < reps or (time.process_time() - c0 < min_cpu and done < 1_000_000):
        value = fn(*args, **kw)
        done += 1
    return value, time.process_time() - c0, time.perf_counter() - t0, done


def measure(fn, *args, reps: int = 1, min_cpu: float = 0.0, fork: bool = True, **kw) -> Measure:
    """Run ``fn(*args, **kw)`` at least ``reps`` times (and until ``min_cpu`` CPU seconds have
    passed) in a forked child process: its CPU and wall time, its peak resident memory, the
    number of calls and the last call's value (which must pickle). Warm the kernels ``fn`` uses
    before calling this: the child starts as a copy of this process. Without fork (or with
    ``fork=False``, or while another thread runs here: a fork copies its locks, not the thread,
    e.g. a bot's kernels still loading) it runs here and the peak is this process's."""
    import os
    import pickle
    import resource
    import threading

    if not fork or not hasattr(os, "fork") or threading.active_count() > 1:
        value, cpu, wall, done = _run_reps(fn, args, kw, reps, min_cpu)
        return Measure(value, cpu, wall, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0, done)
    import sys

    sys.stdout.flush()
    sys.stderr.flush()
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: run, send (value, cpu, wall, reps) or the error, exit at once
        os.close(r)
        try:
            out = ("ok", _run_reps(fn, args, kw, reps, min_cpu))
        except BaseException as e:  # noqa: BLE001 - reported by the parent
            out = ("error", f"{type(e).__name__}: {e}")
        try:
            data = pickle.dumps(out)
        except Exception as e:  # noqa: BLE001
            data = pickle.dumps(("error", f"result does not pickle: {e}"))
        with os.fdopen(w, "wb") as fh:
            fh.write(data)
        os._exit(0)
    os.close(w)
    with os.fdopen(r, "rb") as fh:
        data = fh.read()
    _, _, ru = os.wait4(pid, 0)
    kind, payload = pickle.loads(data) if data else ("error", "the child process died")
    if kind != "ok":
        raise RuntimeError(f"benchmark row failed: {payload}")
    value, cpu, wall, done = payload
    return Measure(value, cpu, wall, ru.ru_maxrss / 1024.0, done)


def _num(v: float, decimals: int) -> str:
    return f"{v:,.{decimals}f}"


def row(task: str, method: str, items: int | None, m: Measure | None, *, ratio: float | None = None,
        notes: str = "", limited: bool | str = False) -> str:
    """One Markdown row in the layout of COLUMNS (``items`` over all the calls of ``m``). A
    ``limited`` row (stopped by a time or node limit; a string says which) gets no ratio."""
    cells = [task, method]
    if m is None or not items:
        cells += [f"{items:,}" if items else "-", *(["-"] * 5)]
        if m is not None:
            cells[3:5] = [_num(m.cpu_s, 3), _num(m.wall_s, 3)]
            cells[7] = f"{m.peak_mib:,.0f}" if m.peak_mib is not None else "-"
    else:
        rate = items / m.cpu_s if m.cpu_s > 0 else float("inf")
        cells += [f"{items:,}", _num(m.cpu_s, 3), _num(m.wall_s, 3), _num(1e6 * m.cpu_s / items, 3),
                  f"{rate:,.0f}", f"{m.peak_mib:,.0f}" if m.peak_mib is not None else "-"]
    if limited:
        notes = (limited if isinstance(limited, str) else "time-limited") + (f"; {notes}" if notes else "")
        ratio = None
    cells += [f"{ratio:,.1f}x" if ratio is not None else "-", notes]
    return "| " + " | ".join(str(c) for c in cells) + " |"


def rate(items: int, m: Measure) -> float:
    """Items per CPU second of a measured row."""
    return items / m.cpu_s if m.cpu_s > 0 else float("inf")


def table(rows: list[str], title: str | None = None) -> str:
    """A Markdown table of rows made by :func:`row`, under an optional ``### title``."""
    head = [f"### {title}", ""] if title else []
    return "\n".join(head + ["| " + " | ".join(COLUMNS) + " |",
                             "|---|---|" + "---:|" * 6 + "---:|---|"] + rows)


def peak_rss_mib(children: bool = False) -> float:
    """Peak resident memory of this process (or of its waited-for children) in MiB."""
    import resource

    ru = resource.getrusage(resource.RUSAGE_CHILDREN if children else resource.RUSAGE_SELF)
    return ru.ru_maxrss / 1024.0


__all__ = ["COLUMNS", "UNITS", "Measure", "measure", "parse_markdown", "peak_rss_mib", "rate", "row", "table", "to_csv"]
