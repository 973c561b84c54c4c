"""Issue 25, types: a whole number in a file or a rule option is an int, never true/false or a
float (``to_move: true``, ``to_move: 1.0``, ``options.piles: true`` were read as 1).

For every registered file format (``jsonio.FORMATS``; a new format without a sample here fails
``test_every_format_has_a_sample``) a valid document is written by tanglekit itself, read back
by the reader the commands use, and then every whole number in it (up to MAX_LEAVES of them,
spread over the document) is replaced by true, false and the same value as a float: each must be
refused with one line (a ``TanglekitError``), never read as a number, never another exception.
Documents with a checksum get a fresh one, so the checksum is not what refuses them.
The rule options of every game are checked the same way, from JSON values and CLI text.
"""

from __future__ import annotations

import copy
import json
from dataclasses import fields
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tanglekit.errors import TanglekitError
from tanglekit.jsonio import FORMATS, with_checksum

MAX_LEAVES = 24  # whole numbers mutated per format (evenly spread); the default run stays ~2 s
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


# --- a valid document and its reader, per format ----------------------------------------------
def _qango_board():
    from tanglekit.games.qango.board import load_board

    doc = load_board("6").to_json()
    return doc, lambda p: load_board(str(p))


def _qango_position():
    from tanglekit.games.qango.position import parse_position
    from tanglekit.games.qango.sources import read_position_source

    doc = parse_position("....../....../..XO../..OX../....../......", "6").to_json()
    return doc, lambda p: read_position_source(str(p))


def _qango_puzzle():
    from tanglekit.games.qango.sources import read_position_source
    from tanglekit.generators.ids import resolve

    doc = resolve("qango:6,k2#1").value.to_json()
    return doc, lambda p: read_position_source(str(p))


def _tanglung_cards():
    from tanglekit.games.tanglung.cards import card_set_file, default_card_set, load_card_set

    return card_set_file(default_card_set()), lambda p: load_card_set(str(p))


def _tanglung_challenge():
    from tanglekit.games.tanglung.formats import challenge_from_document
    from tanglekit.generators.ids import resolve
    from tanglekit.jsonio import read_json_file

    doc = resolve("tanglung:solo,easy#1").extra["challenge"].to_file()
    return doc, lambda p: challenge_from_document(read_json_file(p), str(p))


def _tanglung_state():
    doc = json.loads((EXAMPLES / "tanglung-state.json").read_text())
    doc = {"format": "tanglekit/tanglung-state", "version": 1, **doc}
    return doc, lambda p: _analyze(p)


def _analyze(p):
    from hostile import run_cli

    code, out, err = run_cli(["tanglung", "analyze", str(p), "--json", "--time-limit", "0.2"])
    if code == 2:
        raise TanglekitError(err.strip())
    assert code == 0, err[-1000:]


def _tanglung_census(tmp):
    from tanglekit.games.tanglung.generate import census, load_checkpoint

    cp = Path(tmp) / "census.json"
    census(sample=3, workers=1, checkpoint=cp, seed=1, chunk=3)
    doc = json.loads(cp.read_text())
    setup, keys = doc["setup"], {k: 3 for k in doc["done"]}
    return doc, lambda p: load_checkpoint(Path(p), setup, keys)


def _count_checkpoint(tmp):
    from tanglekit.generators import executors

    problem = {"command": "shapes enumerate", "lattice": "square", "kind": "free", "size": 4}
    cp = Path(tmp) / "count.json"
    executors._save_checkpoint(cp, problem, {"p0": 3, "p1": 2})
    return json.loads(cp.read_text()), lambda p: executors._load_checkpoint(Path(p), problem)


def _shapes():
    from tanglekit.shapes.catalogue import load_piece_file

    doc = {"format": "tanglekit/shapes", "version": 1, "lattice": "square",
           "shapes": [[[0, 0], [1, 0], [0, 1]], [[0, 0], [1, 0]]]}
    return doc, lambda p: load_piece_file(str(p), "square")


def _zangle_deck():
    from tanglekit.games.zangle.cards import load_deck

    doc = json.loads((Path(__import__("tanglekit.games.zangle.cards", fromlist=["x"]).__file__).parent
                      / "data" / "zangle-default.json").read_text())
    doc = {"format": "tanglekit/zangle-deck", "version": 1, **{k: v for k, v in doc.items() if k != "format"}}
    return doc, lambda p: load_deck(str(p))


def _zangle_log(tmp):
    from hostile import run_cli

    log = Path(tmp) / "game.jsonl"
    code, _, err = run_cli(["zangle", "play", "turn", "--players", "2", "--seed", "1", "--log", str(log)])
    assert code == 0, err
    lines = [json.loads(ln) for ln in log.read_text().splitlines() if ln.strip()][:6]

    def read(p):
        from tanglekit.games.zangle.log import replay_log

        return replay_log(p)
    return lines, read


def _zangle_deal():
    from tanglekit.games.zangle.deal import load_deal

    return json.loads((EXAMPLES / "deal.json").read_text()), lambda p: load_deal(str(p))


def _zangle_solo():
    from tanglekit.games.zangle.solo_deal import load_solo_deal_file

    return json.loads((EXAMPLES / "solo.json").read_text()), lambda p: load_solo_deal_file(str(p))


def _zinga_sheets():
    from tanglekit.games.zinga.sheet import load_sheets, sheets_to_json

    return sheets_to_json(load_sheets()[:2]), lambda p: load_sheets(str(p))


def _zinga_game():
    from tanglekit.games.zinga.engine import ZingaGame
    from tanglekit.games.zinga.rules import ZingaOptions
    from tanglekit.games.zinga.sheet import load_sheets
    from tanglekit.jsonio import read_json_file

    doc = ZingaGame(load_sheets()[:2], ZingaOptions(), 1).to_json()
    return doc, lambda p: ZingaGame.from_json(read_json_file(p, "Zinga game"), str(p))


def _play_log(tmp):
    from hostile import run_cli
    from tanglekit.play.start import resolve_start

    log = Path(tmp) / "play.json"
    code, _, err = run_cli(["play", "qango", "--bots", "random,random", "--seed", "3", "--log", str(log)])
    assert code == 0, err
    return json.loads(log.read_text()), lambda p: resolve_start(str(p))


def _tangle_board():
    from tanglekit.games.tangle.board import load_board

    return load_board("tangle-default").to_json(), lambda p: load_board(Path(p))


def _tangle_pieces():
    from tanglekit.games.tangle.board import load_pieces

    return load_pieces("tangle-default").to_json(), lambda p: load_pieces(Path(p))


def _tangle_state():
    from tanglekit.games.tangle.engine import load_state

    return json.loads((EXAMPLES / "tangle-state.json").read_text()), lambda p: load_state(Path(p))


def _tangle_puzzle():
    from tanglekit.games.tangle.generate import verify_puzzle
    from tanglekit.generators.ids import resolve
    from tanglekit.jsonio import read_json_file

    doc = resolve("tangle:players=2,board=tangle-default,pieces=tangle-default,min_points=10,min_chain=2#4").value
    return doc, lambda p: verify_puzzle(read_json_file(p), str(p))


SAMPLES = {
    "tanglekit/qango-board": _qango_board,
    "tanglekit/qango-position": _qango_position,
    "tanglekit/qango-puzzle": _qango_puzzle,
    "tanglekit/tanglung-cards": _tanglung_cards,
    "tanglekit/tanglung-challenge": _tanglung_challenge,
    "tanglekit/tanglung-state": _tanglung_state,
    "tanglekit/tanglung-census": _tanglung_census,
    "tanglekit/count-checkpoint": _count_checkpoint,
    "tanglekit/shapes": _shapes,
    "tanglekit/zangle-deck": _zangle_deck,
    "tanglekit/zangle-log": _zangle_log,
    "tanglekit/zangle-deal": _zangle_deal,
    "tanglekit/zangle-solo": _zangle_solo,
    "tanglekit/zinga-sheets": _zinga_sheets,
    "tanglekit/zinga-game": _zinga_game,
    "tanglekit/play-log": _play_log,
    "tanglekit/tangle-board": _tangle_board,
    "tanglekit/tangle-pieces": _tangle_pieces,
    "tanglekit/tangle-state": _tangle_state,
    "tanglekit/tangle-puzzle": _tangle_puzzle,
}


def _load_all_formats() -> None:
    from tanglekit.games.plugin import plugins

    for p in plugins():
        p.load_formats()
    import tanglekit.games.qango.puzzle  # noqa: F401
    import tanglekit.games.tangle.formats  # noqa: F401
    import tanglekit.games.tanglung.cards  # noqa: F401
    import tanglekit.games.zangle.cards  # noqa: F401
    import tanglekit.games.zangle.deal  # noqa: F401
    import tanglekit.games.zangle.engine  # noqa: F401
    import tanglekit.games.zinga.engine  # noqa: F401
    import tanglekit.games.zinga.sheet  # noqa: F401
    import tanglekit.generators.executors  # noqa: F401
    import tanglekit.play.start  # noqa: F401
    import tanglekit.shapes.catalogue  # noqa: F401


def test_every_format_has_a_sample():
    _load_all_formats()
    assert set(FORMATS) <= set(SAMPLES), sorted(set(FORMATS) - set(SAMPLES))


# --- the mutation ------------------------------------------------------------------------------
def _int_paths(doc, path=()):
    """Paths (keys and indices) of every whole number (not a bool) in a JSON document."""
    if type(doc) is int:
        yield path
    elif isinstance(doc, dict):
        for k, v in doc.items():
            yield from _int_paths(v, (*path, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from _int_paths(v, (*path, i))


def _replaced(doc, path, value):
    out = copy.deepcopy(doc)
    node = out
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    if isinstance(out, dict) and "checksum" in out:
        out = with_checksum(out)
    return out


def _write(p: Path, doc) -> Path:
    if isinstance(doc, list) and doc and all(isinstance(d, dict) for d in doc) and p.suffix == ".jsonl":
        p.write_text("\n".join(json.dumps(d) for d in doc) + "\n")
    else:
        p.write_text(json.dumps(doc))
    return p


def _spread(items: list, n: int) -> list:
    if len(items) <= n:
        return items
    return [items[round(i * (len(items) - 1) / (n - 1))] for i in range(n)]


def _make(tag, tmp_path):
    factory = SAMPLES[tag]
    return factory(tmp_path) if factory.__code__.co_argcount else factory()


@pytest.mark.parametrize("tag", sorted(SAMPLES))
def test_bool_or_float_for_a_whole_number_is_refused(tag, tmp_path):
    doc, read = _make(tag, tmp_path)
    suffix = ".jsonl" if tag == "tanglekit/zangle-log" else ".json"
    read(_write(tmp_path / f"valid{suffix}", doc))  # the sample itself reads
    paths = [p for p in _int_paths(doc) if p[-1:] != ("checksum",)]
    assert paths, tag
    # every rule option and game parameter, then numbers spread over the rest of the document
    chosen = [p for p in paths if set(p) & {"options", "params", "setup"}]
    chosen += _spread([p for p in paths if p not in chosen], max(4, MAX_LEAVES - len(chosen)))
    accepted = []
    for path in chosen:
        old = doc
        for key in path:
            old = old[key]
        for bad in (True, False, float(old)):
            f = _write(tmp_path / f"bad{suffix}", _replaced(doc, path, bad))
            try:
                read(f)
            except TanglekitError as e:
                assert "\n" not in str(e).strip(), (tag, path, bad, str(e))
            else:
                accepted.append((path, bad))
    assert not accepted, (tag, accepted[:10])


# --- rule options ------------------------------------------------------------------------------
def _options_classes():
    from tanglekit.games.qango.position import QangoOptions
    from tanglekit.games.tangle.rules import TangleOptions
    from tanglekit.games.tanglung.rules import TanglungOptions
    from tanglekit.games.zangle.rules import ZangleOptions
    from tanglekit.games.zinga.rules import ZingaOptions

    return [QangoOptions, TangleOptions, TanglungOptions, ZangleOptions, ZingaOptions]


def _int_options():
    out = []
    for cls in _options_classes():
        for f in fields(cls):
            d = f.default
            if (type(d) is int) or (d is None and f.metadata.get("minimum") is not None):
                out.append((cls, f.name, d if d is not None else f.metadata["minimum"]))
    return out


def test_every_game_has_whole_number_options():
    names = {cls.__name__ for cls, _, _ in _int_options()}
    assert len(names) == 5, names


def _not_a_number(s: str) -> bool:
    """Not ASCII digits (an optional '-'), and not a word that means "no value" ("", "none"...)."""
    t = s.strip()
    return bool(t) and t.lower() not in ("none", "null", "board") and not (
        t.lstrip("-").isascii() and t.lstrip("-").isdigit())


@settings(deadline=None)
@given(st.data())
def test_rule_options_refuse_bools_floats_and_other_digits(data):
    from tanglekit.errors import RuleError

    cls, name, good = data.draw(st.sampled_from(_int_options()))
    bad = data.draw(st.one_of(
        st.booleans(), st.floats(allow_nan=False, allow_infinity=False), st.just(float(good)),
        st.sampled_from(["1.0", "١", "²", "１", "1_0", "+1", "0x10", "1e3"]),
        st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=5).filter(_not_a_number)))
    with pytest.raises(RuleError) as e:
        cls.from_dict({name: bad})
    assert "\n" not in str(e.value)
    assert getattr(cls.from_dict({name: str(good)}), name) == good  # text of ASCII digits still reads
    assert getattr(cls.from_dict({name: good}), name) == good
