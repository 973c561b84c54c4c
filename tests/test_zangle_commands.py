"""Library side of the zangle CLI commands: find (text, JSON, SVG), deck show, play."""

import json

import pytest

from tanglekit.errors import FormatError
from tanglekit.games.zangle.cli import deck_show_command, find_command, play_command
from tanglekit.games.zangle.log import replay_log


@pytest.fixture
def deal_file(tmp_path):
    f = tmp_path / "deal.json"
    f.write_text(json.dumps({"middle": ["T4-bar", "T1", "T5-c", "Z"], "own": ["T2", "T2", "T3", "T1"]}))
    return f


def test_find_text_json_svg(deal_file, tmp_path):
    svg = tmp_path / "best.svg"
    text = find_command(deal_file, svg_path=svg)
    lines = text.splitlines()
    assert lines[0] == "21 Zangles, best first"
    assert lines[1].startswith("1. middle[2] T5-c-1 <= ") and lines[1].endswith("5 cards, 10 triangles")
    assert svg.read_text().startswith("<svg")
    data = json.loads(find_command(deal_file, as_json=True))
    zs = data["zangles"]
    assert len(zs) == 21 and zs[0]["cards"] == 5 and zs[0]["triangles"] == 10
    assert zs[0]["target"] == {"place": "middle", "index": 2}
    assert zs[0]["z_cards"] == [{"place": "middle", "index": 3}]
    assert [z["cards"] for z in zs] == sorted((z["cards"] for z in zs), reverse=True)
    # every Zangle's pieces cover its target's area
    areas = {"middle": [4, 1, 5, 0], "own": [2, 2, 3, 1]}
    for z in zs:
        assert sum(len(p["cells"]) for p in z["pieces"]) == areas[z["target"]["place"]][z["target"]["index"]]


def test_find_no_zangle(tmp_path):
    f = tmp_path / "d.json"
    f.write_text(json.dumps({"middle": ["T5-a"], "own": ["T1"]}))
    assert find_command(f).startswith("0 Zangles")
    assert json.loads(find_command(f, as_json=True)) == {"zangles": [], "count": 0, "complete": True}


def test_find_custom_deck_errors(tmp_path, deal_file):
    bad = tmp_path / "deck.json"
    bad.write_text(json.dumps({"cards": [{"id": "q", "colour": "green", "cells": [[0, 0]]}]}))
    with pytest.raises(FormatError, match="'q'"):
        find_command(deal_file, deck_path=bad)


def test_deck_show(tmp_path):
    svg = tmp_path / "deck.svg"
    text = deck_show_command(svg_path=svg)
    assert text.splitlines()[0] == "deck zangle-default: 120 cards (assumed composition)"
    assert "T4-triangle  yellow  4          8" in text
    assert svg.read_text().count("<polygon") == 1 + 2 + 3 + 3 * 4 + 4 * 5  # one per triangle


def test_play_command(tmp_path):
    log = tmp_path / "g.jsonl"
    text = play_command("turn", 2, ["greedy", "random"], seed=4, log_path=log)
    assert text.splitlines()[0].split() == ["player", "bot", "r1", "r2", "r3", "total"]
    assert replay_log(log).is_terminal()
    from tanglekit.games.zangle.solo_search import SoloDeal, solve_deal

    # deal 1 cannot be won (the solver proves it), so the bot loses it; deal 5 can, and greedy does
    assert solve_deal(SoloDeal.from_seed(1)).solvable is False and solve_deal(SoloDeal.from_seed(5)).solvable
    res = json.loads(play_command("solo", seed=1, as_json=True))
    assert res["mode"] == "solo" and res["score"]["outcome"] == "loss" and res["score"]["tableau_left"] > 0
    assert res["returns"] == [0.0]
    res = json.loads(play_command("solo", seed=5, as_json=True))
    assert (res["score"]["outcome"], res["score"]["tableau_left"], res["returns"]) == ("win", 0, [1.0])


def test_replay_and_solve_commands(tmp_path):
    from tanglekit.games.zangle.cli import replay_command, solve_solo_command

    log = tmp_path / "s.jsonl"
    first = play_command("speed", 2, ["greedy"], seed=3, log_path=log)
    out = replay_command(log).splitlines()
    assert out[0].endswith("moves replayed, game finished")
    assert [ln.split()[2:] for ln in out[2:4]] == [ln.split()[2:] for ln in first.splitlines()[1:3]]
    text = solve_solo_command(2)
    assert text.startswith("solo deal 2: winnable in ")
    assert solve_solo_command(12) == "solo deal 12: cannot be won"
