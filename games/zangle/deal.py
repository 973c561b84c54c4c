"""Zangle deal files: the cards on the table (middle and own), optionally piles and other players.

JSON form: ``{"middle": [card, ...], "own": [card, ...]}`` where a card is a deck card id
(``"T4-bar-3"``), a deck card kind (``"T4-bar"``: the next unused card of that kind), a raw
polyiamond as a list of ``[x, y]`` cells (``[]`` is a Z card) or an object ``{"id": ...}`` /
``{"cells": ...}``. Optional list keys (same card forms): ``middle_pile``, ``own_pile``,
``discard``; ``others`` is a list of ``{"own": [...], "own_pile": [...]}`` objects.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Optional

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, StrictInt, StrictStr

from ...errors import FormatError
from ...jsonio import expect_format, register_format, short, tagged, validate
from .cards import MAX_DECK, Card, Deck, colour_for, default_deck, load_document, shape_from_cells

PLACES = ("middle", "own")
_LIST_KEYS = ("middle", "own", "middle_pile", "own_pile", "discard")
MAX_TABLE = 62  # cards face up on one table (middle + own): the finder's bitmask width
MAX_OTHERS = 64


def _card_ref(v):
    """A card reference's shape: a deck card id or kind, a cell list, or {"id"} / {"cells"}."""
    from .cards import MAX_CARD_CELLS, MAX_COORD

    if isinstance(v, dict):
        if not v or set(v) - {"id", "cells"} or len(v) != 1:
            raise ValueError("a card object holds exactly one of 'id' or 'cells'")
        v = next(iter(v.values()))
    if isinstance(v, str):
        if not 1 <= len(v) <= 100:
            raise ValueError("a card id has 1 to 100 characters")
        return v
    if isinstance(v, list):
        if len(v) > MAX_CARD_CELLS:
            raise ValueError(f"a card has at most {MAX_CARD_CELLS} triangles")
        for c in v:
            if not (isinstance(c, list) and len(c) == 2
                    and all(isinstance(x, int) and not isinstance(x, bool) for x in c)):
                raise ValueError("a cell is [x, y] with whole numbers x and y")
            if not all(-MAX_COORD <= x <= MAX_COORD for x in c):
                raise ValueError(f"cell coordinates must be within -{MAX_COORD}..{MAX_COORD}")
        return v
    raise ValueError("a card is a deck card id or a list of [x, y] cells")


CardModel = Annotated[Any, BeforeValidator(_card_ref)]


class _Other(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    own: list[CardModel] = Field(default_factory=list, max_length=MAX_TABLE)
    own_pile: list[CardModel] = Field(default_factory=list, max_length=MAX_DECK)


class _DealBody(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    format: Optional[StrictStr] = None
    version: Optional[StrictInt] = Field(None, ge=1)
    middle: list[CardModel] = Field(max_length=MAX_TABLE)
    own: list[CardModel] = Field(max_length=MAX_TABLE)
    middle_pile: Optional[list[CardModel]] = Field(None, max_length=MAX_DECK)
    own_pile: Optional[list[CardModel]] = Field(None, max_length=MAX_DECK)
    discard: Optional[list[CardModel]] = Field(None, max_length=MAX_DECK)
    others: Optional[list[_Other]] = Field(None, max_length=MAX_OTHERS)
    deck: Optional[StrictStr] = Field(None, max_length=200)
    note: Optional[StrictStr] = Field(None, max_length=5000)


class _DealFile(BaseModel):
    """A deal file, or ``zangle turn generate --json`` output holding one under ``deal``."""

    model_config = ConfigDict(extra="forbid", strict=True)
    middle: Optional[list[CardModel]] = Field(None, max_length=MAX_TABLE)
    own: Optional[list[CardModel]] = Field(None, max_length=MAX_TABLE)
    middle_pile: Optional[list[CardModel]] = Field(None, max_length=MAX_DECK)
    own_pile: Optional[list[CardModel]] = Field(None, max_length=MAX_DECK)
    discard: Optional[list[CardModel]] = Field(None, max_length=MAX_DECK)
    others: Optional[list[_Other]] = Field(None, max_length=MAX_OTHERS)
    deck: Optional[StrictStr] = Field(None, max_length=200)
    note: Optional[StrictStr] = Field(None, max_length=5000)
    deal: Optional[_DealBody] = None
    id: Optional[StrictStr] = None
    seed_id: Optional[StrictStr] = None
    seed: Optional[StrictInt] = None
    players: Optional[StrictInt] = None
    first_player: Optional[StrictInt] = None
    properties: Optional[dict[StrictStr, Any]] = None


def _sniff(d) -> bool:
    body = d.get("deal") if isinstance(d.get("deal"), dict) else d
    return "middle" in body and "own" in body and "draw" not in body


DEAL_FORMAT = register_format("tanglekit/zangle-deal", 1, "Zangle deal", _DealFile, _sniff)


@dataclass(frozen=True)
class Deal:
    """Cards on the table. ``middle`` and ``own`` keep the order of the deal file."""

    middle: tuple[Card, ...]
    own: tuple[Card, ...]
    extra: dict = field(default_factory=dict)

    def cards(self, place: str) -> tuple[Card, ...]:
        return self.middle if place == "middle" else self.own

    def to_json(self) -> dict:
        def enc(c: Card):
            return c.id if c.kind else c.cells

        out = {"middle": [enc(c) for c in self.middle], "own": [enc(c) for c in self.own]}
        for k, v in self.extra.items():
            if k == "others":
                out[k] = [{kk: [enc(c) for c in vv] for kk, vv in o.items()} for o in v]
            else:
                out[k] = [enc(c) for c in v]
        return tagged(DEAL_FORMAT, out)


class _Resolver:
    """Turns card references into Card objects, each deck card used at most once."""

    def __init__(self, deck: Deck, source: str):
        self.deck = deck
        self.source = source
        self.used: set[str] = set()

    def card(self, ref, where: str) -> Card:
        if isinstance(ref, dict):
            if "id" in ref:
                ref = ref["id"]
            elif "cells" in ref:
                ref = ref["cells"]
            else:
                raise FormatError(f"{self.source}: {where}: card object needs 'id' or 'cells'")
            if ref is None:
                raise FormatError(f"{self.source}: {where}: card object needs 'id' or 'cells'")
        if isinstance(ref, str):
            return self._by_id(ref, where)
        if isinstance(ref, list):
            shape = shape_from_cells(ref, f"{self.source}: {where}")
            size = 0 if shape is None else shape.area
            colour = colour_for(size, self.deck.colours) or "custom"
            return Card(f"{where}", colour, shape, "")
        raise FormatError(
            f"{self.source}: {where}: a card is a deck card id or a list of [x, y] cells, got {short(ref)}"
        )

    def _by_id(self, ref: str, where: str) -> Card:
        deck = self.deck
        if ref in deck.by_id:
            if ref in self.used:
                raise FormatError(f"{self.source}: {where}: deck card {short(ref)} is dealt twice")
            self.used.add(ref)
            return deck.by_id[ref]
        if ref in deck.by_kind:
            for c in deck.by_kind[ref]:
                if c.id not in self.used:
                    self.used.add(c.id)
                    return c
            raise FormatError(
                f"{self.source}: {where}: more {short(ref)} cards than the deck holds ({len(deck.by_kind[ref])})"
            )
        raise FormatError(f"{self.source}: {where}: no card or card kind {short(ref)} in deck {short(deck.name)}")

    def cards(self, refs, key: str) -> tuple[Card, ...]:
        if not isinstance(refs, list):
            raise FormatError(f"{self.source}: {key!r} must be a list of cards")
        return tuple(self.card(r, f"{key}[{i}]") for i, r in enumerate(refs))


def parse_deal(data, deck: Deck | None = None, source: str = "deal") -> Deal:
    """Build a Deal from its parsed JSON form (see the module docstring): format tag, schema,
    then content (deck cards each dealt once, raw cards valid polyiamonds)."""
    expect_format(data, DEAL_FORMAT, source)
    body = validate(data, _DealFile, source, "deal")
    if body.deal is not None:
        if body.middle is not None or body.own is not None:
            raise FormatError(f"{source}: a generated deal holds its cards under 'deal' only")
        data = data["deal"]
        if "format" in data:
            expect_format(data, DEAL_FORMAT, f"{source} at deal")
    else:
        for k in ("middle", "own"):
            if getattr(body, k) is None:
                raise FormatError(f"{source} at {k}: missing (required)")
    r = _Resolver(deck or default_deck(), source)
    middle = r.cards(data["middle"], "middle")
    own = r.cards(data["own"], "own")
    extra: dict = {}
    for k in _LIST_KEYS[2:]:
        if data.get(k) is not None:
            extra[k] = r.cards(data[k], k)
    if data.get("others") is not None:
        extra["others"] = [{k: r.cards(v, f"others[{i}].{k}") for k, v in o.items()}
                           for i, o in enumerate(data["others"])]
    if len(middle) + len(own) > MAX_TABLE:
        raise FormatError(f"{source}: at most {MAX_TABLE} cards in middle and own together")
    return Deal(middle, own, extra)


def load_deal(path: str | Path, deck: Deck | None = None) -> Deal:
    """Read a deal file (JSON; inline JSON text too)."""
    data, where = load_document(path, DEAL_FORMAT)
    return parse_deal(data, deck, where)
