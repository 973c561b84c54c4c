"""Tanglung card kinds (letters, names) and card sets: the assumed default and user files."""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from ...errors import FormatError
from ...jsonio import read_json_file

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
    def from_json(cls, data: dict, name: str | None = None) -> "CardSet":
        if not isinstance(data, dict) or not isinstance(data.get("cards"), dict):
            raise FormatError('a card set file must be a JSON object with "cards": {LETTER: count}')
        counts = []
        for key, n in data["cards"].items():
            letter = key if key in KINDS else _NAME_TO_LETTER.get(str(key).lower())
            if letter is None:
                raise FormatError(f"card set: unknown card {key!r} (letters {''.join(LETTERS)} or names)")
            if not isinstance(n, int):
                raise FormatError(f"card set: count of {key!r} must be an integer")
            counts.append((letter, n))
        order = {k: i for i, k in enumerate(LETTERS)}
        counts.sort(key=lambda kn: order[kn[0]])
        return cls(str(data.get("name", name or "custom")), tuple(counts), bool(data.get("assumed", False)))


def default_card_set() -> CardSet:
    """The assumed default set (data/tanglung-default.json): 2 C, 3 R, 3 B, 3 F, 3 H, 2 D."""
    text = resources.files(__package__).joinpath("data/tanglung-default.json").read_text("utf-8")
    return CardSet.from_json(json.loads(text))


def load_card_set(spec: str | Path | None) -> CardSet:
    """A card set from a JSON file path, ``tanglung-default``/None, or inline counts ``C2R3B3F3H3D2``."""
    if spec is None or str(spec) in ("", "default", "tanglung-default"):
        return default_card_set()
    s = str(spec)
    p = Path(s)
    if p.suffix == ".json" or p.exists():
        return CardSet.from_json(read_json_file(p, "card set file"), name=p.stem)
    # inline form: letter count pairs
    import re

    parts = re.findall(r"([A-Za-z])(\d+)", s)
    if not parts or "".join(f"{a}{b}" for a, b in parts) != s:
        raise FormatError(f"card set {s!r}: expected a JSON file or inline counts like C2R3B3F3H3D2")
    return CardSet.from_json({"name": s, "cards": {a.upper(): int(b) for a, b in parts}})
