"""Hostile input against every QANGO command that reads input: the shared corpus, other games'
files, bad numbers and hypothesis-made text and JSON. Each is refused with one line on stderr,
exit 2, no traceback and nothing written, or (valid input) answered correctly."""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from budget import examples
from hostile import HOSTILE_NAMES, assert_refused, hostile_files, hostile_text, json_values, run_cli

from tanglekit.games.qango import load_board
from tanglekit.games.zinga.sheet import load_sheets, sheets_to_json

FILE_COMMANDS = [
    ["qango", "solve", "{f}", "--time-limit", "0", "--json"],
    ["qango", "explore", "{f}", "--time-limit", "0"],
    ["qango", "show", "{f}", "--json"],
    ["qango", "puzzle", "solve", "{f}"],
    ["qango", "verify-proof", "{f}"],
    ["qango", "board", "show", "{f}"],
    ["qango", "solve", "empty", "--board", "{f}", "--time-limit", "0"],
    ["qango", "puzzle", "generate", "--board", "{f}", "--k", "2"],
]


def _fill(cmd, f):
    return [str(f) if a == "{f}" else a for a in cmd]


# the commands by the reader they share: positions and puzzles (games.qango.sources.read_position_source),
# proofs, boards (load_board_spec)
READERS = [FILE_COMMANDS[:4], FILE_COMMANDS[4:5], FILE_COMMANDS[5:]]


def _corpus_cases():
    """Every hostile file on every reader in the default run (the reader's commands take turns);
    the other (file, command) pairs of the full cross product with -m slow."""
    cases = []
    for i, name in enumerate(HOSTILE_NAMES + ["folder_path", "missing"]):
        for reader in READERS:
            for j, cmd in enumerate(reader):
                marks = () if j == i % len(reader) else pytest.mark.slow
                cases.append(pytest.param(cmd, name, marks=marks, id=f"{'-'.join(cmd[1:3])}-{name}"))
    return cases


@pytest.mark.parametrize("cmd,name", _corpus_cases())
def test_hostile_files_refused(cmd, name, tmp_path):
    path = hostile_files()[name]
    assert_refused(_fill(cmd, path), tmp_path)


def _other_files(tmp_path):
    """Valid files of other kinds and games: each must be refused where a position is expected."""
    out = {}
    docs = {
        "zinga_sheets": sheets_to_json(load_sheets()),
        "zinga_game": {"format": "tanglekit/zinga-game", "version": 1, "first": 0, "options": {},
                       "sheets": sheets_to_json(load_sheets())["sheets"][:2], "moves": []},
        "zangle_deal": {"middle": [[0, 1, 2]], "own": [[[0, 0], [0, 1]]], "piles": [[1, 2]]},
        "tangle_state": {"format": "tanglekit/tangle-state", "version": 1, "board": "tangle-default"},
        "qango_board": load_board("6").to_json(),
        "qango_proof_like": {"format": "tanglekit-qango-proof", "claim": "win"},
    }
    for name, doc in docs.items():
        p = tmp_path / f"{name}.json"
        p.write_text(json.dumps(doc))
        out[name] = p
    return out


@pytest.mark.parametrize("cmd", FILE_COMMANDS[:4], ids=lambda c: "-".join(c[1:3]))
def test_other_games_files_refused(cmd, tmp_path):
    for name, path in _other_files(tmp_path).items():
        msg = assert_refused(_fill(cmd, path), tmp_path)
        if name == "qango_board":
            assert "this is a QANGO board file" in msg


def test_zangle_deal_is_not_an_empty_board(tmp_path):
    """The issue's case: a Zangle deal file was solved as the empty board."""
    msg = assert_refused(["qango", "solve", str(_other_files(tmp_path)["zangle_deal"])], tmp_path)
    assert "Zangle deal" in msg or "middle" in msg  # names what the file is, or the field that does not belong


@pytest.mark.parametrize("args", [
    ["qango", "solve", "empty", "--time-limit", "-1"],
    ["qango", "solve", "empty", "--time-limit", "nan"],
    ["qango", "solve", "empty", "--time-limit", "inf"],
    ["qango", "solve", "empty", "--time-limit", "1e400"],
    ["qango", "solve", "empty", "--method", "magic"],
    ["qango", "solve", "empty", "--option", "max_counters=0"],
    ["qango", "solve", "empty", "--option", "max_counters=99999999999999999999"],
    ["qango", "solve", "empty", "--option", "bogus=1"],
    ["qango", "solve", "empty", "--opening", "nope"],
    ["qango", "explore", "empty", "--time-limit", "nan"],
    ["qango", "puzzle", "generate", "--k", "0"],
    ["qango", "puzzle", "generate", "--k", "-1"],
    ["qango", "puzzle", "generate", "--k", "99"],
    ["qango", "puzzle", "generate", "--count", "0"],
    ["qango", "puzzle", "generate", "--count", "-1"],
    ["qango", "puzzle", "generate", "--count", "99999999999"],
    ["qango", "puzzle", "generate", "--seed", "-1"],
    ["qango", "puzzle", "generate", "--seed", "99999999999999999999"],
    ["qango", "puzzle", "generate", "--opening", "nope"],
    ["qango", "puzzle", "generate", "--time-limit", "-1"],
    ["qango", "puzzle", "generate", "--board", "8"],
    ["qango", "board", "generate", "--width", "100000"],
    ["qango", "board", "generate", "--width", "0"],
    ["qango", "board", "generate", "--height", "-1"],
    ["qango", "board", "generate", "--width", "9", "--height", "9"],
    ["qango", "board", "generate", "--count", "0"],
    ["qango", "board", "generate", "--count", "99999999999"],
    ["qango", "board", "generate", "--seed", "-5"],
    ["qango", "board", "generate", "--score-time", "nan"],
    ["qango", "board", "generate", "--score-time", "-1"],
    ["qango", "board", "show", "qango-board:100000x6#1"],
    ["qango", "board", "show", "qango:board,w=100000,h=6#1"],
    ["qango", "board", "show", "qango:board,w=6#1"],
    ["qango", "show", "empty", "--svg", "/dev/full"],
    ["qango", "board", "generate", "--score-time", "0", "--out", "/dev/full"],
    ["qango", "solve", "X" * 200_000],
    ["qango", "play", "--seed", "-1"],
    ["qango", "play", "--think", "nan"],
    ["qango", "play", "--human", "Z"],
    ["qango", "play", "--board", "nope"],
])
def test_bad_numbers_and_options_refused(args, tmp_path):
    assert_refused(args, tmp_path)


POSITIONS = [
    ("X...../......", "rows"),  # two rows: the example the docs had wrong
    ("OO..../X...../....../....../....../......", "counts"),  # O more than X
    ("XXXX../OO..../....../....../....../......", "counts"),  # X two ahead
    ("XXXXX./OOOOO./....../....../....../......", "both"),  # both players have won
    ("X#..../....../....../....../....../......", "on the"),  # '#' on an on-board cell
    ("O....../......./......./......./......./......./.......", "counts"),
    ("XX.....##/", "rows"),
    ("XXXXX./OOOO.O/....../....../....../......", "already won"),
    ("xo..../....../....../....../....../.....Q", "unknown symbol"),
    ("", "empty"),
    ("   ", "empty"),
    ("{", "JSON"),
    ('{"board": "6", "x": [0, 0], "o": []}', "twice"),
    ('{"board": "6", "x": [99], "o": []}', "less than or equal"),
    ('{"board": "6", "x": [0], "o": [0]}', "both"),
    ('{"board": "6", "x": [0], "o": [1], "to_move": 1}', "to move"),
    ('{"board": "7plus", "x": [0], "o": []}', "not on the"),
    ('{"board": "6"}', "either"),
    ('{"board": {"width": 100, "height": 6}, "position": "empty"}', "less than or equal"),
    ("qango:6,k3#99999999999999999999999", "seed"),
    ("qango:6,k99#1", "k must"),
    ("qango:6,k3,opening=nope#1", "opening"),
    ("qango:8,k3#1", "unknown board"),
    ("qango:custom,k2#1", "no seed form"),
    ("qango:6,k2:....../....../....../....../....../......", "does not win"),
    ("zinga:sheets4#1", "expected a QANGO"),
    ("qango:board,w=6,h=6#1", "expected a QANGO"),
    ("qango:6,bogus=1:......", "unknown parameter"),
]


@pytest.mark.parametrize("text,msg", POSITIONS)
def test_bad_positions_refused(text, msg, tmp_path):
    out = assert_refused(["qango", "solve", text, "--time-limit", "0"], tmp_path)
    assert msg.lower() in out.lower(), out


def test_7plus_descriptive_ids_read_back(tmp_path):
    """7 Plus positions have '#' off-board cells: their IDs must not be taken for seed IDs."""
    from tanglekit.generators.ids import resolve

    text = "##...##/#.....#/...X.../......./......./#.....#/##...##"
    code, out, err = run_cli(["qango", "show", text, "--json"], tmp_path)
    assert code == 0, err
    pid = json.loads(out)["id"]
    assert pid.startswith("qango:7plus:##")
    inst = resolve(pid)
    assert inst.kind == "qango-position" and inst.value.to_text() == text


def _valid_or_refused(args, tmp_path):
    code, out, err = run_cli(args, tmp_path)
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert "Traceback" not in err, err[-2000:]
    if code == 0:
        doc = json.loads(out)
        assert doc["value"] == "unknown" and doc["complete"] is False
        assert doc["nodes"] == 0
    else:
        assert code == 2 and len(lines) == 1 and lines[0].startswith("error:"), (args, code, err[-2000:])
        assert not out.strip()


@settings(max_examples=examples(30), deadline=None, suppress_health_check=list(HealthCheck))
@given(text=hostile_text)
def test_hypothesis_position_text(text, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("qtext")
    _valid_or_refused(["qango", "solve", text, "--time-limit", "0", "--json"], tmp)


_ROW = st.text(alphabet="XO.#", min_size=6, max_size=6)


@settings(max_examples=examples(30), deadline=None, suppress_health_check=list(HealthCheck))
@given(rows=st.lists(_ROW, min_size=6, max_size=6))
def test_hypothesis_six_by_six(rows, tmp_path_factory):
    """Random 6x6 grids: refused unless they are a reachable position (then solved as unknown)."""
    from tanglekit.errors import TanglekitError
    from tanglekit.games.qango import parse_position

    tmp = tmp_path_factory.mktemp("q66")
    text = "/".join(rows)
    try:
        parse_position(text)
        valid = True
    except TanglekitError:
        valid = False
    code, out, err = run_cli(["qango", "solve", text, "--time-limit", "0", "--json"], tmp)
    assert "Traceback" not in err
    assert code == (0 if valid else 2), (text, err)


@settings(max_examples=examples(25), deadline=None, suppress_health_check=list(HealthCheck))
@given(doc=json_values)
def test_hypothesis_json_files(doc, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("qjson")
    f = tmp / "doc.json"
    f.write_text(json.dumps(doc))
    _valid_or_refused(["qango", "solve", str(f), "--time-limit", "0", "--json"], tmp)
    code, out, err = run_cli(["qango", "verify-proof", str(f)], tmp)
    assert code == 2 and "Traceback" not in err and len(err.strip().splitlines()) == 1, err[-2000:]


@settings(max_examples=examples(30), deadline=None, suppress_health_check=list(HealthCheck))
@given(doc=st.fixed_dictionaries({"format": st.just("tanglekit-qango-proof")}, optional={
    "board": json_values | st.just({"width": 6, "height": 6}), "position": json_values | st.just("empty"),
    "claim": st.sampled_from(["win", "loss", "draw", 1]), "plies": json_values, "tree": json_values,
    "allowed_first": json_values}))
def test_hypothesis_proof_shapes(doc, tmp_path_factory):
    """Proof-shaped documents with hostile fields: one line, exit 2 (or an INVALID verdict, exit 1)."""
    tmp = tmp_path_factory.mktemp("qproof")
    f = tmp / "proof.json"
    f.write_text(json.dumps(doc))
    code, out, err = run_cli(["qango", "verify-proof", str(f)], tmp)
    assert "Traceback" not in err, err[-2000:]
    assert code in (1, 2), (code, out, err)
    if code == 2:
        assert len(err.strip().splitlines()) == 1 and not out.strip()


@settings(max_examples=examples(30), deadline=None, suppress_health_check=list(HealthCheck))
@given(text=hostile_text)
def test_hypothesis_board_and_puzzle_arguments(text, tmp_path_factory):
    """Made-up BOARD and puzzle arguments: a board name shows that board, anything else is refused."""
    from tanglekit.games.qango.board import BOARD_ALIASES

    tmp = tmp_path_factory.mktemp("qarg")
    if text.strip().lower() in BOARD_ALIASES:
        code, out, err = run_cli(["qango", "board", "show", text], tmp)
        assert code == 0, err
    else:
        assert_refused(["qango", "board", "show", text], tmp)
    assert_refused(["qango", "puzzle", "solve", text], tmp)


def test_untagged_files_of_other_games_are_not_claimed():
    """The QANGO sniffers claim only QANGO-shaped documents, so other games' untagged files are
    not refused as QANGO files by their own readers."""
    from tanglekit.jsonio import identify

    for doc in ({"position": {"cells": [1, 2]}}, {"x": 1, "y": 2}, {"board": "tangle-default", "position": "P1 at 3"},
                {"width": 5, "height": 5, "triples": [], "pieces": []}, {"k": 3, "key_move": [1, 2], "id": "tangle:x"}):
        assert identify(doc) is None or not identify(doc).tag.startswith("tanglekit/qango"), doc
    assert identify({"board": "6", "position": "empty"}).tag == "tanglekit/qango-position"


def test_hostile_gzip_proofs_refused(tmp_path):
    import gzip

    cases = {
        "garbage.json.gz": b"not gzip at all",
        "truncated.json.gz": gzip.compress(b'{"format": "tanglekit-qango-proof"}')[:-6],
        "bomb.json.gz": gzip.compress(b" " * (33 * 2**20), compresslevel=1),
        "binary.json.gz": gzip.compress(bytes(range(256)) * 8),
        "list.json.gz": gzip.compress(b"[1, 2, 3]"),
        "other.json.gz": gzip.compress(json.dumps({"format": "tanglekit/zinga-sheets", "sheets": []}).encode()),
    }
    for name, data in cases.items():
        (tmp_path / name).write_bytes(data)
    for name in cases:
        assert_refused(["qango", "verify-proof", str(tmp_path / name)], tmp_path)
