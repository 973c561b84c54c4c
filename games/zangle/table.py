"""The Zangle tiling table: for every target shape of a shape universe, the multisets of piece
shapes that tile it, built once per universe and cached on disk (the default deck's ships in data/)."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Iterable

from ...errors import ShapeError, SolverError, TanglekitError
from ...outputs import write_text
from ...shapes.polyform import Polyform
from .cards import default_deck

if TYPE_CHECKING:
    import numpy as np
from .shape_tiler import _key, resolve_engine, tiling_exists

MAX_TABLE_SETS = 10_000  # piece multisets a tiling table may try (the default deck: 75; a 20-triangle card about 1,800)


# --------------------------------------------------------------------------------------------
# The tiling table
# --------------------------------------------------------------------------------------------
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
        self._exists = exists or (lambda target, pieces: tiling_exists(target, pieces, self.engine))
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
            write_text(f, json.dumps({"entries": {str(t): v for t, v in self.entries.items()}}), "table cache",
                       check_inputs=False)
        except TanglekitError:
            pass  # a cache that cannot be written is rebuilt next time

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

_TABLES: dict[frozenset, TilingTable] = {}


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
