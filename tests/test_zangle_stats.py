"""Zangle deal statistics: the batch kernel's table share agrees with find_zangles; CIs; CLI."""

import json

import numpy as np
import pytest
from tanglekit.games.zangle import default_deck
from tanglekit.games.zangle.cli import stats_command
from tanglekit.games.zangle.generate import deal_stats, wilson
from tanglekit.games.zangle.moves import find_zangles


def test_wilson():
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-3) and hi == pytest.approx(0.5962, abs=1e-3)  # published 95 % Wilson
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0
    assert wilson(0, 0) == (0.0, 1.0)


def test_table_stats_match_finder():
    n = 300
    s = deal_stats(deals=n, seed=5, solo_deals=0, games=0)
    deck = default_deck()
    rng = np.random.default_rng(5)
    idx = np.argsort(rng.random((n, len(deck))), axis=1)[:, :8]
    with_z, best = 0, {}
    for row in idx:
        cards = [deck.cards[i] for i in row]
        zs = find_zangles(cards[:4], cards[4:], proofs=False)
        with_z += bool(zs)
        b = max((z.cards for z in zs), default=0)
        best[str(b)] = best.get(str(b), 0) + 1
    t = s["tables"]
    assert t["with_zangle"] == with_z and t["best_cards"] == dict(sorted(best.items(), key=lambda kv: int(kv[0])))
    # the share and its interval are those of the counts the finder gives (test_wilson pins the formula)
    assert t["share"] == with_z / n and t["ci95"] == pytest.approx(list(wilson(with_z, n)), abs=1e-12)


def test_solo_and_game_stats_and_cli():
    s = deal_stats(deals=1000, seed=1, solo_deals=6, games=1, max_states=50_000)
    for piles in ("5", "6"):
        r = s["solo"][piles]
        assert r["solvable"] + r["unsolvable"] + r["unknown"] == 6
    assert s["turn_games"]["mean_actions_per_round"] > 0
    out = json.loads(stats_command(deals=500, seed=2, solo_deals=2, games=0, max_states=50_000, as_json=True))
    assert out["tables"]["deals"] == 500
    assert "4+4 tables with a Zangle" in stats_command(deals=500, seed=2, solo_deals=0, games=0)
