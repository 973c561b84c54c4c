"""The plain-Python paths of a single Zangle command (start-up) against the kernel and pydantic
ones: the finder search (``moves.plain_zangles`` vs the numba ``raw_zangles``), the shipped
tiling table vs a freshly built one, the solo search (``zangle_solo_plain`` vs
``_zangle_solo_kernel``), and the plain checks of deck, deal, solo and board files: whatever
they accept, the pydantic schemas accept too, and with the same values."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import numpy as np
import pytest
from budget import sweep

from tanglekit.games.zangle import default_deck, moves
from tanglekit.games.zangle import table as tables
from tanglekit.games.zangle.cards import _deck_model, _quick_deck, free_polyiamonds, make_deck
from tanglekit.games.zangle.deal import _deal_model, _quick_deal
from tanglekit.games.zangle.rules import ZangleOptions
from tanglekit.games.zangle.solo_deal import SoloDeal, _quick_solo, _solo_model
from tanglekit.games.zangle import solo_search as Z

ROOT = Path(__file__).resolve().parents[1]


def _hex_deck():
    kinds = [("Z", None, 3), ("mono", [[0, 0]], 6), ("dia", [[0, 0], [0, 1]], 6), ("tri", [[0, 0], [0, 1], [1, 1]], 6)]
    for n in (4, 5, 6):
        for i, p in enumerate(free_polyiamonds(n)):
            kinds.append((f"P{n}-{i}", p.cells, 2))
    return make_deck("hexdeck", kinds, colours={6: "orange"})


@pytest.mark.parametrize("deck", [None, "hex"])
def test_plain_finder_equals_the_kernel_in_order(deck):
    d = _hex_deck() if deck else default_deck()
    table = tables.deck_table(d)
    rng = random.Random(11)
    cards = list(d.cards)
    found = 0
    for _ in range(300):
        n = rng.randint(2, 16)
        sample = rng.sample(cards, n)
        sids = [table.sid(c.shape) for c in sample]
        places = [rng.randint(0, 1) for _ in range(n)]
        plain = moves.plain_zangles(sids, places, table)
        ts, ms = moves.raw_zangles(np.array(sids, dtype=np.int64), np.array(places, dtype=np.int64), table)
        assert plain == (ts.tolist(), ms.tolist())
        found += len(plain[0])
    assert found > 300


def test_find_zangles_json_is_the_same_through_either_engine(monkeypatch):
    from tanglekit.games.zangle.cli import find_command

    out = {}
    for engine in ("python", "kernel"):
        monkeypatch.setenv("TANGLEKIT_ENGINE", engine)
        out[engine] = find_command(str(ROOT / "examples" / "deal.json"), as_json=True)
    assert out["python"] == out["kernel"] and json.loads(out["python"])["count"] == 7


def test_shipped_table_is_the_built_one(tmp_path, monkeypatch):
    shapes = list(default_deck().shapes)
    shipped = tables.TilingTable(shapes)
    assert shipped._sets_tried == 0  # read from games/zangle/data, not built
    monkeypatch.setattr(tables, "SHIPPED", tmp_path)
    built = tables.TilingTable(shapes)
    assert built._sets_tried > 0 and built.entries == shipped.entries
    assert np.array_equal(built.keys, shipped.keys) and built.areas == shipped.areas == list(built.area)


def _zangle_ids(n):
    """n five- or six-pile solo deals with random rule options (seeded)."""
    rng = random.Random(n)
    out = []
    for seed in range(n):
        opts = ZangleOptions(piles=rng.choice([4, 5, 5, 6]), fill_empty_pile=rng.choice(["must", "may"]),
                             voluntary_discard=rng.random() < 0.3, z_cards=rng.choice(["all", "minimal"]))
        out.append((SoloDeal.from_seed(seed, opts), rng.choice([3000, 3000, 40, 400])))
    return out


@pytest.mark.parametrize("n", sweep(35, 70))
def test_plain_solo_search_equals_the_kernel(monkeypatch, n):
    outcomes = set()
    for deal, max_states in _zangle_ids(70)[:n]:
        got = {}
        for engine in ("python", "kernel"):
            monkeypatch.setenv("TANGLEKIT_ENGINE", engine)
            r = Z.solve_deal(deal, max_states=max_states)
            got[engine] = (r.solvable, [a.to_json() for a in r.line], r.states, r.reason)
        assert got["python"] == got["kernel"], deal.to_json()
        outcomes.add((got["python"][0], got["python"][3]))
    assert {(True, "done"), (False, "done"), (None, "node limit")} <= outcomes


def test_plain_solo_search_hands_large_deals_to_the_kernel(monkeypatch):
    from tanglekit import engines

    monkeypatch.delenv("TANGLEKIT_ENGINE", raising=False)
    monkeypatch.setattr(engines, "plain_first", lambda: True)  # as in a fresh process
    monkeypatch.setattr(Z, "PLAIN_STATES", 5)
    deal = SoloDeal.from_seed(0, ZangleOptions(piles=5))
    assert Z._solve_plain(deal, 200_000, 1 << 19, 0.0, 5) is None
    r = Z.solve_deal(deal)
    monkeypatch.setenv("TANGLEKIT_ENGINE", "kernel")
    k = Z.solve_deal(deal)
    assert r.states > 5 and (r.solvable, r.states, [str(a) for a in r.line]) == (k.solvable, k.states,
                                                                                [str(a) for a in k.line])


# --- the plain file checks ------------------------------------------------------------------
def _mutations(doc, rng, n=400):
    """Random edits of a JSON document: values replaced by other types or sizes, keys added or
    dropped, nested too."""
    junk = [None, True, False, 0, -1, 1, 2, 10**6, 1.5, "", "x", "x" * 300, "\ud800", [], [0], [[0, 0]],
            [[0, 0, 0]], [["a", 1]], {}, {"id": "T1"}, {"cells": [[0, 0]]}, {"x": 1}, "T1-1", [1001, 0]]

    def paths(d, pre=()):
        yield pre
        if isinstance(d, dict):
            for k, v in d.items():
                yield from paths(v, pre + (k,))
        elif isinstance(d, list):
            for i, v in enumerate(d[:4]):
                yield from paths(v, pre + (i,))

    all_paths = list(paths(doc))
    for _ in range(n):
        d = copy.deepcopy(doc)
        for _ in range(rng.randint(1, 3)):
            p = rng.choice(all_paths)
            try:
                parent = d
                for k in p[:-1]:
                    parent = parent[k]
                if not p:
                    continue
                r = rng.random()
                if r < 0.6:
                    parent[p[-1]] = copy.deepcopy(rng.choice(junk))
                elif r < 0.8 and isinstance(parent, dict):
                    parent.pop(p[-1], None)
                elif isinstance(parent, dict):
                    parent[rng.choice(["extra", "note", "name", "seed", "deal", "options"])] = copy.deepcopy(
                        rng.choice(junk))
                elif isinstance(parent, list):
                    parent.append(copy.deepcopy(rng.choice(junk)))
            except (KeyError, IndexError, TypeError):
                continue
        yield d


def _check_quick(docs, quick, model, dump_equal=None):
    """Every document ``quick`` accepts, ``model`` accepts; the originals are accepted by both."""
    from pydantic import ValidationError

    rng = random.Random(3)
    accepted = 0
    for doc in docs:
        body = {k: v for k, v in doc.items() if k not in ("format", "version")}
        assert quick(body), "the plain check refuses a valid document"
        model.model_validate(body)
        for m in _mutations(body, rng):
            if not isinstance(m, dict):
                continue
            if quick(m):
                accepted += 1
                try:
                    model.model_validate(m)
                except ValidationError as e:  # pragma: no cover - the failure message
                    raise AssertionError(f"plain check accepted what the schema refuses: {m!r}: {e}")
                if dump_equal is not None:
                    dump_equal(m)
    assert accepted > 50


def test_plain_deck_check_accepts_only_what_the_schema_accepts():
    from importlib import resources

    shipped = json.loads(resources.files("tanglekit.games.zangle").joinpath("data", "zangle-default.json").read_text())
    _check_quick([shipped, _hex_deck().to_json()], _quick_deck, _deck_model())


def test_plain_deal_check_accepts_only_what_the_schema_accepts():
    deal = json.loads((ROOT / "examples" / "deal.json").read_text())
    raw = {"middle": [[[0, 0]], "T1", {"id": "T2-3"}, {"cells": []}], "own": [[]], "others": [{"own": ["T3"]}]}
    gen = {"deal": {k: v for k, v in deal.items() if k not in ("seed_id",)}, "properties": {"a": 1}, "seed": 3}
    _check_quick([deal, raw, gen], _quick_deal, _deal_model())


def test_plain_solo_check_accepts_only_what_the_schema_accepts():
    solo = json.loads((ROOT / "examples" / "solo.json").read_text())
    deal = SoloDeal.from_seed(4, ZangleOptions(piles=6, z_cards="minimal")).to_json()
    challenge = {"deal": deal, "id": "x", "grade": "hard", "measures": {"lines": 3}, "solution": [], "moves": 4,
                 "complete": True}
    _check_quick([solo, deal, challenge], _quick_solo, _solo_model())


def test_plain_board_check_gives_the_schema_values():
    from importlib import resources

    from tanglekit.games.qango import board as B

    docs = [json.loads(resources.files("tanglekit.games.qango").joinpath("data", f"{n}.json").read_text())
            for n in ("qango6", "qango7", "qango7plus")]
    docs.append({"width": 3, "height": 2, "triples": [[0, 1, 2], {"cells": [3, 4, 5]}], "title": None,
                 "openings": {"corner": {"allowed": [0]}}, "max_counters": 5})
    model = B._board_model()

    def same_board(m):
        """The board the plain path builds equals the one the model's values give (or both fail)."""
        def build(quick):
            orig = B._quick_board
            B._quick_board = quick
            try:
                b = B.board_from_json(copy.deepcopy(m), "b")
                return ("ok", b.name, b.title, b.width, b.height, b.off_board, b.triples, b.max_counters,
                        b.openings, b.colours)
            except Exception as e:  # noqa: BLE001 - compared as text
                return ("error", str(e))
            finally:
                B._quick_board = orig

        assert build(orig_quick) == build(lambda d: False)

    orig_quick = B._quick_board
    _check_quick(docs, B._quick_board, model, same_board)
