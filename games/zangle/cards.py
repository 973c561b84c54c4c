"""Zangle cards and decks: the Card type, deck files (JSON or TOML) and their validation.

A deck file lists card kinds, each with a colour, a polyiamond (a list of ``[x, y]`` cells in the
RULES.md convention, ``[]`` for a Z card) and a count. Kind ``K`` with count ``n > 1`` expands to
cards ``K-1`` ... ``K-n``; with count 1 the card id is ``K`` itself.
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from importlib import resources
from pathlib import Path
from typing import Iterable, Sequence

from ...errors import FormatError, ShapeError
from ...shapes.catalogue import free_polyforms
from ...shapes.lattice import TRIANGLE
from ...shapes.polyform import Polyform

#: Colour of a card by its number of triangles (RULES.md; the Z card colour is our own name).
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


def shape_from_cells(cells, where: str) -> Polyform | None:
    """A card shape from a JSON cell list; ``[]`` is a Z card. Errors name ``where``."""
    if not isinstance(cells, list):
        raise FormatError(f"{where}: cells must be a list of [x, y] pairs, got {type(cells).__name__}")
    if not cells:
        return None
    for c in cells:
        if (
            not isinstance(c, (list, tuple))
            or len(c) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in c)
        ):
            raise FormatError(f"{where}: bad cell {c!r}: expected [x, y] with integer x and y")
    try:
        return Polyform([tuple(c) for c in cells], TRIANGLE)
    except ShapeError as e:
        raise ShapeError(f"{where}: {e}") from None


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
            "format": "tanglekit-zangle-deck/1",
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
        return data


def deck_from_json(data: dict, source: str = "deck") -> Deck:
    """Build and validate a deck from its parsed JSON/TOML form; errors name the card and problem."""
    if not isinstance(data, dict):
        raise FormatError(f"{source}: a deck file must hold an object with a 'cards' list")
    colours = dict(DEFAULT_COLOURS)
    for k, v in (data.get("colours") or {}).items():
        try:
            colours[int(k)] = str(v)
        except ValueError:
            raise FormatError(f"{source}: colours key {k!r} is not a triangle count") from None
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
        where = f"{source}: card {kid!r}"
        if "cells" not in e:
            raise FormatError(f"{where}: missing 'cells'")
        shape = shape_from_cells(e["cells"], where)
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
    )


def load_deck(path: str | Path | None = None) -> Deck:
    """Load a deck file (``.json`` or ``.toml``); ``None`` gives the default deck."""
    if path is None:
        return default_deck()
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as e:
        raise FormatError(f"{p}: cannot read deck file ({e.strerror})") from None
    try:
        data = tomllib.loads(text) if p.suffix.lower() == ".toml" else json.loads(text)
    except (json.JSONDecodeError, tomllib.TOMLDecodeError) as e:
        raise FormatError(f"{p}: not valid {'TOML' if p.suffix.lower() == '.toml' else 'JSON'}: {e}") from None
    return deck_from_json(data, str(p))


@lru_cache(maxsize=1)
def default_deck() -> Deck:
    """The assumed 120-card default deck shipped as ``data/zangle-default.json``."""
    text = resources.files(__package__).joinpath("data", f"{DEFAULT_DECK_NAME}.json").read_text("utf-8")
    return deck_from_json(json.loads(text), DEFAULT_DECK_NAME)


def free_polyiamonds(n: int) -> list[Polyform]:
    """All free, edge-connected polyiamonds of ``n`` triangles (canonical, sorted)."""
    return free_polyforms(n, "triangle")


def make_deck(name: str, kinds: Iterable[tuple[str, Sequence | None, int]], colours=None,
              assumed: bool = False, note: str = "") -> Deck:
    """Build a deck from ``(kind id, cells or None, count)`` triples (colours from the size)."""
    cmap = dict(DEFAULT_COLOURS)
    cmap.update(colours or {})
    entries = []
    for kid, cells, count in kinds:
        cl = [] if not cells else [list(c) for c in cells]
        entries.append({"id": kid, "colour": cmap.get(len(cl)), "cells": cl, "count": count})
    data = {"name": name, "assumed": assumed, "note": note, "cards": entries}
    if colours:
        data["colours"] = {str(k): v for k, v in colours.items()}
    return deck_from_json(data, name)
