"""`--batch`: one JSON line per input line, in order, identical to the single-input `--json` answer;
bad lines become error objects and never stop the batch."""

import json

import pytest
from typer.testing import CliRunner

from tanglekit.cli import app
from tanglekit.cli_batch import batch_workers, read_lines


def _run(args, stdin=None):
    r = CliRunner().invoke(app, list(args), input=stdin)
    assert r.exit_code == 0, r.output
    return r.stdout


def _single(args):
    return json.loads(_run(args))


def _batch(args, lines):
    out = [json.loads(s) for s in _run(list(args) + ["--batch", "-"], "\n".join(lines) + "\n").splitlines()]
    return out


def _drop_seconds(d):
    return {k: v for k, v in d.items() if k != "seconds"}


def test_tanglung_batch_matches_single_solves():
    layouts = ["CRBF/HDFR/BHFB/RHDC", "RBFC/HDFR/BHFB/CHDR", "CBFR/HDFR/BHFB/RHDC", "RHDC/BHFB/HDFR/CRBF"]
    lines = [layouts[0], "", "nonsense", layouts[1], '{"layout": "%s"}' % layouts[2], layouts[3]]
    out = _batch(["tanglung", "solo", "solve"], lines)
    assert [o["line"] for o in out] == [1, 3, 4, 5, 6]  # the blank line 2 is skipped
    assert "error" in out[1] and "result" not in out[1]
    for o, lay in zip([out[0], out[2], out[3], out[4]], layouts):
        single = _single(["tanglung", "solo", "solve", lay, "--json"])
        assert _drop_seconds(o["result"]) == _drop_seconds(single), lay


def test_zangle_solo_batch_matches_single_solves():
    ids = [f"zangle:solo,piles=5,hard#{s}" for s in (1, 2, 3)]
    out = _batch(["zangle", "solo", "solve", "--max-states", "200000"], ids + ["zangle:nope"])
    assert [o["line"] for o in out] == [1, 2, 3, 4]
    assert "error" in out[3]
    for o, i in zip(out, ids):
        assert _drop_seconds(o["result"]) == _drop_seconds(_single(["zangle", "solo", "solve", i, "--json", "--max-states", "200000"]))


@pytest.mark.parametrize("extra", [[], ["--option", "fill_empty_pile=may"], ["--option", "voluntary_discard=true"],
                                   ["--option", "z_cards=minimal", "--max-states", "500"]])
def test_zangle_solo_batch_kernel_path_matches_single_solves(extra):
    """Descriptive IDs go to one batch-kernel call (SoloBatch); seed IDs, files, odd IDs and bad
    lines to the per-line command: the same answers and error texts either way, in input order."""
    from tanglekit.games.zangle.rules import ZangleOptions
    from tanglekit.games.zangle.solo_search import SoloDeal

    ids = [SoloDeal.from_seed(s, ZangleOptions(piles=p, **o)).share_id()
           for s, p, o in [(1, 5, {}), (2, 5, {"fill_empty_pile": "may"}), (3, 6, {"voluntary_discard": True}),
                           (4, 4, {"z_cards": "minimal"}), (5, 5, {}), (6, 3, {"fill_empty_pile": "may"})]]
    head, _, desc = ids[0].rpartition(":")
    lines = ids[:3] + [
        ids[3].rpartition(":")[0] + ":" + ids[3].rpartition(":")[2].upper(),  # upper case: the per-line path
        head + ":" + desc[:-2] + desc[:2],  # a card twice
        head + ":" + desc + ".",  # an empty pile
        head + ":" + desc[:-1],  # half a card code
        head.replace("piles=5", "piles=4") + ":" + desc,  # pile count mismatch
        "zangle:solo,piles=5,hard#3",
    ] + ids[4:]
    out = _batch(["zangle", "solo", "solve"] + extra, lines)
    assert [o["line"] for o in out] == list(range(1, len(lines) + 1))
    for o, text in zip(out, lines):
        r = CliRunner().invoke(app, ["zangle", "solo", "solve", text, "--json"] + extra)
        if r.exit_code == 0:
            assert _drop_seconds(o["result"]) == _drop_seconds(json.loads(r.stdout)), text
        else:
            assert o["error"] == str(r.exception), text
    assert sum("error" in o for o in out) == 4
    # the kernel path took exactly the well-formed descriptive IDs
    from tanglekit.games.zangle.solo_batch import zangle_solo_bulk

    opt = [extra[i + 1] for i, a in enumerate(extra) if a == "--option"]
    kw = {"count": False, "time_limit": None, "deck": None, "option": opt or None,
          "max_states": int(extra[extra.index("--max-states") + 1]) if "--max-states" in extra else 2_000_000}
    done = zangle_solo_bulk(kw, list(enumerate(lines, 1)))
    assert sorted(done) == [1, 2, 3, 10, 11]
    assert all(json.loads(done[n])["line"] == n for n in done)


def test_zangle_find_batch_files_and_inline_objects(tmp_path):
    deal = {"middle": ["T4-bar", "T1", "T5-c", "Z"], "own": ["T2", "T2", "T3", "T1"]}
    f = tmp_path / "deal.json"
    f.write_text(json.dumps(deal))
    out = _batch(["zangle", "find"], [str(f), json.dumps({"middle": ["T5-a"], "own": ["T1"]}),
                                      str(tmp_path / "missing.json"), json.dumps(deal)])
    single = _single(["zangle", "find", str(f), "--json"])
    assert len(single["zangles"]) == 21
    assert _drop_seconds(out[0]["result"]) == _drop_seconds(single) == _drop_seconds(out[3]["result"])
    assert out[1]["result"]["zangles"] == [] and out[1]["result"]["count"] == 0
    assert "error" in out[2]


def test_qango_batch_matches_single_solves():
    pos = ["XX..../O...../....../....../....../......", "XXX.../....../....../....../....../......",
           "X...../....../....../....../....../.....O"]
    out = _batch(["qango", "solve", "--time-limit", "300"], pos[:1] + ["empty"] + pos[1:])
    assert _drop_seconds(out[0]["result"]) == _drop_seconds(_single(["qango", "solve", pos[0], "--json", "--time-limit", "300"]))
    assert (out[0]["result"]["value"], out[0]["result"]["plies"]) == ("win", 11)  # as tests/test_qango.py finds
    assert "error" in out[2]  # three in a row is no legal position
    assert [o["line"] for o in out] == [1, 2, 3, 4]


def test_tile_batch_regions_and_option_objects():
    lines = ["rect:5x4", '{"region": "rect:3x5", "first": true, "each": "at-most"}', "bad:1",
             '{"region": "rect:4x5", "each": "at-most", "count": true}', '{"nonsense": 1}']
    out = _batch(["tile", "--pieces", "pentominoes", "--count"], lines)
    c1 = _single(["tile", "--region", "rect:5x4", "--pieces", "pentominoes", "--count", "--json"])
    assert _drop_seconds(out[0]["result"]) == _drop_seconds(c1)
    f = _single(["tile", "--region", "rect:3x5", "--pieces", "pentominoes", "--first", "--each", "at-most",
                 "--json"])
    assert _drop_seconds(out[1]["result"]) == _drop_seconds(f) and f["solutions"]
    c2 = _single(["tile", "--region", "rect:4x5", "--pieces", "pentominoes", "--each", "at-most", "--count",
                  "--json"])
    assert _drop_seconds(out[3]["result"]) == _drop_seconds(c2) and c2["count"] > 0
    assert "error" in out[2] and "error" in out[4]


def test_batch_file_input_order_and_worker_cap(tmp_path):
    f = tmp_path / "in.txt"
    f.write_text("a\n\n b \n")
    assert read_lines(str(f)) == [(1, "a"), (3, "b")]
    assert batch_workers(1) == 1 and batch_workers(2, 8) == 1 and batch_workers(100, 2) == 2
    r = CliRunner().invoke(app, ["tanglung", "solo", "solve", "--batch", str(tmp_path / "none.txt")])
    assert r.exit_code == 2 or "cannot read batch file" in (r.stdout + str(r.exception))


def test_batch_refuses_pictures(tmp_path):
    r = CliRunner().invoke(app, ["tanglung", "solo", "solve", "--batch", "-", "--svg", str(tmp_path / "x.svg")],
                           input="CRBF/HDFR/BHFB/RHDC\n")
    assert r.exit_code != 0
    assert not (tmp_path / "x.svg").exists()


@pytest.mark.parametrize("workers", [1, 2])
def test_iter_batch_keeps_order_over_chunks(workers):
    from tanglekit.cli_batch import _Item, iter_batch
    from tanglekit.games.tanglung.cli import solo_solve

    import inspect

    kw = {k: (v.default if hasattr(v.default, "default") else v.default)
          for k, v in inspect.signature(solo_solve).parameters.items()}
    kw = {k: getattr(v, "default", v) for k, v in kw.items()}
    item = _Item(solo_solve, kw, "layout", "as_json", {"batch": None, "as_json": True}, False)
    lines = [(n, "CRBF/HDFR/BHFB/RHDC" if n % 3 else "bad") for n in range(1, 14)]
    out = [json.loads(s) for s in iter_batch(item, lines, workers=workers, chunk_size=2)]
    assert [o["line"] for o in out] == list(range(1, 14))
    assert all(("error" in o) == (o["line"] % 3 == 0) for o in out)


@pytest.mark.parametrize("extra", [[], ["--option", "literal_blocking=true"], ["--start", "3,3"],
                                   ["--method", "bfs"], ["--cards", "C2R3B3F3H3D2"]])
def test_tanglung_batch_kernel_path_matches_single_solves(extra):
    """Bare layouts go to one batch-kernel call; IDs and bad lines to the per-line command: the
    same answers either way, in input order."""
    layouts = ["CRBF/HDFR/BHFB/RHDC", "CBHF/BDDR/HRRB/FHFC", "CDRB/HHBF/BFFR/RDHC", "CRRD/BBHF/RFHD/BHFC"]
    lines = layouts[:2] + ["tanglung:solo:" + layouts[2], "CRBF/HDFR/BHFB/RHD", "CCCC/CCCC/CCCC/CCCC", layouts[3]]
    out = _batch(["tanglung", "solo", "solve"] + extra, lines)
    assert [o["line"] for o in out] == list(range(1, 7))
    assert "error" in out[3] and "error" in out[4]
    for o, text in zip([out[0], out[1], out[2], out[5]], layouts[:2] + [lines[2], layouts[3]]):
        single = _single(["tanglung", "solo", "solve", text, "--json"] + extra)
        assert _drop_seconds(o["result"]) == _drop_seconds(single), text
    bad = CliRunner().invoke(app, ["tanglung", "solo", "solve", "CCCC/CCCC/CCCC/CCCC", "--json"] + extra)
    assert out[4]["error"] == str(bad.exception)
