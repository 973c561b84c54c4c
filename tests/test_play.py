"""One bot protocol, one match runner and terminal play for every game (``tanglekit play/match``)."""

import json
import random

import pytest

from tanglekit.errors import TanglekitError

TANGLUNG_ID = "tanglung:solo,easy:RHHC/FRBF/FBBD/CHRD"
# its shortest tour from the better Rooster (0,3), as `tanglung solo generate --seed 1` prints it
TANGLUNG_PATH = ["1,3", "2,2", "1,1", "2,1", "1,2", "0,1", "2,0", "3,1", "2,3", "3,3", "3,2", "0,2", "1,0", "0,0"]


def run(*args, rc=0, stdin=None):
    """The root CLI in-process; library errors come back as the exception (exit 2 is run_app's)."""
    from typer.testing import CliRunner

    from tanglekit.cli import app

    r = CliRunner().invoke(app, list(args), input=stdin)
    if rc == 2:
        assert isinstance(r.exception, TanglekitError), (r.output, r.exception)
        return r
    assert r.exit_code == rc, (r.exit_code, r.output, r.exception)
    return r


# --- bot registry ---------------------------------------------------------------------------------
def test_every_game_has_random_and_strong_bots():
    from tanglekit.games import game_names
    from tanglekit.solver.bots import bot_names

    for g in game_names():
        names = bot_names(g)
        assert "random" in names and "strong" in names, (g, names)


def test_unknown_bot_names_one_error_listing_the_valid_ones():
    from tanglekit.solver.bots import BotError, make_bot

    with pytest.raises(BotError, match="expected one of random, greedy, perfect"):
        make_bot("tanglung-solo", "genius")
    with pytest.raises(BotError, match="unknown game"):
        make_bot("chess", "random")
    r = run("match", "tanglung-duel", "greedy", "genius", "--games", "1", rc=2)
    assert "pimc-strong" in str(r.exception)


# --- match runner -------------------------------------------------------------------------------
def test_sample_chance_follows_the_probabilities():
    from tanglekit.solver.match import sample_chance

    class Dice:
        def chance_outcomes(self):
            return [(7, 0.25), (9, 0.75)]

    rng = random.Random(5)
    draws = [sample_chance(Dice(), rng) for _ in range(4000)]
    assert set(draws) == {7, 9}
    assert abs(draws.count(9) / 4000 - 0.75) < 0.03


def test_match_is_deterministic_for_a_seed_and_rotates_seats():
    from tanglekit.solver.match import run_match

    a = run_match("tanglung-duel", ["greedy", "random"], games=4, seed=3).to_json()
    b = run_match("tanglung-duel", ["greedy", "random"], games=4, seed=3).to_json()
    assert a == b
    # greedy (one-ply tactics) beats random from either seat
    assert a["wins"][0] >= 3 and a["wins"][0] + a["wins"][1] + a["draws"] == 4


def test_match_cli_json():
    out = json.loads(run("match", "tanglung-duel", "greedy", "random", "--games", "2", "--seed", "1", "--json").stdout)
    assert out["games"] == 2 and out["bots"] == ["greedy", "random"] and out["complete"] is True
    assert len(out["mean_returns"]) == 2 and sum(out["wins"]) + out["draws"] == 2


def test_tanglung_perfect_bot_wins_exactly_when_the_solver_says_so():
    """The perfect solo bot plays a shortest tour: it wins in exactly the solver's fewest moves
    on every winnable seeded layout, and never wins an unwinnable one."""
    from tanglekit.games import load_game
    from tanglekit.solver.bots import make_bot
    from tanglekit.solver.match import play_game
    from tanglekit.solver.tanglung_solo import solve_solo

    game = load_game("tanglung-solo")
    seen = set()
    for seed in range(6):
        st = game.new_initial_state(seed=seed)
        e = st.engine
        sol = solve_solo(e.layout, e.starts[0], e.options)
        played = play_game(st, [make_bot("tanglung-solo", "perfect", seed)], random.Random(0))
        won = st.returns()[0] > 0
        assert won == sol.solvable
        if won:
            assert len(played) == sol.moves
        seen.add(won)
    assert True in seen


# --- terminal play ------------------------------------------------------------------------------
def test_play_tanglung_challenge_to_solved_with_log_and_replay(tmp_path):
    log = tmp_path / "game.json"
    out = run("play", TANGLUNG_ID, "--log", str(log), stdin="\n".join(TANGLUNG_PATH) + "\n").stdout
    assert "goal: light all 16 cards (fewest moves: 14)" in out
    assert "solved in 14 moves (fewest moves: 14)" in out
    data = json.loads(log.read_text())
    assert [m["move"] for m in data["moves"]] == TANGLUNG_PATH
    rep = run("replay", str(log), "--json").stdout
    assert json.loads(rep) == {"game": "tanglung-solo", "moves": 14, "over": True, "returns": [1.0]}
    # a log whose moves were tampered with is refused, naming the move
    data["moves"][3]["action"] = data["moves"][0]["action"]
    log.write_text(json.dumps(data))
    assert "move 4" in str(run("replay", str(log), rc=2).exception)


def test_play_refuses_illegal_moves_and_undoes_and_hints():
    # 3,3 is not reachable from the start, there is no move 99; then a move, undo and hint
    lines = ["3,3", "99", "1", "undo", "hint", "quit"]
    out = run("play", TANGLUNG_ID, stdin="\n".join(lines) + "\n").stdout
    assert "illegal: no legal move to '3,3' now" in out
    assert "illegal: no move number 99: choose 1..2" in out
    assert "played 0,2" in out and "undone 1 action" in out
    # the hint is the first move of a shortest tour: 1,3 (move 2 of 0,2 / 1,3)
    assert "hint: 2) 1,3 (a shortest winning line needs 14 more moves)" in out
    assert "game left unfinished" in out


def test_hint_says_when_no_winning_line_exists():
    from tanglekit.games import load_game
    from tanglekit.solver.bots import hint
    from tanglekit.solver.tanglung_solo import solve_solo

    game = load_game("tanglung-solo")
    for seed in range(200):  # the first seeded layout that cannot be won from its start
        st = game.new_initial_state(seed=seed)
        if not solve_solo(st.engine.layout, st.engine.starts[0], st.engine.options).solvable:
            break
    else:
        pytest.skip("no unwinnable layout among 200 seeds")
    h = hint(st)
    assert h.action is None and "no winning line" in h.text


def test_play_bots_only_and_json():
    out = json.loads(run("play", "tanglung-duel", "--bots", "greedy,random", "--seed", "2", "--json").stdout)
    assert out["over"] is True and out["seats"] == ["greedy", "random"]
    assert sorted(out["returns"]) == [-1.0, 1.0]


def test_play_bad_input_is_one_error():
    r = run("play", "tanglung-sol", rc=2)
    assert "did you mean tanglung-solo" in str(r.exception)
    run("play", "tanglung-solo", "--bots", "human,human", rc=2)
