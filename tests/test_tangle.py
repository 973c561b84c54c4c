"""Tangle board/piece files, rule options and the engine: legality, captures, scoring, undo, replay."""

import copy
import json
import random

import pytest

from budget import sweep

from tanglekit.errors import FormatError, RuleError
from tanglekit.games.tangle import (
    PASS,
    TangleGame,
    TangleOptions,
    default_board,
    default_pieces,
    load_board,
    load_pieces,
    small_board,
    state_from_json,
)
from tanglekit.games.tangle.board import DATA, parse_board
from tanglekit.shapes.hexgrid import axial_to_offset, side_vertices, tile_side, tile_sides

SMALL_PIECES = {
    "pieces": [
        {"name": "I1", "value": 1, "count": 6, "turns": ""},
        {"name": "V2", "value": 2, "count": 4, "turns": "R"},
        {"name": "C3", "value": 3, "count": 3, "turns": "RR"},
    ]
}


def small_game(players=2, radius=1, **opts):
    return TangleGame(small_board(radius), load_pieces(SMALL_PIECES), TangleOptions(**opts), players)


def elsewhere(s, avoid_tiles):
    """Play a legal I1 that covers no side of ``avoid_tiles`` (a quiet move for the other side)."""
    g = s.game
    bad = set()
    for t in avoid_tiles:
        bad.update(tile_sides(t))
    k = g.pieces.index("I1")
    for p in s.legal_placements():
        if g.pl_kind[p] == k and not set(g.placement_sides(p)) & bad:
            return s.push(p)
    raise AssertionError("no quiet move")


def place(s, name, sides):
    """Play the placement of piece ``name`` on exactly ``sides`` (axial side coordinates)."""
    return s.push(s.game.parse_move({"piece": name, "sides": [list(x) for x in sides]}))


# --- data files -----------------------------------------------------------------------------


def test_default_board_matches_rules_md():
    b = default_board()
    assert len(b.tiles) == 93 and b.assumed
    rows = {}
    for t in b.tiles:
        c, r = axial_to_offset(t, b.offset)
        rows.setdefault(r, []).append(c)
    assert [len(rows[r]) for r in sorted(rows)] == [8, 9] * 5 + [8]
    sc, sr = axial_to_offset(b.tiles[b.star], b.offset)
    assert (sc, sr) == (4, 5)  # middle of the middle row (9 tiles)
    text = b.rows_text()
    assert all(row == row[::-1] for row in text) and text == text[::-1]  # kinds placed symmetrically
    assert set(b.kinds) == {"plain", "circle", "triangle", "square"}
    # capture values: plain 1, circle 2, triangle 2 + 2 x piece, square 4 + 2 x piece (+ the piece)
    kinds = {k: b.kinds.index(k) for k in ("plain", "circle", "triangle", "square")}
    assert [b.tile_value(kinds[k], 3) for k in ("plain", "circle", "triangle", "square")] == [4, 5, 11, 13]


def test_default_pieces_match_rules_md():
    ps = default_pieces()
    assert [k.size for k in ps.kinds] == [1, 2, 3, 4, 4, 5]
    assert [k.value for k in ps.kinds] == [1, 2, 3, 4, 4, 5]
    assert [k.count for k in ps.kinds] == [7, 6, 5, 4, 4, 3] and sum(k.count for k in ps.kinds) == 29
    a, b = [k for k in ps.kinds if k.size == 4]
    assert not a.shape.congruent(b.shape)
    assert all(k.shape.is_connected() for k in ps.kinds)


def test_board_round_trip_and_file_errors():
    b = default_board()
    assert parse_board(b.to_json()) == b
    raw = json.loads((DATA / "tangle-default.board.json").read_text())
    cases = [
        ({"rows": ["...", "..."]}, "no Center Star"),
        ({"rows": ["*.*"]}, "more than one star"),
        ({"rows": ["*x"]}, "not in the legend"),
        ({"rows": ["*.", "", "", ".."]}, "connected"),
        ({"offset": "odd-q"}, "offset"),
        ({"values": {"hexagon": {"base": 1}}}, "values.hexagon"),
        ({"rows": []}, "rows"),
    ]
    for patch, msg in cases:
        bad = dict(raw, **patch)
        with pytest.raises(FormatError, match=msg):
            parse_board(bad)
    with pytest.raises(FormatError, match="no board file"):
        load_board("no-such-board")


def test_piece_file_errors():
    good = copy.deepcopy(SMALL_PIECES)
    assert len(load_pieces(good)) == 3
    cases = [
        ([{"name": "A", "value": 1, "count": 1, "turns": ""}, {"name": "B", "value": 2, "count": 1, "sides": [[3, 0]]}], "same shape"),
        ([{"name": "A", "value": 1, "count": 1, "turns": "RQ"}], "turns"),
        ([{"name": "A", "value": 1, "count": 1, "sides": [[1, 0], [5, 0]]}], "not connected"),
        ([{"name": "A", "value": 1, "count": 1, "sides": [[2, 2]]}], "not a hex side"),
        ([{"name": "A", "value": -1, "count": 1, "turns": ""}], "value"),
        ([{"name": "A", "value": 1, "count": "x", "turns": ""}], "count"),
        ([{"name": "A", "value": 1, "count": 1}], "turns"),
        ([{"name": "A", "value": 1, "count": 1, "turns": ""}, {"name": "A", "value": 1, "count": 1, "turns": "R"}], "duplicate"),
    ]
    for pieces, msg in cases:
        with pytest.raises(FormatError, match=msg):
            load_pieces({"pieces": pieces})


def test_options_from_cli_strings_and_errors():
    o = TangleOptions.from_dict({"connection": "tile", "target_score": "30", "partners": "on"})
    assert o.connection == "tile" and o.target_score == 30 and o.partners
    with pytest.raises(RuleError, match="unknown"):
        TangleOptions.from_dict({"colour": "red"})
    with pytest.raises(RuleError, match="connection"):
        TangleOptions(connection="edge")
    with pytest.raises(RuleError, match="partners"):
        TangleGame(options=TangleOptions(partners=True), players=2)
    with pytest.raises(RuleError, match="2 to 4"):
        TangleGame(players=5)


# --- rules ----------------------------------------------------------------------------------


def _vertex_connected(sides):
    sides = list(sides)
    if not sides:
        return True
    seen, todo = {sides[0]}, [sides[0]]
    vs = {s: set(side_vertices(s)) for s in sides}
    while todo:
        a = todo.pop()
        for b in sides:
            if b not in seen and vs[a] & vs[b]:
                seen.add(b)
                todo.append(b)
    return len(seen) == len(sides)


def test_random_games_keep_the_rules():
    g = TangleGame(players=3)
    rng = random.Random(7)
    for _ in range(3):
        s = g.new_state()
        while not s.over:
            legal = s.legal_moves()
            me = s.to_move
            if legal != [PASS] and not s.started[me]:
                assert all(g.pl_mask[p] & g.star_mask for p in legal)  # first piece on a star side
            p = rng.choice(legal)
            before = s.pieces_left(me)
            s.push(p)
            if p != PASS:
                assert s.pieces_left(me) == before - 1
                placed = [g.sides[i] for i, o in enumerate(s.owner) if o >= 0]
                assert _vertex_connected(placed)
        assert s.over
        assert any(v >= 50 for v in s.scores) or any(s.pieces_left(p) == 0 for p in range(3)) or s.passes >= 3
        # every captured tile is closed in one colour
        for t, team in s.captured.items():
            owners = {s.owner[g.side_id[x]] for x in tile_sides(g.board.tiles[t])}
            assert owners == {team}


def test_illegal_moves_are_refused():
    g = small_game()
    s = g.new_state()
    off_star = next(p for p in range(g.n_placements) if not g.pl_star[p])
    with pytest.raises(RuleError):
        s.push(off_star)
    with pytest.raises(RuleError):
        s.push(PASS)  # passing is only allowed without a legal placement
    star = g.board.tiles[g.board.star]
    place(s, "I1", [tile_side(star, 0)])
    with pytest.raises(RuleError):
        place(s, "I1", [tile_side(star, 0)])  # occupied
    far = next(p for p in range(g.n_placements) if g.pl_star[p] and not (g.pl_nbr[p] & s.occ) and not (g.pl_mask[p] & s.occ))
    with pytest.raises(RuleError):
        s.push(far)  # touches the star but not the group


def test_capture_scores_extra_turn_and_tile_values():
    for kind, expect in [("plain", 3 + 1), ("circle", 3 + 2), ("triangle", 3 + 2 + 6), ("square", 3 + 4 + 6)]:
        b = small_board(1)
        kinds = list(b.kinds)
        kinds[b.star] = kind
        from dataclasses import replace

        g = TangleGame(replace(b, kinds=tuple(kinds)), load_pieces(SMALL_PIECES), TangleOptions(first_piece="game"), 2)
        s = g.new_state()
        star = b.tiles[b.star]
        sides = tile_sides(star)
        place(s, "C3", sides[0:3])  # player 0
        elsewhere(s, [star])  # player 1
        caps = place(s, "C3", sides[3:6])  # player 0 closes the star in one colour
        assert [c.points for c in caps] == [expect] and s.scores[0] == expect
        assert s.to_move == 0 and s.turns_left == 1  # extra turn
        assert s.captured == {b.star: 0}


def test_mixed_colours_capture_nothing():
    g = small_game()
    s = g.new_state()
    star = g.board.tiles[g.board.star]
    sides = tile_sides(star)
    place(s, "C3", sides[0:3])
    place(s, "V2", sides[3:5])
    caps = place(s, "I1", sides[5:6])
    assert caps == [] and s.scores == [0, 0] and s.to_move == 1 and not s.captured


def test_double_capture_gives_two_extra_placements_or_one():
    for mode, extra in [("per-capture", 2), ("per-placement", 1)]:
        g = small_game(radius=2, extra_turns=mode, first_piece="game")
        s = g.new_state()
        a = g.board.tiles[g.board.star]
        b = (a[0] + 1, a[1])  # shares side 0 of a
        sa, sb = tile_sides(a), tile_sides(b)
        # player 0 builds a and b up to their shared side; player 1 plays quietly elsewhere
        for name, chunk in (("C3", sa[1:4]), ("V2", sa[4:6]), ("C3", sb[0:3]), ("V2", sb[4:6])):
            place(s, name, chunk)
            elsewhere(s, [a, b])
        assert s.to_move == 0 and s.scores == [0, 0]
        caps = place(s, "I1", [sa[0]])
        assert len(caps) == 2 and s.turns_left == extra and s.to_move == 0
        assert s.scores[0] == 2 * (1 + 1)


def test_partners_capture_in_team_colours():
    g = small_game(players=4, partners=True, first_piece="game")
    s = g.new_state()
    star = g.board.tiles[g.board.star]
    sides = tile_sides(star)
    place(s, "C3", sides[0:3])  # seat 0 (team 0)
    elsewhere(s, [star])  # seat 1
    place(s, "C3", sides[3:6])  # seat 2 (team 0) closes it in the team's two colours
    assert s.captured == {g.board.star: 0} and s.scores == [4, 0] and s.to_move == 2


def test_game_ends_at_target_score_and_when_out_of_pieces():
    g = small_game(target_score=4, first_piece="game")
    s = g.new_state()
    star = g.board.tiles[g.board.star]
    sides = tile_sides(star)
    place(s, "C3", sides[0:3])
    elsewhere(s, [star])
    place(s, "C3", sides[3:6])
    assert s.over and s.winners() == [0]
    tiny = {"pieces": [{"name": "I1", "value": 1, "count": 1, "turns": ""}, {"name": "V2", "value": 2, "count": 1, "turns": "R"}]}
    g2 = TangleGame(small_board(1), load_pieces(tiny), TangleOptions(), 2)
    s2 = g2.new_state()
    place(s2, "I1", [sides[0]])
    place(s2, "I1", [sides[1]])
    assert not s2.over
    place(s2, "V2", sides[2:4])
    assert s2.over  # player 0 used all pieces


def test_undo_and_json_replay_round_trip():
    g = TangleGame(players=2)
    rng = random.Random(3)
    s = g.new_state()
    snapshots = []
    while not s.over and len(s.moves) < 40:
        snapshots.append((s.occ, list(s.scores), s.to_move, s.turns_left, dict(s.captured), [list(r) for r in s.remaining]))
        s.push(rng.choice(s.capturing_placements() or s.legal_moves()))
    data = json.loads(json.dumps(s.to_json()))
    r = state_from_json(data)
    assert r.moves == s.moves and r.scores == s.scores and r.occ == s.occ and r.over == s.over
    while s.moves:
        s.pop()
        assert (s.occ, s.scores, s.to_move, s.turns_left, s.captured, s.remaining) == snapshots[len(s.moves)]
    assert s.owner == [-1] * g.n_sides
    # (move text round trips: tests/test_game_api.py, at every step of its playouts)
    bad = dict(data, moves=data["moves"][:2] + data["moves"][1:2])
    with pytest.raises(RuleError, match="move 3"):
        state_from_json(bad)
    with pytest.raises(FormatError):
        g.parse_move("C9 1,1:0")


def test_first_piece_game_option_and_tile_connection():
    g = small_game(players=2, first_piece="game")
    s = g.new_state()
    star = g.board.tiles[g.board.star]
    place(s, "I1", [tile_side(star, 0)])
    # second player need not touch the star: a side touching the first piece at its far vertex
    far = [p for p in s.legal_placements() if not g.pl_star[p]]
    assert far
    g_each = small_game(players=2)
    s2 = g_each.new_state()
    place(s2, "I1", [tile_side(star, 0)])
    assert all(g_each.pl_star[p] for p in s2.legal_placements())
    # "tile" connection is looser: the opposite side of the same tile becomes reachable
    gt = small_game(players=2, connection="tile", first_piece="game")
    st = gt.new_state()
    place(st, "I1", [tile_side(star, 0)])
    opposite = gt.parse_move({"piece": "I1", "sides": [list(tile_side(star, 3))]})
    assert opposite in st.legal_placements() and opposite not in s.legal_placements()


@pytest.mark.parametrize("players,opts", [
    (2, {}), (3, {"connection": "tile"}), (2, {"first_piece": "game", "mirror": False}),
    (4, {"partners": True, "extra_turns": "per-placement"}), (2, {"end_timing": "round", "target_score": 20}),
])
@pytest.mark.parametrize("games", sweep(1, 2, "games"))
def test_engine_move_generation_is_the_reference(players, opts, games):
    """The engine's legal_placements (numba kernel) equals the plain rule and the Python-int
    loop on every position of seeded random games, for every player and rule option."""
    from tanglekit.games.tangle.movegen import legal_placements_reference
    from tanglekit.games.tangle.movegen import legal_placements_fast  # the old import still works

    g = TangleGame(options=TangleOptions(**opts), players=players)
    checked = 0
    for seed in range(games):
        rng = random.Random(seed * 31 + players)
        s = g.new_state()
        while not s.over:
            for pl in range(players):
                fast = s.legal_placements(pl)
                assert fast == legal_placements_reference(s, pl) == s.legal_placements_slow(pl)
            assert [int(x) for x in legal_placements_fast(s)] == s.legal_placements()
            caps = set(s.capturing_placements())
            assert caps == {p for p in s.legal_placements() if s.capture_points(p)[0] > 0}
            checked += 1
            s.push(rng.choice(s.legal_moves()))
    assert checked > 10 * games
