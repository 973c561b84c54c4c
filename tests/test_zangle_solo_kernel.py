"""The Zangle solo kernel's parts against plain-Python references: the merged memo key, the
triangle cut, one-action legality in the engine, and the kernel argument bundles."""

import random
from itertools import permutations

import numpy as np
import pytest

from tanglekit.games.zangle import default_deck
from tanglekit.games.zangle.engine import Action
from tanglekit.games.zangle.rules import ZangleOptions
from tanglekit.games.zangle import solo_kernel as K
from tanglekit.games.zangle.solo_search import SoloDeal, _Packed, reference_solve, solve_deal, solve_many

OPTION_SETS = [
    {},
    {"fill_empty_pile": "may"},
    {"voluntary_discard": True},
    {"z_cards": "minimal"},
    {"fill_empty_pile": "may", "voluntary_discard": True, "z_cards": "minimal"},
]


def twin_deal(rng: random.Random, piles: int = 4, options: dict | None = None) -> SoloDeal:
    """A deal full of interchangeable cards: small kinds only, and two piles with the same kinds."""
    deck = default_deck()
    by_kind: dict[str, list[str]] = {}
    for c in deck.cards:
        if c.size <= 3:
            by_kind.setdefault(c.kind or c.id.rsplit("-", 1)[0], []).append(c.id)
    for v in by_kind.values():
        rng.shuffle(v)
    kinds = sorted(by_kind)

    def take(kind=None):
        k = kind or rng.choice([k for k in kinds if by_kind[k]])
        return by_kind[k].pop(), k

    sizes = list(range(1, piles + 1))
    pl = []
    for s in sizes:
        pl.append([take()[0] for _ in range(s)])
    # make the last pile's first cards repeat the kinds of the one before (other cards)
    kind_of = {c.id: (c.kind or c.id.rsplit("-", 1)[0]) for c in deck.cards}
    for j in range(len(pl[-2])):
        if by_kind[kind_of[pl[-2][j]]]:  # (a kind may have run out: the Z cards are few)
            by_kind[kind_of[pl[-1][j]]].append(pl[-1][j])
            pl[-1][j] = take(kind_of[pl[-2][j]])[0]
    middle = [take()[0] for _ in range(3)]
    draw = [take()[0] for _ in range(rng.randint(2, 5))]
    return SoloDeal(tuple(middle), tuple(draw), tuple(tuple(p) for p in pl),
                    ZangleOptions(piles=piles, **(options or {})))


def random_states(deal: SoloDeal, rng: random.Random, games: int = 40):
    """Positions reached by random playouts of the kernel's own move generator and rules."""
    pk = _Packed(deal)
    a = pk.args
    work = K._new_work(len(deal.piles))
    cache = K._new_cache(16, 64)
    npiles, hmax = a.piles.shape
    mk = np.zeros((1 << (K.MIDDLE + npiles)) + 2, np.int64)
    mv = np.zeros_like(mk)
    out = []
    for _ in range(games):
        piles = a.piles.copy()
        hts = a.hts.copy()
        mid = (1 << int(a.m0)) - 1
        dr = int(a.m0)
        ph = 0
        while hts.sum() > 0:
            out.append((piles.copy(), hts.copy(), mid, dr, ph))
            n, cache, _ = K._gen(piles, hts, mid, dr, ph, a, pk.table.kernel, work, cache, False, False, mk, mv)
            if n <= 0:
                break
            j = rng.randrange(n)
            mid, dr, ph = K._apply(piles, hts, mid, dr, int(a.nd), mk[j], mv[j])
    return pk, out


def canonical(pk: _Packed, state) -> tuple:
    """The memo key's meaning in plain Python: kinds of the middle, of the single-card piles and
    the kind sequences of the taller piles, each as a multiset; cards drawn; phase."""
    piles, hts, mid, dr, ph = state
    kind = pk.args.kind.tolist()
    middle = sorted(kind[i] for i in range(int(pk.args.nd)) if (mid >> i) & 1)
    singles = sorted(kind[piles[p, 0]] for p in range(len(hts)) if hts[p] == 1)
    tall = sorted(tuple(kind[piles[p, k]] for k in range(hts[p])) for p in range(len(hts)) if hts[p] >= 2)
    return tuple(middle), tuple(singles), tuple(tall), dr, ph


@pytest.mark.parametrize("seed", range(6))
def test_memo_key_merges_exactly_the_equivalent_positions(seed):
    rng = random.Random(seed)
    deal = twin_deal(rng, piles=rng.choice([3, 4, 5]))
    pk, states = random_states(deal, rng)
    shp = K._prepare(pk.args)
    seen: dict = {}
    merged = 0
    for st in states:
        piles, hts, mid, dr, ph = st
        key = tuple(int(x) for x in K._key(piles, hts, mid, dr, ph, pk.args, shp))
        form = canonical(pk, st)
        if key in seen:
            assert seen[key][0] == form  # same key: equivalent positions
            merged += seen[key][1] != (piles.tobytes(), hts.tobytes(), mid, dr, ph)
        else:
            seen[key] = (form, (piles.tobytes(), hts.tobytes(), mid, dr, ph))
    forms = {v[0] for v in seen.values()}
    assert len(forms) == len(seen)  # equivalent positions: one key
    assert merged > 0  # the deal really had interchangeable positions


def bound_reference(tableau: list[int], supply: list[int]) -> bool:
    """The triangle cut in plain Python: over every number k of Zangles left (at most one per
    supply card), the k largest cards in play as targets and the k smallest supply cards spent."""
    inplay = sorted(tableau + supply, reverse=True)
    low = sorted(supply)
    best = max(2 * sum(inplay[:k]) - sum(low[:k]) for k in range(len(supply) + 1))
    return sum(tableau) > best


def test_triangle_cut_matches_reference_on_reached_positions():
    rng = random.Random(7)
    fired = 0
    checked = 0
    for seed in range(8):
        deal = SoloDeal.from_seed(seed, ZangleOptions(piles=rng.choice([4, 5, 6])))
        pk, states = random_states(deal, rng, games=15)
        shp = K._prepare(pk.args)
        area = pk.args.carea.tolist()
        nd = int(pk.args.nd)
        for piles, hts, mid, dr, ph in states:
            tab = [area[piles[p, k]] for p in range(len(hts)) for k in range(hts[p])]
            sup = [area[i] for i in range(nd) if i >= dr or (mid >> i) & 1]
            want = bound_reference(tab, sup)
            assert K._area_bound_fails(piles, hts, mid, dr, pk.args, shp) == want
            fired += want
            checked += 1
    assert checked > 200 and fired > 0


def test_triangle_cut_is_sound_on_small_deals():
    # every position the cut declares lost is lost for the brute-force engine search
    rng = random.Random(11)
    from tanglekit.games.zangle.solo import SoloGame

    fired = 0
    for seed in range(30):
        deal = twin_deal(rng, piles=3, options=rng.choice(OPTION_SETS))
        pk, states = random_states(deal, rng, games=6)
        shp = K._prepare(pk.args)
        ids = pk.ids
        for piles, hts, mid, dr, ph in states:
            if ph != 0 or not K._area_bound_fails(piles, hts, mid, dr, pk.args, shp):
                continue
            layout = {"middle": [ids[i] for i in range(dr) if (mid >> i) & 1],
                      "draw": [ids[i] for i in range(dr, int(pk.args.nd))],
                      "piles": [[ids[piles[p, k]] for k in range(hts[p])] for p in range(len(hts))]}
            g = SoloGame(layout=layout, options=deal.options)
            ok, _, _ = reference_solve(g, max_nodes=20_000)
            assert ok is not True
            fired += 1
    assert fired > 0


def perturbations(g, rng: random.Random) -> list:
    """Legal actions and near misses of a position."""
    legal = g.legal_actions()
    out = list(legal)
    vis = [c.id for c in g.middle] + [c.id for c in g.tops()]
    for a in legal:
        if a.kind != "zangle":
            continue
        if len(a.pieces) > 1:
            out.append(Action("zangle", a.target, tuple(reversed(a.pieces)), a.z))
        out.append(Action("zangle", a.pieces[0], (a.target,) + a.pieces[1:], a.z))
        out.append(Action("zangle", a.target, a.pieces, a.z[:-1]))
        out.append(Action("zangle", a.target, a.pieces, tuple(vis[:1]) + a.z))
        out.append(Action("zangle", a.target, a.pieces + a.pieces[:1], a.z))
        out.append(Action("zangle", a.target, list(a.pieces), a.z))  # type: ignore[arg-type]
    for _ in range(6):
        cards = rng.sample(vis, min(len(vis), rng.randint(2, 4)))
        out.append(Action("zangle", cards[0], tuple(cards[1:])))
        for perm in list(permutations(cards))[:3]:
            out.append(Action("zangle", perm[0], tuple(sorted(perm[1:])), ()))
    out += [Action("discard"), Action("skip"), Action("discard", target="x"), Action("zangle", "nope", ("T1-1",))]
    out += [Action("fill", src=s, dst=d) for s in range(len(g.piles)) for d in range(len(g.piles))]
    return out


@pytest.mark.parametrize("opts", OPTION_SETS)
def test_one_action_legality_matches_the_listing(opts):
    rng = random.Random(hash(tuple(sorted(opts.items()))) & 0xFFFF)
    checked = 0
    for seed in range(6):
        deal = SoloDeal.from_seed(seed, ZangleOptions(piles=rng.choice([3, 4, 5]), **opts))
        g = deal.game()
        while not g.is_terminal():
            for a in perturbations(g, rng):
                fresh = g.fork()
                fresh._legal_cache = None
                fresh._zangles = None
                assert fresh._is_legal(a) == (a in g.legal_actions()), a
                checked += 1
            g.apply(rng.choice(g.legal_actions()))
    assert checked > 500


def test_solver_matches_brute_force_on_twin_deals():
    # deals full of interchangeable cards exercise the merged memo key and the skipped siblings
    rng = random.Random(5)
    decided = 0
    outcomes = set()
    for _ in range(30):
        opts = rng.choice(OPTION_SETS)
        deal = twin_deal(rng, piles=3, options=opts)
        ref_ok, ref_lines, _ = reference_solve(deal, max_nodes=20_000, count=True)
        if ref_ok is None:
            continue
        decided += 1
        outcomes.add(ref_ok)
        assert solve_deal(deal).solvable == ref_ok
        assert solve_deal(deal, count=True, line_cap=10**9, playouts=10).lines == ref_lines
    assert decided >= 15 and outcomes == {True, False}


def test_bundles_carry_the_options_by_named_index():
    d = SoloDeal.from_seed(3, ZangleOptions(piles=4, fill_empty_pile="may", z_cards="minimal"))
    a = _Packed(d).args
    assert isinstance(a, K.SoloArgs) and a.flags.shape == (K.N_FLAGS,)
    assert (a.flags[K.F_FILL_MAY], a.flags[K.F_VOLUNTARY], a.flags[K.F_ZMIN]) == (1, 0, 1)
    assert int(a.nd) == 10 and int(a.m0) == 3 and a.piles.shape == (4, 4)
    st: dict = {}
    r = solve_deal(d, stats=st)
    assert r.states > 0 and st["memo"] >= 0


def test_kernel_bundle_factory_checks_its_fields():
    from typing import NamedTuple

    from tanglekit.kernelargs import kernel_bundle

    class Work(NamedTuple):
        DTYPES = {"dist": np.int32}
        dist: np.ndarray
        seen: np.ndarray
        limit: int

    w = kernel_bundle(Work, shapes={"dist": 4}, seen=[1, 2], limit=7)
    assert w.dist.dtype == np.int32 and w.seen.dtype == np.int64 and isinstance(w.limit, np.int64)
    for bad in ({"shapes": {"dist": 3}, "limit": 1}, {"shapes": {"dist": 3, "seen": 2}, "seen": [1], "limit": 1},
                {"shapes": {"dist": 1, "seen": 1, "limit": 2}}, {"shapes": {"dist": 1}, "seen": [1], "limit": 1, "x": 2}):
        with pytest.raises(TypeError):
            kernel_bundle(Work, **bad)


def test_batch_kernel_matches_single_solves_and_names_lines_as_the_engine():
    # solve_many: many deals per kernel call, lines named in the kernel (_name_line); solve_deal
    # names them on the engine (_to_actions): the same answers, states and lines
    rng = random.Random(13)
    deals = []
    for i in range(60):
        opts = OPTION_SETS[i % len(OPTION_SETS)]
        if i % 3 == 0:
            deals.append(twin_deal(rng, piles=rng.choice([3, 4]), options=opts))
        else:
            deals.append(SoloDeal.from_seed(rng.randrange(10**6), ZangleOptions(piles=rng.choice([3, 4, 5, 6]), **opts)))
    many = solve_many(deals, max_states=20_000)
    solved = 0
    for d, m in zip(deals, many):
        one = solve_deal(d, max_states=20_000)
        assert (m.solvable, m.states, m.reason, m.line) == (one.solvable, one.states, one.reason, one.line)
        solved += bool(m.line)
    assert solved >= 20
    assert any(a.kind == "zangle" and a.z for m in many for a in m.line)
    assert any(a.kind == "fill" for m in many for a in m.line)
