"""Tanglung's part of the shareable IDs: the challenge description (the layout) and its PARAMS.

The grammar and the registry are in ``generators/ids.py``; the generator module builds and
resolves the IDs. Here (games layer, no generator import) only what a challenge ID *says*:

    tanglung:solo[,GRADE][,OPTION=VALUE...][,cards=C2R4B2F4H2D2]:LAYOUT     descriptive
    tanglung:solo[,GRADE][,OPTION=VALUE...][,cards=...]#SEED               seed

Rule options that differ from the defaults and a card set other than ``tanglung-default`` are
always in PARAMS, so the seed form regenerates exactly the challenge printed beside it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ...errors import FormatError, TanglekitError
from ...jsonio import short
from .cards import CardSet, default_card_set, parse_card_counts
from .layout import Layout
from .rules import TanglungOptions

PREFIX = "tanglung"
KIND = "tanglung-challenge"
GRADES = ("easy", "medium", "hard", "expert")


@dataclass(frozen=True)
class ChallengeSpec:
    """What a challenge ID stands for: the layout and everything needed to solve or play it."""

    layout: Layout
    options: TanglungOptions = field(default_factory=TanglungOptions)
    card_set: CardSet = field(default_factory=default_card_set)
    difficulty: str | None = None
    seed: int | None = None
    start: int | None = None  # the generator's start Rooster (seed form); None = the better one


def id_params(difficulty: str | None, options: TanglungOptions, card_set: CardSet | None) -> tuple[list[str], dict]:
    """(bare words, key=value pairs) of a challenge's PARAMS: grade, options off their defaults
    (booleans as 1/0, as earlier IDs wrote them), then the card set when not the default."""
    flags = ["solo"] + ([difficulty] if difficulty else [])
    values: dict = {}
    default = TanglungOptions().to_json()
    for k, v in options.to_json().items():
        if default[k] != v:
            values[k] = int(v) if isinstance(v, bool) else v
    if card_set is not None and not card_set.same_cards(default_card_set()):
        values["cards"] = card_set.inline()
    return flags, values


def decode_params(flags: list[str], values: dict[str, str], where: str) -> tuple[str | None, TanglungOptions, CardSet]:
    """Grade, options and card set from an ID's PARAMS; anything unknown is a FormatError."""
    if not flags or flags[0] != "solo":
        raise FormatError(f"{where}: only solo challenge IDs are defined (tanglung:solo,...)")
    difficulty = None
    for f in flags[1:]:
        if f not in GRADES or difficulty is not None:
            raise FormatError(f"{where}: unknown parameter {short(f)} (a grade: {', '.join(GRADES)})")
        difficulty = f
    opts = {k: v for k, v in values.items() if k != "cards"}
    try:
        options = TanglungOptions.from_dict(opts)
        card_set = parse_card_counts(values["cards"], "card set") if "cards" in values else default_card_set()
    except TanglekitError as e:
        raise FormatError(f"{where}: {e}") from None
    return difficulty, options, card_set


def decode_description(text: str, options: TanglungOptions, card_set: CardSet, where: str) -> Layout:
    """The layout of a descriptive ID, checked against the card set and the options. The ID's
    grammar is strict (four rows of four card letters or ``.`` joined by ``/``; letters in either
    case): no trailing or doubled ``/``, no other separator (the layout argument of a command
    is read more freely by ``Layout.parse``)."""
    if not re.fullmatch(r"[A-Za-z.]{4}(?:/[A-Za-z.]{4}){3}", text):
        raise FormatError(f"{where}: the description must be 4 rows of 4 card letters joined by '/', "
                          "like CRBF/HDFR/BHFB/RHDC")
    try:
        return Layout.parse(text).validate(card_set, options)
    except TanglekitError as e:
        raise FormatError(f"{where}: {e}") from None
