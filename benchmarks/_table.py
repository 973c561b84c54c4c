"""Benchmark tables as data: the Markdown a benchmark prints, read back into rows for --json/--csv.

Every benchmark prints GitHub pipe tables (header, ---|--- line, rows), each optionally under a
``### title`` line; notes are the other lines. ``parse_markdown`` turns such text into
``{"tables": [{"title", "columns", "rows"}], "notes": [...]}`` so that ``tanglekit bench NAME
--json`` and ``--csv`` give the very numbers of the printed table. Also: process CPU time and
peak memory helpers shared by the benchmarks.
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


def peak_rss_mib(children: bool = False) -> float:
    """Peak resident memory of this process (or of its waited-for children) in MiB."""
    import resource

    ru = resource.getrusage(resource.RUSAGE_CHILDREN if children else resource.RUSAGE_SELF)
    return ru.ru_maxrss / 1024.0


__all__ = ["parse_markdown", "peak_rss_mib", "to_csv"]
