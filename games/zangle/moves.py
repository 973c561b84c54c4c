"""The Zangle move generator: every valid Zangle on a table (middle + own cards), best first, with its proof.

How it works: a *tiling table* lists, for every target shape of a shape universe (a deck's
shapes plus any raw shapes of a deal), the multisets of piece shapes that tile it; it is built
once per universe and cached. A numba kernel then walks, for each target card, the subsets of
the other cards whose areas add up to the target's area, checks docs/rules.md rules 2-3 and looks the
subset's shape multiset up in the table (an additive 64-bit hash, verified exactly on a hit).
The placements (proofs) are computed afterwards for the Zangles actually reported.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Sequence

from ...engines import plain_first, requested
from ...errors import ShapeError, SolverError
from ...shapes.lattice import TRIANGLE, Cell
from ...shapes.polyform import Polyform
from .cards import default_deck
from .rules import ZangleOptions

if TYPE_CHECKING:
    import numpy as np
from .shape_tiler import ENGINES, resolve_engine, tile_shape, tiling_exists
from .table import TilingTable, deck_table, tiling_table

PLACE_RANK = {"middle": 0, "own": 1}
MAX_CARDS = 62  # subsets are int64 bitmasks over card positions


# --------------------------------------------------------------------------------------------
# Results
# --------------------------------------------------------------------------------------------
@dataclass(frozen=True, order=True)
class CardRef:
    """A card's position on the table: ``place`` is "middle" or "own", ``index`` its list index."""

    place: str
    index: int

    def sort_key(self) -> tuple[int, int]:
        return (PLACE_RANK[self.place], self.index)

    def to_json(self) -> dict:
        return {"place": self.place, "index": self.index}


@dataclass(frozen=True)
class Zangle:
    """A target card, its piece cards, the Z cards used and (with proofs) where each piece lies.

    ``cells[i]`` holds the cells that piece ``i`` covers, in the target card's own coordinates.
    """

    target: CardRef
    pieces: tuple[CardRef, ...]
    z_cards: tuple[CardRef, ...]
    triangles: int
    cells: tuple[tuple[Cell, ...], ...] = field(default=(), compare=False)

    @property
    def cards(self) -> int:
        return 1 + len(self.pieces) + len(self.z_cards)

    @property
    def refs(self) -> tuple[CardRef, ...]:
        """Every card the Zangle uses: target, pieces, Z cards."""
        return (self.target,) + self.pieces + self.z_cards

    def rank_key(self) -> tuple:
        """Best first: most cards, most triangles, then target and piece positions."""
        return (
            -self.cards,
            -self.triangles,
            self.target.sort_key(),
            tuple(p.sort_key() for p in self.pieces),
            tuple(z.sort_key() for z in self.z_cards),
        )




# --------------------------------------------------------------------------------------------
# The numba kernel
# --------------------------------------------------------------------------------------------
_KERNELS = None


def _kernels():
    """Compile (or load from numba's cache) the search kernels on first use."""
    global _KERNELS
    if _KERNELS is None:
        from ._kernel import batch_zangles, table_zangles  # loads numba (only when this runs)

        _KERNELS = (table_zangles, batch_zangles)
    return _KERNELS


def _shape_of(card) -> Polyform | None:
    """A card given as Card, Polyform, None/[] (Z card) or a list of cells."""
    if card is None:
        return None
    if isinstance(card, Polyform):
        return card
    shape = getattr(card, "shape", False)
    if shape is not False:
        return shape
    if isinstance(card, (list, tuple)):
        return None if len(card) == 0 else Polyform([tuple(c) for c in card], TRIANGLE)
    raise ShapeError(f"not a Zangle card: {card!r}")


# --------------------------------------------------------------------------------------------
# The same search in plain Python (start-up: a single find needs neither numba nor numpy)
# --------------------------------------------------------------------------------------------
PLAIN_CARDS = 24  # tables of at most this many cards are searched in Python while the kernel is not at hand


FIND_KERNEL = (__name__.rsplit(".", 1)[0] + "._kernel", "table_zangles")


def _use_plain(n: int) -> bool:
    """Python for a table of at most PLAIN_CARDS cards while numba is not loaded or the finder's
    kernel would compile first (the same Zangles, ``engines.plain_first``)."""
    return plain_first(FIND_KERNEL) and (n <= PLAIN_CARDS or requested() == "python")


def plain_zangles(sids: Sequence[int], places: Sequence[int], table: TilingTable) -> tuple[list[int], list[int]]:
    """``raw_zangles`` in plain Python: (target positions, piece bitmasks) of every valid
    Zangle, in the kernel's order. The kernel (``_kernel._search_in``) is followed step by step;
    where it looks a piece multiset up by its additive hash and checks the hit exactly, this
    looks it up in the table's entry sets (``TilingTable.tiles``): the same answer."""
    n = len(sids)
    if n > MAX_CARDS:
        raise SolverError(f"at most {MAX_CARDS} cards on a table, got {n}")
    area = table.areas
    tiles = table.tiles
    nz = 0
    zmid = zown = False
    midmask = ownmask = 0
    for i in range(n):
        if places[i] == 0:
            midmask |= 1 << i
        else:
            ownmask |= 1 << i
        if area[sids[i]] == 0:
            nz += 1
            if places[i] == 0:
                zmid = True
            else:
                zown = True
    out_t: list[int] = []
    out_m: list[int] = []
    chosen = [0] * n
    # the kernel's candidates of a target: the other cards of area 1, 2, ... up to the target's,
    # each area in table order
    by_area = sorted((j for j in range(n) if area[sids[j]] > 0), key=lambda j: area[sids[j]])
    for t in range(n):
        st = sids[t]
        A = area[st]
        if A == 0:
            continue
        cand = [j for j in by_area if j != t and area[sids[j]] <= A]
        nc = len(cand)
        tmid = places[t] == 0 or zmid
        town = places[t] == 1 or zown
        k = i = s = mask = 0
        while True:
            if i < nc:
                c = cand[i]
                a = area[sids[c]]
                if s + a <= A:
                    chosen[k] = i
                    k += 1
                    s += a
                    mask |= 1 << c
                    if s == A:
                        if ((k >= 2 or nz >= 1) and (tmid or mask & midmask) and (town or mask & ownmask)
                                and tiles(st, [sids[cand[chosen[q]]] for q in range(k)])):
                            out_t.append(t)
                            out_m.append(mask)
                        # nothing more fits: undo this card and try the next one
                        k -= 1
                        s -= a
                        mask ^= 1 << c
                    i += 1
                    continue
                i = nc  # candidates are sorted by area: none of the rest fits either
                continue
            if k == 0:
                break
            k -= 1
            i = chosen[k]
            c = cand[i]
            s -= area[sids[c]]
            mask ^= 1 << c
            i += 1
    return out_t, out_m


def _table_zangles(sids: list[int], places: list[int], table: TilingTable) -> tuple[list[int], list[int]]:
    """(targets, masks) of a table: in Python (``plain_zangles``) or by the kernel."""
    if _use_plain(len(sids)):
        return plain_zangles(sids, places, table)
    import numpy as np

    ts, ms = raw_zangles(np.array(sids, dtype=np.int64), np.array(places, dtype=np.int64), table)
    return ts.tolist(), ms.tolist()


_OUT: list = []  # the ZOut buffer raw_zangles reuses


def raw_zangles(
    sids: np.ndarray, places: np.ndarray, table: TilingTable, cap: int = 4096
) -> tuple[np.ndarray, np.ndarray]:
    """Kernel call for one table: (target position, piece bitmask) of every valid Zangle."""
    from ...kernelargs import kernel_bundle  # loads numpy (only when this runs)
    from ._kernel import ZOut  # loads numba (only when this runs)

    one, _ = _kernels()
    n = len(sids)
    if n > MAX_CARDS:
        raise SolverError(f"at most {MAX_CARDS} cards on a table, got {n}")
    while True:
        if _OUT and len(_OUT[0].t) >= cap:
            out = _OUT[0]
        else:
            out = kernel_bundle(ZOut, shapes={"t": cap, "m": cap, "d": 0})
            _OUT[:] = [out]
        cnt = one(sids, places, table.kernel, out)
        if cnt <= len(out.t):
            return out.t[:cnt].copy(), out.m[:cnt].copy()
        cap = int(cnt)


def has_zangle(cards: Sequence, n_middle: int, deck=None) -> bool:
    """Whether the table (``cards``: the middle's ``n_middle`` cards first, then own cards) holds
    a valid Zangle (docs/rules.md rules 1-3): ``find_zangles`` would list one."""
    if not n_middle or n_middle == len(cards):
        return False
    table = deck_table(deck)
    shapes = [_shape_of(c) for c in cards]
    try:
        sids = [table.sid(s) for s in shapes]
    except ShapeError:
        table = tiling_table(list(table.shapes[1:]) + [s for s in shapes if s is not None])
        sids = [table.sid(s) for s in shapes]
    places = [0] * n_middle + [1] * (len(cards) - n_middle)
    return len(_table_zangles(sids, places, table)[0]) > 0


_DECK_SIDS: dict[int, tuple] = {}


def card_sids(deck=None) -> dict:
    """Shape id in ``deck_table(deck)`` of every card id of the deck (made once per deck)."""
    hit = _DECK_SIDS.get(id(deck))
    if hit is None or hit[0] is not deck:
        table = deck_table(deck)

        d = deck or default_deck()
        if len(_DECK_SIDS) > 64:
            _DECK_SIDS.clear()
        hit = _DECK_SIDS[id(deck)] = (deck, {c.id: table.sid(c.shape) for c in d.cards}, table)
    return hit[1]


def deck_tiles(deck, target, pieces: Sequence, sids: dict | None = None) -> bool:
    """Whether the cards ``pieces`` tile the card ``target`` (rule 1): the deck's tiling table,
    or a tiling search for shapes outside it. ``sids``: ``card_sids(deck)``, for deck cards."""
    if sids is not None:
        try:
            return _DECK_SIDS[id(deck)][2].tiles(sids[target.id], [sids[p.id] for p in pieces])
        except (KeyError, AttributeError):
            pass
    table = deck_table(deck)
    try:
        return table.tiles(table.sid(_shape_of(target)), [table.sid(_shape_of(p)) for p in pieces])
    except ShapeError:
        return tile_shape(_shape_of(target), [_shape_of(p) for p in pieces]) is not None


def find_zangles(
    middle: Sequence,
    own: Sequence,
    *,
    deck=None,
    options=None,
    proofs: bool = True,
    table: TilingTable | None = None,
) -> list:
    """All valid Zangles on a table, best first (docs/rules.md rules 1-4).

    Cards are ``Card`` objects, Polyforms, cell lists, or None / ``[]`` for Z cards. Shapes not
    in the deck extend the tiling table automatically. ``options.z_cards`` picks the Z cards
    reported ("all" available ones, or "minimal"). ``proofs=False`` skips the placements.
    """
    opts = options or ZangleOptions()
    shapes = [_shape_of(c) for c in middle] + [_shape_of(c) for c in own]
    nm = len(middle)
    if table is None:
        table = deck_table(deck)
    try:
        sids = [table.sid(s) for s in shapes]
    except ShapeError:
        extra = [s for s in shapes if s is not None]
        table = tiling_table(list(table.shapes[1:]) + extra)
        sids = [table.sid(s) for s in shapes]
    places = [0] * nm + [1] * (len(shapes) - nm)
    ts, ms = _table_zangles(sids, places, table)
    refs = [CardRef("middle", i) for i in range(nm)] + [CardRef("own", i) for i in range(len(own))]
    zpos = [i for i, s in enumerate(shapes) if s is None]
    area = table.areas
    raw = []
    for t, m in zip(ts, ms):
        pieces = tuple(i for i in range(len(shapes)) if (m >> i) & 1)
        zs = choose_z(t, pieces, zpos, places, opts.z_cards)
        # same order as Zangle.rank_key: positions already sort middle before own
        raw.append(((-len(pieces) - len(zs), -area[sids[t]], t, pieces, tuple(zs)), t, pieces, zs))
    raw.sort(key=lambda r: r[0])
    out = []
    for _, t, pieces, zs in raw:
        cells: tuple = ()
        if proofs:
            sol = tile_shape(shapes[t], [shapes[i] for i in pieces])
            if sol is None:  # cannot happen unless the table is corrupt
                raise SolverError("tiling table and proof search disagree")
            cells = tuple(tuple(c) for c in sol)
        out.append(
            Zangle(
                refs[t],
                tuple(refs[i] for i in pieces),
                tuple(refs[i] for i in zs),
                2 * shapes[t].area,
                cells,
            )
        )
    return out


def choose_z(t: int, pieces: Sequence[int], zpos: list[int], places, mode: str) -> list[int]:
    """Z cards a Zangle reports: all of them, or the fewest that satisfy rules 2 and 3."""
    if mode == "all" or not zpos:
        return list(zpos)
    have = {int(places[t])} | {int(places[i]) for i in pieces}
    for need in (0, 1):
        if need not in have:
            return [next(z for z in zpos if places[z] == need)]
    if len(pieces) == 1:
        return [zpos[0]]
    return []


_choose_z = choose_z  # the earlier name


def batch_zangles(
    sids: np.ndarray, places: np.ndarray, table: TilingTable, cap: int | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Search many tables of the same layout at once (benchmarks, statistics).

    ``sids`` is (deals, n) shape ids, ``places`` (n,) 0 middle / 1 own. Returns per deal the
    number of Zangles and the most cards in one, then (deal, target, mask) of every Zangle.
    """
    import numpy as np

    _, many = _kernels()
    sids = np.ascontiguousarray(sids, dtype=np.int64)
    places = np.ascontiguousarray(places, dtype=np.int64)
    if sids.shape[1] > MAX_CARDS:
        raise SolverError(f"at most {MAX_CARDS} cards on a table, got {sids.shape[1]}")
    if cap is None:
        cap = max(1 << 16, 4 * sids.shape[1] ** 2 * len(sids))
    from ...kernelargs import kernel_bundle  # loads numpy (only when this runs)
    from ._kernel import ZOut  # loads numba (only when this runs)

    while True:
        counts = np.zeros(len(sids), dtype=np.int64)
        best = np.zeros(len(sids), dtype=np.int64)
        # written, never read, past ``total``: uninitialised buffers (zeroing cap entries cost more
        # than the search on large batches)
        out = kernel_bundle(ZOut, t=np.empty(cap, np.int64), m=np.empty(cap, np.int64), d=np.empty(cap, np.int64))
        total = many(sids, places, table.kernel, counts, best, out)
        if total <= cap:
            return counts, best, out.d[:total], out.t[:total], out.m[:total]
        cap = int(total)


def deck_sids(deck, table: TilingTable) -> np.ndarray:
    """Shape id of every card of a deck, in deck order."""
    import numpy as np

    return np.array([table.sid(c.shape) for c in deck.cards], dtype=np.int64)


__all__ = [
    "CardRef",
    "ENGINES",
    "MAX_CARDS",
    "TilingTable",
    "Zangle",
    "batch_zangles",
    "card_sids",
    "choose_z",
    "deck_sids",
    "deck_tiles",
    "deck_table",
    "find_zangles",
    "has_zangle",
    "plain_zangles",
    "raw_zangles",
    "resolve_engine",
    "tile_shape",
    "tiling_exists",
    "tiling_table",
]
