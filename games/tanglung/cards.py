"""Tanglung card kinds (letters, names) and card sets: the assumed default and user files."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from ...errors import FormatError
from ...jsonio import check_text_arg, expect_format, read_json_file, register_format, short, tagged, validate

#: letter -> card name, in the order used for counts and data files
KINDS: dict[str, str] = {
    "C": "rooster",
    "R": "rabbit",
    "B": "butterfly",
    "F": "fish",
    "H": "horse",
    "D": "dragon",
}
LETTERS = tuple(KINDS)
ROOSTER = "C"
EMPTY = "."
#: letter -> small integer code used by kernels and compact encodings (EMPTY = 6)
CODE = {k: i for i, k in enumerate(LETTERS)}
CODE[EMPTY] = len(LETTERS)
_NAME_TO_LETTER = {v: k for k, v in KINDS.items()}


@dataclass(frozen=True)
class CardSet:
    """How many cards of each kind the 16-card grid holds (a custom set may change the mix)."""

    name: str
    counts: tuple[tuple[str, int], ...]
    assumed: bool = False

    def __post_init__(self) -> None:
        total = sum(n for _, n in self.counts)
        if total != 16:
            raise FormatError(f"card set {self.name!r} has {total} cards; a Tanglung grid needs 16")
        for k, n in self.counts:
            if k not in KINDS:
                raise FormatError(f"card set {self.name!r}: unknown card letter {k!r}")
            if n < 0:
                raise FormatError(f"card set {self.name!r}: negative count for {k!r}")

    def count(self, letter: str) -> int:
        return dict(self.counts).get(letter, 0)

    def as_dict(self) -> dict[str, int]:
        return {k: n for k, n in self.counts if n}

    def multiset(self) -> list[str]:
        """All 16 card letters, Roosters first then lanterns in KINDS order."""
        return [k for k, n in self.counts for _ in range(n)]

    def to_json(self) -> dict:
        return {"name": self.name, "assumed": self.assumed, "cards": self.as_dict()}

    @classmethod
    def from_json(cls, data: dict, name: str | None = None, where: str = "card set") -> "CardSet":
        """A card set from its JSON form (letters or card names as keys, whole counts)."""
        if not isinstance(data, dict) or not isinstance(data.get("cards"), dict):
            raise FormatError(f'{where}: a card set is a JSON object with "cards": {{LETTER: count}}')
        counts: dict[str, int] = {}
        for key, n in data["cards"].items():
            letter = key.upper() if isinstance(key, str) and key.upper() in KINDS else _NAME_TO_LETTER.get(str(key).lower())
            if letter is None:
                raise FormatError(f"{where}: unknown card {short(key)} (letters {''.join(LETTERS)} or names)")
            if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= 16:
                raise FormatError(f"{where}: count of {short(key)} must be a whole number 0..16")
            if letter in counts:
                raise FormatError(f"{where}: card {letter} given twice")
            counts[letter] = n
        order = {k: i for i, k in enumerate(LETTERS)}
        items = tuple(sorted(counts.items(), key=lambda kn: order[kn[0]]))
        label = data.get("name", name or "custom")
        return cls(str(label)[:60], items, bool(data.get("assumed", False)))

    def inline(self) -> str:
        """The inline form ``C2R3B3F3H3D2`` (kinds with a count, in KINDS order)."""
        return "".join(f"{k}{n}" for k, n in self.counts if n)

    def same_cards(self, other: "CardSet | None") -> bool:
        """Whether two sets hold the same cards (names aside)."""
        return other is not None and self.as_dict() == other.as_dict()


def _card_file_model():
    from typing import Optional

    from pydantic import BaseModel, ConfigDict, Field

    class CardSetFile(BaseModel):
        model_config = ConfigDict(extra="forbid", strict=True)
        name: Optional[str] = Field(default=None, max_length=60)
        assumed: bool = False
        note: Optional[str] = Field(default=None, max_length=500)
        cards: dict[str, int] = Field(max_length=12)

    return CardSetFile


CARDS_FORMAT = register_format(
    "tanglekit/tanglung-cards", 1, "Tanglung card set", _card_file_model,
    sniff=lambda d: isinstance(d, dict) and isinstance(d.get("cards"), dict) and set(d) <= {"name", "assumed", "note", "cards"},
)


def card_set_file(card_set: "CardSet") -> dict:
    """The JSON document of a card set file (tagged)."""
    return tagged(CARDS_FORMAT, card_set.to_json())


def card_set_from_document(data, where: str, name: str | None = None) -> CardSet:
    """A card set from a parsed card set file: format tag, schema, then content rules."""
    expect_format(data, CARDS_FORMAT, where)
    validate(data, CARDS_FORMAT.schema(), where, "card set")
    return CardSet.from_json({k: v for k, v in data.items() if k not in ("format", "version")}, name, where)


_INLINE_RE = re.compile(r"(?:[A-Za-z][0-9]{1,2})+\Z")


def parse_card_counts(text: str, where: str = "card set") -> CardSet:
    """The inline form ``C2R3B3F3H3D2`` (never a file: IDs carry card sets this way)."""
    s = text.strip()
    if not _INLINE_RE.match(s):
        raise FormatError(f"{where} {short(s)}: expected counts like C2R3B3F3H3D2")
    counts: dict[str, int] = {}
    for a, b in re.findall(r"([A-Za-z])([0-9]{1,2})", s):
        if a.upper() in counts:
            raise FormatError(f"{where} {short(s)}: card {a.upper()} given twice")
        counts[a.upper()] = int(b)
    return CardSet.from_json({"name": s.upper(), "cards": counts}, where=where)


_DEFAULT: list = []


def default_card_set() -> CardSet:
    """The assumed default set (data/tanglung-default.json): 2 C, 3 R, 3 B, 3 F, 3 H, 2 D.
    Read once per process (a CardSet is immutable)."""
    if not _DEFAULT:
        text = resources.files(__package__).joinpath("data/tanglung-default.json").read_text("utf-8")
        _DEFAULT.append(CardSet.from_json(json.loads(text)))
    return _DEFAULT[0]


def load_card_set(spec: str | Path | None) -> CardSet:
    """A card set from a JSON file path, ``tanglung-default``/None, or inline counts ``C2R3B3F3H3D2``."""
    if spec is None or str(spec) in ("", "default", "tanglung-default"):
        return default_card_set()
    s = check_text_arg(str(spec), "--cards")
    p = Path(s)
    if _INLINE_RE.match(s.strip()) and not p.exists():
        return parse_card_counts(s)
    if p.suffix == ".json" or p.exists():
        return card_set_from_document(read_json_file(p, "card set file"), str(p)[-120:], name=p.stem)
    raise FormatError(f"card set {short(s)}: expected a JSON file or inline counts like C2R3B3F3H3D2")
