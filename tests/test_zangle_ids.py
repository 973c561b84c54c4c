"""Zangle solo IDs round-trip (issue 13 item 3): for every generator parameter and every value,
both printed IDs regenerate exactly the instance, and every file the commands write is read
back by every command that takes that kind of file."""

from __future__ import annotations

import json

import pytest

from hostile import run_cli
from tanglekit.games.zangle.rules import ZangleOptions
from tanglekit.generators.ids import resolve, split_id
from tanglekit.games.zangle.generate import DIFFICULTIES, generate_challenge, resolve_solo

# every value of every parameter, each once beside the defaults (seed 3)
CASES = [("any", {})] + [(d, {}) for d in DIFFICULTIES] + [
    ("any", {"piles": 6}), ("any", {"fill_empty_pile": "may"}), ("any", {"voluntary_discard": True}),
    ("any", {"z_cards": "minimal"})]


@pytest.mark.parametrize("difficulty, opts", CASES, ids=[f"{d}-{o}" for d, o in CASES])
def test_both_ids_regenerate_the_challenge(difficulty, opts):
    ch = generate_challenge(seed=3, difficulty=difficulty, options=ZangleOptions(**opts))
    # each ID resolved once (the seed ID runs the generator again)
    resolved = {text: resolve(text, expect="zangle-solo-deal") for text in (ch.id, ch.seed_id)}
    for text, inst in resolved.items():
        assert inst.value == ch.deal and inst.value.options == ch.deal.options, text
        assert inst.id == ch.id
    # the seed ID names the asked difficulty and every option that differs from the default
    parsed = split_id(ch.seed_id)
    assert parsed.seed == 3 and (difficulty in parsed.flags())
    again = resolved[ch.seed_id]
    assert ch.seed_id == again.seed_id
    for name, value in opts.items():
        assert getattr(again.value.options, name) == value


def test_ids_printed_before_still_read():
    # an ID printed by the earlier version (docs/zangle.md): same deal as the generator's today
    old = "zangle:solo,piles=5,easy:2h2a0r.061z18382t0v0q.0w.013b.0h0b34.1l2b1y21.19321a0p0g"
    ch = generate_challenge(seed=1, difficulty="easy")
    assert ch.id == old and resolve_solo(old).value == ch.deal
    assert resolve_solo("zangle:solo,piles=5,easy#1").value == ch.deal


def test_written_files_are_read_back(tmp_path):
    """generate -> file -> solve / play / find-refusal, and turn generate -> go-out / find."""
    code, out, err = run_cli(["zangle", "solo", "generate", "--seed", "1", "--difficulty", "easy", "--json"])
    assert code == 0, err
    ch = tmp_path / "challenge.json"
    ch.write_text(out)
    data = json.loads(out)
    assert data["format"] == "tanglekit/zangle-solo" and data["moves"] == len(data["line"])
    for source in (str(ch), data["id"], data["seed_id"], json.dumps(data["deal"])):
        code, out2, err = run_cli(["zangle", "solo", "solve", source, "--json"])
        assert code == 0 and json.loads(out2)["solvable"] is True, (source, err)
    # tanglekit play takes the challenge file, starting the game at that deal
    from tanglekit.play.start import resolve_start

    start = resolve_start(str(ch))
    assert start.game == "zangle-solo" and start.optimum == len(json.loads(out2)["line"])
    assert str(start.state) == str(resolve_start(data["id"]).state)
    # a turn deal file: go-out and find read it, the solo solver refuses it by its format tag
    for extra in ([], ["--json"]):
        code, out, err = run_cli(["zangle", "turn", "generate", "--seed", "2", *extra])
        assert code == 0, err
        f = tmp_path / f"turn{len(extra)}.json"
        f.write_text(out)
        assert run_cli(["zangle", "turn", "go-out", str(f)])[0] == 0
        assert run_cli(["zangle", "find", str(f)])[0] == 0
        code, _, err = run_cli(["zangle", "solo", "solve", str(f)])
        assert code == 2 and "this is a Zangle deal file, expected a Zangle solo deal" in err
    # the deck file deck show writes is read back as a deck
    code, out, _ = run_cli(["zangle", "deck", "show", "--json"])
    deck = tmp_path / "deck.json"
    deck.write_text(out)
    code, text, err = run_cli(["zangle", "deck", "show", "--deck", str(deck)])
    assert code == 0 and text.startswith("deck zangle-default: 120 cards"), err


_SLOW = pytest.mark.slow  # first_no_zangle is rare (98 % of tables hold a Zangle): about a minute each
TURN_CASES = [(2, (), {}), (1, (), {}), (3, ("all_can_go_out",), {}), (2, ("middle_no_zangle",), {}),
              pytest.param(2, ("first_no_zangle",), {}, marks=_SLOW), (2, ("all_start_zangle",), {}),
              (2, (), {"z_cards": "minimal"}),
              pytest.param(2, ("all_can_go_out", "first_no_zangle"), {}, marks=_SLOW)]


@pytest.mark.parametrize("players, props, opts", TURN_CASES)
def test_turn_deal_ids_regenerate_the_deal(players, props, opts):
    from tanglekit.games.zangle.generate import generate_turn_deal

    res = generate_turn_deal(players, 4, props, ZangleOptions(**opts))
    body = {k: v for k, v in res["deal"].items() if k not in ("id", "seed_id")}
    for text in (res["id"], res["seed_id"]):
        inst = resolve(text, expect="zangle-turn-deal")
        got = {k: v for k, v in inst.value.items() if k not in ("id", "seed_id")}
        assert got == body, text
    assert resolve(res["seed_id"]).id == res["id"]
    for p in props:
        assert p in split_id(res["seed_id"]).flags()
    if opts:
        assert "z=minimal" in res["seed_id"]
