"""A sixth game, Nim, registered from tests/ as a plugin works everywhere a game is used: the API
conformance checks, ``tanglekit play``, ``match``, ``bots``, hints, ``serve``'s play page and the
OpenSpiel and PettingZoo adapters with their own test suites, with no edit outside its own files
(issue 24)."""

import json
import random
import urllib.request

import pytest

from tanglekit.games import TERMINAL, game_names, load_game, register_plugin
from tanglekit.games.plugin import plugins, unregister_plugin


@pytest.fixture
def nim():
    from toy_nim import PLUGIN

    register_plugin(PLUGIN)
    yield PLUGIN
    unregister_plugin("nim")
    assert "nim" not in game_names()


def run(*args, stdin=None):
    from typer.testing import CliRunner

    from tanglekit.cli import app

    r = CliRunner().invoke(app, list(args), input=stdin)
    assert r.exit_code == 0, (r.output, r.exception)
    return r.output


def test_registered_like_the_built_in_games(nim):
    assert "nim" in game_names() and plugins()[-1] is nim
    assert game_names()[:1] == ["zangle-solo"]  # listing order kept


def test_api_conformance(nim):
    from test_game_api import _check_step

    game = load_game("nim", piles=[2, 3, 1])
    for seed in range(4):
        rng = random.Random(seed)
        state = game.new_initial_state(seed)
        played = []
        while not state.is_terminal():
            played.append(_check_step(game, state, rng, True))
        assert state.history() == played and state.current_player() == TERMINAL
        assert state.outcome().termination in game.meta.terminations
        assert len(played) <= game.meta.max_game_length
        # whoever took the last counter wins; players alternate from player 0
        last = (len(played) - 1) % 2
        assert state.returns() == [1.0 if p == last else -1.0 for p in range(2)]


def test_play_match_bots_and_hint(nim):
    from tanglekit.play.bots import hint

    assert "perfect" in run("bots", "nim")
    # a person (player 0) against the perfect bot on (1, 2): 1 XOR 2 = 3, so player 0 wins by
    # taking 1 from pile 2 and then mirroring
    out = run("play", "nim", "--bots", "human,perfect", "--option", "piles=1/2", "--json",
              stdin="take 1 from 2\ntake 1 from 1\ntake 1 from 2\n")
    log = json.loads(out[out.index("{"):])
    assert log["game"] == "nim" and log["over"] and log["returns"] == [1.0, -1.0]
    res = json.loads(run("match", "nim", "perfect", "random", "--games", "6", "--json"))
    # (3, 4, 5) has nim-sum 2: the first player wins with perfect play, so the perfect bot wins
    # every game it starts (3 of 6) and, against a random opener, almost surely the rest
    assert res["wins"][0] >= 3 and res["games"] == 6
    st = load_game("nim").new_initial_state()
    h = hint(st)
    assert h.action == 16 * 0 + 2  # (3,4,5): take 2 from pile 1 -> (1,4,5), nim-sum 0


def test_served_play_page(nim):
    from tanglekit.web.server import start_in_thread, url_of

    httpd, thread = start_in_thread("127.0.0.1", 0)
    try:
        base = url_of(httpd).rstrip("/")

        def get(path):
            with urllib.request.urlopen(base + path, timeout=30) as r:
                return r.status, r.read().decode()

        assert get("/play/nim")[0] == 200
        v = json.loads(get("/api/state?id=nim")[1])
        assert v["game"] == "nim" and v["human_to_move"] and v["buttons"] == []  # every move is a hot spot
        assert v["svg"].count('data-action="') == 3 + 4 + 5
        v = json.loads(get("/api/move?id=nim&action=2")[1])  # take 2 from pile 1
        assert v["moves"][0] == 2 and len(v["moves"]) == 2  # the strong bot answered
        assert "nim" in json.loads(get("/api/catalog")[1])["games"]
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(5)


def test_openspiel_and_pettingzoo_suites(nim):
    pyspiel = pytest.importorskip("pyspiel")
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test

    from tanglekit.games import openspiel, pettingzoo
    from test_interop import _mcts_game

    assert "tanglekit_nim" in openspiel.register(["nim"])
    game = pyspiel.load_game("tanglekit_nim")
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)
    assert _mcts_game(pyspiel, game).is_terminal()
    api_test(pettingzoo.env("nim"), num_cycles=30, verbose_progress=False)
