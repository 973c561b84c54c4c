"""Turn-game go-out check (memo search vs plain exhaustive search, engine replay) and deals with properties."""

import json

import pytest

from tanglekit.games.zangle.cli import go_out_command, turn_generate_command
from tanglekit.errors import RuleError
from tanglekit.games.zangle.deal import parse_deal
from tanglekit.games.zangle.turn import TurnGame
from tanglekit.games.zangle.generate import generate_turn_deal, middle_zangle
from tanglekit.games.zangle import solo_search as zangle_solo
from tanglekit.games.zangle.turn_search import go_out_position, turn_go_out

assert zangle_solo.turn_go_out is turn_go_out  # the old import path keeps working


def test_go_out_matches_reference_and_replays():
    agree = 0
    for seed in range(12):
        g = TurnGame(seed=seed, players=2)
        for p in (0, 1):
            ok, line, _ = turn_go_out(g, p, max_states=3000)
            ref, _, _ = turn_go_out(g, p, max_states=3000, memo=False)
            if ok is not None and ref is not None:
                agree += 1
                assert ok == ref
            if ok:
                pos = go_out_position(g, p)
                for a in line:
                    pos.apply(a)
                assert pos.cards_left(0) == 0
    assert agree >= 12


def test_go_out_impossible_and_trivial():
    stuck = TurnGame.from_deal(parse_deal({"middle": ["T5-a-1", "T5-a-2", "T5-a-3", "T5-a-4"], "own": ["T5-b-1"]}))
    assert turn_go_out(stuck, 0) == (False, [], 1)
    easy = TurnGame.from_deal(parse_deal({"middle": ["T4-bar-1"], "own": ["T2-1", "T2-2"]}))
    ok, line, _ = turn_go_out(easy, 0)
    assert ok and len(line) == 1 and line[0].target == "T4-bar-1"
    # the draw rule: nothing now, the drawn middle card completes a Zangle
    draw = TurnGame.from_deal(parse_deal({"middle": ["T4-bar-1"], "own": ["T2-1"], "middle_pile": ["T2-2"]}))
    ok, line, _ = turn_go_out(draw, 0)
    assert ok is True and [a.kind for a in line] == ["draw", "zangle"]
    draw2 = TurnGame.from_deal(parse_deal({"middle": ["T4-bar-1", "T5-a-1"], "own": ["T2-1"], "middle_pile": ["T2-2"]}))
    assert turn_go_out(draw2, 0)[0] == turn_go_out(draw2, 0, memo=False)[0]


def test_turn_deal_properties():
    d = generate_turn_deal(3, seed=2, properties=("all_can_go_out", "middle_no_zangle"))
    assert all(d["properties"]["can_go_out"]) and not d["properties"]["middle_zangle"]
    g = TurnGame.from_deal(parse_deal(d["deal"]))
    assert g.players == 3 and not middle_zangle(g.middle, g.deck)
    for p in range(3):
        assert turn_go_out(g, p, max_states=20_000)[0] is True
    d2 = generate_turn_deal(2, seed=2, properties=("first_no_zangle",))
    assert d2["properties"]["start_zangle"][0] is False
    with pytest.raises(RuleError):
        generate_turn_deal(2, properties=("nonsense",))


def test_middle_zangle():
    from tanglekit.games.zangle import default_deck

    by = default_deck().by_id
    assert middle_zangle([by["T4-bar-1"], by["T2-1"], by["T2-2"]], default_deck())
    assert not middle_zangle([by["T4-bar-1"], by["T2-1"], by["T5-a-1"]], default_deck())
    assert middle_zangle([by["T2-1"], by["T2-2"], by["Z-1"]], default_deck())


def test_turn_cli(tmp_path):
    f = tmp_path / "deal.json"
    f.write_text(turn_generate_command(2, 1, ["all_can_go_out"]))
    out = json.loads(go_out_command(f, 1, as_json=True))
    assert out["can_go_out"] is True and out["line"]
    with pytest.raises(RuleError):
        go_out_command(f, 5)
