"""Zinga simulation: the numba kernel plays exactly the plain engine's bot games; RNG; win-rate tables."""

import numpy as np
import pytest

from tanglekit.errors import BotError, RuleError
from tanglekit.games.zinga.bots import BOTS, BotProfile, SplitMix64, game_state, get_bot, play_bot_game
from tanglekit.games.zinga.rules import ZingaOptions
from tanglekit.games.zinga.sheet import load_sheets
from tanglekit.games.zinga.sim import simulate_games, simulate_games_plain, sheet_win_rates, wilson

SHEETS = load_sheets()
WILD = BotProfile("wild", speed=1.3, base=0.2, vision=0.7, mistake=0.35, forget=0.5)


def test_splitmix64_reference_value():
    # published first outputs of SplitMix64 from state 0
    r = SplitMix64(0)
    assert r.next() == 0xE220A8397B1DCDAF
    assert r.next() == 0x6E789E6AA1B965F4
    assert 0.0 < SplitMix64(1).uniform() < 1.0


@pytest.mark.parametrize("profiles,opts", [
    (["novice"] * 4, {}),
    ([WILD] * 3, {}),
    ([WILD, "casual", "expert", "novice"], {"stop_any_call": False, "announce_any_line": False}),
    (["perfect", WILD], {"table_by_role": False, "plus_needs_table": False, "last_standing_wins": False}),
    ([WILD, WILD], {"max_turns": 20}),
])
def test_kernel_matches_plain_engine(profiles, opts):
    n = len(profiles)
    o = ZingaOptions(**opts)
    a = simulate_games(SHEETS[:n], profiles, 40, seed=11, options=o)
    b = simulate_games_plain(SHEETS[:n], profiles, 40, seed=11, options=o)
    assert np.array_equal(a.winners, b.winners)
    assert np.array_equal(a.turns, b.turns)
    assert np.array_equal(a.stats, b.stats)
    assert np.array_equal(a.events, b.events)


def test_wild_bots_exercise_every_branch():
    res = simulate_games(SHEETS[:3], [WILD] * 3, 300, seed=2)
    assert res.stats[:, :, 2].sum() > 100  # blunders
    assert res.stats[:, :, 3].sum() > 0  # eliminations
    assert res.stats[:, :, 4].sum() > 0  # bonus ticks
    assert res.events[:, 0].sum() > 0 and res.events[:, 1].sum() > 0  # STOPs and cancelled blunders


def test_bot_game_is_seeded_and_replayable():
    g1 = play_bot_game(SHEETS, ["casual"] * 4, seed=3, game_index=1)
    g2 = play_bot_game(SHEETS, ["casual"] * 4, seed=3, game_index=1)
    assert [m.text() for m in g1.moves] == [m.text() for m in g2.moves]
    assert g1.is_over()
    from tanglekit.games.zinga.engine import ZingaGame

    r = ZingaGame.replay(SHEETS, g1.moves, first=g1.first)
    assert r.winner == g1.winner and r.turn == g1.turn


def test_win_rates_table():
    res = sheet_win_rates(SHEETS, 4, 2000, seed=1)
    assert sum(r["wins"] for r in res["sheets"]) + res["draws"] == 2000
    assert all(r["games"] == 2000 for r in res["sheets"])  # every sheet at every table
    for r in res["sheets"]:
        # the rate and interval are those of the sheet's counts (test_wilson_and_bots pins the formula)
        assert r["win_rate"] == r["wins"] / r["games"]
        assert r["ci95"] == pytest.approx(list(wilson(r["wins"], r["games"])), abs=1e-12)
        assert 0.15 < r["win_rate"] < 0.35
    with pytest.raises(RuleError):
        sheet_win_rates(SHEETS, 1, 10)


def test_stronger_bot_wins_more():
    res = simulate_games(SHEETS[:2], ["expert", "novice"], 400, seed=4)
    assert np.count_nonzero(res.winners == 0) > 0.7 * 400


def test_wilson_and_bots():
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-3) and hi == pytest.approx(0.5962, abs=1e-3)
    assert set(BOTS) == {"novice", "casual", "expert", "perfect"}
    with pytest.raises(BotError):
        get_bot("godlike")
    with pytest.raises(RuleError):
        BotProfile(vision=1.5)
    # scrambled starts: consecutive games must not share a shifted stream
    a, b = SplitMix64(game_state(0, 0)), SplitMix64(game_state(0, 1))
    xs = [a.next() for _ in range(50)]
    assert b.next() not in xs


def test_benchmark_quick_measure():
    from tanglekit.benchmarks.zinga import measure, table

    r = measure(players=2, plain_games=5, kernel_games=200, seed=1)
    assert r["same_games"]
    t = table(r)
    assert "| numba kernel" in t and "ratio" in t
