"""Zangle deal files: the cards on the table (middle and own), optionally piles and other players.

JSON form: ``{"middle": [card, ...], "own": [card, ...]}`` where a card is a deck card id
(``"T4-bar-3"``), a deck card kind (``"T4-bar"``: the next unused card of that kind), a raw
polyiamond as a list of ``[x, y]`` cells (``[]`` is a Z card) or an object ``{"id": ...}`` /
``{"cells": ...}``. Optional list keys (same card forms): ``middle_pile``, ``own_pile``,
``discard``; ``others`` is a list of ``{"own": [...], "own_pile": [...]}`` objects.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...errors import FormatError
from ...jsonio import (
    expect_format,
    is_ascii_digits,
    plain_int,
    plain_keys,
    plain_text,
    register_format,
    short,
    tagged,
    validate,
)
from .cards import (
    MAX_CARD_CELLS,
    MAX_COORD,
    MAX_DECK,
    Card,
    Deck,
    colour_for,
    default_deck,
    load_document,
    plain_cells_ok,
    shape_from_cells,
)
from .rules import ZangleOptions

if TYPE_CHECKING:
    from .rules import ZangleOptions

PLACES = ("middle", "own")
_LIST_KEYS = ("middle", "own", "middle_pile", "own_pile", "discard")
MAX_TABLE = 62  # cards face up on one table (middle + own): the finder's bitmask width
MAX_OTHERS = 64


def _card_ref(v):
    """A card reference's shape: a deck card id or kind, a cell list, or {"id"} / {"cells"}."""
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


@lru_cache(maxsize=1)
def _deal_model():
    """The pydantic schema of a deal file (built on first use: pydantic loads only then)."""
    from typing import Annotated, Optional

    from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, StrictInt, StrictStr

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
        id: Optional[StrictStr] = Field(None, max_length=10_000)
        seed_id: Optional[StrictStr] = Field(None, max_length=1000)

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

    return _DealFile


# --- the plain check of a deal file (jsonio.validate's quick check): True only for documents
# the schema above accepts as they are; anything else goes to the schema for its error
def _quick_ref(v) -> bool:
    if type(v) is dict:
        if len(v) != 1:
            return False
        k, v = next(iter(v.items()))
        if k not in ("id", "cells"):
            return False
    if type(v) is str:
        return 1 <= len(v) <= 100
    return plain_cells_ok(v)


def _quick_refs(v, most: int, optional: bool = True) -> bool:
    if v is None:
        return optional
    return type(v) is list and len(v) <= most and all(_quick_ref(x) for x in v)


def _quick_lists(d) -> bool:
    g = d.get
    if not (_quick_refs(g("middle_pile"), MAX_DECK) and _quick_refs(g("own_pile"), MAX_DECK)
            and _quick_refs(g("discard"), MAX_DECK) and (g("deck") is None or plain_text(g("deck"), 200))
            and (g("note") is None or plain_text(g("note"), 5000))):
        return False
    others = g("others")
    if others is None:
        return True
    if type(others) is not list or len(others) > MAX_OTHERS:
        return False
    return all(plain_keys(o, ("own", "own_pile")) and _quick_refs(o.get("own", []), MAX_TABLE, False)
               and _quick_refs(o.get("own_pile", []), MAX_DECK, False) for o in others)


_FILE_KEYS = frozenset(("middle", "own", "middle_pile", "own_pile", "discard", "others", "deck", "note", "deal",
                        "id", "seed_id", "seed", "players", "first_player", "properties"))
_BODY_KEYS = frozenset(("format", "version", "middle", "own", "middle_pile", "own_pile", "discard", "others",
                        "deck", "note", "id", "seed_id"))


def _quick_deal(d) -> bool:
    if not plain_keys(d, _FILE_KEYS):
        return False
    g = d.get
    if not (_quick_refs(g("middle"), MAX_TABLE) and _quick_refs(g("own"), MAX_TABLE) and _quick_lists(d)):
        return False
    for k in ("id", "seed_id"):
        if g(k) is not None and not plain_text(g(k)):
            return False
    for k in ("seed", "players", "first_player"):
        if g(k) is not None and not plain_int(g(k)):
            return False
    props = g("properties")
    if props is not None and not (type(props) is dict and all(plain_text(k) for k in props)):
        return False
    body = g("deal")
    if body is None:
        return True
    bg = body.get if type(body) is dict else None
    return (plain_keys(body, _BODY_KEYS) and (bg("format") is None or plain_text(bg("format")))
            and (bg("version") is None or plain_int(bg("version"), 1))
            and _quick_refs(bg("middle"), MAX_TABLE, False) and _quick_refs(bg("own"), MAX_TABLE, False)
            and _quick_lists(body) and (bg("id") is None or plain_text(bg("id"), 10_000))
            and (bg("seed_id") is None or plain_text(bg("seed_id"), 1000)))


def _sniff(d) -> bool:
    body = d.get("deal") if isinstance(d.get("deal"), dict) else d
    return "middle" in body and "own" in body and "draw" not in body


DEAL_FORMAT = register_format("tanglekit/zangle-deal", 1, "Zangle deal", _deal_model, _sniff)


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
    validate(data, _deal_model, source, "deal", quick=_quick_deal)
    # the schema accepted the document as it is (strict: no value was converted), so it is read
    # from the data itself
    if data.get("deal") is not None:
        if data.get("middle") is not None or data.get("own") is not None:
            raise FormatError(f"{source}: a generated deal holds its cards under 'deal' only")
        data = data["deal"]
        if "format" in data:
            expect_format(data, DEAL_FORMAT, f"{source} at deal")
    else:
        for k in ("middle", "own"):
            if data.get(k) is None:
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


# --------------------------------------------------------------------------------------------
# Turn-deal IDs: zangle:turn,players=N[,PROPERTY...][,z=minimal][,deck=NAME]:<description>
# The description is the deal's card groups, each card two base-36 digits of its deck position:
# middle . middle_pile . own . own_pile (player 0) . own . own_pile (player 1) ...
# --------------------------------------------------------------------------------------------
_B36 = "0123456789abcdefghijklmnopqrstuvwxyz"
MAX_TURN_PLAYERS = 11


def turn_id_params(players: int, properties=(), options=None, deck=None) -> str:
    """PARAMS of a turn-deal ID (without the game prefix): what the generator was asked."""
    parts = ["turn", f"players={int(players)}", *properties]
    if options is not None and options.z_cards != "all":
        parts.append(f"z={options.z_cards}")
    if deck is not None and deck is not default_deck():
        parts.append(f"deck={deck.name}")
    return ",".join(parts)


def parse_turn_id_params(parsed) -> tuple[int, tuple[str, ...], ZangleOptions, str | None]:
    """(players, property words, options, deck name or None) of a parsed ``zangle:turn`` ID."""
    flags = parsed.flags()
    if not flags or flags[0] != "turn":
        raise parsed.error("a Zangle turn-deal ID starts 'zangle:turn,...'")
    values = parsed.values()
    bad = sorted(set(values) - {"players", "z", "deck"})
    if bad:
        raise parsed.error(f"unknown parameter {short(bad[0])}")
    p = values.get("players", "2")
    if not is_ascii_digits(p) or len(p) > 3 or not 1 <= int(p) <= MAX_TURN_PLAYERS:
        raise parsed.error(f"players={short(p)} is not 1..{MAX_TURN_PLAYERS}")
    z = values.get("z", "all")
    if z not in ("all", "minimal"):
        raise parsed.error(f"z={short(z)}: expected all or minimal")
    return int(p), tuple(flags[1:]), ZangleOptions(z_cards=z), values.get("deck")


def turn_deal_description(deal: dict, deck: Deck) -> str:
    """The description of a turn deal (deck card ids only) for its descriptive ID."""
    pos = {c.id: i for i, c in enumerate(deck.cards)}
    if len(pos) > 36 * 36:
        raise FormatError(f"deck {short(deck.name)} has more than {36 * 36} cards: no descriptive ID")

    def enc(ids):
        return "".join(_B36[pos[c] // 36] + _B36[pos[c] % 36] for c in ids)

    groups = [deal["middle"], deal.get("middle_pile", []), deal["own"], deal.get("own_pile", [])]
    for o in deal.get("others", []):
        groups += [o.get("own", []), o.get("own_pile", [])]
    return ".".join(enc(g) for g in groups)


def turn_deal_from_description(parsed, deck: Deck) -> dict:
    """The deal file (tagged dict) a descriptive turn-deal ID holds; checked as a deal file."""
    players = parse_turn_id_params(parsed)[0]
    groups = parsed.description.split(".")
    if len(groups) != 2 + 2 * players:
        raise parsed.error(f"the description needs {2 + 2 * players} card groups for {players} players, "
                           f"has {len(groups)}")
    cards = deck.cards

    def dec(g: str) -> list[str]:
        if len(g) % 2:
            raise parsed.error(f"bad card group {short(g)} (two base-36 digits per card)")
        out = []
        for i in range(0, len(g), 2):
            a, b = _B36.find(g[i].lower()), _B36.find(g[i + 1].lower())
            if a < 0 or b < 0 or a * 36 + b >= len(cards):
                raise parsed.error(f"bad card code {short(g[i:i + 2])}")
            out.append(cards[a * 36 + b].id)
        return out

    g = [dec(x) for x in groups]
    data = {"middle": g[0], "middle_pile": g[1], "own": g[2], "own_pile": g[3],
            "others": [{"own": g[4 + 2 * i], "own_pile": g[5 + 2 * i]} for i in range(players - 1)]}
    parse_deal(data, deck, f"ID {short(parsed.text)}")  # every content rule of a deal file
    return tagged(DEAL_FORMAT, data)
