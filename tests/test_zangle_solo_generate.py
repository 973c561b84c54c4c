"""Zangle solo challenges: verified, graded as claimed, reproducible from their IDs; CLI."""

import json
import re

import pytest

from tanglekit.games.zangle.cli import solo_generate_command, solo_solve_command
from tanglekit.games.zangle.rules import ZangleOptions
from tanglekit.games.zangle.generate import (
    DIFFICULTIES,
    challenge_svg,
    generate_challenge,
    grade_of,
    greedy_wins,
)
from tanglekit.games.zangle.generate import deal_from_id
from tanglekit.games.zangle.solo_search import check_line, playout_wins, solve_deal


def test_grade_thresholds():
    assert grade_of(0.0, False) == "expert"
    assert grade_of(0.0, True) == "hard"
    assert grade_of(0.01, False) == "hard"
    assert grade_of(0.03, True) == "medium"
    assert grade_of(0.2, False) == "medium"
    assert grade_of(0.05, True) == "easy"


@pytest.mark.parametrize("difficulty", DIFFICULTIES)
def test_challenges_are_verified_and_graded(difficulty):
    ch = generate_challenge(seed=4, difficulty=difficulty)
    assert ch.grade == difficulty
    deal = ch.deal
    assert solve_deal(deal).solvable is True and check_line(deal, ch.solution)
    m = ch.measures
    assert grade_of(m["playout_rate"], m["greedy_wins"]) == difficulty
    assert greedy_wins(deal) == m["greedy_wins"]
    # the descriptive ID holds the whole deal, the seed ID regenerates it
    assert deal_from_id(ch.id) == deal
    assert deal_from_id(ch.seed_id) == deal
    assert ch.seed_id == f"zangle:solo,piles=5,{difficulty}#4"
    svg = challenge_svg(ch)
    assert svg.startswith("<svg") and len(re.findall(r"pile \d+\.\d+<", svg)) == 15


def test_six_piles_and_options():
    ch = generate_challenge(seed=2, difficulty="any", options=ZangleOptions(piles=6, voluntary_discard=True))
    assert len(ch.deal.piles) == 6 and ch.deal.options.voluntary_discard
    assert check_line(ch.deal, ch.solution)
    assert deal_from_id(ch.id) == ch.deal
    wins = playout_wins(ch.deal, 100)
    assert wins == playout_wins(ch.deal, 100, seed=0)  # seeded: the same count again


def test_playouts_never_win_an_unwinnable_deal():
    from tanglekit.games.zangle.solo_search import SoloDeal

    lost = next(d for d in (SoloDeal.from_seed(s) for s in range(40)) if solve_deal(d).solvable is False)
    assert playout_wins(lost, 200) == 0  # a random line cannot win what no line wins


def test_cli_solve_and_generate(tmp_path):
    text = solo_generate_command(count=1, difficulty="easy", seed=1, as_json=True, svg_dir=tmp_path)
    data = json.loads(text)
    assert data["grade"] == "easy" and data["deal"]["format"] == "tanglekit/zangle-solo"
    assert list(tmp_path.glob("*.svg"))
    f = tmp_path / "ch.json"
    f.write_text(text)
    out = json.loads(solo_solve_command(str(f), as_json=True))
    # the earlier exact keys first, then the shared vocabulary (docs/json.md)
    assert list(out)[:3] == ["solvable", "line", "states"] and out["solvable"] is True
    assert out["nodes"] == out["states"] and out["complete"] is True and out["moves"] == len(out["line"])
    assert out["line"] == data["line"]  # the solver's line, in the game's notation, as the generator's
    assert json.loads(solo_solve_command(data["id"], as_json=True))["solvable"] is True
    for limits in ({"max_states": 0}, {"time_limit": 0}):  # 0 stops at once: unknown, not complete
        stopped = json.loads(solo_solve_command(data["id"], as_json=True, **limits))
        assert stopped["solvable"] is None and stopped["complete"] is False and stopped["line"] == []
    txt = solo_solve_command(data["seed_id"], count=True)
    assert "random playouts won" in txt
    two = json.loads(solo_generate_command(count=2, difficulty="medium", seed=3, as_json=True))
    assert [c["grade"] for c in two] == ["medium", "medium"] and two[0]["seed_id"].endswith("#3")
