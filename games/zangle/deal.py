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

from ...errors import FormatError
from ...jsonio import read_json_file
from .cards import Card, Deck, colour_for, default_deck, shape_from_cells

PLACES = ("middle", "own")
_LIST_KEYS = ("middle", "own", "middle_pile", "own_pile", "discard")


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
        return out


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
        if isinstance(ref, str):
            return self._by_id(ref, where)
        if isinstance(ref, list):
            shape = shape_from_cells(ref, f"{self.source}: {where}")
            size = 0 if shape is None else shape.area
            colour = colour_for(size, self.deck.colours) or "custom"
            return Card(f"{where}", colour, shape, "")
        raise FormatError(
            f"{self.source}: {where}: a card is a deck card id or a list of [x, y] cells, got {ref!r}"
        )

    def _by_id(self, ref: str, where: str) -> Card:
        deck = self.deck
        if ref in deck.by_id:
            if ref in self.used:
                raise FormatError(f"{self.source}: {where}: deck card {ref!r} is dealt twice")
            self.used.add(ref)
            return deck.by_id[ref]
        if ref in deck.by_kind:
            for c in deck.by_kind[ref]:
                if c.id not in self.used:
                    self.used.add(c.id)
                    return c
            raise FormatError(
                f"{self.source}: {where}: more {ref!r} cards than the deck holds ({len(deck.by_kind[ref])})"
            )
        raise FormatError(f"{self.source}: {where}: no card or card kind {ref!r} in deck {deck.name!r}")

    def cards(self, refs, key: str) -> tuple[Card, ...]:
        if not isinstance(refs, list):
            raise FormatError(f"{self.source}: {key!r} must be a list of cards")
        return tuple(self.card(r, f"{key}[{i}]") for i, r in enumerate(refs))


def parse_deal(data: dict, deck: Deck | None = None, source: str = "deal") -> Deal:
    """Build a Deal from its parsed JSON form (see the module docstring)."""
    if not isinstance(data, dict):
        raise FormatError(f"{source}: a deal file must hold an object with 'middle' and 'own' lists")
    for k in ("middle", "own"):
        if k not in data:
            raise FormatError(f"{source}: missing {k!r} list")
    unknown = sorted(set(data) - set(_LIST_KEYS) - {"others", "deck", "note"})
    if unknown:
        raise FormatError(f"{source}: unknown key(s) {', '.join(map(repr, unknown))}")
    r = _Resolver(deck or default_deck(), source)
    middle = r.cards(data["middle"], "middle")
    own = r.cards(data["own"], "own")
    extra: dict = {}
    for k in _LIST_KEYS[2:]:
        if k in data:
            extra[k] = r.cards(data[k], k)
    if "others" in data:
        if not isinstance(data["others"], list):
            raise FormatError(f"{source}: 'others' must be a list of players")
        players = []
        for i, o in enumerate(data["others"]):
            if not isinstance(o, dict):
                raise FormatError(f"{source}: others[{i}] must be an object")
            players.append({k: r.cards(v, f"others[{i}].{k}") for k, v in o.items()})
        extra["others"] = players
    return Deal(middle, own, extra)


def load_deal(path: str | Path, deck: Deck | None = None) -> Deal:
    """Read a deal file (JSON)."""
    return parse_deal(read_json_file(path, "deal file"), deck, str(path))
