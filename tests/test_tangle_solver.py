"""Tangle best-turn search against brute force, bots, puzzles (verified, IDs) and the CLI."""

import json
import random

import pytest

from tanglekit.errors import BotError, SolverError
from tanglekit.games.tangle import TangleGame, TangleOptions, load_pieces, small_board, state_from_json
from tanglekit.shapes.hexgrid import tile_sides
from tanglekit.games.tangle.generate import (
    building_position,
    generate_puzzle,
    load_state_or_id,
    puzzle_from_id,
    verify_puzzle,
)
from tanglekit.games.tangle.bots import make_bot, play_game, run_match
from tanglekit.games.tangle.search import best_turn, brute_force_best_turn, leaves_no_capture

SMALL_PIECES = {
    "pieces": [
        {"name": "I1", "value": 1, "count": 5, "turns": ""},
        {"name": "V2", "value": 2, "count": 3, "turns": "R"},
        {"name": "C3", "value": 3, "count": 2, "turns": "RR"},
    ]
}


def small_positions(n, seed, **opts):
    """Reachable positions on radius-1/2 boards: building lines and random lines."""
    rng = random.Random(seed)
    pieces = load_pieces(SMALL_PIECES)
    out = []
    while len(out) < n:
        radius = rng.choice([1, 2])
        g = TangleGame(small_board(radius, "mixed"), pieces, TangleOptions(**opts), rng.choice([2, 3]))
        if rng.random() < 0.6:
            s = building_position(g, rng.randint(3, 12 if radius == 1 else 16), rng)
        else:
            s = g.new_state()
            for _ in range(rng.randint(1, 12)):
                if s.over:
                    break
                s.push(rng.choice(s.legal_moves()))
        if not s.over:
            out.append(s)
    return out


@pytest.mark.parametrize("opts", [{}, {"extra_turns": "per-placement"}, {"first_piece": "game", "connection": "tile"}])
def test_best_turn_matches_brute_force(opts):
    chains = 0
    for s in small_positions(14, seed=len(opts) + 1, **opts):
        for mode in ("points", "safe"):
            r = best_turn(s, mode)
            assert (r.points, r.safe) == brute_force_best_turn(s, mode), (mode, s.moves)
            # the reported placements replay to the reported points
            c = s.copy_position()
            team = c.game.team_of[c.to_move]
            start = c.scores[team]
            for p in r.placements:
                c.push(p)
            assert c.scores[team] - start == r.points
            if mode == "safe" and r.safe and r.placements:
                assert c.over or c.to_move != s.to_move
                assert leaves_no_capture(c)
            chains += len(r.placements) >= 2
    assert chains >= 3  # the sample holds real chains, not only single captures


def test_best_turn_on_default_board_selfplay_positions():
    g = TangleGame(players=2)
    bots = [make_bot("builder", 1), make_bot("greedy", 2)]
    rng = random.Random(4)
    s = g.new_state()
    seen = 0
    while not s.over and seen < 30:
        if s.turns_left == 1:
            r = best_turn(s, "points")
            caps = s.capturing_placements()
            best_single = max((s.capture_points(p)[1] for p in caps), default=0)
            assert r.points >= best_single  # one capture is already a chain
            assert (r.points > 0) == bool(caps)
            seen += 1
        s.push(bots[s.to_move].choose(s) if rng.random() > 0.3 else rng.choice(s.legal_moves()))
    with pytest.raises(SolverError):
        best_turn(g.new_state(), "sideways")


def test_bots_are_deterministic_and_ranked():
    g = TangleGame(players=2)
    a = play_game(g, [make_bot("greedy", 5), make_bot("random", 6)])
    b = play_game(g, [make_bot("greedy", 5), make_bot("random", 6)])
    assert a.moves == b.moves and a.over
    r = run_match("greedy", "random", games=6, seed=1, game=g)
    assert r.wins_a >= 5
    r = run_match("builder", "greedy", games=6, seed=1, game=g)
    assert r.wins_a >= 5
    r = run_match("lookahead", "builder", games=4, seed=1, game=g)
    assert r.wins_a >= 3
    with pytest.raises(BotError):
        make_bot("oracle")


def test_four_player_partners_game_runs_to_the_end():
    g = TangleGame(options=TangleOptions(partners=True), players=4)
    s = play_game(g, [make_bot("greedy", i) for i in range(4)])
    assert s.over and len(s.scores) == 2
    for t, team in s.captured.items():
        owners = {s.owner[g.side_id[x]] for x in tile_sides(g.board.tiles[t])}
        assert {o % 2 for o in owners} == {team}


def test_puzzle_is_verified_unique_and_ids_round_trip():
    p = generate_puzzle(seed=3, min_points=10, min_chain=2)
    assert p["points"] >= 10 and p["chain_length"] >= 2
    assert verify_puzzle(p)
    s = state_from_json(p)
    assert best_turn(s).points == p["points"]
    from_id = puzzle_from_id(p["id"])
    assert from_id.moves == s.moves
    again = puzzle_from_id(p["seed_id"])
    assert again["id"] == p["id"]
    tampered = dict(p, points=p["points"] + 1)
    assert not verify_puzzle(tampered)
    assert load_state_or_id(p["id"]).to_move == p["to_move"]
    hard = generate_puzzle(seed=1, hard=True)
    assert hard["greedy_points"] < hard["points"] and verify_puzzle(hard)
    assert puzzle_from_id(hard["seed_id"])["id"] == hard["id"]


def _cli(*args):
    """``tanglekit tangle ARGS`` in-process (the console script's code path, ``hostile.run``)."""
    from hostile import run

    return run(["tangle", *args])


def test_cli_board_best_turn_and_errors(tmp_path):
    r = _cli("board", "show", "--json", "--svg", str(tmp_path / "b.svg"))
    assert r.returncode == 0, r.stderr
    info = json.loads(r.stdout)
    assert info["tiles"] == 93 and info["kinds"]["square"] == 8
    assert (tmp_path / "b.svg").read_text().startswith("<svg")
    p = generate_puzzle(seed=1, min_points=10, min_chain=2)
    f = tmp_path / "p.json"
    f.write_text(json.dumps(p))
    r = _cli("best-turn", str(f), "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["points"] == p["points"] and len(out["placements"]) == p["chain_length"]
    r = _cli("best-turn", p["id"], "--json")
    assert json.loads(r.stdout)["points"] == p["points"]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format": "tangle-state", "moves": [{"piece": "C9", "sides": [[1, 0]]}]}))
    r = _cli("best-turn", str(bad))
    assert r.returncode == 2 and "Traceback" not in r.stderr and "C9" in r.stderr
    r = _cli("play", "--bots", "greedy,random", "--seed", "1", "--json")
    assert r.returncode == 0 and json.loads(r.stdout)["over"]
    r = _cli("play", "--option", "colour=red")
    assert r.returncode == 2 and "unknown Tangle rule option" in r.stderr


def _quiet(s, avoid):
    """A legal non-capturing placement touching none of the ``avoid`` tiles' sides."""
    g = s.game
    bad = {x for t in avoid for x in tile_sides(t)}
    caps = set(s.capturing_placements())
    for p in s.legal_placements():
        if p not in caps and not set(g.placement_sides(p)) & bad:
            return s.push(p)
    raise AssertionError("no quiet move")


@pytest.mark.parametrize("extra, expect", [("per-capture", 6), ("per-placement", 4)])
def test_double_capture_then_setup_and_capture(extra, expect):
    """After closing two tiles with one side, the second extra placement is a setup that lets
    the third close a tile whose two free sides no single piece covers."""
    g = TangleGame(small_board(2), load_pieces(SMALL_PIECES), TangleOptions(first_piece="game", connection="tile", extra_turns=extra), 2)
    s = g.new_state()
    a = g.board.tiles[g.board.star]
    b, c = (a[0] + 1, a[1]), (a[0] - 1, a[1])
    sa, sb, sc = tile_sides(a), tile_sides(b), tile_sides(c)

    def mine(name, sides):
        s.push(g.parse_move({"piece": name, "sides": [list(x) for x in sides]}))
        _quiet(s, [a, b, c])

    for name, sides in (("C3", sa[1:4]), ("V2", sa[4:6]), ("C3", sb[0:3]), ("V2", sb[4:6]), ("V2", sc[2:4]), ("I1", sc[5:6])):
        mine(name, sides)
    assert s.to_move == 0 and not s.captured
    for mode in ("points", "safe"):
        r = best_turn(s, mode)
        assert r.points == expect == brute_force_best_turn(s, mode)[0]
    r = best_turn(s, "points")
    if extra == "per-capture":
        c2 = s.copy_position()
        kinds = [bool(c2.push(p)) for p in r.placements]
        assert kinds == [True, False, True]  # capture two, set up, capture


def test_node_budget_error_or_partial_answer():
    from tanglekit.games.tangle.generate import greedy_points

    g = TangleGame(players=2)
    s = building_position(g, 30, random.Random(0))  # both sides built, nobody captured: many open tiles
    with pytest.raises(SolverError, match="node limit"):
        best_turn(s, "points", node_limit=300)
    r = best_turn(s, "points", node_limit=300, partial=True)
    assert not r.exact and r.points >= greedy_points(s) > 0
    c = s.copy_position()
    team = g.team_of[c.to_move]
    start = c.scores[team]
    for p in r.placements:
        c.push(p)
    assert c.scores[team] - start == r.points
