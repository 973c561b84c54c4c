"""Benchmark of the Zangle finder: deals per second, numba kernel vs the brute-force reference.

Random deals from the default deck, 4 middle + 4 own and 4 middle + 10 own cards. Three ways
through the same deals: the batch kernel (many deals per call), ``find_zangles`` one deal per
call (no proofs), and the plain-Python reference (fewer deals). Results are checked to agree.
Prints a Markdown table. Target: at least 100,000 4+4 deals per second on one core (batch).
"""

from __future__ import annotations

import argparse
import time

import numpy as np


def _deals(n_deals: int, n_cards: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((n_deals, 120)), axis=1)[:, :n_cards]


def run(quick: bool = False, seed: int = 1) -> list[dict]:
    from ..games.zangle import default_deck
    from ..solver.zangle_finder import batch_zangles, deck_sids, deck_table, find_zangles
    from ..solver.zangle_reference import reference_zangles

    deck = default_deck()
    table = deck_table(deck)
    sids = deck_sids(deck, table)
    rows = []
    for n_own, n_batch, n_single, n_ref in ((4, 400_000, 20_000, 400), (10, 60_000, 4_000, 40)):
        if quick:
            n_batch, n_single, n_ref = n_batch // 20, n_single // 20, max(10, n_ref // 10)
        n = 4 + n_own
        idx = _deals(n_batch, n, seed + n)
        places = np.array([0] * 4 + [1] * n_own)
        batch_zangles(sids[idx[:2]], places, table)  # compile / load the kernel
        best_rate = 0.0
        for _ in range(3):
            t = time.perf_counter()
            counts, _, _, _, _ = batch_zangles(sids[idx], places, table)
            best_rate = max(best_rate, n_batch / (time.perf_counter() - t))
        cards = deck.cards
        for d in range(3):  # warm the per-call path (its kernel loads on the first call)
            find_zangles([cards[i] for i in idx[d][:4]], [cards[i] for i in idx[d][4:]], proofs=False, table=table)
            reference_zangles([cards[i] for i in idx[d][:4]], [cards[i] for i in idx[d][4:]])
        t = time.perf_counter()
        single = []
        for d in range(n_single):
            row = idx[d]
            single.append(len(find_zangles([cards[i] for i in row[:4]], [cards[i] for i in row[4:]],
                                           proofs=False, table=table)))
        single_rate = n_single / (time.perf_counter() - t)
        t = time.perf_counter()
        ref = []
        for d in range(n_ref):
            row = idx[d]
            ref.append(len(reference_zangles([cards[i] for i in row[:4]], [cards[i] for i in row[4:]])))
        ref_rate = n_ref / (time.perf_counter() - t)
        agree = list(counts[:n_single]) == single and list(counts[:n_ref]) == ref
        rows.append({
            "table": f"4+{n_own}",
            "deals": n_batch,
            "zangles_per_deal": float(counts.mean()),
            "kernel_batch": best_rate,
            "kernel_single": single_rate,
            "reference": ref_rate,
            "agree": agree,
        })
    return rows


def markdown(rows: list[dict]) -> str:
    out = [
        "| table | Zangles/deal | kernel, batch (deals/s) | find_zangles per call (deals/s) "
        "| brute-force reference (deals/s) | batch / reference | per call / reference | counts agree |",
        "|---|---:|---:|---:|---:|---:|---:|---|",
    ]
    for r in rows:
        out.append(
            f"| {r['table']} | {r['zangles_per_deal']:.1f} | {r['kernel_batch']:,.0f} | {r['kernel_single']:,.0f} "
            f"| {r['reference']:,.1f} | {r['kernel_batch'] / r['reference']:,.0f}x "
            f"| {r['kernel_single'] / r['reference']:,.0f}x | {'yes' if r['agree'] else 'NO'} |"
        )
    return "\n".join(out)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer deals (a few seconds)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    rows = run(args.quick, args.seed)
    print(markdown(rows))
    target = next(r for r in rows if r["table"] == "4+4")["kernel_batch"]
    print(f"\n4+4 target 100,000 deals/s: {'met' if target >= 100_000 else 'NOT met'} ({target:,.0f})")
    print("Every path is warmed (kernels loaded) before it is timed.")
    if args.quick:
        print("--quick: 1/20 of the deals per column (1/10 for the reference); rates are per second as in the full run.")
    return 0 if all(r["agree"] for r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
