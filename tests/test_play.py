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
    from tanglekit.play.bots import bot_names

    for g in game_names():
        names = bot_names(g)
        assert "random" in names and "strong" in names, (g, names)


def test_unknown_bot_names_one_error_listing_the_valid_ones():
    from tanglekit.play.bots import BotError, make_bot

    with pytest.raises(BotError, match="expected one of random, greedy, perfect"):
        make_bot("tanglung-solo", "genius")
    with pytest.raises(BotError, match="unknown game"):
        make_bot("chess", "random")
    r = run("match", "tanglung-duel", "greedy", "genius", "--games", "1", rc=2)
    assert "pimc-strong" in str(r.exception)


# --- match runner -------------------------------------------------------------------------------
def test_sample_chance_follows_the_probabilities():
    from tanglekit.play.match import sample_chance

    class Dice:
        def chance_outcomes(self):
            return [(7, 0.25), (9, 0.75)]

    rng = random.Random(5)
    draws = [sample_chance(Dice(), rng) for _ in range(4000)]
    assert set(draws) == {7, 9}
    assert abs(draws.count(9) / 4000 - 0.75) < 0.03


def test_match_is_deterministic_for_a_seed_and_rotates_seats():
    from tanglekit.play.match import run_match

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
    from tanglekit.play.bots import make_bot
    from tanglekit.play.match import play_game
    from tanglekit.games.tanglung.solo_search import solve_solo

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
    assert "move 4 is '1,3' here, the log says '2,1'" in str(run("replay", str(log), rc=2).exception)
    data["moves"][3] = dict(data["moves"][2])  # consistent text, but staying on 1,1 is no move
    log.write_text(json.dumps(data))
    assert "move 4 (1,1) is illegal" in str(run("replay", str(log), rc=2).exception)


def test_play_refuses_illegal_moves_and_undoes_and_hints():
    # 3,3 is not reachable from the start, there is no move 99; then a move, undo and hint
    lines = ["3,3", "99", "1", "undo", "hint", "quit"]
    out = run("play", TANGLUNG_ID, stdin="\n".join(lines) + "\n").stdout
    assert "illegal: '3,3' is not legal now: the matchbox on 0,3 (Rooster) cannot move to 3,3" in out
    assert "illegal: no move number 99: choose 1..2" in out
    assert "played 0,2" in out and "undone 1 action" in out
    # the hint is the first move of a shortest tour: 1,3 (move 2 of 0,2 / 1,3)
    assert "hint: 2) 1,3 (a shortest winning line needs 14 more moves)" in out
    assert "game left unfinished" in out


def test_hint_says_when_no_winning_line_exists():
    from tanglekit.games import load_game
    from tanglekit.play.bots import hint
    from tanglekit.games.tanglung.solo_search import solve_solo

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


# --- a bot match per game, each checked against an outside truth ---------------------------------
@pytest.mark.parametrize("mode", ["turn", "speed", "solo"])
def test_zangle_bots_through_the_api_play_the_engines_own_games(mode):
    """Greedy is deterministic: the API game between wrapped greedy bots is the very game the
    engine's own loop (games/zangle/play.py) plays, action for action."""
    from tanglekit.games import load_game
    from tanglekit.games.zangle.play import play_game as native_game
    from tanglekit.play.bots import make_bot
    from tanglekit.play.match import play_game

    players = 1 if mode == "solo" else 2
    for seed in range(2):
        ref = native_game(mode, players, ["greedy"], seed=seed)
        st = load_game(f"zangle-{mode}").new_initial_state(seed=seed)
        played = play_game(st, [make_bot(f"zangle-{mode}", "greedy", i) for i in range(players)], random.Random(0))
        assert st.returns() == ref["returns"] and len(played) == ref["actions"]


def test_zangle_solo_perfect_bot_wins_every_deal_the_solver_can_win():
    from tanglekit.play.match import run_match
    from tanglekit.games.zangle.solo_search import SoloDeal, solve_deal

    from tanglekit.games import load_game
    from tanglekit.play.match import derive_seed

    res = run_match("zangle-solo", ["perfect"], games=4, seed=0)
    game = load_game("zangle-solo")
    winnable = 0
    for i in range(4):  # the deals run_match dealt
        st = game.new_initial_state(seed=derive_seed(0, i) % (1 << 31))
        winnable += bool(solve_deal(SoloDeal.from_game(st.engine)).solvable)
    assert res.wins[0] == winnable > 0


def test_qango_perfect_first_player_wins_the_solved_board_in_11_plies():
    """QANGO 6 (standard opening) is a first-player win in 11 plies (docs/qango.md): the
    perfect bot as X wins every game against the search bot, never taking more plies."""
    from tanglekit.play.match import run_match

    res = run_match("qango", ["perfect", "search"], games=2, seed=0, rotate=False)
    assert res.wins == [2, 0] and res.draws == 0
    assert res.actions <= 2 * 11


@pytest.mark.parametrize("game,strong,games", [("tangle", "lookahead", 4), ("zinga", "perfect", 4),
                                               ("tanglung-duel", "pimc", 2)])
def test_strong_bot_beats_random(game, strong, games):
    from tanglekit.play.match import run_match

    res = run_match(game, [strong, "random"], games=games, seed=1)
    assert res.wins[0] == games, res.to_json()


def test_tanglung_coop_perfect_pair_takes_the_solver_moves():
    from tanglekit.games import load_game
    from tanglekit.play.bots import make_bot
    from tanglekit.play.match import play_game
    from tanglekit.games.tanglung.coop import solve_coop

    st = load_game("tanglung-coop").new_initial_state(seed=3)
    e = st.engine
    sol = solve_coop(e.layout, tuple(e.starts), e.options)
    played = play_game(st, [make_bot("tanglung-coop", "perfect", i) for i in range(2)], random.Random(0))
    assert (st.returns() == [1.0, 1.0]) == sol.solvable
    if sol.solvable:
        assert len(played) == sol.moves


# --- every solo challenge / puzzle played to "solved" in the terminal ---------------------------
ZANGLE_ID = "zangle:solo,piles=5,easy:2h2a0r.061z18382t0v0q.0w.013b.0h0b34.1l2b1y21.19321a0p0g"
QANGO_ID = "qango:6:k2:.X.OOX/O....O/XO.X../..XO../X...../....X."
TANGLE_ID = ("tangle:players=2,board=tangle-default,pieces=tangle-default,min_points=10,min_chain=2:"
             "qk.2tg.1rv.1sd.fm.1rg.2xk.2qp.2ir")


def test_play_zangle_challenge_to_solved():
    from tanglekit.play.start import resolve_start
    from tanglekit.games.zangle.solo_search import load_solo_deal, solve_deal

    st = resolve_start(ZANGLE_ID).state
    moves = []
    for a in solve_deal(load_solo_deal(ZANGLE_ID)).line:  # the solver's line, in the game's notation
        k = st.action_of(a)
        moves.append(st.action_to_string(k))
        st.apply_action(k)
    out = run("play", ZANGLE_ID, stdin="\n".join(["discard"] + moves[:1] + ["undo", "hint"] + moves) + "\n").stdout
    assert "illegal: " in out  # no discard while a Zangle is on the table (voluntary_discard off)
    assert "hint: " in out and "the solver's winning line has 11 actions from here" in out
    assert f"solved in {len(moves)} actions (the solver's winning line: {len(moves)})" in out


def test_play_qango_puzzle_to_solved_against_the_perfect_defender():
    from tanglekit.play.start import resolve_start
    from tanglekit.play.bots import hint, make_bot

    st = resolve_start(QANGO_ID).state
    line = []
    while not st.is_terminal():  # the winner's hints against the defender the session seats
        a = hint(st).action if st.current_player() == 1 else make_bot("qango", "perfect").choose(st)
        if st.current_player() == 1:
            line.append(st.action_to_string(a))
        st.apply_action(a)
    assert st.returns() == [-1.0, 1.0] and len(line) == 2
    out = run("play", QANGO_ID, stdin="0,1\n" + "\n".join(line) + "\n").stdout
    assert "goal: O to move wins in 2 counters (3 plies) (fewest counters: 2)" in out and "illegal: " in out
    assert "solved in 2 counters (fewest counters: 2)" in out


def test_play_tangle_puzzle_to_solved():
    from tanglekit.play.start import resolve_start
    from tanglekit.games.tangle.search import best_turn

    st = resolve_start(TANGLE_ID).state
    r = best_turn(st.engine, "points")
    moves = [st.engine.game.move_text(p) for p in r.placements]
    out = run("play", TANGLE_ID, stdin="hint\n" + "\n".join(moves) + "\n").stdout
    assert "hint: " in out and f"(the best turn scores {r.points} points" in out
    assert f"solved: {r.points} points this turn (best chain: {r.points} points)" in out


@pytest.mark.slow  # tests/test_docs_commands.py runs every one of them, and checks the log
def test_docs_play_examples_run(tmp_path, monkeypatch):
    """Every command in docs/play.md's examples runs (in order, in one folder)."""
    import re
    import shlex
    from pathlib import Path

    text = (Path(__file__).resolve().parent.parent / "docs" / "play.md").read_text()
    cmds = [re.split(r"\s{2,}#", ln)[0].strip() for block in re.findall(r"```\n(.*?)```", text, re.S)
            for ln in block.splitlines() if ln.startswith("tanglekit ")]
    assert len(cmds) >= 6
    monkeypatch.chdir(tmp_path)
    for c in cmds:
        run(*shlex.split(c)[1:], stdin="")
    assert json.loads((tmp_path / "game.json").read_text())["game"] == "tanglung-solo"


def test_undo_does_not_reroll_the_dice():
    """Zinga rolls are chance nodes: after an undo the same dice come again (no re-roll by undo);
    the perfect reaction profile is deterministic, so the game replays action for action."""
    from tanglekit.play.session import PlaySession
    from tanglekit.play.start import resolve_start

    s = PlaySession(resolve_start("zinga", seed=2), ["human", "perfect"], seed=2)
    s.advance()
    assert s.handle("pass")[0] == "player 0: pass"
    first = s.state.history()
    assert s.handle("undo")[0].startswith("undone")
    assert len(s.state.history()) == 6  # back to the first roll's race, the dice kept
    s.handle("pass")
    assert s.state.history() == first
