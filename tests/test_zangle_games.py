"""Zangle game engines: API consistency on random play, card conservation, logs, undo, rules."""

import random
from collections import Counter

import pytest

from tanglekit.errors import BotError, FormatError, RuleError
from tanglekit.games.zangle import ZangleOptions, default_deck
from tanglekit.games.zangle.bots import GreedyBot, LookaheadBot, RandomBot, make_bot
from tanglekit.games.zangle.engine import Action
from tanglekit.games.zangle.log import replay_log
from tanglekit.games.zangle.play import format_result, new_game, play_game
from tanglekit.games.zangle.solo import SoloGame, solo_layout
from tanglekit.games.zangle.solo_search import SoloDeal, solve_deal
from tanglekit.games.zangle.speed import SpeedGame
from tanglekit.games.zangle.turn import TurnGame


def zone_ids(state):
    """Every card id the state holds, for conservation checks."""
    if state.game == "solo":
        cards = state.middle + state.draw + [c for p in state.piles for c in p] + state.discarded + state.won
    else:
        cards = state.middle + state.middle_pile
        for p in range(state.players):
            cards += state.own[p] + state.own_pile[p] + state.won[p]
    return [c.id for c in cards]


def check_zangle_action(state, a):
    """A Zangle action really uses cards on the table, one middle and one own at least."""
    if state.game == "solo":
        middle = {c.id for c in state.middle}
        own = {c.id for c in state.tops()}
    else:
        p = state.current_player()
        middle = {c.id for c in state.middle}
        own = {c.id for c in state.own[p]}
    used = [a.target, *a.pieces, *a.z]
    assert len(set(used)) == len(used) and set(used) <= middle | own
    assert set(used) & middle and set(used) & own
    assert len(a.pieces) >= 2 or a.z


@pytest.mark.parametrize("mode, players", [("solo", 1), ("turn", 2), ("turn", 4), ("speed", 3)])
def test_random_play_consistency(mode, players):
    for seed in range(4):
        state = new_game(mode, players, seed)
        expected = len(zone_ids(state))
        assert expected == (25 if mode == "solo" else 120)
        rng = random.Random(seed)
        steps = 0
        while not state.is_terminal():
            acts = state.legal_actions()
            assert acts and len(set(acts)) == len(acts)
            a = rng.choice(acts) if steps % 2 else acts[0]
            if a.kind == "zangle":
                check_zangle_action(state, a)
            state.apply(a)
            ids = zone_ids(state)
            if mode == "solo" or not state.is_terminal():
                assert len(ids) == len(set(ids)) == expected
            steps += 1
        assert state.legal_actions() == [] and state.current_player() == -4
        with pytest.raises(RuleError):
            state.apply(Action("pass"))


def test_illegal_action_rejected():
    g = TurnGame(seed=1)
    with pytest.raises(RuleError, match="illegal"):
        g.apply(Action("zangle", "T1-1", ("T1-2", "T1-3")))
    with pytest.raises(FormatError):
        g.apply({"kind": "teleport"})


@pytest.mark.parametrize("mode, players", [("solo", 1), ("turn", 3), ("speed", 2)])
def test_log_replay_undo_clone(mode, players, tmp_path):
    log = tmp_path / "game.jsonl"
    res = play_game(mode, players, ["random"], seed=11, log_path=log)
    state = replay_log(log)
    assert state.is_terminal() and state.score() == res["score"]
    lines = log.read_text().splitlines()
    assert len(lines) == res["actions"] + 1
    # undo walks back: replaying a prefix gives the same state as undoing down to it
    k = len(lines) // 2
    prefix = replay_log(lines[:k])
    for _ in range(len(lines) - k):
        state.undo()
    assert state.state_key() == prefix.state_key()
    # clones are independent
    c = state.clone()
    before = state.state_key()
    c.apply(c.legal_actions()[0])
    assert state.state_key() == before != c.state_key()
    # a tampered log is refused
    bad = lines[:2] + ['{"player": 0, "action": {"kind": "zangle", "target": "T1-1", "pieces": ["T1-2"]}}']
    with pytest.raises(FormatError, match="line"):
        replay_log(bad + lines[2:])


def test_same_seed_same_game():
    a = play_game("speed", 3, ["greedy", "random", "greedy"], seed=5)
    b = play_game("speed", 3, ["greedy", "random", "greedy"], seed=5)
    c = play_game("speed", 3, ["greedy", "random", "greedy"], seed=6)
    assert a == b and a["score"] != c["score"]


def test_turn_game_scores_and_bonus_round():
    r = play_game("turn", 2, ["greedy"], seed=0)
    sc = r["score"]
    assert len(sc["rounds"]) == 3
    assert sc["totals"] == [sum(x[p] for x in sc["rounds"]) for p in range(2)]
    # seed 0 ends level: the bonus round breaks the tie
    assert sc["totals"][0] == sc["totals"][1] and sc["bonus_round"] == [0, 1] and len(sc["winners"]) == 1
    text = format_result(r)
    assert "bonus round" in text and text.splitlines()[0].split() == ["player", "bot", "r1", "r2", "r3", "total"]


def test_turn_round_setup_and_draw_rule():
    g = TurnGame(seed=3, players=3)
    assert len(g.middle) == 4 and len(g.middle_pile) == 120 - 30 - 4
    assert all(len(g.own[p]) == 4 and len(g.own_pile[p]) == 6 for p in range(3))
    # when the player has no Zangle, the only action is to draw, and the card lands in own cards
    while g.zangles():
        g.apply(g.zangles()[0])
    acts = g.legal_actions()
    assert acts == [Action("draw")]
    p, n = g.current_player(), len(g.own[g.current_player()])
    g.apply(acts[0])
    assert len(g.own[p]) == n + 1 and g.current_player() == p and g.phase == "drawn"
    assert Action("draw") not in g.legal_actions()


def test_turn_stalemate_option_and_cap():
    # with stalemate_end off the round only ends by running out or by the safety cap
    g = TurnGame(seed=2, players=2, options=ZangleOptions(stalemate_end=False, max_turns=40), rounds=1)
    while not g.is_terminal():
        g.apply(GreedyBot().choose(g))
    assert len(g.round_points) == 1


def test_speed_levels_and_handicaps():
    r = play_game("speed", 2, ["greedy"], seed=3)
    sc = r["score"]
    wins = Counter(w for w in sc["round_winners"] if w is not None)
    assert sc["levels"] == [min(4, wins[p]) for p in range(2)]
    assert max(sc["levels"]) == 4
    g = SpeedGame(seed=1, players=2)
    g.levels = [4, 0]
    g._start_round()
    assert len(g.own[0]) == 3 and len(g.own_pile[0]) == 10 - 3 + 5
    assert len(g.own[1]) == 4 and len(g.own_pile[1]) == 6


def test_speed_false_call_penalty():
    g = SpeedGame(seed=2, players=2, model={"false_call_rate": 1.0})
    p = g.current_player()
    assert g.legal_actions() == [Action("false_call")]
    top = g.middle_pile[0]
    g.apply(Action("false_call"))
    assert g.own_pile[p][0] is top


def layout_game(middle, draw, piles, **opts):
    return SoloGame(layout=solo_layout(middle, draw, piles), options=ZangleOptions(**opts))


def test_solo_setup():
    g = SoloGame(seed=4)
    assert len(g.middle) == 3 and len(g.draw) == 7
    assert [len(p) for p in g.piles] == [1, 2, 3, 4, 5]
    g6 = SoloGame(seed=4, options=ZangleOptions(piles=6))
    assert [len(p) for p in g6.piles] == [1, 2, 3, 4, 5, 6]


def test_solo_zangle_fill_and_win():
    # middle T4-bar; piles: [T2-2], [T3-1, T2-1]: bar = T2-1 (pile top) + T2-2 (pile top)
    g = layout_game(["T4-bar-1", "T5-a-1", "T5-a-2"], ["T1-1"], [["T2-2"], ["T3-1", "T2-1"]])
    acts = g.legal_actions()
    assert Action("zangle", "T4-bar-1", ("T2-2", "T2-1")) in acts or Action(
        "zangle", "T4-bar-1", ("T2-1", "T2-2")) in acts
    a = next(a for a in acts if a.target == "T4-bar-1" and len(a.pieces) == 2)
    g.apply(a)
    # pile 0 is empty and pile 1 has one card: nothing can fill it
    assert g.phase == "play" and [len(p) for p in g.piles] == [0, 1]
    assert [c.id for c in g.middle] == ["T5-a-1", "T5-a-2", "T1-1"] and g.draw == []
    # T3-1 (pile top) + T5... no Zangle: only middle draws remain; the draw pile is empty -> loss
    assert g.is_terminal() and g.outcome == "loss"


def test_solo_fill_must_and_may():
    piles = [["T2-2"], ["T1-3", "T3-1", "T2-1"]]
    for mode, extra in (("must", []), ("may", [Action("skip")])):
        g = layout_game(["T4-bar-1", "T5-a-1", "T5-a-2"], ["T1-1", "T1-2"], piles, fill_empty_pile=mode)
        a = next(a for a in g.legal_actions() if a.target == "T4-bar-1" and set(a.pieces) == {"T2-2", "T2-1"})
        g.apply(a)
        assert g.phase == "fill"
        assert g.legal_actions() == [Action("fill", src=1, dst=0)] + extra
        g.apply(Action("fill", src=1, dst=0))
        assert [[c.id for c in p] for p in g.piles] == [["T3-1"], ["T1-3"]] and g.phase == "play"


def test_solo_discard_rules_and_win():
    # no Zangle: discard is the only action; it draws 3 new middle cards
    g = layout_game(["T5-a-1", "T5-a-2", "T5-a-3"], ["T4-bar-1", "T2-1", "T1-1", "T1-2"], [["T2-2"]])
    assert g.legal_actions() == [Action("discard")]
    g.apply(Action("discard"))
    assert [c.id for c in g.middle] == ["T4-bar-1", "T2-1", "T1-1"] and len(g.draw) == 1
    # T2-2 (pile) = T1-1 + ... needs a middle card and pile top; T4-bar <= T2-1 + T2-2
    acts = g.legal_actions()
    assert Action("discard") not in acts
    g2 = layout_game(["T5-a-1", "T5-a-2", "T5-a-3"], ["T4-bar-1", "T2-1", "T1-1", "T1-2"], [["T2-2"]],
                     voluntary_discard=True)
    g2.apply(Action("discard"))
    assert Action("discard") in g2.legal_actions()
    win = next(a for a in acts if set(a.pieces) | {a.target} == {"T4-bar-1", "T2-1", "T2-2"})
    g.apply(win)
    assert g.is_terminal() and g.outcome == "win" and g.returns() == [1.0]


def _solve(state):
    res = solve_deal(SoloDeal.from_game(state))
    return res.solvable, list(res.line)


def test_solve_solo():
    win = layout_game(["T4-bar-1", "T1-1", "T1-2"], [], [["T2-2"], ["T2-3", "T2-1"]])
    ok, path = _solve(win)
    assert ok is True
    g = win.clone()
    for a in path:
        g.apply(a)
    assert g.outcome == "win"
    lose = layout_game(["T5-a-1", "T5-a-2", "T5-a-3"], [], [["T4-bar-1"]])
    assert _solve(lose) == (False, [])


def test_bots_interface():
    g = SoloGame(seed=8)
    for bot in (RandomBot(1), GreedyBot(), LookaheadBot(2, samples=1, max_candidates=2), make_bot("greedy")):
        assert bot.choose(g) in g.legal_actions()
    with pytest.raises(BotError):
        make_bot("genius")
    with pytest.raises(RuleError):
        play_game("solo", 2)


def test_custom_deck_game():
    from tanglekit.games.zangle.cards import make_deck

    deck = make_deck("small", [("Z", None, 2), ("m", [(0, 0)], 30), ("d", [(0, 0), (0, 1)], 30),
                               ("t", [(0, 0), (0, 1), (1, 1)], 30)])
    res = play_game("turn", 2, ["greedy"], seed=1, deck=deck)
    assert len(res["score"]["rounds"]) == 3
    g = TurnGame(seed=1, deck=deck)
    lines = g.log_lines()
    assert replay_log(lines).deck.name == "small"
    assert default_deck().name == "zangle-default"


def test_solve_solo_on_shuffled_deals():
    ok, path = _solve(SoloGame(seed=2))
    g = SoloGame(seed=2)
    for a in path:
        g.apply(a)
    assert ok is True and g.outcome == "win"
    # seed 12 cannot be won whatever the choices (exhaustive search)
    assert _solve(SoloGame(seed=12)) == (False, [])


def test_turn_game_from_deal_position(tmp_path):
    from tanglekit.games.zangle import parse_deal

    deal = parse_deal({
        "middle": ["T4-bar", "T1", "T5-a", "T3"],
        "own": ["T2", "T2", "T1"],
        "own_pile": ["T5-b"],
        "middle_pile": ["T1", "T2"],
        "others": [{"own": ["T3", "T1", "T4-triangle", "T5-c"], "own_pile": []}],
    })
    g = TurnGame.from_deal(deal)
    assert g.players == 2 and g.current_player() == 0
    best = g.legal_actions()[0]
    # T5-a = T1 + T3 (middle) + T1 (own): 4 cards and 10 triangles beat T4-bar = T2 + T1 + T1
    assert best == Action("zangle", "T5-a-1", ("T1-1", "T3-1", "T1-2"))
    g.apply(best)
    assert [c.id for c in g.middle] == ["T4-bar-1", "T1-3", "T2-3"]
    assert [c.id for c in g.own[0]] == ["T2-1", "T2-2", "T5-b-1"] and g.current_player() == 1
    while not g.is_terminal():
        g.apply(GreedyBot().choose(g))
    assert len(g.round_points) == 1
    g.write_log(tmp_path / "p.jsonl")
    assert replay_log(tmp_path / "p.jsonl").state_key() == g.state_key()
    with pytest.raises(RuleError, match="deck cards"):
        TurnGame.from_deal(parse_deal({"middle": [[[0, 0]]], "own": ["T1"]}))
