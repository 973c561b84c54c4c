"""Tanglung two-player engine (hand-checked actions, win conditions, hidden cards), search, bots."""

import random

import pytest
from tanglekit.errors import RuleError
from tanglekit.games.tanglung import Layout
from tanglekit.games.tanglung.duel import DuelGame, Match, determinize, hidden_pool
from tanglekit.games.tanglung.duel_bots import bot_match
from tanglekit.games.tanglung.duel_search import minimax_reference, solve_position

EXAMPLE = "CRBF/HDFR/BHFB/RHDC"


def state(layout, lit, boxes, **kw):
    data = {"layout": layout, "lit": lit, "boxes": boxes, "rooster_used": [True, True]}
    data.update(kw)
    return Match.from_json(data)


def test_setup_and_first_rooster_action():
    m = Match(Layout.parse(EXAMPLE))
    assert m.lit == sum(1 << i for i in (0, 15, 5, 6, 9, 10))
    assert m.legal_actions() == [("place", 0), ("place", 15)]
    m.apply(("place", 0))
    assert m.legal_actions() == [("place", 15)]
    m.apply(("place", 15))
    acts = m.legal_actions()
    # Rooster steps to (0,1) or (1,0); the Fan goes on any card but the destination, the
    # opponent's card and the Rooster card being removed; no Lantern action from a Rooster
    assert len(acts) == 2 * 13 and {a[0] for a in acts} == {"rooster"}
    m.apply(("rooster", 1, 10))
    assert m.cells[0] == "." and m.lit >> 1 & 1 and m.fan == 10 and m.to_move == 1
    assert m.removed == ["C"]
    acts = m.legal_actions()
    assert len(acts) == 2 * 11  # Fan must move: not 10 again, not 0 (gone), 15 (gone), 1 (box)
    assert all(a[2] not in (0, 1, 10, 15) for a in acts)
    with pytest.raises(RuleError):
        m.apply(("rooster", 14, 10))


def test_lantern_action_bump_and_reentry():
    m = state("RBBF/FFFF/FFFF/FFFF", "1001/1000/0000/0000", [[0, 0], [0, 3]])
    assert ("lantern", 3) in m.legal_actions()  # the Rabbit slides over cards onto the opponent
    m.apply(("lantern", 3))
    assert m.cells[0] == "." and m.boxes == [3, None] and m.bumps == [0, 1]
    assert m.winner is None and m.to_move == 1
    assert m.legal_actions() == [("place", 4)]  # the only lit, unoccupied card
    m.apply(("place", 4))
    assert m.phase == ["play", "play"]


def test_bumped_player_with_nowhere_to_go_loses():
    m = state("RBBF/FFFF/FFFF/FFFF", "1001/0000/0000/0000", [[0, 0], [0, 3]])
    m.apply(("lantern", 3))
    assert m.winner == 0 and m.reason == "no-reentry"


def test_second_bump_wins():
    m = state("RBBF/FFFF/FFFF/FFFF", "1001/1000/0000/0000", [[0, 0], [0, 3]], bumps=[0, 1])
    m.apply(("lantern", 3))
    assert m.winner == 0 and m.reason == "bumped-twice"


def test_lighting_the_last_dark_card_wins():
    m = state("RB../..../..../...F", "1000/0000/0000/0001", [[0, 0], [3, 3]])
    assert m.dark_cells() == [1]
    m.apply(("lantern", 1))
    assert m.winner == 0 and m.reason == "lit-last"


def test_opponent_without_action_loses():
    # player 2 on a Rooster card in the corner: its only step is to (1,0), which player 1 takes
    # with a Rooster action, putting the Fan on (1,1)
    m = state("C.../FF../F.../...F", "1000/1100/1000/0000", [[2, 0], [0, 0]])
    m.apply(("rooster", 4, 5))
    assert m.winner == 0 and m.reason == "no-legal-action"


def test_fan_blocks_and_matchbox_blocks():
    m = state("RFFF/FFFF/FFFF/FFFF", "1111/0000/0000/0000", [[0, 0], [2, 0]], fan=[0, 2])
    dests = {a[1] for a in m.legal_actions() if a[0] == "lantern"}
    assert dests == {1, 4, 8}  # stops before the Fan; lands on (bumps) but does not cross box 2


def test_hidden_cards_and_determinization():
    m = Match(Layout.parse(EXAMPLE))
    obs = m.observation(0)
    assert obs.count("?") == 10 and obs[0] == "C" and obs[5] == "D"
    pool = hidden_pool(m)
    assert sorted(pool) == sorted(ch for i, ch in enumerate(m.cells) if not m.lit >> i & 1)
    rng = random.Random(0)
    for _ in range(5):
        d = determinize(m, rng)
        assert d.observation(0) == obs and sorted(d.cells) == sorted(m.cells)


def test_random_playthroughs_round_trip_and_undo():
    rng = random.Random(1)
    for seed in range(15):
        g = DuelGame(seed=seed)
        while not g.is_over():
            m = g.match
            acts = g.legal_actions()
            assert acts, "a live match always has an action (else it would be over)"
            r = Match.from_json(m.to_json())
            assert r.key() == m.key() and r.legal_actions() == acts
            c = m.clone()
            c.apply(acts[0])
            assert m.key() == r.key()  # clones are independent
            g.play(rng.choice(acts))
        assert g.winner is not None or len(g.results) >= g.options.max_matches
        before = g.to_json()
        g.undo()
        g.play(tuple(before["log"][-1]))
        assert g.to_json() == before
        replay = DuelGame(seed=seed, layouts=before["layouts"], log=[tuple(a) for a in before["log"]])
        assert replay.to_json() == before


def test_search_finds_immediate_win_and_matches_minimax():
    m = state("RB../..../..../...F", "1000/0000/0000/0001", [[0, 0], [3, 3]])
    r = solve_position(m, max_depth=3)
    assert r.outcome == 1 and r.best == ("lantern", 1)
    rng = random.Random(4)
    checked = 0
    for seed in range(40):
        g = DuelGame(seed=seed)
        while not g.is_over() and len(g.match.dark_cells()) > 3:
            g.play(rng.choice(g.legal_actions()))
        if g.is_over() or g.match.phase != ["play", "play"]:
            continue
        m = g.match
        for depth in (1, 2):
            r = solve_position(m, max_depth=depth, node_limit=None, use_tt=False)
            if r.proven and r.depth < depth:
                continue
            assert r.value == minimax_reference(m, r.depth)
        checked += 1
    assert checked >= 5


def test_bots_beat_random():
    res = bot_match("greedy", "random", games=10, seed=1)
    assert res["wins"][0] >= 9
    res = bot_match("pimc", "random", games=4, seed=2)
    assert res["wins"][0] >= 3
