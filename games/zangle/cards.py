"""Zangle cards and decks: the Card type, deck files (JSON or TOML) and their validation.

A deck file lists card kinds, each with a colour, a polyiamond (a list of ``[x, y]`` cells in the
docs/rules.md convention, ``[]`` for a Z card) and a count. Kind ``K`` with count ``n > 1`` expands to
cards ``K-1`` ... ``K-n``; with count 1 the card id is ``K`` itself.
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Iterable, Sequence

from ...errors import FormatError, ShapeError
from ...jsonio import (
    MAX_BYTES,
    _name,
    decode_text,
    expect_format,
    identify,
    is_ascii_digits,
    load_json_source,
    parse_json_text,
    plain_int,
    plain_keys,
    plain_text,
    read_bytes,
    register_format,
    short,
    tagged,
    validate,
)
from ...shapes.catalogue import free_polyforms
from ...shapes.lattice import TRIANGLE
from ...shapes.polyform import Polyform

#: Colour of a card by its number of triangles (docs/rules.md; the Z card colour is our own name).
DEFAULT_COLOURS: dict[int, str] = {0: "white", 1: "blue", 2: "red", 3: "purple", 4: "yellow", 5: "green"}

#: Drawing colours for the SVG output.
PAINT: dict[str, str] = {
    "white": "#f4f4f4",
    "blue": "#3b7dd8",
    "red": "#d8413b",
    "purple": "#8e44ad",
    "yellow": "#f1c40f",
    "green": "#27ae60",
    "orange": "#e67e22",
}

DEFAULT_DECK_NAME = "zangle-default"
MAX_COORD = 1000  # card cells lie within this of the origin (a card has at most MAX_CARD_CELLS)
MAX_CARD_CELLS = 20  # larger cards make the tiling table (every piece set of their area) too slow to build
MAX_KINDS = 1000
MAX_DECK = 10_000  # cards in a deck


@lru_cache(maxsize=1)
def _deck_model():
    """The pydantic schema of a deck file (built on first use: pydantic loads only then)."""
    from typing import Annotated, Optional

    from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr

    Coord = Annotated[StrictInt, Field(ge=-MAX_COORD, le=MAX_COORD)]
    CellModel = Annotated[list[Coord], Field(min_length=2, max_length=2)]
    CellsModel = Annotated[list[CellModel], Field(max_length=MAX_CARD_CELLS)]

    class _CardKind(BaseModel):
        model_config = ConfigDict(extra="forbid", strict=True)
        id: StrictStr = Field(min_length=1, max_length=64)
        colour: Optional[StrictStr] = Field(None, max_length=40)
        count: StrictInt = Field(1, ge=1, le=MAX_DECK)
        cells: CellsModel

    class _DeckFile(BaseModel):
        model_config = ConfigDict(extra="forbid", strict=True)
        name: Optional[StrictStr] = Field(None, max_length=200)
        assumed: StrictBool = False
        note: StrictStr = Field("", max_length=5000)
        total: Optional[StrictInt] = Field(None, ge=0, le=MAX_DECK)
        by_triangles: Optional[dict[StrictStr, Annotated[StrictInt, Field(ge=0, le=MAX_DECK)]]] = None
        colours: Optional[dict[StrictStr, Annotated[StrictStr, Field(max_length=40)]]] = None
        allow_disconnected: StrictBool = False
        cards: list[_CardKind] = Field(min_length=1, max_length=MAX_KINDS)

    return _DeckFile


_DECK_KEYS = frozenset(("name", "assumed", "note", "total", "by_triangles", "colours", "allow_disconnected",
                        "cards"))
_KIND_KEYS = frozenset(("id", "colour", "count", "cells"))


def plain_cells_ok(cells: Any, max_cells: int = MAX_CARD_CELLS) -> bool:
    """A JSON list of at most ``max_cells`` [x, y] int pairs within MAX_COORD (the schema's cells)."""
    if type(cells) is not list or len(cells) > max_cells:
        return False
    for c in cells:
        if type(c) is not list or len(c) != 2:
            return False
        x, y = c
        if not (plain_int(x, -MAX_COORD, MAX_COORD) and plain_int(y, -MAX_COORD, MAX_COORD)):
            return False
    return True


def _quick_deck(d: Any) -> bool:
    """True only for deck bodies the schema accepts as they are (``jsonio.validate``'s quick check)."""
    if not plain_keys(d, _DECK_KEYS) or "cards" not in d:
        return False
    g = d.get
    if not ((g("name") is None or plain_text(g("name"), 200)) and type(g("assumed", False)) is bool
            and plain_text(g("note", ""), 5000) and (g("total") is None or plain_int(g("total"), 0, MAX_DECK))
            and type(g("allow_disconnected", False)) is bool):
        return False
    bt = g("by_triangles")
    if bt is not None and not (type(bt) is dict and all(plain_text(k) and plain_int(v, 0, MAX_DECK)
                                                        for k, v in bt.items())):
        return False
    co = g("colours")
    if co is not None and not (type(co) is dict and all(plain_text(k) and plain_text(v, 40) for k, v in co.items())):
        return False
    cards = d["cards"]
    if type(cards) is not list or not 1 <= len(cards) <= MAX_KINDS:
        return False
    for e in cards:
        if not plain_keys(e, _KIND_KEYS) or "id" not in e or "cells" not in e:
            return False
        if not (plain_text(e["id"], 64, 1) and (e.get("colour") is None or plain_text(e["colour"], 40))
                and plain_int(e.get("count", 1), 1, MAX_DECK) and plain_cells_ok(e["cells"])):
            return False
    return True


def _sniff_deck(d) -> bool:
    cards = d.get("cards")
    return bool(cards) and isinstance(cards, list) and all(
        isinstance(e, dict) and "cells" in e and "id" in e for e in cards)


DECK_FORMAT = register_format("tanglekit/zangle-deck", 1, "Zangle deck", _deck_model, _sniff_deck)


@dataclass(frozen=True, eq=False)
class Card:
    """One physical card. Two cards with the same shape are still two cards (identity = object).

    ``shape`` is None for a Z card. ``kind`` names the card kind of the deck it came from.
    """

    id: str
    colour: str
    shape: Polyform | None
    kind: str = ""

    @property
    def is_z(self) -> bool:
        return self.shape is None

    @property
    def size(self) -> int:
        """Number of triangles (0 for a Z card)."""
        return 0 if self.shape is None else self.shape.area

    @cached_property
    def key(self) -> tuple:
        """Free canonical key of the shape (``()`` for a Z card): equal keys = congruent cards."""
        return () if self.shape is None else self.shape.key("free")

    @property
    def cells(self) -> list[list[int]]:
        return [] if self.shape is None else [[x, y] for x, y in self.shape.cells]

    def to_json(self) -> dict:
        return {"id": self.id, "colour": self.colour, "cells": self.cells}

    def __repr__(self) -> str:
        return f"Card({self.id!r}, {self.colour}, {self.cells})"

    # cards are immutable tokens: copies of a game state share them
    def __copy__(self) -> "Card":
        return self

    def __deepcopy__(self, memo) -> "Card":
        return self


def shape_from_cells(cells, where: str, allow_disconnected: bool = False) -> Polyform | None:
    """A card shape from a JSON cell list; ``[]`` is a Z card. A card is a polyiamond: cells
    within ``MAX_COORD``, no duplicate, edge-connected (unless ``allow_disconnected``, a deck's
    explicit choice). Errors name ``where``."""
    if not isinstance(cells, list):
        raise FormatError(f"{where}: cells must be a list of [x, y] pairs, got {type(cells).__name__}")
    if not cells:
        return None
    if len(cells) > MAX_CARD_CELLS:
        raise FormatError(f"{where}: a card has at most {MAX_CARD_CELLS} triangles, got {len(cells)}")
    for c in cells:
        if (
            not isinstance(c, (list, tuple))
            or len(c) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in c)
        ):
            raise FormatError(f"{where}: bad cell {short(c)}: expected [x, y] with integer x and y")
        if not all(-MAX_COORD <= v <= MAX_COORD for v in c):
            raise FormatError(f"{where}: cell coordinates must be within -{MAX_COORD}..{MAX_COORD}")
    try:
        shape = Polyform([tuple(c) for c in cells], TRIANGLE)
    except ShapeError as e:
        raise ShapeError(f"{where}: {e}") from None
    if not allow_disconnected and not shape.is_connected():
        raise ShapeError(f"{where}: the cells are not edge-connected (a card is a polyiamond; a deck file "
                         "may allow disconnected cards with \"allow_disconnected\": true)")
    return shape


def load_document(source, fmt, what: str | None = None):
    """(data, where) of a JSON file or inline JSON meant to be a ``fmt`` file; a JSON-lines file
    (a move log) is named as what it is rather than "not valid JSON"."""
    try:
        return load_json_source(source, what or fmt.title)
    except FormatError as e:
        if "Extra data" not in str(e) or (isinstance(source, str) and source.lstrip()[:1] in "{["):
            raise
        try:
            first = read_bytes(source, "file").splitlines()[0].decode("utf-8")
            other = identify(parse_json_text(first, "line 1"))
        except (FormatError, IndexError, UnicodeDecodeError):
            other = None
        if other is None or other is fmt:
            raise
        where = _name(Path(str(source)))
        raise FormatError(f"{where}: this is a {other.title} file (JSON lines), expected a {fmt.title}") from None


def colour_for(size: int, colours: dict[int, str] | None = None) -> str | None:
    return (colours or DEFAULT_COLOURS).get(size)


@dataclass(frozen=True, eq=False)
class Deck:
    """An ordered list of cards with unique ids. ``assumed`` marks data that is our own default."""

    name: str
    cards: tuple[Card, ...]
    assumed: bool = False
    note: str = ""
    colours: dict[int, str] = field(default_factory=lambda: dict(DEFAULT_COLOURS))
    kinds: tuple[tuple[str, str, Polyform | None, int], ...] = ()
    allow_disconnected: bool = False

    def __len__(self) -> int:
        return len(self.cards)

    def __iter__(self):
        return iter(self.cards)

    @cached_property
    def by_id(self) -> dict[str, Card]:
        return {c.id: c for c in self.cards}

    @cached_property
    def by_kind(self) -> dict[str, list[Card]]:
        out: dict[str, list[Card]] = {}
        for c in self.cards:
            out.setdefault(c.kind, []).append(c)
        return out

    @cached_property
    def shapes(self) -> tuple[Polyform, ...]:
        """Distinct free shapes of the non-Z cards, canonical, smallest first."""
        keys = {c.key: c.shape.canonical("free") for c in self.cards if not c.is_z}
        return tuple(sorted(keys.values()))

    def summary(self) -> list[dict]:
        """One row per card kind: kind, colour, triangles, count, cells."""
        return [
            {"kind": k, "colour": col, "triangles": 0 if s is None else s.area, "count": n,
             "cells": [] if s is None else [list(c) for c in s.cells]}
            for k, col, s, n in self.kinds
        ]

    def to_json(self) -> dict:
        data = {
            "name": self.name,
            "assumed": self.assumed,
            "note": self.note,
            "total": len(self.cards),
            "cards": [
                {"id": r["kind"], "colour": r["colour"], "count": r["count"], "cells": r["cells"]}
                for r in self.summary()
            ],
        }
        extra = {str(k): v for k, v in self.colours.items() if DEFAULT_COLOURS.get(k) != v}
        if extra:
            data["colours"] = extra
        if self.allow_disconnected:
            data["allow_disconnected"] = True
        return tagged(DECK_FORMAT, data)


def deck_from_json(data: dict, source: str = "deck") -> Deck:
    """Build and validate a deck from its parsed JSON/TOML form: format tag, schema (field types
    and ranges), then content (connected cards, colours, counts); errors name the card and problem."""
    expect_format(data, DECK_FORMAT, source)
    validate(data, _deck_model, source, "deck", quick=_quick_deck)
    if sum(e["count"] for e in data["cards"] if isinstance(e, dict) and "count" in e) > MAX_DECK:
        raise FormatError(f"{source}: more than {MAX_DECK} cards in a deck")
    allow = bool(data.get("allow_disconnected", False))
    colours = dict(DEFAULT_COLOURS)
    for k, v in (data.get("colours") or {}).items():
        if not is_ascii_digits(k) or len(k) > 6:  # int() took ' 1', '1_0' and '١'
            raise FormatError(f"{source}: colours key {short(k)} is not a triangle count")
        colours[int(k)] = str(v)
    entries = data.get("cards")
    if not isinstance(entries, list) or not entries:
        raise FormatError(f"{source}: missing or empty 'cards' list")
    cards: list[Card] = []
    kinds = []
    seen_ids: set[str] = set()
    for n, e in enumerate(entries):
        if not isinstance(e, dict):
            raise FormatError(f"{source}: card entry {n + 1} is not an object")
        kid = e.get("id")
        if not isinstance(kid, str) or not kid:
            raise FormatError(f"{source}: card entry {n + 1} has no string 'id'")
        where = f"{source}: card {short(kid)}"
        if "cells" not in e:
            raise FormatError(f"{where}: missing 'cells'")
        shape = shape_from_cells(e["cells"], where, allow)
        size = 0 if shape is None else shape.area
        colour = e.get("colour", colours.get(size))
        want = colours.get(size)
        if want is None:
            raise FormatError(
                f"{where}: no colour is defined for {size} triangles (add it to the deck's 'colours')"
            )
        if colour != want:
            raise FormatError(f"{where}: colour {colour!r} does not match {size} triangles (expected {want!r})")
        count = e.get("count", 1)
        if not isinstance(count, int) or isinstance(count, bool) or count < 1:
            raise FormatError(f"{where}: count must be a positive integer, got {count!r}")
        ids = [kid] if count == 1 else [f"{kid}-{i}" for i in range(1, count + 1)]
        for cid in ids:
            if cid in seen_ids:
                raise FormatError(f"{where}: duplicate card id {cid!r}")
            seen_ids.add(cid)
            cards.append(Card(cid, colour, shape, kid))
        kinds.append((kid, colour, shape, count))
    total = data.get("total")
    if total is not None and total != len(cards):
        raise FormatError(f"{source}: card counts add up to {len(cards)}, but 'total' says {total}")
    by_size = data.get("by_triangles")
    if by_size:
        for k, want in by_size.items():
            if not is_ascii_digits(k) or len(k) > 6:
                raise FormatError(f"{source}: by_triangles key {short(k)} is not a triangle count")
            have = sum(1 for c in cards if c.size == int(k))
            if have != want:
                raise FormatError(f"{source}: {have} cards with {k} triangles, but 'by_triangles' says {want}")
    return Deck(
        name=str(data.get("name", Path(source).stem)),
        cards=tuple(cards),
        assumed=bool(data.get("assumed", False)),
        note=str(data.get("note", "")),
        colours=colours,
        kinds=tuple(kinds),
        allow_disconnected=allow,
    )


def load_deck(path: str | Path | None = None) -> Deck:
    """Load a deck file (``.json`` or ``.toml``); ``None`` gives the default deck."""
    if path is None:
        return default_deck()
    p = Path(path)
    where = _name(p)
    if p.suffix.lower() == ".toml":
        text = decode_text(read_bytes(p, "deck file", MAX_BYTES // 8), where, "deck file")
        try:
            data = tomllib.loads(text)
        except (tomllib.TOMLDecodeError, RecursionError, ValueError) as e:
            raise FormatError(f"{where}: not valid TOML ({str(e).splitlines()[0][:120]})") from None
    else:
        data, where = load_document(p, DECK_FORMAT, "deck file")
    return deck_from_json(data, where)


@lru_cache(maxsize=1)
def default_deck() -> Deck:
    """The assumed 120-card default deck shipped as ``data/zangle-default.json``."""
    text = resources.files(__package__).joinpath("data", f"{DEFAULT_DECK_NAME}.json").read_text("utf-8")
    return deck_from_json(json.loads(text), DEFAULT_DECK_NAME)


def free_polyiamonds(n: int) -> list[Polyform]:
    """All free, edge-connected polyiamonds of ``n`` triangles (canonical, sorted)."""
    return free_polyforms(n, "triangle")


def make_deck(name: str, kinds: Iterable[tuple[str, Sequence | None, int]], colours=None,
              assumed: bool = False, note: str = "", allow_disconnected: bool = False) -> Deck:
    """Build a deck from ``(kind id, cells or None, count)`` triples (colours from the size)."""
    cmap = dict(DEFAULT_COLOURS)
    cmap.update(colours or {})
    entries = []
    for kid, cells, count in kinds:
        cl = [] if not cells else [list(c) for c in cells]
        entries.append({"id": kid, "colour": cmap.get(len(cl)), "cells": cl, "count": count})
    data = {"name": name, "assumed": assumed, "note": note, "cards": entries,
            "allow_disconnected": allow_disconnected}
    if colours:
        data["colours"] = {str(k): v for k, v in colours.items()}
    return deck_from_json(data, name)
