"""The exact duel solver (issue 27): its move generator against the engine, its values against an
independent plain-Python reference (value iteration over the engine's own position graph) on
reduced variants, the numba kernel against the exact solver, the repetition rule, the longest
defence, the perfect bot, the fairness table and the CLI."""

import json
import random
from fractions import Fraction

import pytest
from tanglekit.errors import SolverError
from tanglekit.games.tanglung.api import encode_duel
from tanglekit.games.tanglung.duel import DuelGame, Match
from tanglekit.games.tanglung.duel_exact import PlainSolver, encode_match, solve_plain
from tanglekit.games.tanglung.duel_reference import Reference, random_plies, reduced_layout, start_match
from tanglekit.games.tanglung.layout import Layout, random_layout
from tanglekit.games.tanglung.rules import TanglungOptions

EXAMPLE = "CRBF/HDFR/BHFB/RHDC"


def _playouts(layouts, seed, options=None):
    rng = random.Random(seed)
    for lay in layouts:
        m = Match(lay, options or TanglungOptions(), 0, validate=False)
        while not m.is_over():
            yield m
            m.apply(rng.choice(m.legal_actions()))


@pytest.mark.parametrize("opts", [{}, {"literal_blocking": True}, {"horse_fan_route": "both"}])
def test_move_generator_is_the_engine(opts):
    options = TanglungOptions.from_dict(opts)
    s = PlainSolver(options)
    rng = random.Random(3)
    layouts = [random_layout(rng) for _ in range(20)] + [reduced_layout(3, 3, "RBFHDRB", k) for k in range(10)]
    n = 0
    for m in _playouts(layouts, 7, options):
        A, B = encode_match(m)
        got = sorted(a for a, *_ in s._moves(A, B))
        assert got == sorted(encode_duel(a) for a in m.legal_actions()), m.to_json()
        n += 1
    assert n > 500


def _reference_cases():
    # (rows, cols, lanterns, layout seed, random opening plies)
    return [(2, 3, "RFHD", 0, 0), (2, 3, "RBFH", 1, 0), (3, 2, "RDFB", 2, 0), (2, 4, "RBFHDR", 2, 3)]


@pytest.mark.parametrize("case", _reference_cases())
def test_exact_values_agree_with_the_reference(case):
    rows, cols, lan, seed, plies = case
    m = random_plies(start_match(reduced_layout(rows, cols, lan, seed)), plies, random.Random(seed))
    ref = Reference(m)
    sample = ref.sample(120, seed)
    # every position whose value is a proper fraction, and the seeded sample
    frac = [(ref.matches[j], v) for j, v in enumerate(ref.values) if abs(v) not in (0, 1)]
    checked = 0
    for pos, v in sample + [(ref.sample_at(j), v) for j, v in enumerate(ref.values) if abs(v) not in (0, 1)]:
        assert solve_plain(pos).value == v, pos.to_json()
        checked += 1
    assert checked >= min(120, len(ref.matches)) and len(frac) >= 1


def test_kernel_agrees_with_the_exact_solver():
    from tanglekit.games.tanglung.duel_solve import KernelSolver, solve_match

    ks = KernelSolver()
    for rows, cols, lan, seed in [(2, 4, "RRBBFH", 4), (2, 4, "RBFHDR", 2), (2, 3, "RBFH", 1)]:
        m = start_match(reduced_layout(rows, cols, lan, seed))
        exact = solve_plain(m)
        fast = solve_match(m, engine="kernel", solver=ks)
        assert fast.complete and exact.complete
        assert abs(float(exact.value) - fast.value) < 1e-12
        ev = {a.action: a for a in exact.actions}
        for a in fast.actions:
            assert abs(float(ev[a.action].value) - a.value) < 1e-12
            assert ev[a.action].plies == a.plies
        assert exact.plies == fast.plies
    # the 2x4 start of seed 4 is worth 3/4 to the player who places first
    assert solve_plain(start_match(reduced_layout(2, 4, "RRBBFH", 4))).value == Fraction(3, 4)


def test_limits_give_incomplete_answers():
    from tanglekit.games.tanglung.duel_solve import solve_match

    m = Match(Layout.parse(EXAMPLE))
    r = solve_match(m, time_limit=0)
    assert not r.complete and r.reason == "time limit" and r.value is None
    r = solve_match(m, time_limit=0.5, engine="kernel")
    assert not r.complete and r.reason == "time limit"
    r = solve_match(m, node_limit=1000, engine="exact")
    assert not r.complete and r.reason == "node limit"
    with pytest.raises(SolverError):
        solve_match(Match(Layout.parse(EXAMPLE), TanglungOptions(roosters_start_lit=False)))


def _history_value(m, limit):
    """Plain expectiminimax over histories under the engine's repetition rule (repetition=limit):
    a repeated position ends the match drawn. Exponential: tiny positions only."""
    if m.winner is not None:
        raise AssertionError
    best = None
    for a in m.legal_actions():
        c = m.clone()
        c.apply(a, check=False)
        if c.winner is not None:
            w = 1 if c.winner == m.to_move else -1
        elif c.reason == "repetition":
            w = 0
        else:
            d = a[1]
            if a[0] != "place" and not m.lit >> d & 1:  # lit a dark card: every unseen kind
                pool = [c.cells[i] for i in range(16) if c.cells[i] != "." and not c.lit >> i & 1 and i != d]
                pool.append(c.cells[d])
                tot = Fraction(0)
                for k in sorted(set(pool)):
                    cc = c.clone()
                    cc.cells[d] = k
                    rest = list(pool)
                    rest.remove(k)
                    dark = [i for i in range(16) if cc.cells[i] != "." and not cc.lit >> i & 1]
                    for i, ch in zip(dark, rest):
                        cc.cells[i] = ch
                    tot += pool.count(k) * -_history_value(cc, limit)
                w = tot / len(pool)
            else:
                w = -_history_value(c, limit)
        best = w if best is None or w > best else best
    return best


def test_repetition_value_does_not_depend_on_the_count():
    """The solver's endless-play-is-a-draw value is the value under the engine's rule, whether
    the second or the third occurrence ends the match (positions with Rooster dances)."""
    checked = 0
    for seed in range(40):
        m = random_plies(start_match(reduced_layout(2, 3, "RFHD", seed)), 4, random.Random(seed))
        if m.is_over() or len(m.dark_cells()) > 1:
            continue
        v = solve_plain(m).value
        for limit in (2, 3):
            mm = m.clone()
            mm.options = m.options.with_(repetition=limit)
            assert _history_value(mm, limit) == v
        checked += 1
    assert checked >= 3


def test_engine_ends_a_repeated_match_drawn():
    opts = TanglungOptions()
    m = Match.from_json({"layout": "RRRR/RRRR/RRRR/RRRD", "lit": "1111/1111/1111/1110",
                         "boxes": [[0, 0], [3, 0]], "rooster_used": [True, True], "fan": [2, 1], "to_move": 0},
                        opts)
    # both step back and forth with Rooster actions (the Fan alternates between two cards)
    line = [("rooster", 1, 10), ("rooster", 13, 9), ("rooster", 0, 10), ("rooster", 12, 9)] * 3
    for k, a in enumerate(line):
        m.apply(a)
        if m.is_over():
            break
    assert m.reason == "repetition" and m.winner is None
    assert k == 7  # the start position's third occurrence, after two rounds
    m2 = Match.from_json({"layout": "RRRR/RRRR/RRRR/RRRD", "lit": "1111/1111/1111/1110",
                          "boxes": [[0, 0], [3, 0]], "rooster_used": [True, True], "fan": [2, 1], "to_move": 0},
                         opts.with_(repetition=0))
    for a in line:
        m2.apply(a)
    assert not m2.is_over()
    # a drawn match does not count: the game goes on with the other starter
    g = DuelGame(opts, seed=1)
    assert g.match.history == {}


def test_longest_defence_and_fastest_win():
    rng = random.Random(11)
    seen_lost = seen_won = 0
    for seed in range(30):
        m = random_plies(start_match(reduced_layout(2, 4, "RBFHDR", seed % 6)), rng.randrange(2, 8), rng)
        if m.is_over():
            continue
        r = solve_plain(m)
        pick = next(a for a in r.actions if a.action == r.best)
        if r.value == -1:
            assert pick.plies == max(a.plies for a in r.actions) == r.plies
            seen_lost += 1
        elif r.value == 1:
            assert pick.plies == min(a.plies for a in r.actions if a.value == 1) == r.plies
            seen_won += 1
    assert seen_lost and seen_won


def test_perfect_bot_plays_optimal_actions_and_self_play_matches_the_value():
    from tanglekit.games.tanglung.api import decode_duel
    from tanglekit.games.tanglung.duel_bot import PerfectBot
    from tanglekit.games.tanglung.duel_table import setup_cells

    lay = reduced_layout(2, 4, "RRBBFH", 4)
    value = solve_plain(start_match(lay)).value
    bot = PerfectBot(0, time_limit=60)
    rng = random.Random(5)
    results = []
    for game in range(60):
        cells = list(lay.cells)
        dark = setup_cells(2, 4)[2]  # the cards that start dark: a random arrangement of them
        letters = [cells[i] for i in dark]
        rng.shuffle(letters)
        for i, ch in zip(dark, letters):
            cells[i] = ch
        m = start_match(Layout(tuple(cells)))
        while not m.is_over():
            a = bot.choose(m)
            if game == 0:
                r = solve_plain(m)
                assert next(x for x in r.actions if x.action == encode_duel(a)).value == r.value
            m.apply(a)
        results.append(0 if m.winner is None else 1 if m.winner == 0 else -1)
    assert bot.fallback_moves == 0
    mean = sum(results) / len(results)
    var = sum((x - mean) ** 2 for x in results) / (len(results) - 1)
    assert abs(mean - float(value)) <= 3 * (var / len(results)) ** 0.5 + 1e-9
    assert decode_duel(encode_duel(("lantern", 3))) == ("lantern", 3)


def test_fairness_table_on_a_reduced_grid(tmp_path):
    from tanglekit.games.tanglung.duel_table import entries, fairness_table

    ents = entries(2, 4, "RRBBFH")
    assert sum(p for _, p, _ in ents) == 1
    cp = tmp_path / "t.json"
    t = fairness_table(2, 4, "RRBBFH", checkpoint=cp, entry_time_limit=60)
    assert t["complete"] and t["finished"] == len(ents)
    row = next(r for r in t["rows"] if r["centre"] == "BR")
    assert abs(row["value"] - 0.75) < 1e-12  # seed 4's layout: B and R in the centre
    again = fairness_table(2, 4, "RRBBFH", checkpoint=cp, entry_time_limit=60)
    assert again["value"] == t["value"] and again["cost_seconds"] == t["cost_seconds"]
    # 4x4: the standard set-up's entries up to the diagonal symmetries
    assert len(entries()) == 212


def test_cli_duel_solve_and_table(tmp_path):
    from tanglekit.games.tanglung.cli import app
    from typer.testing import CliRunner

    state = start_match(reduced_layout(2, 4, "RRBBFH", 4)).to_json()
    f = tmp_path / "s.json"
    f.write_text(json.dumps(state))
    r = CliRunner().invoke(app, ["duel", "solve", str(f), "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert out["value_fraction"] == "3/4" and out["complete"] and out["best"] == "place 0,0"
    assert {a["action"] for a in out["actions"]} == {"place 0,0", "place 1,3"}
    r = CliRunner().invoke(app, ["duel", "solve", EXAMPLE, "--time-limit", "0.3", "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert out["complete"] is False and out["reason"] == "time limit"
    r = CliRunner().invoke(app, ["duel", "table", "--grid", "2x3", "--lanterns", "RBFH", "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert out["complete"] and -1 <= out["value"] <= 1


def test_perfect_bot_is_registered_and_a_4x4_table_run_stops_at_its_time_limit(tmp_path):
    from tanglekit.games.tanglung.api_bots import bots
    from tanglekit.games.tanglung.duel_bots import make_bot
    from tanglekit.games.tanglung.duel_table import fairness_table

    assert "perfect" in bots("tanglung-duel") and bots("tanglung-duel")["strong"].make is not None
    assert make_bot("perfect", 0).name == "perfect"
    t = fairness_table(checkpoint=tmp_path / "t4.json", time_limit=0)
    assert not t["complete"] and t["entries"] == 212 and t["tried"] == 0 and "value" not in t


def test_perfect_bot_falls_back_when_the_solver_does_not_finish():
    from tanglekit.games.tanglung.duel_bot import PerfectBot

    m = Match(Layout.parse(EXAMPLE))
    m.apply(("place", 0))
    m.apply(("place", 15))
    bot = PerfectBot(0, time_limit=0.2)
    a = bot.choose(m)
    assert a in m.legal_actions() and bot.fallback_moves == 1 and bot.exact_moves == 0
