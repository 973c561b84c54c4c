"""The OpenSpiel and PettingZoo adapters (games/openspiel.py, games/pettingzoo.py): OpenSpiel's own
random-simulation test and its MCTS bot on every game, PettingZoo's API test on every game of
two or more players; ``import tanglekit.games`` stays free of both libraries.

The default run plays short variants of the long games (fewer rounds, turns or pieces: the
adapters take any ``load_game`` parameters); the slow run plays the default games too.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from tanglekit.games import game_names, load_game

# load_game parameters that keep a game short (the default run)
SHORT_TANGLE_PIECES = {"format": "tangle-pieces", "version": 1, "name": "short", "pieces": [
    {"name": "I1", "value": 1, "count": 3, "turns": ""}, {"name": "V2", "value": 2, "count": 3, "turns": "R"}]}
SHORT = {
    "zangle-turn": {"rounds": 1},
    "zangle-speed": {"rounds": 1, "max_turns": 30},
    "tanglung-solo": {"max_turns": 20},
    "tanglung-coop": {"max_turns": 20},
    "tanglung-duel": {"max_turns": 10, "max_matches": 3},
    "tangle": {"pieces": SHORT_TANGLE_PIECES},
}
MULTI = [n for n in game_names() if load_game(n).num_players() > 1]


def test_import_games_loads_neither_library():
    code = ("import sys, tanglekit.games, tanglekit.games.api; from tanglekit.games import load_game; "
            "[load_game(n).meta for n in tanglekit.games.game_names()]; "
            "print(sorted(m for m in ('pyspiel', 'open_spiel', 'pettingzoo', 'gymnasium') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


# -- OpenSpiel ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def pyspiel():
    pyspiel = pytest.importorskip("pyspiel", reason="open_spiel is not installed (pip install -e '.[interop]')")
    from tanglekit.games import openspiel

    openspiel.register()
    return pyspiel


def _spiel_game(pyspiel, name, params=None):
    from tanglekit.games.openspiel import short_name

    return pyspiel.load_game(short_name(name), {"params": json.dumps(params or {})})


def test_openspiel_names_and_sizes(pyspiel):
    from tanglekit.games import openspiel

    assert openspiel.register() == [f"tanglekit_{n.replace('-', '_')}" for n in game_names()]
    assert set(openspiel.register()) <= set(pyspiel.registered_names())
    for name in game_names():
        meta, game = load_game(name).meta, _spiel_game(pyspiel, name)
        info, kind = game.get_type(), game
        assert kind.num_players() == meta.num_players and kind.max_game_length() == meta.max_game_length
        assert (kind.min_utility(), kind.max_utility()) == (meta.min_utility, meta.max_utility)
        assert kind.max_chance_outcomes() == meta.max_chance_outcomes
        indexed = name in ("zangle-turn", "zangle-speed")  # Zangle codes hold a bit mask of cards
        assert kind.num_distinct_actions() == (openspiel.INDEX_ACTIONS if indexed else meta.num_distinct_actions)
        assert info.short_name == openspiel.short_name(name)
    qango7 = _spiel_game(pyspiel, "qango", {"board": "7"})
    assert (qango7.num_distinct_actions(), qango7.max_game_length()) == (49, 40)


def test_openspiel_states_follow_the_game(pyspiel):
    game = _spiel_game(pyspiel, "zangle-turn", SHORT["zangle-turn"])
    state = game.new_initial_state()
    own = state.tanglekit_state.legal_actions()
    assert state.legal_actions() == list(range(len(own)))  # by legal-action index
    assert state.action_to_string(state.current_player(), 0) == state.tanglekit_state.action_to_string(own[0])
    twin = state.clone()
    state.apply_action(0)
    assert twin.history() == [] and state.history() == [0]
    assert twin.tanglekit_state.history() == [] and state.tanglekit_state.history() == [own[0]]
    # each new state of a sampled game deals the next seed; the "seed" parameter fixes them
    seeds = [_spiel_game(pyspiel, "tanglung-duel").new_initial_state().tanglekit_state.to_json()["seed"]
             for _ in range(2)]
    assert seeds[0] == seeds[1]
    zinga = _spiel_game(pyspiel, "zinga").new_initial_state()
    assert zinga.is_chance_node() and [a for a, _ in zinga.chance_outcomes()] == list(range(11, 17))
    assert "player 0" in zinga.observation_string(0)


@pytest.mark.parametrize("name", game_names())
def test_openspiel_random_sim_test(pyspiel, name):
    pyspiel.random_sim_test(_spiel_game(pyspiel, name, SHORT.get(name)), num_sims=1, serialize=False, verbose=False)


def _mcts_game(pyspiel, game, seed=0):
    import numpy as np
    from open_spiel.python.algorithms import mcts

    rs = np.random.RandomState(seed)
    bot = mcts.MCTSBot(game, uct_c=2, max_simulations=2, random_state=rs, solve=False,
                       evaluator=mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs))
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rs.choice(actions, p=probs)))
        else:
            state.apply_action(bot.step(state))
    return state


@pytest.mark.parametrize("name", game_names())
def test_openspiel_mcts_plays_to_the_end(pyspiel, name):
    state = _mcts_game(pyspiel, _spiel_game(pyspiel, name, SHORT.get(name)))
    tk = state.tanglekit_state
    assert tk.is_terminal() and state.returns() == tk.returns()
    assert tk.outcome().termination in tk.get_game().meta.terminations


@pytest.mark.slow
@pytest.mark.parametrize("name", game_names())
def test_openspiel_default_games(pyspiel, name):
    game = _spiel_game(pyspiel, name)
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)
    assert _mcts_game(pyspiel, game).is_terminal()


# -- PettingZoo -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def tkpz():
    pytest.importorskip("pettingzoo", reason="pettingzoo is not installed (pip install -e '.[interop]')")
    from tanglekit.games import pettingzoo as tkpz

    return tkpz


def test_pettingzoo_games(tkpz):
    assert tkpz.env_names() == MULTI == ["zangle-turn", "zangle-speed", "tanglung-coop", "tanglung-duel", "qango",
                                         "zinga", "tangle"]
    from tanglekit.errors import RuleError

    with pytest.raises(RuleError):
        tkpz.env("qango", no_such_option=1)
    with pytest.raises(RuleError):
        tkpz.env("zangle-solo")  # one player


@pytest.mark.parametrize("name", MULTI)
def test_pettingzoo_api_test(tkpz, name):
    import warnings

    from pettingzoo.test import api_test

    with warnings.catch_warnings():
        # PettingZoo's classic games (Dict observations with an action mask) warn the same
        warnings.filterwarnings("ignore", message="Observation space for each agent probably")
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        api_test(tkpz.env(name, **SHORT.get(name, {})), num_cycles=50, verbose_progress=False)


def _play(env, seed):
    """A seeded random game to the end: (actions, final rewards, infos)."""
    env.reset(seed=seed)
    rng, actions = random.Random(seed), []
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            env.step(None)
            continue
        legal = [int(a) for a in obs["action_mask"].nonzero()[0]]
        assert legal and env.state.current_player() == env.possible_agents.index(agent)
        actions.append(rng.choice(legal))
        env.step(actions[-1])
    return actions, env


@pytest.mark.parametrize("name", MULTI)
def test_pettingzoo_plays_seeded_games_to_the_end(tkpz, name):
    env = tkpz.env(name, render_mode="ansi", **SHORT.get(name, {}))
    env.reset(seed=3)
    assert env.render() == str(env.state)
    actions, _ = _play(env, 3)
    state = env.state
    out = state.outcome()
    assert out is not None and not state.is_chance_node()
    # rewards at the end are the returns (last() gave each agent its reward before it left)
    assert env.agents == []
    again, _ = _play(tkpz.env(name, **SHORT.get(name, {})), 3)
    assert again == actions  # the seed fixes the deal and the dice
    assert len(state.history()) <= state.get_game().meta.max_game_length


def test_pettingzoo_rewards_are_the_returns(tkpz):
    env = tkpz.env("zinga")
    env.reset(seed=5)
    rewards = {}
    rng = random.Random(5)
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            rewards[agent] = reward
            assert info["termination"] in env.game.meta.terminations
            env.step(None)
            continue
        env.step(rng.choice([int(a) for a in obs["action_mask"].nonzero()[0]]))
    assert [rewards[a] for a in env.possible_agents] == env.state.returns()
    assert any(r != 0 for r in rewards.values()) or env.state.outcome().is_draw


def test_docs_python_examples(pyspiel, tkpz):
    """The ```python examples of docs/api.md are doctests (the metadata, OpenSpiel, PettingZoo)."""
    import doctest
    import re
    import warnings
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "docs" / "api.md"
    text = path.read_text(encoding="utf-8")
    blocks = [(text.count("\n", 0, m.start(1)), m.group(1)) for m in re.finditer(r"```python\n(.*?)```", text, re.S)]
    assert len(blocks) >= 2
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Observation space for each agent probably")
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        for line, block in blocks:
            runner.run(parser.get_doctest(block, {}, f"docs/api.md line {line + 1}", str(path), line))
    failed, tried = runner.summarize(verbose=False)
    assert tried >= 10 and failed == 0, f"{failed} of {tried} docs/api.md examples failed (see the output above)"
