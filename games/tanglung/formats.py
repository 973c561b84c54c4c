"""Tanglung file formats, each declared once: solo challenge, match state, census checkpoint.

Shapes are pydantic v2 models (strict types, bounded numbers, cells on the 4x4 grid); rules
beyond shape (letters and counts against the card set, the start on a Rooster, a checkpoint
consistent with its setup and its checksum) are checked by the readers that use them.
"""

from __future__ import annotations

import re

from ...errors import FormatError, TanglekitError
from ...jsonio import expect_format, register_format, validate
from .cards import CardSet, default_card_set
from .ids import ChallengeSpec
from .layout import Layout, idx
from .rules import TanglungOptions

_LAYOUT_PATTERN = r"^[A-Za-z.]{4}([/ ]?[A-Za-z.]{4}){3}$"


def _has_layout(d) -> bool:
    """An untagged document that carries a 4x4 Tanglung layout (what the sniffers look for)."""
    return isinstance(d, dict) and isinstance(d.get("layout"), str) and re.match(_LAYOUT_PATTERN, d["layout"]) is not None


def _challenge_model():
    from typing import List, Literal, Optional, Union

    from pydantic import BaseModel, ConfigDict, Field, conint, conlist

    Coord = conint(ge=0, le=3)
    Cell = conlist(Coord, min_length=2, max_length=2)

    class ChallengeFile(BaseModel):
        """A generated solo challenge (``tanglung solo generate --json``/``--out``), or just a layout."""

        model_config = ConfigDict(extra="forbid", strict=True)
        id: Optional[str] = Field(default=None, max_length=200)
        seed_id: Optional[str] = Field(default=None, max_length=200)
        layout: str = Field(pattern=_LAYOUT_PATTERN)
        start: Optional[Cell] = None
        difficulty: Optional[Literal["easy", "medium", "hard", "expert"]] = None
        moves: Optional[conint(ge=0, le=200)] = None
        optimal_tours: Optional[conint(ge=0, le=10**15)] = None
        no_revisit_tour: Optional[bool] = None
        walker_success: Optional[float] = Field(default=None, ge=0, le=1)
        path: Optional[List[Cell]] = Field(default=None, max_length=201)
        line: Optional[List[str]] = Field(default=None, max_length=201)
        solvable: Optional[bool] = None
        complete: Optional[bool] = None
        seed: Optional[conint(ge=0, le=2**63 - 1)] = None
        options: Optional[dict[str, Union[bool, conint(ge=0, le=10**6), str]]] = Field(default=None, max_length=12)
        cards: Optional[dict[str, Union[str, bool, dict[str, conint(ge=0, le=16)]]]] = Field(default=None, max_length=4)

    return ChallengeFile


CHALLENGE_FORMAT = register_format(
    "tanglekit/tanglung-challenge", 1, "Tanglung solo challenge", _challenge_model,
    sniff=lambda d: _has_layout(d) and "lit" not in d and "game" not in d,
)


def _state_model():
    from typing import Literal, Optional, Union

    from pydantic import BaseModel, ConfigDict, Field, conint, conlist

    Coord = conint(ge=0, le=3)
    Cell = Optional[Union[conint(ge=0, le=15), conlist(Coord, min_length=2, max_length=2)]]
    Phase = Literal["setup", "reenter", "play"]

    class MatchState(BaseModel):
        """One two-player match position (``Match.to_json``), all cards revealed."""

        model_config = ConfigDict(extra="forbid", strict=True)
        layout: str = Field(pattern=_LAYOUT_PATTERN)
        lit: Optional[str] = Field(default=None, pattern=r"^[01]{4}(/?[01]{4}){3}$")
        boxes: conlist(Cell, min_length=2, max_length=2) = [None, None]
        bumps: conlist(conint(ge=0, le=2), min_length=2, max_length=2) = [0, 0]
        rooster_used: conlist(bool, min_length=2, max_length=2) = [False, False]
        fan: Cell = None
        to_move: conint(ge=0, le=1) = 0  # not Literal[0, 1], which takes true and 1.0 (== 1)
        phase: Optional[conlist(Phase, min_length=2, max_length=2)] = None
        winner: Optional[conint(ge=0, le=1)] = None
        reason: Optional[str] = Field(default=None, max_length=200)
        turns: conint(ge=0, le=100_000) = 0
        removed: str = Field(default="", max_length=16, pattern=r"^[CRBFHD]*$")
        options: Optional[dict[str, Union[bool, conint(ge=0, le=10**6), str]]] = Field(default=None, max_length=12)

    return MatchState


STATE_FORMAT = register_format(
    "tanglekit/tanglung-state", 1, "Tanglung match state", _state_model,
    sniff=lambda d: _has_layout(d) and "lit" in d,
)


def _census_model():
    from typing import List, Optional, Union

    from pydantic import BaseModel, ConfigDict, Field, conint

    Count = conint(ge=0, le=10**18)

    class Summary(BaseModel):
        model_config = ConfigDict(extra="forbid", strict=True)
        layouts: Count = 0
        no_revisit: Count = 0
        unsolvable: Count = 0
        tours_total: Count = 0
        max_tours: List[Union[Count, str, None]] = Field(default=[0, None], min_length=2, max_length=2)
        min_tours: List[Union[Count, str, None]] = Field(default=[None, None], min_length=2, max_length=2)
        moves: dict[str, Count] = Field(default_factory=dict, max_length=200)
        tour_bins: dict[str, Count] = Field(default_factory=dict, max_length=80)

    class Setup(BaseModel):
        model_config = ConfigDict(extra="forbid", strict=True)
        sample: Optional[conint(ge=1, le=10**9)] = None
        seed: Optional[conint(ge=0, le=2**63 - 1)] = None
        chunk: conint(ge=1, le=10**9)
        options: dict
        cards: dict

    class CensusCheckpoint(BaseModel):
        """A census checkpoint: the setup it was written for, the finished chunks, the summary."""

        model_config = ConfigDict(extra="forbid", strict=True)
        setup: Setup
        done: List[str] = Field(max_length=10**6)
        summary: Summary
        checksum: str = Field(pattern=r"^[0-9a-f]{64}$")

    return CensusCheckpoint


CENSUS_FORMAT = register_format(
    "tanglekit/tanglung-census", 1, "Tanglung census checkpoint", _census_model,
    sniff=lambda d: isinstance(d, dict) and "setup" in d and "done" in d and "summary" in d,
)


def challenge_from_document(data, where: str):
    """A ChallengeSpec from a parsed challenge file: a tagged or untagged object, or a list
    holding one (what ``solo generate --json`` printed before); content checked against the
    card set and options it names."""
    if isinstance(data, list):
        if len(data) != 1:
            raise FormatError(f"{where}: holds {len(data)} challenges; give a file with one "
                              "(solo generate --count N --out FOLDER writes one file each)")
        data = data[0]
    expect_format(data, CHALLENGE_FORMAT, where)
    doc = validate(data, CHALLENGE_FORMAT.schema(), where, CHALLENGE_FORMAT.title)
    try:
        options = TanglungOptions.from_dict(doc.options)
        card_set = CardSet.from_json(doc.cards, where=f"{where}: cards") if doc.cards else default_card_set()
        layout = Layout.parse(doc.layout).validate(card_set, options)
    except FormatError:
        raise
    except TanglekitError as e:
        raise FormatError(f"{where}: {e}") from None
    if doc.id is not None and doc.id.lower().startswith("tanglung:") and "#" not in doc.id.split(":")[1]:
        try:
            same = Layout.parse(doc.id) == layout
        except TanglekitError:
            same = False
        if not same:
            raise FormatError(f"{where}: its 'id' does not describe its layout")
    start = None
    if doc.start is not None:
        start = idx(*doc.start)
        if layout[start] != "C":
            raise FormatError(f"{where}: start {doc.start} is not on a Rooster")
    return ChallengeSpec(layout, options, card_set, doc.difficulty, doc.seed, start)
