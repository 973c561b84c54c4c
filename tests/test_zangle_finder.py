"""Zangle finder: hand-checked rules, proofs, ranking, JSON, and agreement with the brute force."""

import json
import random

import numpy as np
import pytest
from budget import sweep
from tanglekit.games.zangle import ZangleOptions, default_deck, parse_deal
from tanglekit.games.zangle.cards import free_polyiamonds, make_deck
from tanglekit.games.zangle.finder import find_zangles_in_deal, format_zangles, zangles_to_json
from tanglekit.games.zangle.moves import CardRef, batch_zangles, deck_sids, find_zangles
from tanglekit.games.zangle.reference import reference_zangles
from tanglekit.games.zangle.shape_tiler import tile_shape
from tanglekit.games.zangle.svg import zangle_svg
from tanglekit.games.zangle.table import TilingTable, deck_table
from tanglekit.shapes.polyform import Polyform

MONO = [[0, 0]]
DIAMOND = [[0, 0], [0, 1]]
TRI = [[0, 0], [0, 1], [1, 1]]
BAR = [[0, 0], [0, 1], [1, 1], [1, 2]]


def pairs(zs):
    return {(z.target, frozenset(z.pieces)) for z in zs}


def test_two_identical_cards_need_a_z_card():
    # one diamond in the middle, one in own: congruent, but only a Zangle with a Z card
    assert find_zangles([DIAMOND], [DIAMOND]) == []
    zs = find_zangles([DIAMOND, []], [DIAMOND])
    assert pairs(zs) == {
        (CardRef("middle", 0), frozenset([CardRef("own", 0)])),
        (CardRef("own", 0), frozenset([CardRef("middle", 0)])),
    }
    assert all(z.cards == 3 and z.z_cards == (CardRef("middle", 1),) for z in zs)


def test_must_use_middle_and_own():
    # diamond = 2 monos, but all three in the middle: not a Zangle
    pent = [[0, 0], [0, 1], [1, 1], [0, 2], [1, 2]]
    assert find_zangles([DIAMOND, MONO, MONO], [pent]) == []
    # a Z card from own counts for its place
    zs = find_zangles([DIAMOND, MONO, MONO], [pent, []])
    m = [CardRef("middle", i) for i in range(3)]
    assert pairs(zs) == {
        (m[0], frozenset([m[1], m[2]])),
        (m[1], frozenset([m[2]])),  # two identical monos + the Z card
        (m[2], frozenset([m[1]])),
    }
    assert zs[0].z_cards == (CardRef("own", 1),) and zs[0].cards == 4


def test_bar_examples_and_ranking():
    zs = find_zangles([BAR, MONO], [DIAMOND, DIAMOND, TRI])
    got = pairs(zs)
    m, o = (lambda i: CardRef("middle", i)), (lambda i: CardRef("own", i))
    assert got == {
        (m(0), frozenset([o(0), o(1)])),
        (m(0), frozenset([m(1), o(2)])),
        (o(2), frozenset([m(1), o(0)])),
        (o(2), frozenset([m(1), o(1)])),
    }
    assert [z.rank_key() for z in zs] == sorted(z.rank_key() for z in zs)
    assert zs[0].triangles == 8


def test_diamond_does_not_tile_two_separate_cells():
    split = [[0, 0], [2, 0]]  # two up triangles, not a diamond
    # two monoiamonds (each rotates to point up) do tile it, a diamond does not
    assert len(find_zangles([split], [MONO, MONO])) == 1
    assert find_zangles([split, []], [DIAMOND]) == []


_KEYS = {}


def free_key(cells):
    cells = tuple(sorted(map(tuple, cells)))
    if cells not in _KEYS:
        _KEYS[cells] = Polyform(cells).key("free")
    return _KEYS[cells]


def check_proof(middle, own, z):
    cards = {"middle": middle, "own": own}
    tshape = Polyform([tuple(c) for c in cards[z.target.place][z.target.index]])
    covered = []
    for ref, cells in zip(z.pieces, z.cells):
        assert free_key(cells) == free_key(cards[ref.place][ref.index])
        covered += list(cells)
    assert sorted(covered) == sorted(tshape.cells)


def random_table(rng, cards, n_mid, n_own):
    s = rng.sample(cards, n_mid + n_own)
    return s[:n_mid], s[n_mid:]


def compare(deals, deck=None):
    total = 0
    for mid, own in deals:
        zs = find_zangles(mid, own, deck=deck)
        assert len(zs) == len(pairs(zs)), "a (target, pieces) pair reported twice"
        assert pairs(zs) == reference_zangles(mid, own)
        total += len(zs)
    return total


@pytest.mark.parametrize("n", sweep(60, 250))
def test_random_default_deals_match_reference(n):
    rng = random.Random(2024)
    cards = list(default_deck().cards)
    small = [random_table(rng, cards, 4, 4) for _ in range(250)]
    large = [random_table(rng, cards, 4, 10) for _ in range(25)]
    total = compare(small[:n]) + compare(large[: n // 10])
    assert total > 4 * n  # the comparison is not vacuous


def hex_deck():
    kinds = [("Z", None, 3), ("mono", MONO, 6), ("dia", DIAMOND, 6), ("tri", TRI, 6)]
    for n in (4, 5, 6):
        for i, p in enumerate(free_polyiamonds(n)):
            kinds.append((f"P{n}-{i}", p.cells, 2))
    kinds.append(("split", [(0, 0), (3, 1)], 2))  # a disconnected custom card
    return make_deck("hexdeck", kinds, colours={6: "orange"}, allow_disconnected=True)


@pytest.mark.parametrize("n", sweep(40, 120))
def test_random_hexiamond_deals_match_reference(n):
    deck = hex_deck()
    rng = random.Random(7)
    cards = list(deck.cards)
    total = compare([random_table(rng, cards, 4, 5) for _ in range(120)][:n], deck)
    assert total > 5 * n / 3


@pytest.mark.slow
def test_many_random_deals_match_reference():
    rng = random.Random(99)
    cards = list(default_deck().cards)
    compare([random_table(rng, cards, 4, 4) for _ in range(3000)])
    compare([random_table(rng, cards, 4, 10) for _ in range(300)])
    deck = hex_deck()
    compare([random_table(rng, list(deck.cards), 4, 6) for _ in range(1500)], deck)


def test_proofs_are_tilings():
    rng = random.Random(5)
    cards = [c.cells for c in default_deck().cards]
    n = 0
    for _ in range(40):
        mid, own = random_table(rng, cards, 4, 6)
        for z in find_zangles(mid, own):
            check_proof(mid, own, z)
            n += 1
    assert n > 100


def test_z_card_reporting_options():
    mid, own = [DIAMOND, [], MONO], [MONO, [], DIAMOND]
    all_z = find_zangles(mid, own)
    minimal = find_zangles(mid, own, options=ZangleOptions(z_cards="minimal"))
    assert pairs(all_z) == pairs(minimal)
    assert all(len(z.z_cards) == 2 for z in all_z)
    for z in minimal:
        if len(z.pieces) == 1:
            assert len(z.z_cards) == 1
        else:
            assert z.z_cards == ()
    # a middle-only target and pieces need the own Z card
    mid2, own2 = [DIAMOND, MONO, MONO, []], [[]]
    zs = find_zangles(mid2, own2, options=ZangleOptions(z_cards="minimal"))
    assert len(zs) == 3 and all(z.z_cards == (CardRef("own", 0),) for z in zs)
    assert zs[0].target == CardRef("middle", 0) and zs[0].cards == 4


def test_json_output_and_text():
    deal = parse_deal({"middle": ["T4-bar", "T1"], "own": ["T2", "T2", "T3"]})
    zs = find_zangles_in_deal(deal)
    out = zangles_to_json(deal, zs)
    json.dumps(out)
    first = out["zangles"][0]
    assert set(first) == {"target", "pieces", "z_cards", "cards", "triangles"}
    assert first["cards"] == 3 and first["triangles"] == 8
    assert first["target"] == {"place": "middle", "index": 0}
    assert all(set(p) == {"place", "index", "cells"} for p in first["pieces"])
    text = format_zangles(deal, zs)
    assert text.startswith("1. middle[0] T4-bar-1 <= ")
    svg = zangle_svg(deal, zs[0])
    assert svg.startswith("<svg") and svg.count("<polygon") == 4


def test_batch_kernel_matches_single_calls():
    deck = default_deck()
    table = deck_table(deck)
    sids_all = deck_sids(deck, table)
    rng = np.random.default_rng(3)
    deals = np.array([rng.choice(120, size=8, replace=False) for _ in range(300)])
    places = np.array([0] * 4 + [1] * 4)
    counts, best, dd, tt, mm = batch_zangles(sids_all[deals], places, table)
    for d in range(0, 300, 7):
        mid = [deck.cards[i] for i in deals[d, :4]]
        own = [deck.cards[i] for i in deals[d, 4:]]
        zs = find_zangles(mid, own, proofs=False)
        assert counts[d] == len(zs)
        assert best[d] == (zs[0].cards if zs else 0)
        sel = dd == d
        assert len(set(zip(tt[sel].tolist(), mm[sel].tolist()))) == len(zs)


def test_tiling_table_disk_cache(tmp_path):
    shapes = free_polyiamonds(1) + free_polyiamonds(2) + free_polyiamonds(4)
    t1 = TilingTable(shapes, cache_dir=tmp_path)
    assert list(tmp_path.iterdir())
    t2 = TilingTable(shapes, cache_dir=tmp_path)
    assert t1.entries == t2.entries and np.array_equal(t1.keys, t2.keys)
    # every tetriamond is tiled by 4 monos and by two diamonds
    mono, dia = t1.sid(shapes[0]), t1.sid(shapes[1])
    for p in free_polyiamonds(4):
        t = t1.sid(p)
        assert t1.tiles(t, [mono] * 4)
        # two diamonds make the bar and the chevron, never the big triangle
        assert t1.tiles(t, [dia, dia]) == (p.cells != ((1, 0), (2, 0), (3, 0), (2, 1)))


def test_tile_shape_none_and_some():
    tri = Polyform([(1, 0), (2, 0), (3, 0), (2, 1)])  # the big triangle of 4
    dia = Polyform([(0, 0), (0, 1)])
    assert tile_shape(tri, [dia, dia]) is None
    sol = tile_shape(tri, [Polyform([(0, 0)]), Polyform([(0, 0), (0, 1), (1, 1)])])
    assert sorted(sum(map(list, sol), [])) == sorted(tri.cells)


def test_exact_cover_engine_and_backtracking_build_the_same_table():
    pytest.importorskip("tanglekit.solver.tiling")
    shapes = list(default_deck().shapes) + free_polyiamonds(6)[:4]
    a = TilingTable(shapes, engine="exact_cover")
    b = TilingTable(shapes, engine="backtrack")
    assert a.entries == b.entries and sum(map(len, a.entries.values())) > 60
