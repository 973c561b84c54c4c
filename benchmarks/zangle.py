"""Benchmark of the Zangle finder: deals per second, numba kernel vs the brute-force reference.

Random deals from the default deck, 4 middle + 4 own and 4 middle + 10 own cards. Three ways
through the same deals: the batch kernel (many deals per call), ``find_zangles`` one deal per
call (no proofs), and the plain-Python reference (fewer deals). Results are checked to agree.
Prints a Markdown table (benchmarks/_table.py layout). Target: at least 100,000 4+4 deals per CPU
second on one core (batch).
"""

from __future__ import annotations

import argparse

import numpy as np

from ..games.zangle import default_deck
from ..games.zangle.moves import batch_zangles, deck_sids, find_zangles
from ..games.zangle.reference import reference_zangles
from ..games.zangle.table import deck_table
from ._table import UNITS, rate, row
from ._table import measure as measure_row
from ._table import table as md_table


def _deals(n_deals: int, n_cards: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((n_deals, 120)), axis=1)[:, :n_cards]


def run(quick: bool = False, seed: int = 1) -> list[dict]:
    deck = default_deck()
    table = deck_table(deck)
    sids = deck_sids(deck, table)
    cards = deck.cards
    rows = []

    def per_call(idx, n_deals, fn, **kw):
        return [len(fn([cards[i] for i in row[:4]], [cards[i] for i in row[4:]], **kw)) for row in idx[:n_deals]]

    for n_own, n_batch, n_single, n_ref in ((4, 400_000, 20_000, 400), (10, 60_000, 4_000, 40)):
        if quick:
            n_batch, n_single, n_ref = n_batch // 20, n_single // 20, max(10, n_ref // 10)
        n = 4 + n_own
        idx = _deals(n_batch, n, seed + n)
        places = np.array([0] * 4 + [1] * n_own)
        # warm every path (kernels loaded, tables built) before anything is timed
        batch_zangles(sids[idx[:2]], places, table)
        per_call(idx, 3, find_zangles, proofs=False, table=table)
        per_call(idx, 3, reference_zangles)
        batch = measure_row(lambda: batch_zangles(sids[idx], places, table)[0])
        single = measure_row(per_call, idx, n_single, find_zangles, proofs=False, table=table)
        ref = measure_row(per_call, idx, n_ref, reference_zangles)
        counts = batch.value
        agree = list(counts[:n_single]) == single.value and list(counts[:n_ref]) == ref.value
        rows.append({"table": f"4+{n_own}", "zangles_per_deal": float(counts.mean()), "agree": agree,
                     "runs": [("batch kernel (many deals per call)", n_batch, batch),
                              ("find_zangles, one deal per call", n_single, single),
                              ("brute-force reference", n_ref, ref)]})
    return rows


def markdown(rows: list[dict]) -> str:
    out = []
    for r in rows:
        task = f"Zangle deals {r['table']} ({r['zangles_per_deal']:.1f} Zangles/deal)"
        ref_name, ref_n, ref_m = r["runs"][-1]
        base = rate(ref_n, ref_m)
        for name, n, m in r["runs"]:
            is_ref = name == ref_name
            notes = "" if is_ref else f"vs {ref_name}; counts agree: {'yes' if r['agree'] else 'NO'}"
            out.append(row(task, name, n, m, ratio=None if is_ref else rate(n, m) / base, notes=notes))
    return md_table(out)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer deals (a few seconds)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    rows = run(args.quick, args.seed)
    print(UNITS + "\n")
    print(markdown(rows))
    batch = next(r for r in rows if r["table"] == "4+4")["runs"][0]
    target = rate(batch[1], batch[2])
    print(f"\n4+4 target 100,000 deals per CPU second (batch kernel): {'met' if target >= 100_000 else 'NOT met'} "
          f"({target:,.0f}).")
    print("Every path is warmed (kernels loaded, tiling table built) before it is timed.")
    if args.quick:
        print("--quick: 1/20 of the deals per row (1/10 for the reference); rates are per CPU second as in "
              "the full run.")
    return 0 if all(r["agree"] for r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
