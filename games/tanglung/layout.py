"""Tanglung layouts: the 4×4 letter notation (``CRBF/HDFR/BHFB/RHDC``), validation, symmetries."""

from __future__ import annotations

import random
from dataclasses import dataclass
from math import factorial

from ...errors import FormatError, RuleError
from ...jsonio import short
from .cards import EMPTY, KINDS, ROOSTER, CardSet, default_card_set
from .grid import N_CELLS, SIZE, rc
from .render import svg_grid
from .rules import TanglungOptions

CORNER_PAIRS = ((0, 15), (3, 12))


def idx(r: int, c: int) -> int:
    """(row, col) -> cell index ``row * 4 + col``."""
    return r * SIZE + c


def _perm(f) -> tuple[int, ...]:
    out = [0] * N_CELLS
    for i in range(N_CELLS):
        r, c = rc(i)
        nr, nc = f(r, c)
        out[i] = idx(nr, nc)
    return tuple(out)


#: the 8 grid symmetries as permutations: image cell of cell i is SYMMETRIES[k][i]
SYMMETRIES: tuple[tuple[int, ...], ...] = (
    _perm(lambda r, c: (r, c)),
    _perm(lambda r, c: (c, 3 - r)),  # rotate 90 clockwise
    _perm(lambda r, c: (3 - r, 3 - c)),  # rotate 180
    _perm(lambda r, c: (3 - c, r)),  # rotate 270
    _perm(lambda r, c: (r, 3 - c)),  # mirror left-right
    _perm(lambda r, c: (3 - r, c)),  # mirror up-down
    _perm(lambda r, c: (c, r)),  # transpose (main diagonal)
    _perm(lambda r, c: (3 - c, 3 - r)),  # anti-transpose
)
#: the symmetries that map the main diagonal's corners {0, 15} to themselves
DIAGONAL_SYMMETRIES = (SYMMETRIES[0], SYMMETRIES[2], SYMMETRIES[6], SYMMETRIES[7])


@dataclass(frozen=True)
class Layout:
    """A 4×4 grid of card letters (``.`` for an empty space), row-major, row 0 at the top."""

    cells: tuple[str, ...]

    def __post_init__(self) -> None:
        if len(self.cells) != N_CELLS:
            raise FormatError(f"a Tanglung layout has 16 cells, not {len(self.cells)}")
        for ch in self.cells:
            if ch not in KINDS and ch != EMPTY:
                raise FormatError(
                    f"unknown card letter {short(ch)} in layout (use {''.join(KINDS)} or '.')"
                )

    # -- text ------------------------------------------------------------------------------
    @classmethod
    def parse(cls, text: str) -> "Layout":
        """Parse ``CRBF/HDFR/BHFB/RHDC`` (rows split by ``/``, newlines or spaces; case-insensitive)."""
        if not isinstance(text, str):
            raise FormatError("a layout must be a string like CRBF/HDFR/BHFB/RHDC")
        s = text.strip()
        if s.lower().startswith("tanglung:"):  # a descriptive challenge ID: its layout
            params, sep, description = s[len("tanglung:"):].partition(":")
            if not sep or "#" in params:
                raise FormatError(f"{short(s)} is a seed ID: resolve it with tanglekit.generators.ids.resolve")
            s = description
        rows = [r for r in s.replace("\n", "/").replace(" ", "/").replace(",", "/").split("/") if r]
        if len(rows) == 1 and len(rows[0]) == N_CELLS:
            rows = [rows[0][i : i + SIZE] for i in range(0, N_CELLS, SIZE)]
        if len(rows) != SIZE or any(len(r) != SIZE for r in rows):
            raise FormatError(f"layout {short(text)}: expected 4 rows of 4 letters, like CRBF/HDFR/BHFB/RHDC")
        return cls(tuple(ch.upper() if ch != EMPTY else ch for r in rows for ch in r))

    def __str__(self) -> str:
        return "/".join("".join(self.cells[i : i + SIZE]) for i in range(0, N_CELLS, SIZE))

    @property
    def text(self) -> str:
        return str(self)

    def to_svg(self) -> str:
        """The grid of cards as an SVG document (all lit)."""
        return svg_grid(self)

    def _repr_svg_(self) -> str:  # Jupyter shows the picture
        return self.to_svg()

    def __getitem__(self, i: int) -> str:
        return self.cells[i]

    # -- queries ---------------------------------------------------------------------------
    def roosters(self) -> list[int]:
        """Indices of the Rooster cards, in reading order."""
        return [i for i, ch in enumerate(self.cells) if ch == ROOSTER]

    def present_mask(self) -> int:
        return sum(1 << i for i, ch in enumerate(self.cells) if ch != EMPTY)

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for ch in self.cells:
            if ch != EMPTY:
                out[ch] = out.get(ch, 0) + 1
        return out

    def transformed(self, perm: tuple[int, ...]) -> "Layout":
        cells = [EMPTY] * N_CELLS
        for i, ch in enumerate(self.cells):
            cells[perm[i]] = ch
        return Layout(tuple(cells))

    def canonical(self, group=DIAGONAL_SYMMETRIES) -> "Layout":
        """The least (as text) image under a symmetry group (default: keeps the main diagonal)."""
        return min((self.transformed(p) for p in group), key=str)

    def validate(
        self,
        card_set: CardSet | None = None,
        options: TanglungOptions | None = None,
        allow_empty: bool = False,
    ) -> "Layout":
        """Check card counts against the set and (standard setup) Roosters on opposite corners."""
        card_set = card_set or default_card_set()
        options = options or TanglungOptions()
        counts = self.counts()
        if EMPTY in self.cells and not allow_empty:
            raise RuleError(f"layout {self}: empty spaces are not allowed here (all 16 cards are in play)")
        for letter in KINDS:
            have, want = counts.get(letter, 0), card_set.count(letter)
            if (have != want and not allow_empty) or have > want:
                raise RuleError(
                    f"layout {self}: {have} {KINDS[letter]} card(s) ({letter}) but card set "
                    f"{card_set.name!r} has {want}"
                )
        if not options.not_so_zen and not allow_empty and card_set.count(ROOSTER) == 2:
            r = tuple(self.roosters())
            if r not in CORNER_PAIRS:
                raise RuleError(
                    f"layout {self}: the standard setup puts the 2 Roosters on opposite corners "
                    "(use option not_so_zen=true for any positions)"
                )
        return self


def random_layout(
    rng: random.Random | int | None = None,
    card_set: CardSet | None = None,
    not_so_zen: bool = False,
    diagonal: int | None = None,
) -> Layout:
    """A random layout: Roosters on a random (or given, 0 main / 1 anti) diagonal's corners,
    the other cards shuffled; with ``not_so_zen`` all 16 cards are shuffled."""
    if not isinstance(rng, random.Random):
        rng = random.Random(rng)
    card_set = card_set or default_card_set()
    cards = card_set.multiset()
    if not_so_zen or card_set.count(ROOSTER) != 2:
        rng.shuffle(cards)
        return Layout(tuple(cards))
    lanterns = [c for c in cards if c != ROOSTER]
    rng.shuffle(lanterns)
    d = rng.randrange(2) if diagonal is None else diagonal
    corners = CORNER_PAIRS[d]
    it = iter(lanterns)
    return Layout(tuple(ROOSTER if i in corners else next(it) for i in range(N_CELLS)))


# -- ranking of standard layouts (census) ----------------------------------------------------
def _multinomial(counts: list[int]) -> int:
    n = factorial(sum(counts))
    for c in counts:
        n //= factorial(c)
    return n


def lantern_kinds(card_set: CardSet) -> tuple[list[str], list[int]]:
    kinds = [k for k, n in card_set.counts if k != ROOSTER and n > 0]
    return kinds, [card_set.count(k) for k in kinds]


def count_standard_layouts(card_set: CardSet | None = None) -> int:
    """Lantern arrangements with the Roosters fixed on cells 0 and 15."""
    _, counts = lantern_kinds(card_set or default_card_set())
    return _multinomial(counts)


def unrank_standard_layout(rank: int, card_set: CardSet | None = None) -> Layout:
    """The ``rank``-th (lexicographic) lantern arrangement, Roosters on cells 0 and 15."""
    card_set = card_set or default_card_set()
    kinds, counts = lantern_kinds(card_set)
    counts = list(counts)
    total = _multinomial(counts)
    if not 0 <= rank < total:
        raise RuleError(f"layout rank {rank} out of range 0..{total - 1}")
    seq = []
    for _ in range(sum(counts)):
        for j, k in enumerate(kinds):
            if counts[j] == 0:
                continue
            counts[j] -= 1
            block = _multinomial(counts)
            if rank < block:
                seq.append(k)
                break
            rank -= block
            counts[j] += 1
    it = iter(seq)
    return Layout(tuple(ROOSTER if i in (0, 15) else next(it) for i in range(N_CELLS)))


def rank_standard_layout(layout: Layout, card_set: CardSet | None = None) -> int:
    """Inverse of :func:`unrank_standard_layout` (Roosters must be on cells 0 and 15)."""
    card_set = card_set or default_card_set()
    kinds, counts = lantern_kinds(card_set)
    counts = list(counts)
    seq = [layout[i] for i in range(1, 15)]
    rank = 0
    for ch in seq:
        for j, k in enumerate(kinds):
            if counts[j] == 0:
                continue
            if k == ch:
                counts[j] -= 1
                break
            counts[j] -= 1
            rank += _multinomial(counts)
            counts[j] += 1
        else:
            raise RuleError(f"layout {layout} does not match the card set")
    return rank
