"""The duel's longest defence and fastest win against a plain-Python brute force (bounded horizons
over the engine's own position graph, ``Reference.plies_to_end``) on reduced grids: the solvers'
plies and the perfect bot's choices."""

import random

import pytest
from tanglekit.games.tanglung.api import decode_duel
from tanglekit.games.tanglung.duel_bot import PerfectBot
from tanglekit.games.tanglung.duel_exact import solve_plain
from tanglekit.games.tanglung.duel_reference import Reference, random_plies, reduced_layout, start_match
from tanglekit.games.tanglung.duel_solve import KernelSolver, solve_match

# (rows, cols, lanterns, layout seed, random opening plies): reduced grids after a few random plies,
# each with lost positions whose actions differ in length
CASES = [(3, 3, "RBFHDRB", 1, 8), (3, 3, "RBFHDRB", 2, 6), (3, 3, "RBFHDRB", 3, 6), (2, 4, "RBFHDR", 0, 4),
         (2, 4, "RBFHDR", 2, 4)]


def _reference(case):
    rows, cols, lan, seed, opening = case
    ref = Reference(random_plies(start_match(reduced_layout(rows, cols, lan, seed)), opening, random.Random(seed)))
    return ref, ref.plies_to_end()


@pytest.mark.parametrize("case", CASES)
def test_brute_force_plies_are_finite_exactly_for_won_and_lost_positions(case):
    ref, plies = _reference(case)
    for v, p in zip(ref.values, plies):
        assert (p is not None) == (abs(v) == 1)
    assert any(v == -1 and p >= 3 for v, p in zip(ref.values, plies))


@pytest.mark.parametrize("case", CASES)
def test_solvers_and_perfect_bot_agree_with_the_brute_force(case):
    ref, plies = _reference(case)
    rng = random.Random(case[3])
    decided = [j for j, v in enumerate(ref.values) if abs(v) == 1 and ref.matches[j].legal_actions()]
    # the lost positions whose actions differ in length matter most: all of them, then a sample
    lost = [j for j in decided if ref.values[j] == -1
            and len({p for _, p in ref.action_plies(j, plies).values()}) > 1]
    picks = lost[:60] + rng.sample(decided, min(60, len(decided)))
    assert len(lost) >= 5
    ks = KernelSolver()
    bot = PerfectBot(0, time_limit=30)
    for j in picks:
        pos = ref.sample_at(j)
        exact = solve_plain(pos)
        fast = solve_match(pos, engine="kernel", solver=ks)
        assert exact.value == ref.values[j] and exact.plies == fast.plies == plies[j], pos.to_json()
        per_action = ref.action_plies(j, plies)
        if ref.values[j] == -1:  # the longest defence: the action with the most plies
            assert all(v == -1 for v, _ in per_action.values())
            assert plies[j] == max(p for _, p in per_action.values())
        else:  # the fastest win among the winning actions
            assert plies[j] == min(p for v, p in per_action.values() if v == 1)
        for choice in (decode_duel(exact.best), bot.choose(pos)):
            assert per_action[choice] == (ref.values[j], plies[j]), (pos.to_json(), choice, per_action)
