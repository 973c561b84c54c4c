"""Hostile input against every `tanglekit tanglung` command that reads input (issue 13): the
shared corpus, other games' files, tampered checkpoints and challenge files, bad numbers and
hypothesis-made layouts, IDs and JSON. Every one is refused with one line and exit 2 (nothing
written), or answered correctly when it is valid."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from budget import examples
from hostile import HOSTILE_NAMES, assert_refused, hostile_files, json_values, run_cli

from tanglekit.games.tanglung.rules import TanglungOptions

EXAMPLE = "CRBF/HDFR/BHFB/RHDC"
STATE = {"layout": "RB../..../..../...F", "lit": "1000/0000/0000/0001", "boxes": [[0, 0], [3, 3]],
         "rooster_used": [True, True]}
FAST = settings(max_examples=examples(25), deadline=None, suppress_health_check=list(HealthCheck))


def assert_usage(args, folder=None):
    """A value typer itself refuses (NaN for a whole number): exit 2, no traceback, no output.
    (One line for typer's own messages is the job of cli_common.run_app.)"""
    code, out, err = run_cli(args, cwd=folder)
    assert code == 2 and "Traceback" not in err and not out.strip(), (args, code, out[-300:], err[-600:])


def ok_json(args, folder=None):
    code, out, err = run_cli(args, cwd=folder)
    assert code == 0, (args, code, err[-1500:])
    return json.loads(out.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def corpus():
    return hostile_files()


def other_files(folder):
    """Valid files of other kinds: other games' states and logs, a duel state for solve, a
    challenge for analyze, a card set for everything else."""
    from tanglekit.games import load_game

    out = {}
    for name in ("qango", "zangle-solo", "tanglung-duel", "tanglung-solo"):
        st_ = load_game(name).new_initial_state(seed=1)
        p = folder / f"{name}-state.json"
        p.write_text(json.dumps(st_.to_json()))
        out[name] = p
    p = folder / "match-state.json"
    p.write_text(json.dumps(STATE))
    out["match-state"] = p
    p = folder / "cards.json"
    p.write_text(json.dumps({"format": "tanglekit/tanglung-cards", "version": 1, "cards": {"C": 2, "R": 14}}))
    out["cards"] = p
    p = folder / "log.json"
    p.write_text(json.dumps({"format": "tanglekit/play-log", "version": 1, "game": "qango", "params": {},
                             "start": load_game("qango").new_initial_state().to_json(), "moves": []}))
    out["log"] = p
    return out


# -- files --------------------------------------------------------------------------------------
LAYOUT_COMMANDS = [["tanglung", "solo", "solve"], ["tanglung", "solo", "tour"], ["tanglung", "solo", "coop"]]


@pytest.mark.parametrize("name", HOSTILE_NAMES + ["folder_path", "missing"])
def test_layout_commands_refuse_hostile_files(corpus, name):
    folder = corpus["folder_path"]
    for cmd in LAYOUT_COMMANDS:
        assert_refused([*cmd, str(corpus[name])], folder)


@pytest.mark.parametrize("name", HOSTILE_NAMES + ["folder_path", "missing"])
def test_analyze_and_cards_refuse_hostile_files(corpus, name):
    folder = corpus["folder_path"]
    assert_refused(["tanglung", "analyze", str(corpus[name])], folder)
    assert_refused(["tanglung", "solo", "solve", EXAMPLE, "--cards", str(corpus[name])], folder)


def test_other_kinds_of_file_are_refused(tmp_path):
    files = other_files(tmp_path)
    for key in ("qango", "zangle-solo", "tanglung-duel", "tanglung-solo", "match-state", "cards", "log"):
        msg = assert_refused(["tanglung", "solo", "solve", str(files[key])], tmp_path)
        assert "expected a Tanglung solo challenge" in msg or "layout" in msg, (key, msg)
    for key in ("qango", "zangle-solo", "cards", "log"):
        assert_refused(["tanglung", "analyze", str(files[key])], tmp_path)
    gen = tmp_path / "ch.json"
    assert run_cli(["tanglung", "solo", "generate", "--seed", "2", "--out", str(gen)])[0] == 0
    msg = assert_refused(["tanglung", "analyze", str(gen)], tmp_path)
    assert "this is a Tanglung solo challenge file, expected a Tanglung match state" in msg
    # a card set with the wrong count of cards (16 in the file, but the layout needs others)
    assert "card set" in assert_refused(["tanglung", "solo", "solve", EXAMPLE, "--cards", str(files["cards"])], tmp_path)


def test_generated_files_are_accepted_back(tmp_path):
    """Every file and ID `solo generate` writes is read by solve, tour, coop and play."""
    gen = tmp_path / "ch.json"
    code, out, _ = run_cli(["tanglung", "solo", "generate", "--difficulty", "hard", "--seed", "7",
                            "--cards", "C2R4B2F4H2D2", "--out", str(gen), "--json"])
    assert code == 0
    ch = json.loads(out)
    saved = json.loads(gen.read_text())
    assert saved["format"] == "tanglekit/tanglung-challenge" and saved["version"] == 1
    stdout_copy = tmp_path / "stdout.json"
    stdout_copy.write_text(out)
    old_list = tmp_path / "old-list.json"  # what --json printed before (a list of one)
    old_list.write_text(json.dumps([ch]))
    for spec in (str(gen), str(stdout_copy), str(old_list), ch["id"], ch["seed_id"]):
        s = ok_json(["tanglung", "solo", "solve", spec, "--json"])
        assert (s["moves"], s["optimal_tours"], s["start"]) == (ch["moves"], ch["optimal_tours"], ch["start"])
        if spec == str(gen):  # (every consumer for every form: test_tanglung_ids)
            assert ok_json(["tanglung", "solo", "tour", spec, "--json"])["exists"] == ch["no_revisit_tour"]
            assert ok_json(["tanglung", "solo", "coop", spec, "--json"])["complete"] is True
        code, out, err = run_cli(["play", spec, "--bots", "perfect", "--json"])
        assert code == 0 and json.loads(out)["result"].startswith("solved in 14"), err[-500:]


def test_tampered_challenge_files_are_refused(tmp_path):
    code, out, _ = run_cli(["tanglung", "solo", "generate", "--seed", "3", "--json"])
    ch = json.loads(out)
    cases = {
        "wrong count": {**ch, "layout": "CRRR/RRFH/BDFH/HBDC", "id": None},
        "bad letter": {**ch, "layout": "CRBX/HDFR/BHFB/RHDC"},
        "id disagrees": {**ch, "id": "tanglung:solo:" + EXAMPLE},
        "start off a rooster": {**ch, "start": [1, 1]},
        "start off the grid": {**ch, "start": [9, 0]},
        "unknown field": {**ch, "surprise": 1},
        "bad option": {**ch, "options": {"literal_blocking": "maybe"}},
        "bad cards": {**ch, "cards": {"name": "x", "cards": {"C": 2, "R": 15}}},
        "huge number": {**ch, "moves": 10**25},
        "two challenges": [ch, ch],
        "future version": {**ch, "format": "tanglekit/tanglung-challenge", "version": 99},
    }
    for why, doc in cases.items():
        p = tmp_path / "t.json"
        p.write_text(json.dumps(doc))
        assert_refused(["tanglung", "solo", "solve", str(p)], tmp_path), why


# -- IDs and inline layouts ---------------------------------------------------------------------
BAD_IDS = [
    "tanglung:", "tanglung:solo", "tanglung:solo:", "tanglung:solo#", "tanglung:solo#-1", "tanglung:solo#x",
    "tanglung:solo#99999999999999999999999", "tanglung:duel#1", "tanglung:solo,impossible#1",
    "tanglung:solo,hard,hard#1", "tanglung:solo,nonsense=1#1", "tanglung:solo,literal_blocking=maybe#1",
    "tanglung:solo,cards=C2R30#1", "tanglung:solo,cards=C2R14X0#1", "tanglung:solo,cards=../../etc/passwd#1",
    "tanglung:solo,cards=C2R3B3F3H3D2,cards=C2R3B3F3H3D2#1", "tanglung:solo,max_turns=0#1",
    "tanglung:solo:CRBF/HDFR/BHFB/RHDX", "tanglung:solo:CRRR/RRFH/BDFH/HBDC", "tanglung:solo,cards=C2R4B2F4H2D2:" + EXAMPLE,
    "tanglung:solo:RCBF/HDFR/BHFB/CHDR", "qango:6,k3#1", "zinga:sheets4#1", "nosuchgame:x#1",
    "tanglung:solo:" + "C" * 5000, "tanglung:solo:CRBF HDFR", "x" * 200_000,
]


@pytest.mark.parametrize("spec", BAD_IDS)
def test_bad_ids_and_layouts_are_refused(tmp_path, spec):
    assert_refused(["tanglung", "solo", "solve", spec], tmp_path)


def test_ids_printed_before_are_read():
    a = ok_json(["tanglung", "solo", "solve", "tanglung:solo,hard#7", "--json"])
    b = ok_json(["tanglung", "solo", "solve", "tanglung:solo,hard:BRDC/BFRH/BFHD/CRFH", "--json"])
    assert a["moves"] == b["moves"] == 14 and a["optimal_tours"] == b["optimal_tours"] == 6633
    c = ok_json(["tanglung", "solo", "solve", "tanglung:solo,medium,literal_blocking=1:" + EXAMPLE, "--json"])
    d = ok_json(["tanglung", "solo", "solve", EXAMPLE, "--option", "literal_blocking=true", "--json"])
    assert (c["moves"], c["optimal_tours"]) == (d["moves"], d["optimal_tours"])


@FAST
@given(st.text(alphabet="CRBFHD.crbfhdXZ/ \n,", min_size=0, max_size=24))
@example("crbf/hdfr/bhfb/rhdc")
def test_hypothesis_layout_text(text):
    """Any layout text: refused in one line, or solved with the card set's counts and the
    plain-Python reference solver's answer."""
    if text.strip().startswith("-"):
        return  # an option to typer, not a layout
    code, out, err = run_cli(["tanglung", "solo", "solve", text, "--json", "--option", "not_so_zen=true"])
    if code == 0:
        res = json.loads(out)
        letters = "".join(ch for ch in text.upper() if ch in "CRBFHD.")
        assert sorted(letters) == sorted("CCRRRBBBFFFHHHDD")
        from tanglekit.games.tanglung.solo_search import solve_solo_reference

        ref = solve_solo_reference(letters, options=TanglungOptions(not_so_zen=True))
        assert res["complete"] is True and (res["solvable"], res["moves"], res["optimal_tours"]) == (
            ref.solvable, ref.moves, ref.optimal_tours), (text, res, ref)
    else:
        lines = [ln for ln in err.splitlines() if ln.strip()]
        assert code == 2 and len(lines) == 1 and "Traceback" not in err, (text, code, err[-800:])


@FAST
@given(st.builds(lambda p, tail: f"tanglung:{p}{tail}",
                 st.text(alphabet="solhardeiumxp,=_0123456789cardsC", max_size=30),
                 st.one_of(st.integers(-5, 10**25).map(lambda n: f"#{n}"),
                           st.text(alphabet="CRBFHD/:#.", max_size=22).map(lambda t: ":" + t))))
def test_hypothesis_ids(spec):
    code, out, err = run_cli(["tanglung", "solo", "solve", spec, "--json"])
    if code == 0:
        assert json.loads(out)["complete"] is True
    else:
        lines = [ln for ln in err.splitlines() if ln.strip()]
        assert code == 2 and len(lines) == 1 and "Traceback" not in err, (spec, err[-800:])


@FAST
@given(json_values)
def test_hypothesis_json_documents(tmp_path_factory, doc):
    folder = tmp_path_factory.mktemp("hj")
    p = folder / "doc.json"
    p.write_text(json.dumps(doc))
    for cmd in (["tanglung", "solo", "solve", str(p)], ["tanglung", "analyze", str(p)]):
        assert_refused(cmd, folder)


@FAST
@given(st.fixed_dictionaries({}, optional={
    "layout": st.sampled_from(["RB../..../..../...F", "CRBF/HDFR/BHFB/RHDC", "RB../..../..../....", "bad"]),
    "lit": st.sampled_from(["1000/0000/0000/0001", "1111111111111111", "2", ""]),
    "boxes": st.lists(st.one_of(st.none(), st.lists(st.integers(-2, 5), min_size=2, max_size=2),
                                st.integers(-1, 20)), max_size=3),
    "bumps": st.lists(st.integers(-1, 3), max_size=3),
    "rooster_used": st.lists(st.booleans(), max_size=3),
    "fan": st.one_of(st.none(), st.lists(st.integers(-1, 4), min_size=2, max_size=2)),
    "to_move": st.integers(-1, 2),
    "phase": st.lists(st.sampled_from(["setup", "reenter", "play", "x"]), max_size=3),
    "winner": st.one_of(st.none(), st.integers(-1, 2)),
}))
def test_hypothesis_match_states(tmp_path_factory, doc):
    """A match state: refused in one line, or analysed (value among win/loss/unknown)."""
    folder = tmp_path_factory.mktemp("hs")
    p = folder / "s.json"
    p.write_text(json.dumps(doc))
    code, out, err = run_cli(["tanglung", "analyze", str(p), "--depth", "2", "--json"], cwd=folder)
    if code == 0:
        assert json.loads(out)["value"] in ("win", "loss", "unknown")
    else:
        lines = [ln for ln in err.splitlines() if ln.strip()]
        assert code == 2 and len(lines) == 1 and "Traceback" not in err, (doc, err[-800:])


# -- numbers and limits -------------------------------------------------------------------------
BAD_NUMBERS = [
    ["tanglung", "solo", "solve", EXAMPLE, "--start", "99999999999999999999999,0"],
    ["tanglung", "solo", "solve", EXAMPLE, "--start", "-1,0"],
    ["tanglung", "solo", "solve", EXAMPLE, "--start", "1" * 5000 + ",0"],
    ["tanglung", "solo", "solve", EXAMPLE, "--start", "1,1"],
    ["tanglung", "solo", "solve", EXAMPLE, "--time-limit", "-1"],
    ["tanglung", "solo", "solve", EXAMPLE, "--time-limit", "nan"],
    ["tanglung", "solo", "solve", EXAMPLE, "--time-limit", "inf"],
    ["tanglung", "solo", "solve", EXAMPLE, "--method", "magic"],
    ["tanglung", "solo", "solve", EXAMPLE, "--option", "max_turns=99999999999999999999"],
    ["tanglung", "solo", "solve", EXAMPLE, "--option", "max_turns=-3"],
    ["tanglung", "solo", "solve", EXAMPLE, "--cards", "C2R99"],
    ["tanglung", "solo", "solve", EXAMPLE, "--cards", "C2R4B2F4H2D2"],
    ["tanglung", "solo", "coop", EXAMPLE, "--first", "7,7"],
    ["tanglung", "solo", "coop", EXAMPLE, "--max-states", "-1"],
    ["tanglung", "solo", "tour", EXAMPLE, "--time-limit", "-0.5"],
    ["tanglung", "solo", "generate", "--count", "0"],
    ["tanglung", "solo", "generate", "--count", "-1"],
    ["tanglung", "solo", "generate", "--count", "99999999999"],
    ["tanglung", "solo", "generate", "--seed", "-1"],
    ["tanglung", "solo", "generate", "--seed", "9223372036854775807", "--count", "2"],
    ["tanglung", "solo", "generate", "--difficulty", "impossible"],
    ["tanglung", "census", "--sample", "0"],
    ["tanglung", "census", "--sample", "-5"],
    ["tanglung", "census", "--sample", "100000000000"],
    ["tanglung", "census", "--workers", "-1"],
    ["tanglung", "census", "--workers", "100000"],
    ["tanglung", "census", "--seed", "-1", "--sample", "3"],
    ["tanglung", "census", "--time-limit", "-1", "--sample", "3"],
    ["tanglung", "census", "--executor", "nope", "--sample", "3"],
    ["tanglung", "census", "--sample", "3", "--cards", "C3R2B3F3H3D2"],
    ["tanglung", "play", "--bot", "greedy", "--bot", "random", "--games", "0"],
    ["tanglung", "play", "--bot", "greedy", "--bot", "random", "--games", "-3"],
    ["tanglung", "play", "--bot", "greedy", "--bot", "random", "--seed", "-1"],
    ["tanglung", "play", "--bot", "nobody", "--bot", "random"],
    ["tanglung", "play", "--bot", "greedy", "--first", "3"],
    ["tanglung", "analyze", "-", "--depth", "-1"],
    ["tanglung", "analyze", json.dumps(STATE), "--depth", "-1"],
    ["tanglung", "analyze", json.dumps(STATE), "--depth", "100000"],
    ["tanglung", "analyze", json.dumps(STATE), "--time-limit", "-1"],
    ["tanglung", "analyze", json.dumps(STATE), "--time-limit", "nan"],
    ["tanglung", "analyze", json.dumps(STATE), "--node-limit", "-1"],
    ["tanglung", "solo", "solve", EXAMPLE, "--option", "x" * 3000 + "=1"],
    ["tanglung", "solo", "solve", EXAMPLE, "--option", "horse_fan_route=" + "x" * 3000],
    ["tanglung", "solo", "solve", EXAMPLE, "--option", "=1"],
    ["tanglung", "solo", "solve", EXAMPLE, "--option", "literal_blocking"],
    ["tanglung", "play", "--bot", "x" * 3000, "--bot", "random"],
]


@pytest.mark.parametrize("args", BAD_NUMBERS, ids=lambda a: " ".join(a[1:])[:60])
def test_bad_numbers_are_refused(tmp_path, args):
    assert_refused(args, tmp_path)


@pytest.mark.parametrize("args", [
    ["tanglung", "solo", "generate", "--count", "nan"],
    ["tanglung", "census", "--sample", "1e3"],
    ["tanglung", "analyze", json.dumps(STATE), "--depth", "nan"],
])
def test_values_typer_refuses(tmp_path, args):
    assert_usage(args, tmp_path)


def test_zero_limits_answer_unknown():
    out = ok_json(["tanglung", "solo", "solve", EXAMPLE, "--time-limit", "0", "--json"])
    assert out["solvable"] is None and out["complete"] is False and out["moves"] is None
    out = ok_json(["tanglung", "solo", "coop", EXAMPLE, "--time-limit", "0", "--json"])
    assert out["solvable"] is None and out["complete"] is False
    out = ok_json(["tanglung", "solo", "coop", EXAMPLE, "--max-states", "10", "--json"])
    assert out["solvable"] is None and out["complete"] is False and out["reason"] == "state limit"
    out = ok_json(["tanglung", "solo", "tour", EXAMPLE, "--time-limit", "0", "--json"])
    assert out["exists"] is None and out["complete"] is False
    for extra in (["--depth", "0"], ["--time-limit", "0"], ["--node-limit", "0"]):
        out = ok_json(["tanglung", "analyze", json.dumps(STATE), *extra, "--json"])
        assert (out["value"], out["best"], out["complete"]) == ("unknown", None, False), extra
    out = ok_json(["tanglung", "census", "--sample", "40", "--time-limit", "0", "--json"])
    assert out["complete"] is False and out["layouts"] == 0
    out = ok_json(["tanglung", "solo", "generate", "--time-limit", "0", "--json"])
    assert out["id"] is None and out["complete"] is False


@pytest.mark.parametrize("name", ["binary", "deep", "bigint", "nan", "list", "object", "foo", "wrong_format",
                                  "future_version", "null_fields", "folder_path"])
def test_census_refuses_hostile_checkpoints(corpus, name):
    assert_refused(["tanglung", "census", "--sample", "3", "--checkpoint", str(corpus[name])],
                   corpus["folder_path"])


def test_human_input_never_breaks_the_session():
    """Typed lines a person might send: huge numbers, other digits, hostile move text."""
    lines = ["9" * 5000, "²", "0", "-1", "1,1,1", "9999999999999999999999,0", "\x00", "x" * 10_000, "quit"]
    code, out, err = run_cli(["play", "tanglung-solo"], stdin="\n".join(lines) + "\n")
    assert code == 0 and "Traceback" not in err and out.count("> illegal:") >= 6, err[-800:]
    code, out, err = run_cli(["play", "tanglung-duel", "--bots", "human,random"],
                             stdin="rooster 99999999999999999999,0 fan 1,1\nlantern x\nplace ,\nquit\n")
    assert code == 0 and "Traceback" not in err and out.count("> illegal:") == 3, err[-800:]


# -- census checkpoints -------------------------------------------------------------------------
def _census(cp, *extra):
    return ok_json(["tanglung", "census", "--sample", "12", "--seed", "4", "--checkpoint", str(cp), "--json", *extra])


def test_census_checkpoints_tampered_or_foreign_are_refused(tmp_path):
    from tanglekit.jsonio import with_checksum

    cp = tmp_path / "cp.json"
    first = _census(cp)
    saved = json.loads(cp.read_text())
    assert saved["format"] == "tanglekit/tanglung-census" and len(saved["checksum"]) == 64
    again = _census(cp)
    assert {k: v for k, v in again.items() if k != "seconds"} == {k: v for k, v in first.items() if k != "seconds"}

    def refused(doc, *extra):
        cp.write_text(json.dumps(doc))
        return assert_refused(["tanglung", "census", "--sample", "12", "--seed", "4", "--checkpoint", str(cp),
                               "--json", *extra], tmp_path)

    body = {k: v for k, v in saved.items() if k != "checksum"}
    edited = json.loads(json.dumps(body))
    edited["summary"]["layouts"] += 1000
    assert "checksum does not match" in refused({**edited, "checksum": saved["checksum"]})
    # re-checksummed by hand: the totals no longer add up
    assert "add up" in refused(with_checksum(edited))
    more = json.loads(json.dumps(body))
    sm = more["summary"]  # consistent in itself, but more layouts than 12 samples can give
    top = sm["max_tours"][0]
    sm["moves"]["14"] += 1000
    sm["layouts"] += 1000
    sm["tour_bins"][str(top.bit_length())] += 1000
    sm["tours_total"] += 1000 * top
    sm["no_revisit"] += 1000
    assert "more layouts than" in refused(with_checksum(more))
    assert "no checksum" in refused(body)
    dup = json.loads(json.dumps(body))
    dup["done"].append(dup["done"][0])
    assert "twice" in refused(with_checksum(dup))
    alien = json.loads(json.dumps(body))
    alien["done"][0] = "r999999999"
    assert "does not have" in refused(with_checksum(alien))
    cp.write_text(json.dumps(saved))
    assert "options" in assert_refused(["tanglung", "census", "--sample", "12", "--seed", "4", "--checkpoint",
                                        str(cp), "--option", "literal_blocking=1"], tmp_path)
    assert "cards" in assert_refused(["tanglung", "census", "--sample", "12", "--seed", "4", "--checkpoint",
                                      str(cp), "--cards", "C2R4B2F4H2D2"], tmp_path)
    assert "sample" in assert_refused(["tanglung", "census", "--sample", "13", "--seed", "4", "--checkpoint",
                                       str(cp)], tmp_path)
    assert json.loads(cp.read_text()) == saved  # a refused run leaves the checkpoint as it was


def test_census_workers_capped_by_the_work(monkeypatch):
    """`--workers 200` on a one-chunk sample runs in this process: no pool is made."""
    import multiprocessing

    made = []
    monkeypatch.setattr(multiprocessing, "get_context", lambda *a: made.append(a) or None)
    out = ok_json(["tanglung", "census", "--sample", "5", "--workers", "200", "--json"])
    assert out["complete"] is True and out["chunks"] == 1 and made == []


def test_census_pool_never_larger_than_cpus_or_chunks(monkeypatch):
    """`--workers 200` on 4 chunks: a pool of min(CPUs, 4) processes (recorded, run in-process)."""
    from tanglekit.generators import executors
    from tanglekit.limits import cpu_count

    sizes = []

    class FakePool:
        def __init__(self, n, deadline=None, **kwargs):  # initializer etc. of the executor layer
            sizes.append(n)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

        def map_unordered(self, fn, tasks):
            return map(fn, tasks)

    monkeypatch.setattr(executors, "WorkerPool", FakePool)
    out = ok_json(["tanglung", "census", "--sample", "1600", "--workers", "200", "--json"])
    assert out["chunks"] == 4 and out["complete"] is True
    assert sizes == ([min(cpu_count(), 4)] if min(cpu_count(), 4) > 1 else [])
