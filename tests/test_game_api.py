"""Conformance of every game in the common API (games/api.py): seeded random playouts to the end
with clone, undo, JSON and action-text round trips at every step, illegal actions rejected with
the state unchanged, and the final returns checked against the engine's own result."""

from __future__ import annotations

import json
import random

import pytest

from tanglekit.errors import RuleError, TanglekitError
from tanglekit.games import CHANCE, TERMINAL, game_names, load_game
from tanglekit.games.zinga.rules import LINE_MASKS

SEEDS = {"default": (1, 2), "zangle-speed": (1,), "qango": (1, 2, 3, 4), "zinga": (1, 2, 3)}
# game parameters for the playouts (shorter games where a default game is long)
PARAMS = {"zangle-speed": {"rounds": 2}, "tanglung-solo": {"max_turns": 60}, "tanglung-coop": {"max_turns": 60}}
# the JSON check replays the game from the start: every step up to FULL_EVERY_UNTIL, then every
# FULL_EVERY-th step (keeps long playouts linear-ish)
FULL_EVERY_UNTIL, FULL_EVERY = 20, 10
MAX_STEPS = {"default": 100_000}


def _expected_returns(name: str, state) -> list[float]:
    """The result as the engine itself records it (not through the wrapper's ``returns``)."""
    e = state.engine
    if name in ("tanglung-solo", "tanglung-coop"):
        won = e.lit == (1 << 16) - 1
        return [1.0 if won else 0.0] * len(e.starts)
    if name == "tanglung-duel":
        score = e.score
        if max(score) < 2:
            return [0.0, 0.0]
        return [1.0, -1.0] if score[0] >= 2 else [-1.0, 1.0]
    if name == "zangle-solo":
        return [1.0 if e.outcome == "win" and e.tableau_left() == 0 else 0.0]
    if name in ("zangle-turn", "zangle-speed"):
        totals = [sum(r[p] for r in e.round_points) for p in range(e.players)]
        if e.bonus is None:  # no bonus round: the fewest points win
            assert e.winners == [p for p in range(e.players) if totals[p] == min(totals)]
        return [1.0 if p in e.winners else -1.0 for p in range(e.players)]
    if name == "qango":
        pos = state.position
        wins = [any(m & side == m for m in pos.board.pattern_masks) for side in (pos.x, pos.o)]
        assert not all(wins)
        if not any(wins):  # a draw only on a full board or at the counter limit
            assert pos.n_counters >= pos.board.limit or not pos.empty_mask()
            return [0.0, 0.0]
        return [1.0, -1.0] if wins[0] else [-1.0, 1.0]
    if name == "zinga":
        g = e.game
        alive = [p for p in range(g.n) if g.players[p].alive]
        if g.winner is None:
            assert g.draw
            return [0.0] * g.n
        # won by a line of five ticks, or as the last player standing
        line = any(m & g.players[g.winner].ticked == m for m in LINE_MASKS)
        assert line or alive == [g.winner]
        return [1.0 if p == g.winner else -1.0 for p in range(g.n)]
    if name == "tangle":
        g = e.game
        # scores recounted from the captured tiles and the pieces that closed them
        assert sum(e.scores) == sum(c.points for c in _tangle_captures(e))
        best = max(e.scores)
        lead = [t for t, s in enumerate(e.scores) if s == best]
        assert e.over and (best >= g.options.target_score or any(e.pieces_left(p) == 0 for p in range(g.n_players))
                           or e.passes >= g.n_players)
        return [(1.0 if len(lead) == 1 else 0.0) if g.team_of[p] in lead else -1.0 for p in range(g.n_players)]
    raise AssertionError(f"no outcome oracle for {name}")


def _tangle_captures(e):
    """Replay the engine's log on a fresh engine state, collecting every capture."""
    s = e.game.new_state()
    caps = []
    for p in e.moves:
        caps += s.push(p)
    return caps


def _engine_done(name: str, state) -> bool:
    """Whether the engine itself considers the game over (as opposed to the wrapper)."""
    e = state.engine
    if name in ("tanglung-solo", "tanglung-coop"):
        return e.is_won() or not e.legal_moves() or len(e.log) >= e.options.max_turns
    if name == "tanglung-duel":
        return e.is_over()
    if name == "tangle":
        return e.over and not e.legal_moves()
    if name == "zinga":
        return e.game.is_over() and not e.game.legal_moves()
    if name == "qango":
        return e.position.is_over() and not e.position.legal_moves()
    if name.startswith("zangle-"):
        return e.is_terminal() and not e.legal_actions()
    raise AssertionError(name)


def _zinga_policy(state, legal, rng):
    """Mostly calls the rules accept (uniform play blunders at once, so games end before a tick)."""
    from tanglekit.games.zinga.api import CLAIM, PASS

    g = state.engine.game
    if g.phase != "race":
        return rng.choice(legal)
    good = [CLAIM + m.code for m in g.legal_moves() if m.kind == "claim" and m.player == state.current_player()]
    return rng.choice(good) if good and rng.random() < 0.7 else PASS


# a playout policy for some seeds (others play uniformly at random)
POLICY = {"zinga": (_zinga_policy, (2, 3))}


def _full(step: int) -> bool:
    return step < FULL_EVERY_UNTIL or step % FULL_EVERY == 0


def _illegal_candidates(legal: list[int], rng: random.Random) -> list[int]:
    top = max(legal, default=0)
    cands = {-1, top + 1, top + 1000, rng.randrange(0, 2 * top + 8)}
    return [a for a in cands if a not in legal]


def _check_step(game, state, rng: random.Random, full: bool, policy=None) -> int:
    """All per-step checks; returns the action to play."""
    before = state.to_json()
    player = state.current_player()
    legal = state.legal_actions()
    assert legal, "a non-terminal state has legal actions"
    assert legal == sorted(set(legal)) and all(isinstance(a, int) for a in legal)
    if player == CHANCE:
        assert state.is_chance_node()
        outcomes = state.chance_outcomes()
        assert sorted(a for a, _ in outcomes) == legal
        assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9 and all(p > 0 for _, p in outcomes)
        r, acc, action = rng.random(), 0.0, outcomes[-1][0]
        for a, p in outcomes:
            acc += p
            if r < acc:
                action = a
                break
    else:
        assert 0 <= player < game.num_players() and not state.is_chance_node()
        action = policy(state, legal, rng) if policy else rng.choice(legal)
    # action text round trip (a sample of the legal actions to keep long games fast)
    sample = legal if len(legal) <= 12 else rng.sample(legal, 12) + [action]
    for a in sample:
        text = state.action_to_string(a)
        assert isinstance(text, str) and text
        assert state.string_to_action(text) == a, (text, a)
    # illegal actions are rejected and change nothing
    for bad in _illegal_candidates(legal, rng):
        with pytest.raises(RuleError):
            state.apply_action(bad)
    assert state.to_json() == before
    # JSON round trip (through text)
    if full:
        data = json.loads(json.dumps(before))
        back = game.state_from_json(data)
        assert back.to_json() == before
        assert back.legal_actions() == legal and back.current_player() == player
    # clone is independent; undo restores
    twin = state.clone()
    state.apply_action(action)
    after = state.to_json()
    assert twin.to_json() == before
    twin.apply_action(action)
    assert twin.to_json() == after
    assert state.undo() == action
    assert state.to_json() == before and state.legal_actions() == legal
    state.apply_action(action)
    return action


def _check_outcome(game, state, played: list[int]) -> None:
    """The end agrees with the game's metadata: a declared termination, the returns within the
    utility bounds and of the declared kind, every action below the bounds."""
    meta = game.meta
    out = state.outcome()
    assert out is not None and out.termination in meta.terminations
    assert list(out.returns) == state.returns()
    assert len(played) <= meta.max_game_length
    assert all(0 <= a < max(meta.num_distinct_actions, meta.max_chance_outcomes) for a in played)
    assert all(meta.min_utility <= r <= meta.max_utility for r in out.returns)
    if meta.utility_sum is not None:
        assert sum(out.returns) == pytest.approx(meta.utility_sum)
    if meta.utility == "identical":
        assert len(set(out.returns)) == 1
    winners = set(out.winners)
    if meta.num_players > 1 and not meta.cooperative:
        assert all(out.returns[p] > out.returns[q] for p in winners for q in range(meta.num_players) if q not in winners)
    else:
        assert winners in (set(), set(range(meta.num_players)))


@pytest.mark.parametrize("name", game_names())
def test_random_playouts(name):
    game = load_game(name, **PARAMS.get(name, {}))
    n = game.num_players()
    assert n >= 1
    seeds = SEEDS.get(name, SEEDS["default"])
    cap = MAX_STEPS.get(name, MAX_STEPS["default"])
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_initial_state(seed)
        assert state.history() == []
        with pytest.raises(RuleError):
            state.undo()
        played = []
        policy, policy_seeds = POLICY.get(name, (None, ()))
        policy = policy if seed in policy_seeds else None
        while not state.is_terminal() and len(played) < cap:
            assert state.outcome() is None
            played.append(_check_step(game, state, rng, _full(len(played)), policy))
        assert state.history() == played
        assert str(state) and state.to_svg().lstrip().startswith("<svg")
        assert state._repr_svg_() == state.to_svg()
        for p in range(n):
            assert isinstance(state.observation_string(p), str)
        if len(played) >= cap:
            continue  # capped playout (a long game): no result to check
        # the end
        assert _engine_done(name, state)
        assert state.current_player() == TERMINAL and state.legal_actions() == []
        with pytest.raises(RuleError):
            state.apply_action(0)
        returns = state.returns()
        assert len(returns) == n and all(isinstance(r, float) for r in returns)
        assert returns == _expected_returns(name, state)
        _check_outcome(game, state, played)
        data = json.loads(json.dumps(state.to_json()))
        assert game.state_from_json(data).returns() == returns


@pytest.mark.parametrize("name", game_names())
def test_api_errors(name):
    game = load_game(name)
    with pytest.raises(RuleError):
        load_game(name, no_such_option=1)
    state = game.new_initial_state(3)
    with pytest.raises(TanglekitError):
        state.string_to_action("no such move at all")
    data = state.to_json()
    other = next(g for g in game_names() if g != name)
    with pytest.raises(TanglekitError):
        game.state_from_json({**data, "game": other})
    if state.legal_actions():
        a = state.legal_actions()[0]
        with pytest.raises(TanglekitError):  # a history that does not replay
            game.state_from_json({**data, "actions": [a, -5]})


def test_registry():
    names = game_names()
    assert {"zangle-solo", "zangle-turn", "zangle-speed", "tanglung-solo", "tanglung-coop",
            "tanglung-duel"} <= set(names)
    with pytest.raises(RuleError):
        load_game("chess")


def test_jupyter_pictures():
    """Shapes, tilings, boards and positions show as SVG in Jupyter (``_repr_svg_``)."""
    from tanglekit.games.qango import load_board, parse_position
    from tanglekit.games.tangle import default_board
    from tanglekit.games.tanglung import Layout
    from tanglekit.shapes.polyform import Polyform
    from tanglekit.solver.tiling import solve_tiling

    bar = Polyform([(0, 0), (1, 0), (2, 0), (3, 0)])
    svg = bar._repr_svg_()
    assert svg.startswith("<svg") and svg.count("<polygon") == bar.area  # one triangle per cell
    res = solve_tiling("parallelogram:2x2", [bar, bar])  # two bars tile the 2x2 rhombus
    assert res.solutions and res._repr_svg_().count("<polygon") >= 8
    assert res.solutions[0]._repr_svg_() == res._repr_svg_()
    six = load_board("6")
    assert six._repr_svg_().count("<rect") == 1 + len(six.cells)  # background + one per cell
    pos = parse_position("X...../....../....../....../....../......")
    assert pos._repr_svg_().count("<circle") >= 1
    assert Layout.parse("CRBF/HDFR/BHFB/RHDC")._repr_svg_().count("<rect") == 17
    board = default_board()
    assert board._repr_svg_().count("<polygon") >= len(board.tiles)


def _instance(name):
    """(params, instance, a check of the start) of game ``name`` for new_initial_state_from."""
    from tanglekit.games.qango import parse_position
    from tanglekit.games.tangle import TangleGame
    from tanglekit.games.zangle.deal import parse_deal
    from tanglekit.games.zinga import load_sheets

    tangle = TangleGame().new_state()
    tangle.push(tangle.legal_moves()[0])
    deal = {"middle": ["T4-bar-1", "T2-1", "T3-1", "T1-1"], "own": ["T5-a-1", "T2-2", "T1-2", "T3-2"],
            "middle_pile": ["T2-3", "T1-3"], "own_pile": ["T4-bar-2"],
            "others": [{"own": ["T1-4", "T2-4", "T3-3", "T2-5"], "own_pile": ["T1-5"]}]}
    solo = {"middle": ["T1-1", "T1-2", "T1-3"], "draw": ["T2-1", "T2-2"], "piles": [["T3-1"], ["T3-2", "T1-4"]]}
    cases = [
        ("zangle-solo", {"piles": 2}, solo,
         lambda s: s.engine.piles[1][-1].id == "T1-4" and [c.id for c in s.engine.draw] == ["T2-1", "T2-2"]),
        ("zangle-turn", {"rounds": 1}, parse_deal(deal),
         lambda s: [c.id for c in s.engine.own[1]] == ["T1-4", "T2-4", "T3-3", "T2-5"]),
        ("tanglung-solo", {}, "CRBF/HDFR/BHFB/RHDC", lambda s: str(s.engine.layout) == "CRBF/HDFR/BHFB/RHDC"),
        ("tanglung-coop", {}, "CRBF/HDFR/BHFB/RHDC", lambda s: s.engine.positions == [0, 15]),
        ("tanglung-duel", {}, ["CRBF/HDFR/BHFB/RHDC"], lambda s: str(s.engine.match.layout) == "CRBF/HDFR/BHFB/RHDC"),
        ("qango", {"board": "7"}, parse_position("X....../......./......./......./......./......./.......", "7"),
         lambda s: s.current_player() == 1 and len(s.legal_actions()) == 48),
        ("zinga", {"players": 3}, load_sheets()[1:4], lambda s: s.engine.game.sheets[0] == load_sheets()[1]),
        ("tangle", {}, tangle.to_json(), lambda s: s.engine.moves == tangle.moves and s.current_player() == 1),
    ]
    return next(c[1:] for c in cases if c[0] == name)


@pytest.mark.parametrize("name", [n for n in game_names() if n != "zangle-speed"])  # speed: seeds only
def test_start_from_instance(name):
    params, instance, check = _instance(name)
    game = load_game(name, **params)
    state = game.new_initial_state_from(instance)
    assert check(state)
    with pytest.raises(RuleError):
        state.undo()  # the instance is the start
    rng = random.Random(5)
    for _ in range(6):
        if state.is_terminal():
            break
        state.apply_action(rng.choice([o for o, _ in state.chance_outcomes()] or state.legal_actions()))
    back = game.state_from_json(json.loads(json.dumps(state.to_json())))
    assert back.to_json() == state.to_json() and check(game.new_initial_state_from(instance))
    while back.history():
        back.undo()  # replays from the instance
    assert check(back)


def test_hidden_information():
    """Dark Tanglung cards and face-down Zangle cards are left out of a player's observation."""
    duel = load_game("tanglung-duel").new_initial_state(seed=2)
    assert duel.get_game().has_hidden_information()
    hidden = duel.observation_string(0)
    full = str(duel)
    dark = len(duel.engine.match.dark_cells())
    assert dark and hidden.count("?") == dark and "?" not in full
    solo = load_game("zangle-solo").new_initial_state(seed=2)
    seen = solo.observation_string(0)
    assert all(c.id not in seen for c in solo.engine.draw)
    assert all(p[-1].id in seen for p in solo.engine.piles)
    assert all(c.id not in seen for p in solo.engine.piles for c in p[:-1])


def test_json_needs_the_same_parameters():
    state = load_game("qango", board="7").new_initial_state()
    state.apply_action(state.legal_actions()[0])
    data = state.to_json()
    assert load_game("qango", board="7").state_from_json(data).history() == state.history()
    with pytest.raises(TanglekitError, match="parameters"):
        load_game("qango").state_from_json(data)


def test_generated_puzzles_start_games():
    """Generated puzzles are instances a game starts from (what generators hand to players)."""
    from tanglekit.games.qango.generate import generate_puzzle as qango_puzzle
    from tanglekit.games.tangle.generate import generate_puzzle as tangle_puzzle

    p = qango_puzzle(k=2, seed=1)
    for instance in (p, p.to_json(), p.position.to_text()):
        state = load_game("qango", board=p.board.name).new_initial_state_from(instance)
        assert state.engine.position == p.position and p.key_move in state.legal_actions()
    t = tangle_puzzle(seed=4)
    state = load_game("tangle").new_initial_state_from(t)
    assert state.engine.scores == t["scores"] and state.current_player() == t["to_move"]
    assert len(state.engine.moves) == len(t["moves"]) and state.history() == []


# (players, distinct actions, longest game, utility, chance mode) of every game with default parameters
META = {
    "zangle-solo": (1, 33672, 51, "general-sum", "sampled stochastic"),
    "zangle-turn": (2, 1024 + 61 + 128 * (2**62 - 1) + 1, 1688, "general-sum", "sampled stochastic"),
    "zangle-speed": (2, 1024 + 61 + 128 * (2**62 - 1) + 1, 60_000, "general-sum", "sampled stochastic"),
    "tanglung-solo": (1, 16, 200, "general-sum", "sampled stochastic"),
    "tanglung-coop": (2, 16, 200, "identical", "sampled stochastic"),
    "tanglung-duel": (2, 288, 1400, "zero-sum", "sampled stochastic"),
    "qango": (2, 36, 36, "zero-sum", "deterministic"),
    "zinga": (2, 4600, 12_026, "zero-sum", "explicit stochastic"),
    "tangle": (2, 4009, 118, "zero-sum", "deterministic"),
}


@pytest.mark.parametrize("name", game_names())
def test_metadata(name):
    from dataclasses import FrozenInstanceError

    game = load_game(name)
    meta = game.meta
    assert meta is game.meta and meta.name == name and meta.num_players == game.num_players()
    assert (meta.num_players, meta.num_distinct_actions, meta.max_game_length, meta.utility,
            meta.chance_mode) == META[name]
    assert meta.dynamics == "sequential" and meta.reward_model == "terminal" and meta.length_bound
    assert (meta.chance_mode == "explicit stochastic") == game.has_chance() == (meta.max_chance_outcomes > 0)
    assert (meta.information == "imperfect") == game.has_hidden_information() or name.startswith("zangle-")
    assert json.loads(json.dumps(meta.to_json()))["utility"] == meta.utility.value
    with pytest.raises(FrozenInstanceError):
        meta.num_players = 3  # type: ignore[misc]


def test_metadata_follows_the_parameters():
    assert load_game("qango", board="7").meta.max_game_length == 40  # QANGO 7 is a draw after 40 counters
    assert load_game("qango", board="7").meta.num_distinct_actions == 49
    assert load_game("zinga", players=3).meta.utility == "general-sum"
    assert load_game("tangle", players=4, partners=True).meta.utility == "zero-sum"
    assert load_game("tangle", players=3).meta.utility == "general-sum"
    assert load_game("tanglung-solo", max_turns=60).meta.max_game_length == 60
    assert load_game("zangle-turn", rounds=1, max_turns=5).meta.max_game_length == 2 * 2 * 5
    assert load_game("zangle-solo", piles=6).meta.max_game_length == 2 * 15 + 7 + 35


def test_cooperative_from_metadata():
    """The match runner asks the metadata whether a game is co-operative (not its name)."""
    from tanglekit.play.match import is_cooperative

    assert [n for n in game_names() if is_cooperative(load_game(n))] == ["tanglung-coop"]
    assert load_game("tanglung-coop").meta.cooperative and not load_game("tanglung-solo").meta.cooperative


def test_outcome_reasons():
    # X takes a corner triple of QANGO 6 while O plays far away
    game = load_game("qango")
    state = game.new_initial_state()
    for text in ("0,0", "5,5", "0,1", "5,4", "1,0"):
        state.apply_string(text)
        if state.is_terminal():
            break
    assert state.outcome() is not None and state.outcome().termination == "pattern"
    assert state.outcome().winner == 0 and state.outcome().winners == (0,)
    solo = load_game("tanglung-solo", max_turns=3).new_initial_state(seed=1)
    while not solo.is_terminal():
        solo.apply_action(solo.legal_actions()[0])
    assert solo.outcome().termination in ("move limit", "stuck", "all lit")
