"""Zangle solo deals: the ``SoloDeal`` type, its file format (``tanglekit/zangle-solo``) and its
descriptive ID encoding. The seed form of the ID needs the generator and is resolved in
``games/zangle/generate.py``; the grammar of both forms is ``generators/ids.py``'s.

A solo deal is the whole card order: the face-up middle cards, the draw pile (next card first)
and the tableau piles (bottom to top). Its file holds card ids of a deck (the default deck, or
one carried in ``deck_data``); a generated challenge file holds the deal under ``deal`` beside
its ID pair, grade and solution, and is read back as its deal.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from functools import lru_cache
from pathlib import Path
from typing import Any

from ...errors import FormatError, RuleError
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
from .cards import DECK_FORMAT, deck_from_json, default_deck, load_document
from .rules import ZangleOptions
from .solo import SoloGame, solo_layout

DIFFICULTIES = ("easy", "medium", "hard", "expert")
ID_GAME = "zangle"
MAX_PILES = 8
MAX_MIDDLE = 3
MAX_SEQUENCE = 20  # middle + draw cards
MAX_PILE = 64
_B36 = "0123456789abcdefghijklmnopqrstuvwxyz"

@lru_cache(maxsize=1)
def _solo_model():
    """The pydantic schema of a solo deal file (built on first use: pydantic loads only then)."""
    from typing import Optional

    from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr

    class _DealBody(BaseModel):
        """The deal itself: card ids (bottom card of each pile first)."""

        model_config = ConfigDict(extra="forbid", strict=True)
        format: Optional[StrictStr] = None
        version: Optional[StrictInt] = Field(None, ge=1)
        deck: Optional[StrictStr] = Field(None, max_length=200)
        options: Optional[dict[StrictStr, Any]] = Field(None, max_length=20)
        middle: list[StrictStr] = Field(max_length=MAX_MIDDLE)
        draw: list[StrictStr] = Field(max_length=MAX_SEQUENCE)
        piles: list[list[StrictStr]] = Field(min_length=1, max_length=MAX_PILES)
        deck_data: Optional[dict[StrictStr, Any]] = None

    class _SoloFile(BaseModel):
        """A solo deal file: the deal's fields at the top, or a generated challenge holding it."""

        model_config = ConfigDict(extra="forbid", strict=True)
        deck: Optional[StrictStr] = Field(None, max_length=200)
        options: Optional[dict[StrictStr, Any]] = Field(None, max_length=20)
        middle: Optional[list[StrictStr]] = Field(None, max_length=MAX_MIDDLE)
        draw: Optional[list[StrictStr]] = Field(None, max_length=MAX_SEQUENCE)
        piles: Optional[list[list[StrictStr]]] = Field(None, min_length=1, max_length=MAX_PILES)
        deck_data: Optional[dict[StrictStr, Any]] = None
        # a generated challenge
        deal: Optional[_DealBody] = None
        id: Optional[StrictStr] = None
        seed_id: Optional[StrictStr] = None
        grade: Optional[StrictStr] = None
        difficulty: Optional[StrictStr] = None
        measures: Optional[dict[StrictStr, Any]] = None
        solution: Optional[list[Any]] = None
        line: Optional[list[Any]] = None
        moves: Optional[StrictInt] = None
        game: Optional[StrictStr] = None
        complete: Optional[StrictBool] = None

    return _SoloFile


_SOLO_KEYS = frozenset(("deck", "options", "middle", "draw", "piles", "deck_data", "deal", "id", "seed_id", "grade",
                        "difficulty", "measures", "solution", "line", "moves", "game", "complete"))
_BODY_KEYS = frozenset(("format", "version", "deck", "options", "middle", "draw", "piles", "deck_data"))


def _ids(v, most: int | None = None) -> bool:
    return type(v) is list and (most is None or len(v) <= most) and all(plain_text(x) for x in v)


def _quick_fields(d, required: bool) -> bool:
    """The deal fields of a solo file or of its ``deal`` (required there)."""
    g = d.get
    opts, dd, piles = g("options"), g("deck_data"), g("piles")
    return ((g("deck") is None or plain_text(g("deck"), 200))
            and (opts is None or (type(opts) is dict and len(opts) <= 20 and all(plain_text(k) for k in opts)))
            and (dd is None or (type(dd) is dict and all(plain_text(k) for k in dd)))
            and (g("middle") is None and not required or _ids(g("middle"), MAX_MIDDLE))
            and (g("draw") is None and not required or _ids(g("draw"), MAX_SEQUENCE))
            and (piles is None and not required
                 or type(piles) is list and 1 <= len(piles) <= MAX_PILES and all(_ids(p) for p in piles)))


def _quick_solo(d) -> bool:
    """True only for solo deal bodies the schema accepts as they are (``jsonio.validate``'s quick check)."""
    if not plain_keys(d, _SOLO_KEYS) or not _quick_fields(d, False):
        return False
    g = d.get
    for k in ("id", "seed_id", "grade", "difficulty", "game"):
        if g(k) is not None and not plain_text(g(k)):
            return False
    m = g("measures")
    if not ((m is None or type(m) is dict and all(plain_text(k) for k in m))
            and all(g(k) is None or type(g(k)) is list for k in ("solution", "line"))
            and (g("moves") is None or plain_int(g("moves"))) and g("complete") in (None, True, False)
            and (g("complete") is None or type(g("complete")) is bool)):
        return False
    inner = g("deal")
    if inner is None:
        return True
    return (plain_keys(inner, _BODY_KEYS) and (inner.get("format") is None or plain_text(inner["format"]))
            and (inner.get("version") is None or plain_int(inner["version"], 1)) and _quick_fields(inner, True))


def _sniff(d) -> bool:
    body = d.get("deal") if isinstance(d.get("deal"), dict) else d
    return "draw" in body and "piles" in body


SOLO_FORMAT = register_format("tanglekit/zangle-solo", 1, "Zangle solo deal", _solo_model, _sniff)


@dataclass(frozen=True)
class SoloDeal:
    """A solo deal with every card known. ``draw[0]`` is the next card drawn; piles bottom..top."""

    middle: tuple[str, ...]
    draw: tuple[str, ...]
    piles: tuple[tuple[str, ...], ...]
    options: object = None  # ZangleOptions (None = defaults with piles = len(piles))
    deck: object = None  # Deck (None = default deck)
    extra: dict = field(default_factory=dict, compare=False)

    def __post_init__(self):
        if self.deck is None:
            object.__setattr__(self, "deck", default_deck())
        if not 1 <= len(self.piles) <= MAX_PILES:
            raise FormatError(f"solo deal: 1 to {MAX_PILES} piles, got {len(self.piles)}")
        opts = self.options or ZangleOptions()
        if opts.piles != len(self.piles):
            opts = opts.with_(piles=len(self.piles))
        object.__setattr__(self, "options", opts)
        ids = list(self.middle) + list(self.draw) + [c for p in self.piles for c in p]
        bad = [c for c in ids if c not in self.deck.by_id]
        if bad:
            raise FormatError(f"solo deal: unknown card {short(bad[0])} in deck {short(self.deck.name)}")
        if len(set(ids)) != len(ids):
            raise FormatError("solo deal: a card is used twice")
        if len(self.middle) > MAX_MIDDLE:
            raise FormatError(f"solo deal: at most {MAX_MIDDLE} middle cards, got {len(self.middle)}")
        if len(self.middle) + len(self.draw) > MAX_SEQUENCE:
            raise FormatError(f"solo deal: at most {MAX_SEQUENCE} middle and draw cards")
        if len(ids) > 62:
            raise FormatError(f"solo deal: at most 62 cards, got {len(ids)}")

    @property
    def sequence(self) -> tuple[str, ...]:
        """The draw sequence: middle cards, then the draw pile."""
        return tuple(self.middle) + tuple(self.draw)

    def check_start(self, where: str = "solo deal") -> "SoloDeal":
        """The deal itself if it can start a game: a deal file or ID has no empty pile (docs/rules.md);
        positions inside a game (``from_game``) may have one."""
        empty = [i for i, p in enumerate(self.piles) if not p]
        if empty:
            raise FormatError(f"{where}: pile {empty[0]} is empty (a solo deal starts with no empty pile)")
        return self

    def game(self):
        """A ``SoloGame`` at the start of this deal."""
        return SoloGame(layout=solo_layout(self.middle, self.draw, self.piles), options=self.options,
                        deck=self.deck)

    @classmethod
    def from_game(cls, state) -> "SoloDeal":
        """The deal of a ``SoloGame`` position (its current cards, as a new start)."""
        if state.phase != "play":
            raise RuleError("a solo deal starts in the play phase (finish the fills first)")
        return cls(tuple(c.id for c in state.middle), tuple(c.id for c in state.draw),
                   tuple(tuple(c.id for c in p) for p in state.piles), state.options, state.deck)

    @classmethod
    def from_seed(cls, seed: int, options=None, deck=None) -> "SoloDeal":
        """The deal that ``SoloGame(seed=...)`` shuffles."""
        return cls.from_game(SoloGame(seed=seed, options=options, deck=deck))

    def to_json(self) -> dict:
        opts = self.options.to_json()
        opts.pop("max_turns", None)
        data = {"deck": self.deck.name, "options": opts,
                "middle": list(self.middle), "draw": list(self.draw), "piles": [list(p) for p in self.piles]}
        if self.deck is not default_deck():
            data["deck_data"] = self.deck.to_json()
        return tagged(SOLO_FORMAT, data)

    # -- shareable ids ---------------------------------------------------------------------
    def params(self, grade: str | None = None) -> str:
        """``zangle:solo,piles=N[,fill=may][,discard=voluntary][,z=minimal][,deck=NAME][,GRADE]``:
        every option that changes the deal or its solution."""
        return f"{ID_GAME}:{id_params(self.options, grade, self.deck)}"

    def describe(self) -> str:
        """The description part of the descriptive ID: deck positions, base 36, 2 digits each;
        groups middle, draw, then each pile bottom..top, separated by '.'."""
        pos = _deck_positions(self.deck)
        if len(pos) > 36 * 36:
            raise FormatError(f"deck {short(self.deck.name)} has more than {36 * 36} cards: no descriptive ID")

        def enc(ids):
            return "".join(_B36[pos[c] // 36] + _B36[pos[c] % 36] for c in ids)

        return ".".join([enc(self.middle), enc(self.draw)] + [enc(p) for p in self.piles])

    def share_id(self, grade: str | None = None) -> str:
        return f"{self.params(grade)}:{self.describe()}"


_POSITIONS: dict[int, tuple] = {}


def _deck_positions(deck) -> dict:
    """Card id -> position in the deck (made once per deck; the deck is kept, so its id is not reused)."""
    hit = _POSITIONS.get(id(deck))
    if hit is None or hit[0] is not deck:
        if len(_POSITIONS) > 64:
            _POSITIONS.clear()
        hit = _POSITIONS[id(deck)] = (deck, {c.id: i for i, c in enumerate(deck.cards)})
    return hit[1]


def id_params(options, grade: str | None = None, deck=None) -> str:
    """The PARAMS of a solo ID (see ``SoloDeal.params``), without the game prefix."""
    o = options
    parts = ["solo", f"piles={o.piles}"]
    if o.fill_empty_pile != "must":
        parts.append(f"fill={o.fill_empty_pile}")
    if o.voluntary_discard:
        parts.append("discard=voluntary")
    if o.z_cards != "all":
        parts.append(f"z={o.z_cards}")
    if deck is not None and deck is not default_deck():
        parts.append(f"deck={deck.name}")
    if grade:
        parts.append(grade)
    return ",".join(parts)


def parse_id_params(parsed) -> tuple[ZangleOptions, str | None, str | None]:
    """(options, grade word or None, deck name or None) of a parsed solo ID (``generators.ids``)."""
    flags = parsed.flags()
    if not flags or flags[0] != "solo":
        raise parsed.error("a Zangle ID starts 'zangle:solo,...' (the only Zangle ID kind)")
    grades = [f for f in flags[1:] if f in DIFFICULTIES + ("any",)]
    bad = [f for f in flags[1:] if f not in DIFFICULTIES + ("any",)]
    if bad:
        raise parsed.error(f"unknown word {short(bad[0])} (grades: {', '.join(DIFFICULTIES)}, any)")
    if len(grades) > 1:
        raise parsed.error("more than one grade")
    opts: dict = {}
    deck_name = None
    for k, v in parsed.values().items():
        if k == "piles":
            if not is_ascii_digits(v) or len(v) > 3 or not 1 <= int(v) <= MAX_PILES:
                raise parsed.error(f"piles={short(v)} is not a pile count 1..{MAX_PILES}")
            opts["piles"] = int(v)
        elif k == "fill":
            if v not in ("must", "may"):
                raise parsed.error(f"fill={short(v)}: expected must or may")
            opts["fill_empty_pile"] = v
        elif k == "discard":
            if v not in ("voluntary", "forced"):
                raise parsed.error(f"discard={short(v)}: expected voluntary")
            opts["voluntary_discard"] = v == "voluntary"
        elif k == "z":
            if v not in ("all", "minimal"):
                raise parsed.error(f"z={short(v)}: expected all or minimal")
            opts["z_cards"] = v
        elif k == "deck":
            deck_name = v
        else:
            raise parsed.error(f"unknown parameter {short(k)}")
    return ZangleOptions(**opts), (grades[0] if grades else None), deck_name


def check_id_deck(parsed, deck_name: str | None, deck):
    """The deck to read an ID with: the default one, or the custom deck it names (given)."""
    deck = deck or default_deck()
    want = deck_name or default_deck().name
    if deck.name != want:
        if deck_name is None:
            raise parsed.error(f"this ID is for the default deck, not deck {short(deck.name)}")
        raise parsed.error(f"this ID needs deck {short(deck_name)} (pass it with --deck FILE)")
    return deck


def deal_from_description(parsed, deck=None) -> SoloDeal:
    """The deal a descriptive solo ID holds (``parsed`` from ``generators.ids.split_id``)."""
    options, _, deck_name = parse_id_params(parsed)
    deck = check_id_deck(parsed, deck_name, deck)
    groups = parsed.description.split(".")
    if len(groups) < 3:
        raise parsed.error("the description needs middle, draw and piles (groups separated by '.')")
    if len(groups) - 2 != options.piles and "piles" in parsed.values():
        raise parsed.error(f"piles={options.piles} but the description has {len(groups) - 2} piles")
    cards = deck.cards

    def dec(g: str) -> tuple[str, ...]:
        if len(g) % 2:
            raise parsed.error(f"bad card group {short(g)} (two base-36 digits per card)")
        out = []
        for i in range(0, len(g), 2):
            a, b = _B36.find(g[i].lower()), _B36.find(g[i + 1].lower())
            k = a * 36 + b
            if a < 0 or b < 0 or k >= len(cards):
                raise parsed.error(f"bad card code {short(g[i:i + 2])}")
            out.append(cards[k].id)
        return tuple(out)

    piles = tuple(dec(g) for g in groups[2:])
    return SoloDeal(dec(groups[0]), dec(groups[1]), piles, options.with_(piles=len(piles)), deck).check_start(
        f"ID {short(parsed.text)}")


@dataclass(frozen=True)
class _Descriptive:
    """A descriptive solo ID split without the registry (for the solver's legacy entry point;
    ``generators.ids.split_id`` is the grammar every command uses)."""

    text: str
    params: tuple[str, ...]
    description: str
    is_seed: bool = False

    def flags(self) -> list[str]:
        return [p for p in self.params if "=" not in p]

    def values(self) -> dict[str, str]:
        out: dict[str, str] = {}
        for p in self.params:
            if "=" in p:
                k, _, v = p.partition("=")
                if k in out:
                    raise self.error(f"parameter {short(k)} given twice")
                out[k] = v
        return out

    def error(self, why: str) -> FormatError:
        return FormatError(f"ID {short(self.text)}: {why}")


def deal_from_share_id(text: str, deck=None) -> SoloDeal:
    """The deal of a descriptive ID ``zangle:solo,PARAMS:DESCRIPTION``; a seed ID needs the
    generator (``games.zangle.generate.deal_from_id`` reads both forms)."""
    s = str(text).strip()
    game, _, rest = s.partition(":")
    colon, hash_ = rest.find(":"), rest.find("#")
    if game.lower() != ID_GAME or len(s) > 10_000:
        raise FormatError(f"not a Zangle solo ID: {short(s)}")
    if hash_ >= 0 and (colon < 0 or hash_ < colon):
        raise FormatError(f"ID {short(s)}: a seed ID is regenerated by tanglekit.games.zangle.generate.deal_from_id")
    if colon < 0 or not rest[colon + 1:]:
        raise FormatError(f"ID {short(s)}: expected zangle:solo,PARAMS:DESCRIPTION")
    parts = tuple(p for p in rest[:colon].split(",") if p)
    return deal_from_description(_Descriptive(s, parts, rest[colon + 1:]), deck)


def parse_solo_deal(data, deck=None, source: str = "solo deal") -> SoloDeal:
    """A ``SoloDeal`` from its JSON form (a solo deal, or a challenge holding one under ``deal``):
    format tag, schema and content (cards of the deck, each once, no empty pile) checked."""
    expect_format(data, SOLO_FORMAT, source)
    validate(data, _solo_model, source, "solo deal", quick=_quick_solo)
    # the schema accepted the document as it is (strict: no value was converted), so it is read
    # from the data itself
    body = data
    if body.get("deal") is not None:
        if body.get("middle") is not None or body.get("piles") is not None:
            raise FormatError(f"{source}: a challenge holds its deal under 'deal' only")
        inner = data["deal"]
        if "format" in inner:
            expect_format(inner, SOLO_FORMAT, f"{source} at deal")
        body = inner
    elif body.get("middle") is None or body.get("draw") is None or body.get("piles") is None:
        missing = [k for k in ("middle", "draw", "piles") if body.get(k) is None]
        raise FormatError(f"{source} at {missing[0]}: missing (required)")
    if deck is None and body.get("deck_data") is not None:
        deck = deck_from_json(body["deck_data"], f"{source} at deck_data")
    deck = deck or default_deck()
    if body.get("deck") is not None and body["deck"] != deck.name:
        raise FormatError(f"{source}: the deal is for deck {short(body['deck'])}, not {short(deck.name)} "
                          "(pass that deck with --deck FILE)")
    opts = dict(body.get("options") or {})
    for f in fields(ZangleOptions):  # piles and max_turns are replaced below, but typed all the same
        if type(f.default) is int and f.name in opts and not plain_int(opts[f.name]):
            raise FormatError(f"{source} at options.{f.name}: expected a whole number, not {short(opts[f.name])}")
    opts.pop("max_turns", None)
    opts["piles"] = len(body["piles"])
    try:
        options = ZangleOptions.from_json(opts)
    except RuleError as e:
        raise FormatError(f"{source} at options: {e}") from None
    try:
        deal = SoloDeal(tuple(body["middle"]), tuple(body["draw"]), tuple(tuple(p) for p in body["piles"]), options,
                        deck)
    except FormatError as e:
        raise FormatError(f"{source}: {str(e).removeprefix('solo deal: ')}") from None
    return deal.check_start(source)


def load_solo_deal_file(source: str | Path, deck=None) -> SoloDeal:
    """A solo deal from a JSON file (or inline JSON text)."""
    data, where = load_document(source, SOLO_FORMAT)
    return parse_solo_deal(data, deck, where)


def describe_line(deal: SoloDeal, line) -> list[str]:
    """A winning line in words, with card ids and piles numbered from 0 as on the printable sheet
    and in the move notation (``fill pile 1 from pile 0``)."""
    g = deal.game()
    out = []
    for k, a in enumerate(line, 1):
        where = {c.id: "middle" for c in g.middle}
        where.update({p[-1].id: f"pile {i}" for i, p in enumerate(g.piles) if p})
        d = a.to_json()
        if d["kind"] == "zangle":
            pieces = " + ".join(f"{c} ({where.get(c, '?')})" for c in d["pieces"])
            z = "".join(f", with {c} ({where.get(c, '?')})" for c in d["z"])
            out.append(f"{k}. Zangle: {d['target']} ({where.get(d['target'], '?')}) = {pieces}{z}")
        elif d["kind"] == "fill":
            top = g.piles[d["src"]][-1].id
            out.append(f"{k}. Move {top} from pile {d['src']} to the empty pile {d['dst']}")
        elif d["kind"] == "skip":
            out.append(f"{k}. Leave the empty pile empty")
        else:
            out.append(f"{k}. Discard the middle and draw up to 3 new cards")
        g.apply(a)
    return out


__all__ = ["DIFFICULTIES", "SOLO_FORMAT", "SoloDeal", "check_id_deck", "deal_from_description", "deal_from_share_id",
           "describe_line",
           "id_params", "load_solo_deal_file", "parse_id_params", "parse_solo_deal", "DECK_FORMAT"]
