"""Tanglung challenge IDs round-trip for every grade, rule option value and card set: both printed
IDs regenerate exactly the instance, and every file `solo generate` writes is read back by every
command that takes a challenge (solve, tour, coop, play)."""

from __future__ import annotations

import json

import pytest
from hostile import run_cli
from tanglekit.games.tanglung.cards import default_card_set, parse_card_counts
from tanglekit.games.tanglung.generate import GRADES, generate_challenge
from tanglekit.games.tanglung.rules import TanglungOptions
from tanglekit.generators.ids import resolve, split_id

CUSTOM = "C2R4B2F4H2D2"
# one value off the default for every option (each changes the ID; the first three the instance)
OPTION_VALUES = [{}, {"literal_blocking": True}, {"roosters_start_lit": False}, {"not_so_zen": True},
                 {"horse_fan_route": "both"}, {"match_starter": "loser"}, {"max_turns": 150}, {"max_matches": 5}]


def assert_round_trip(ch):
    """Both IDs of ``ch`` name exactly it: layout, options, card set, grade (and seed)."""
    for text in (ch.id, ch.seed_id):  # the seed ID runs the generator again
        inst = resolve(text, expect="tanglung-challenge")
        spec = inst.value
        assert spec.layout == ch.layout and spec.options == ch.options, text
        assert spec.card_set.same_cards(ch.card_set or default_card_set()), text
        assert spec.difficulty == ch.difficulty, text
        assert (inst.id, inst.seed_id or ch.seed_id) == (ch.id, ch.seed_id), text
    assert inst.extra["challenge"].to_json() == ch.to_json()
    assert split_id(ch.seed_id).seed == ch.seed


@pytest.mark.parametrize("grade", GRADES)
def test_every_grade_round_trips(grade):
    seed = {"expert": 4}.get(grade, 3)  # a quick expert seed (its search takes a few tries)
    assert_round_trip(generate_challenge(grade, seed))


@pytest.mark.parametrize("opts", OPTION_VALUES, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default")
def test_every_option_value_round_trips(opts):
    ch = generate_challenge("hard", 3, TanglungOptions(**opts))
    assert_round_trip(ch)
    for k, v in opts.items():
        assert f"{k}={int(v) if isinstance(v, bool) else v}" in ch.id


def test_card_set_is_part_of_the_id():
    """The bug: a seed ID without its card set regenerated another challenge."""
    custom = generate_challenge("hard", 7, None, parse_card_counts(CUSTOM))
    plain = generate_challenge("hard", 7)
    assert f"cards={CUSTOM}" in custom.seed_id and "cards=" not in plain.seed_id
    assert custom.layout != plain.layout
    assert_round_trip(custom)
    assert resolve(custom.seed_id).value.layout == custom.layout
    assert custom.layout.counts() == {"C": 2, "R": 4, "B": 2, "F": 4, "H": 2, "D": 2}


def test_ids_printed_before_still_read():
    # the descriptive and seed forms printed by earlier versions (options as 1/0, default cards)
    assert str(resolve("tanglung:solo,hard#7").value.layout) == "BRDC/BFRH/BFHD/CRFH"
    old = resolve("tanglung:solo,medium,literal_blocking=1:CRBF/HDFR/BHFB/RHDC").value
    assert old.options.literal_blocking and old.difficulty == "medium"
    assert resolve("tanglung:solo,literal_blocking=true#5").value.options.literal_blocking


@pytest.mark.parametrize("opts,cards", [({}, None), ({"literal_blocking": True, "not_so_zen": True}, CUSTOM)])
def test_generated_file_accepted_by_every_consumer(tmp_path, opts, cards):
    args = ["tanglung", "solo", "generate", "--difficulty", "medium", "--seed", "5", "--json",
            "--out", str(tmp_path / "ch.json")]
    for k, v in opts.items():
        args += ["--option", f"{k}={v}"]
    if cards:
        args += ["--cards", cards]
    code, out, err = run_cli(args)
    assert code == 0, err
    ch = json.loads(out)
    for spec in (str(tmp_path / "ch.json"), ch["id"], ch["seed_id"]):
        # solve, tour and coop read a spec through one loader (games/tanglung/cli.py _load_layout): the file
        # goes through all three, each ID (the seed ID regenerates the challenge) through one
        for cmd in (["solo", "solve"], ["solo", "tour"], ["solo", "coop"])[: 3 if spec.endswith(".json") else 1]:
            code, out, err = run_cli(["tanglung", *cmd, spec, "--json"])
            assert code == 0, (cmd, spec, err)
            res = json.loads(out)
            if cmd[1] == "solve":
                assert (res["moves"], res["optimal_tours"], res["start"]) == (ch["moves"], ch["optimal_tours"], ch["start"])
        code, out, err = run_cli(["play", spec, "--bots", "perfect", "--json"])
        assert code == 0, err
        assert json.loads(out)["result"] == f"solved in {ch['moves']} moves (fewest moves: {ch['moves']})"


@pytest.mark.slow
@pytest.mark.parametrize("grade", GRADES)
@pytest.mark.parametrize("opts", OPTION_VALUES[:4])
@pytest.mark.parametrize("cards", [None, CUSTOM])
def test_round_trip_sweep(grade, opts, cards):
    ch = generate_challenge(grade, 11, TanglungOptions(**opts), parse_card_counts(cards) if cards else None)
    assert_round_trip(ch)


def test_count_out_folder_one_file_each(tmp_path):
    code, out, err = run_cli(["tanglung", "solo", "generate", "--count", "2", "--seed", "3", "--json",
                              "--out", str(tmp_path / "set")])
    assert code == 0, err
    listed = json.loads(out)
    files = sorted((tmp_path / "set").glob("*.json"))
    assert [f.name for f in files] == ["tanglung-medium-3.json", "tanglung-medium-4.json"]
    for f, ch in zip(files, listed):
        code, out, err = run_cli(["tanglung", "solo", "solve", str(f), "--json"])
        assert code == 0 and json.loads(out)["optimal_tours"] == ch["optimal_tours"], err
    both = tmp_path / "both.json"
    both.write_text(json.dumps(listed))
    code, _, err = run_cli(["tanglung", "solo", "solve", str(both)])
    assert code == 2 and "holds 2 challenges" in err
