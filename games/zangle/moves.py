"""The Zangle move generator: every valid Zangle on a table (middle + own cards), best first, with its proof.

How it works: a *tiling table* lists, for every target shape of a shape universe (a deck's
shapes plus any raw shapes of a deal), the multisets of piece shapes that tile it; it is built
once per universe and cached. A numba kernel then walks, for each target card, the subsets of
the other cards whose areas add up to the target's area, checks RULES.md rules 2-3 and looks the
subset's shape multiset up in the table (an additive 64-bit hash, verified exactly on a hit).
The placements (proofs) are computed afterwards for the Zangles actually reported.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Sequence

from ...engines import plain_first, requested
from ...errors import ShapeError, SolverError
from ...shapes.lattice import TRIANGLE, Cell
from ...shapes.polyform import Polyform
from .cards import default_deck
from .rules import ZangleOptions

if TYPE_CHECKING:
    import numpy as np

PLACE_RANK = {"middle": 0, "own": 1}
MAX_CARDS = 62  # subsets are int64 bitmasks over card positions
MAX_TABLE_SETS = 10_000  # piece multisets a tiling table may try (the default deck: 75; a 20-triangle card about 1,800)


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
# Tiling one shape with a multiset of pieces (cell-first backtracking; the proofs)
# --------------------------------------------------------------------------------------------
_ORIENT_CACHE: dict[Polyform, tuple[tuple[Cell, ...], ...]] = {}
_TILE_CACHE: dict[tuple, tuple | None] = {}


def _orientation_cells(p: Polyform) -> tuple[tuple[Cell, ...], ...]:
    o = _ORIENT_CACHE.get(p)
    if o is None:
        o = tuple(img.cells for img in p.orientations("free"))
        _ORIENT_CACHE[p] = o
    return o


def _backtrack_tiling(region: tuple[Cell, ...], pieces: Sequence[Polyform]) -> list | None:
    """Cells covered by each piece in one tiling of ``region`` (None if none exists).

    The lowest uncovered cell (in (y, x) order) must be the lowest cell of the piece that covers
    it, which fixes the translation of every orientation tried.
    """
    groups: dict[tuple, list[int]] = {}
    for i, p in enumerate(pieces):
        groups.setdefault(_key(p), []).append(i)
    gkeys = list(groups)
    orients = [_orientation_cells(pieces[groups[k][0]]) for k in gkeys]
    left = [len(groups[k]) for k in gkeys]
    order = sorted(region, key=lambda c: (c[1], c[0]))
    free = set(order)
    placed: list[tuple[int, tuple[Cell, ...]]] = []

    def rec(start: int) -> bool:
        while start < len(order) and order[start] not in free:
            start += 1
        if start == len(order):
            return True
        cx, cy = order[start]
        for g in range(len(gkeys)):
            if not left[g]:
                continue
            for o in orients[g]:
                ax, ay = o[0]
                dx, dy = cx - ax, cy - ay
                if (dx + dy) & 1:
                    continue
                cells = tuple((x + dx, y + dy) for x, y in o)
                if all(c in free for c in cells):
                    free.difference_update(cells)
                    left[g] -= 1
                    placed.append((g, cells))
                    if rec(start + 1):
                        return True
                    placed.pop()
                    left[g] += 1
                    free.update(cells)
        return False

    if sum(p.area for p in pieces) != len(region) or not rec(0):
        return None
    out: list = [None] * len(pieces)
    used = {k: list(v) for k, v in groups.items()}
    for g, cells in placed:
        out[used[gkeys[g]].pop(0)] = cells
    return out


def tile_shape(region: Polyform, pieces: Sequence[Polyform]) -> list | None:
    """One tiling of ``region`` by ``pieces`` (rotated/mirrored freely): cells per piece, or None.

    Results are cached by (region cells, piece shapes), so proofs and tables share the work.
    """
    keys = [_key(p) for p in pieces]
    keyed = sorted(range(len(pieces)), key=keys.__getitem__)
    ck = (region.cells, tuple(keys[i] for i in keyed))
    if ck not in _TILE_CACHE:
        sol = _backtrack_tiling(region.cells, [pieces[i] for i in keyed])
        _TILE_CACHE[ck] = None if sol is None else tuple(sol)
    sol = _TILE_CACHE[ck]
    if sol is None:
        return None
    out: list = [None] * len(pieces)
    for pos, i in enumerate(keyed):
        out[i] = sol[pos]
    return out


# --------------------------------------------------------------------------------------------
# The tiling table
# --------------------------------------------------------------------------------------------
ENGINES = ("auto", "exact_cover", "backtrack")


def resolve_engine(engine: str) -> str:
    """"auto" is cell-first backtracking (ten times faster than exact cover on card shapes);
    "exact_cover" needs a ``exists`` function from the solver layer (games.zangle.finder)."""
    if engine not in ENGINES:
        raise SolverError(f"unknown tiling engine {engine!r}: expected one of {', '.join(ENGINES)}")
    return "backtrack" if engine == "auto" else engine


def tiling_exists(target: Polyform, pieces: Sequence[Polyform], engine: str = "backtrack") -> bool:
    """Whether ``pieces`` (each used once, rotated/mirrored freely) tile ``target`` exactly."""
    return tile_shape(target, pieces) is not None


def _rand64(n: int, salt: int) -> np.ndarray:
    import numpy as np

    return np.random.default_rng(0x5A4E474C45 + salt).integers(0, 2**63 - 1, size=n, dtype=np.int64)


class TilingTable:
    """For each target shape of a universe, the piece-shape multisets that tile it.

    Shape id 0 is the Z card (no triangles); ids 1.. are the universe's canonical free shapes,
    smallest first. ``entries`` maps a target id to its sorted tuples of piece ids; ``areas``
    lists the triangles of each id. The kernels' arrays (``area``, ``h``, ``g``, ``keys``,
    ``ent_t``, ``ent_p``, the ``kernel`` bundle) are made from these on first use (numpy).

    The entries come from ``cache_dir`` when it holds this universe's table, else from the
    table shipped for the default deck (``data/zangle-table-<hash>.json``) when the universe is
    the default deck's, else they are built (a tiling search per piece multiset).
    """

    def __init__(self, shapes: Iterable[Polyform], cache_dir: str | Path | None = None,
                 engine: str = "auto", exists=None):
        self.engine = resolve_engine(engine)
        if self.engine == "exact_cover" and exists is None:
            raise SolverError("the exact_cover tiling engine is games.zangle.finder.TilingTable's")
        self._exists = exists or (lambda target, pieces: tile_shape(target, pieces) is not None)
        canon = {p.key("free"): p.canonical("free") for p in shapes}
        self.shapes: tuple[Polyform | None, ...] = (None,) + tuple(sorted(canon.values()))
        self.sid_of_key: dict[tuple, int] = {(): 0}
        for i, p in enumerate(self.shapes[1:], 1):
            self.sid_of_key[p.cells] = i
        n = len(self.shapes)
        self.areas: list[int] = [0] + [p.area for p in self.shapes[1:]]
        self.entries: dict[int, list[tuple[int, ...]]] = {}
        self._sets_tried = 0
        loaded = self._load(cache_dir) or (self.engine == "backtrack" and self._load(SHIPPED))
        if not loaded:
            for t in range(1, n):
                self.entries[t] = self._multisets_tiling(t)
            self._save(cache_dir)
        self._kernel = None

    # -- the kernels' arrays (numpy), made on first use --------------------------------------
    @property
    def area(self) -> np.ndarray:
        """Triangles of each shape id, as an int64 array."""
        a = self.__dict__.get("_area")
        if a is None:
            import numpy as np

            a = self._area = np.array(self.areas, dtype=np.int64)
        return a

    @property
    def h(self) -> np.ndarray:
        """Random 64-bit hash of each shape as a piece."""
        if "_h" not in self.__dict__:
            n = len(self.shapes)
            self._h = _rand64(n + 1, 1)[:n]
        return self._h

    @property
    def g(self) -> np.ndarray:
        """Random 64-bit hash of each shape as a target."""
        if "_g" not in self.__dict__:
            n = len(self.shapes)
            self._g = _rand64(n + 1, 2)[:n]
        return self._g

    keys = property(lambda self: self._packed()[0])
    ent_t = property(lambda self: self._packed()[1])
    ent_p = property(lambda self: self._packed()[2])

    # -- building --------------------------------------------------------------------------
    def _multisets_tiling(self, t: int) -> list[tuple[int, ...]]:
        target = self.shapes[t]
        area = self.areas
        ids = [i for i in range(1, len(self.shapes)) if area[i] <= area[t]]
        out: list[tuple[int, ...]] = []
        cur: list[int] = []

        def rec(pos: int, left: int) -> None:
            if left == 0:
                self._sets_tried += 1
                if self._sets_tried > MAX_TABLE_SETS:
                    raise SolverError(
                        f"the card shapes make too large a tiling table (more than {MAX_TABLE_SETS:,} piece sets "
                        f"to try, at a target of {area[t]} triangles): use smaller or fewer distinct "
                        "card shapes")
                if self._exists(target, [self.shapes[i] for i in cur]):
                    out.append(tuple(cur))
                return
            for j in range(pos, len(ids)):
                a = area[ids[j]]
                if a <= left:
                    cur.append(ids[j])
                    rec(j, left - a)
                    cur.pop()

        rec(0, area[t])
        return out

    def _packed(self) -> tuple:
        """(keys, ent_t, ent_p): the entries sorted by their additive hash (made once)."""
        p = self.__dict__.get("_pack_cache")
        if p is not None:
            return p
        import numpy as np

        rows = [(t, ms) for t, lst in self.entries.items() for ms in lst]
        maxp = max((len(ms) for _, ms in rows), default=1)
        keys = np.zeros(len(rows), dtype=np.int64)
        ent_t = np.zeros(len(rows), dtype=np.int64)
        ent_p = np.full((len(rows), maxp), -1, dtype=np.int64)
        h, g = self.h, self.g
        with np.errstate(over="ignore"):
            for r, (t, ms) in enumerate(rows):
                k = g[t]
                for s in ms:
                    k = k + h[s]
                keys[r] = k
                ent_t[r] = t
                ent_p[r, : len(ms)] = ms
        order = np.argsort(keys, kind="stable")
        p = self._pack_cache = (keys[order], ent_t[order], ent_p[order])
        return p

    @property
    def kernel(self):
        """The table as the kernels' ``ZTable`` bundle (made once)."""
        if self._kernel is None:
            from ...kernelargs import kernel_bundle  # loads numpy (only when this runs)
            from ._kernel import ZTable  # loads numba (only when this runs)

            self._packed()
            self._kernel = kernel_bundle(ZTable, area=self.area, h=self.h, g=self.g, keys=self.keys,
                                         ent_t=self.ent_t, ent_p=self.ent_p)
        return self._kernel

    # -- disk cache ------------------------------------------------------------------------
    def _cache_file(self, cache_dir) -> Path | None:
        if cache_dir is None:
            return None
        blob = json.dumps([list(map(list, p.cells)) for p in self.shapes[1:]]).encode()
        return Path(cache_dir) / f"zangle-table-{hashlib.sha256(blob).hexdigest()[:16]}.json"

    def _load(self, cache_dir) -> bool:
        f = self._cache_file(cache_dir)
        if f is None or not f.exists():
            return False
        try:
            data = json.loads(f.read_text())
            entries = {int(t): [tuple(m) for m in v] for t, v in data["entries"].items()}
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return False
        if len(entries) != len(self.shapes) - 1:
            return False
        self.entries = entries
        return True

    def _save(self, cache_dir) -> None:
        f = self._cache_file(cache_dir)
        if f is None:
            return
        try:
            f.parent.mkdir(parents=True, exist_ok=True)
            tmp = f.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_text(json.dumps({"entries": {str(t): v for t, v in self.entries.items()}}))
            tmp.replace(f)
        except OSError:
            pass

    # -- lookups ---------------------------------------------------------------------------
    def __len__(self) -> int:
        return sum(len(v) for v in self.entries.values())

    def sid(self, shape: Polyform | None) -> int:
        """Shape id of a card shape (None = Z card); ShapeError if outside the universe."""
        if shape is None:
            return 0
        try:
            return self.sid_of_key[_key(shape)]
        except KeyError:
            raise ShapeError(f"shape {list(shape.cells)} is not in this tiling table") from None

    def tiles(self, target: int, pieces: Iterable[int]) -> bool:
        sets = self.__dict__.get("_entry_sets")
        if sets is None:
            sets = self._entry_sets = {t: set(v) for t, v in self.entries.items()}
        return tuple(sorted(pieces)) in sets.get(target, ())


SHIPPED = Path(__file__).resolve().parent / "data"  # the default deck's tiling table ships here

_KEY_CACHE: dict[Polyform, tuple] = {}
_TABLES: dict[frozenset, TilingTable] = {}


def _key(p: Polyform) -> tuple:
    k = _KEY_CACHE.get(p)
    if k is None:
        k = _KEY_CACHE[p] = p.key("free")
    return k


def tiling_table(shapes: Iterable[Polyform], cache_dir: str | Path | None = None,
                 engine: str = "auto", exists=None) -> TilingTable:
    """The (memoised) tiling table of a set of shapes. ``cache_dir`` also keeps it on disk.

    ``cache_dir`` defaults to the environment variable ``TANGLEKIT_CACHE`` (unset: memory only).
    """
    shapes = list(shapes)
    uk = frozenset(_key(p) for p in shapes)
    t = _TABLES.get(uk)
    if t is None:
        if cache_dir is None:
            cache_dir = os.environ.get("TANGLEKIT_CACHE") or None
        t = _TABLES[uk] = TilingTable(shapes, cache_dir, engine, exists)
    return t


_DECK_TABLES: dict[int, tuple] = {}


def deck_table(deck=None, extra: Iterable[Polyform] = (), cache_dir=None) -> TilingTable:
    """Tiling table of a deck's shapes (default deck if None) plus ``extra`` shapes."""
    deck = deck or default_deck()
    extra = list(extra)
    if extra or cache_dir is not None:
        return tiling_table(list(deck.shapes) + extra, cache_dir)
    hit = _DECK_TABLES.get(id(deck))
    if hit is not None and hit[0] is deck:
        return hit[1]
    table = tiling_table(list(deck.shapes), cache_dir)
    if len(_DECK_TABLES) > 64:
        _DECK_TABLES.clear()
    _DECK_TABLES[id(deck)] = (deck, table)  # the deck is kept, so its id is not reused
    return table


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
PLAIN_CARDS = 24  # tables of at most this many cards are searched in Python while numba is not loaded


def _use_plain(n: int) -> bool:
    return plain_first() and (n <= PLAIN_CARDS or requested() == "python")


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
    a valid Zangle (RULES.md rules 1-3): ``find_zangles`` would list one."""
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
    """All valid Zangles on a table, best first (RULES.md rules 1-4).

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
