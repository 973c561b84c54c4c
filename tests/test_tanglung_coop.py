"""Tanglung cooperative solver vs a plain BFS driven by the cooperative engine (SoloGame)."""

import random

import pytest
from tanglekit.errors import RuleError
from tanglekit.games.tanglung import SoloGame, TanglungOptions, load_card_set, random_layout
from tanglekit.games.tanglung.coop import solve_coop


def coop_reference(layout, starts, options, card_set):
    """Level-by-level BFS whose moves come from the engine's legal_moves/play/undo."""
    g = SoloGame(layout, options, starts=starts, card_set=card_set)
    start = (tuple(g.positions), g.lit, 0)
    level, seen = {start: 1}, {start}
    depth = 0
    while level:
        depth += 1
        nxt = {}
        for (pos, lit, turn), c in level.items():
            g.positions, g.lit, g.log = list(pos), lit, [None] * turn  # whose turn = len(log) % 2
            for q in g.legal_moves():
                g.play(q)
                ns = (tuple(g.positions), g.lit, len(g.log) % 2)
                g.undo()
                if ns in seen and ns not in nxt:
                    continue
                nxt[ns] = nxt.get(ns, 0) + c
        seen.update(nxt)
        goals = [s for s in nxt if s[1] == 0xFFFF]
        if goals:
            return depth, sum(nxt[s] for s in goals)
        level = nxt
    return None, 0


def test_coop_matches_engine_bfs_on_small_instances():
    cs = load_card_set("C8R2B2F2H1D1")  # 8 lit Roosters keep the reference BFS small
    opts = TanglungOptions(not_so_zen=True)
    rng = random.Random(1)
    kinds = set()
    for _ in range(6):
        lay = random_layout(rng, cs)
        r = lay.roosters()
        ref = coop_reference(lay, (r[0], r[1]), opts, cs)
        sol = solve_coop(lay, (r[0], r[1]), opts, card_set=cs)
        assert (sol.moves, sol.optimal_sequences) == ref
        kinds.add(sol.moves is None)
        if sol.solvable:  # replay the sequence with the engine
            g = SoloGame(lay, opts, starts=(r[0], r[1]), card_set=cs)
            for q in sol.sequence:
                g.play(q)
            assert g.is_won() and len(sol.sequence) == sol.moves
    assert kinds == {True, False}


def test_coop_default_layout_and_errors():
    sol = solve_coop("CRBF/HDFR/BHFB/RHDC", (0, 15), TanglungOptions(literal_blocking=True))
    assert (sol.moves, sol.optimal_sequences) == (14, 75)  # checked with the engine BFS (22 s)
    assert solve_coop("CFRF/HHRD/BBFB/HRDC").to_json()["solvable"] is False
    with pytest.raises(RuleError):
        solve_coop("CRBF/HDFR/BHFB/RHDC", (0, 5))
