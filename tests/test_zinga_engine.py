"""Zinga rules engine: each blunder case, PLUS and bonus, the pawn, announcements, win, options, log."""

import pytest

from tanglekit.errors import FormatError, RuleError
from tanglekit.games.zinga.engine import Move, ZingaGame
from tanglekit.games.zinga.rules import ZingaOptions, code_of
from tanglekit.games.zinga.sheet import Sheet

A = Sheet.from_json([["yellow 6", "blue 3", "red 2", "orange 3", "green 10"],
                     ["green 4", "red 9", "orange 9", "yellow 10", "blue 8"],
                     ["orange 1", "green 1", "blue 9", "red 7", "yellow 7"],
                     ["blue 5", "orange 5", "yellow 2", "green 11", "red 11"],
                     ["red 12", "yellow 12", "green 8", "blue 6", "orange 4"]], "A")
B = Sheet.from_json([["orange 3", "blue 5", "yellow 12", "green 4", "red 7"],
                     ["red 12", "yellow 6", "green 8", "orange 1", "blue 3"],
                     ["green 1", "red 11", "blue 9", "yellow 2", "orange 9"],
                     ["blue 6", "green 10", "orange 5", "red 2", "yellow 10"],
                     ["yellow 7", "orange 4", "red 9", "blue 8", "green 11"]], "B")

ONES = "roll 1 1 1 1 1 1"  # every colour 1 alone, every sum 2
BLUE9 = "roll 1 1 1 1 4 5"  # blue 4 + white 5 = 9 (a sum: active and passive)
RED7 = "roll 2 1 1 1 1 5"
YELLOW7 = "roll 1 1 2 1 1 5"


def game(n=2, **opts):
    sheets = [A, B, A][:n]
    return ZingaGame(sheets, ZingaOptions(**opts))


def play(g, *moves):
    for m in moves:
        g.play(m)
    return g


def skip(g):
    """The other player's turn, nobody rings (2 players)."""
    return play(g, ONES, "none")


def row2_four(g):
    """Player 0 ticks orange 1, green 1, blue 9, red 7 (row 3 of sheet A minus yellow 7) on own turns."""
    play(g, ONES, "claim 0 orange 1")
    skip(g)
    play(g, ONES, "claim 0 green 1")
    skip(g)
    play(g, BLUE9, "claim 0 blue 9")
    skip(g)
    play(g, RED7, "claim 0 red 7")
    return g


def test_active_single_die_and_sum():
    g = play(game(), "roll 2 6 6 6 6 1", "claim 0 red 2")
    assert g.players[0].ticked == 1 << 2 and g.active == 1 and g.phase == "roll"
    play(g, "roll 2 6 6 6 6 1", "claim 0 red 3")  # passive: 2 + 1 = 3, not on sheet A -> blunder 1
    assert g.players[0].blunder_log == [1]


def test_blunder_case1_passive_lone_die_and_option():
    g = play(game(), ONES, "none", "roll 1 1 6 1 1 1", "claim 0 yellow 6")
    assert g.players[0].blunder_log == [1] and g.players[0].ticked == 0
    g = play(game(table_by_role=False), ONES, "none", "roll 1 1 6 1 1 1", "claim 0 yellow 6")
    assert g.players[0].blunders == 0 and g.players[0].ticked == 1


def test_blunder_case1_not_on_sheet_ends_turn():
    g = play(game(), ONES, "claim 0 red 1")
    assert g.players[0].blunder_log == [1] and g.players[0].blunders == 1
    assert g.active == 1 and g.phase == "roll"


def test_blunder_cases_2_and_3():
    g = play(game(), ONES, "silent 0", ONES, "correct 1 green 1 orange 1")
    assert g.players[0].blunder_log == [2] and g.players[1].blunder_log == [3]
    assert g.players[1].ticked == 0


def test_plus_boxes_bonus_and_case4():
    g = play(game(), ONES, "claim 0 orange 1")
    for k in range(3):
        skip(g)
        play(g, ONES, "claim 0 orange 1")
        assert g.players[0].plus == k + 1
    assert g.phase == "bonus"
    with pytest.raises(RuleError, match="already ticked"):
        g.play("bonus 0 orange 1")
    play(g, "bonus 0 red 12")
    assert g.players[0].bonus_used and g.players[0].ticked >> 20 & 1
    skip(g)
    play(g, ONES, "claim 0 orange 1")  # fourth re-claim: boxes full
    assert g.players[0].blunder_log == [4]


def test_plus_needs_table_option():
    g = play(game(), ONES, "claim 0 orange 1", *["roll 6 6 6 6 6 6", "none"], "roll 6 6 6 6 6 6", "claim 0 orange 1")
    assert g.players[0].blunder_log == [1] and g.players[0].plus == 0
    g = play(game(plus_needs_table=False), ONES, "claim 0 orange 1", "roll 6 6 6 6 6 6", "none",
             "roll 6 6 6 6 6 6", "claim 0 orange 1")
    assert g.players[0].plus == 1 and g.players[0].blunders == 0


def test_bonus_never_ticks_the_fifth_of_a_line():
    g = row2_four(game())
    for _ in range(3):
        skip(g)
        play(g, ONES, "claim 0 orange 1")
    assert g.phase == "bonus"
    with pytest.raises(RuleError, match="fifth cell"):
        g.play("bonus 0 yellow 7")
    g.play("bonus 0 red 2")
    assert g.phase == "roll"


def test_case5_unannounced_fifth_then_announce_and_win():
    g = row2_four(game())
    skip(g)
    play(g, YELLOW7, "claim 0 yellow 7")
    assert g.players[0].blunder_log == [5] and g.winner is None
    g.play("announce 0 yellow 7")  # may still announce before a later turn
    skip(g)
    play(g, YELLOW7, "claim 0 yellow 7")
    assert g.winner == 0 and g.is_over() and g.legal_moves() == []


def test_announce_only_between_turns_and_only_real_fours():
    g = row2_four(game())
    with pytest.raises(RuleError, match="does not complete"):
        g.play("announce 0 red 2")
    g.play(ONES)
    with pytest.raises(RuleError, match="not allowed in phase 'race'"):
        g.play("announce 0 yellow 7")


def test_announce_any_line_option():
    # the centre completes row 3 and column 3 at once; only the row was announced
    for any_line, expect in ((True, 0), (False, None)):
        g = game(announce_any_line=any_line)
        ps = g.players[0]
        ps.ticked = sum(1 << i for i in (10, 11, 13, 14, 2, 7, 17, 22))
        g.play("announce 0 blue 9")
        ps.announced.discard(7)  # pretend only the row (line 2) was announced
        assert ps.announced == {2}
        play(g, BLUE9, "claim 0 blue 9")
        assert g.winner == expect
        if expect is None:
            assert ps.blunder_log == [5]


def test_pawn_taken_and_stolen():
    g = play(game(), BLUE9, "claim 0 blue 9")
    assert g.pawn == 0
    play(g, BLUE9, "claim 1 blue 9")  # a sum: fine for either role
    assert g.phase == "stop"  # the holder may say STOP first
    g.play("go")
    assert g.pawn == 1 and g.players[1].ticked == 1 << 12


def test_pawn_window_without_auto_take():
    g = play(game(auto_take_pawn=False), BLUE9, "claim 0 blue 9")
    assert g.pawn is None and g.legal_moves()[-1] == Move("take", 0)
    g.play("take 0")
    assert g.pawn == 0
    g = play(game(auto_take_pawn=False), BLUE9, "claim 0 blue 9", ONES)
    g.play("none")
    with pytest.raises(RuleError, match="did not tick blue 9"):
        g.play("take 0")  # too late: the dice were rolled again


def test_stop_cancels_a_claim_and_passes_the_pawn():
    g = play(game(), BLUE9, "claim 0 blue 9", ONES, "claim 1 green 1")
    assert g.phase == "stop"
    with pytest.raises(RuleError, match="only the pawn holder"):
        g.play("stop 1")
    g.play("stop 0")
    assert g.pawn == 1 and g.players[1].ticked == 0 and g.players[1].blunders == 0
    assert g.active == 0 and g.phase == "roll"
    play(g, ONES, "claim 0 green 1", "go")  # holder 1 lets it through
    assert g.players[0].ticked >> 11 & 1


def test_stop_any_call_option():
    g = play(game(stop_any_call=False), BLUE9, "claim 0 blue 9", ONES, "claim 1 red 1")
    assert g.phase == "roll" and g.players[1].blunder_log == [1]  # a wrong call cannot be stopped
    g = play(game(), BLUE9, "claim 0 blue 9", ONES, "claim 1 red 1")
    assert g.phase == "stop"


def test_third_blunder_cancelled_with_the_pawn_or_eliminates():
    g = play(game(), BLUE9, "claim 0 blue 9", ONES, "silent 0", ONES, "silent 0", ONES, "silent 0")
    assert g.phase == "blunder"
    g.play("cancel 0")
    assert g.pawn is None and g.players[0].blunders == 2 and g.players[0].alive
    play(g, ONES, "silent 0")
    assert not g.players[0].alive and g.winner == 1  # last standing of two


def test_accept_third_blunder_and_three_players_continue():
    g = play(game(3), BLUE9, "claim 0 blue 9", ONES, "silent 0", ONES, "silent 0", ONES, "silent 0")
    g.play("accept 0")
    assert not g.players[0].alive and g.pawn is None and g.winner is None
    assert g.active == 1  # player 2 was active; seat 0 is skipped
    with pytest.raises(RuleError, match="eliminated"):
        play(g, ONES, "claim 0 orange 1")


def test_last_standing_option_and_max_turns():
    g = play(game(last_standing_wins=False), ONES, "silent 0", ONES, "none", ONES, "silent 0",
             ONES, "none", ONES, "silent 0")
    assert not g.players[0].alive and g.winner is None and not g.is_over()
    g = game(max_turns=2)
    play(g, ONES, "none", ONES, "none")
    assert g.is_over() and g.draw


def test_phase_errors_and_move_parsing():
    g = game()
    with pytest.raises(RuleError, match="not allowed in phase 'roll'"):
        g.play("claim 0 red 2")
    with pytest.raises(FormatError):
        Move.parse("roll 1 2 3")
    with pytest.raises(FormatError):
        Move.parse("dance 0")
    for t in ("roll 1 2 3 4 5 6", "claim 2 red 7", "silent 1", "correct 0 blue 3 red 4", "none", "stop 1",
              "go", "bonus 0 green 4", "bonus 0 skip", "cancel 1", "accept 1", "announce 0 red 12", "take 2"):
        assert Move.parse(t).text() == t
    with pytest.raises(RuleError, match="at least 2"):
        ZingaGame([A])


def test_log_replay_undo_and_json_round_trip():
    g = row2_four(game())
    g.play("announce 0 yellow 7")
    skip(g)
    play(g, YELLOW7, "claim 0 yellow 7")
    h = ZingaGame.from_json(g.to_json())
    assert h.winner == 0 and [m.text() for m in h.moves] == [m.text() for m in g.moves]
    u = g.undo(1)
    assert u.phase == "race" and u.winner is None
    u.play("none")
    assert u.phase == "roll" and u.players[0].ticked == g.players[0].ticked & ~(1 << 14)
    with pytest.raises(RuleError, match="move 3"):
        ZingaGame.replay([A, B], [ONES, "none", "claim 0 red 2"])


def test_legal_claims_are_not_blunders():
    g = play(game(), "roll 3 4 2 5 6 6")
    for m in g.legal_moves():
        if m.kind == "claim":
            assert g.classify(m.player, m.code)[0] in ("tick", "plus", "win")
    claims = {(m.player, m.code) for m in g.legal_moves() if m.kind == "claim"}
    assert (0, code_of("red", 9)) in claims and (1, code_of("red", 9)) in claims  # 3 + 6
    assert (0, code_of("red", 3)) not in claims  # not on sheet A
