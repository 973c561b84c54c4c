"""Zinga score sheets: a 5x5 grid of distinct (colour, number) cells; JSON load/save, validation, IDs."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from ...errors import FormatError
from ...jsonio import expect_format, is_ascii_digits, read_json_file, register_format, short, tagged, validate
from ...outputs import write_text
from .rules import CENTRE, BLUE9, COLOURS, LINES, N_CELLS, N_NUMBERS, SIZE, code_of, name_of

ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWX"  # 60 symbols, one per code
SHEET_FORMAT = "zinga-sheet"  # the tag of a sheet inside a set (and of a lone-sheet file before tags had a prefix)
SET_FORMAT = "zinga-sheets"  # the tag sheet-set files had before ``tanglekit/zinga-sheets``
MAX_SHEETS = 60  # a set file holds at most this many sheets (the generator makes up to 12)


def _sheet_models():
    """Pydantic schemas of a sheet and of a sheet-set file (shape and bounds; cells are read after)."""
    from typing import Annotated, Any, Literal, Optional, Union

    from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr

    Text = Annotated[StrictStr, Field(max_length=40)]
    Cell = Union[Text, Annotated[list[Union[Text, StrictInt]], Field(min_length=2, max_length=2)],
                 dict[Literal["colour", "number"], Union[Text, StrictInt]]]
    Row = Annotated[list[Cell], Field(min_length=SIZE, max_length=SIZE)]

    class SheetModel(BaseModel):
        model_config = ConfigDict(extra="forbid")
        format: Optional[Literal["zinga-sheet", "tanglekit/zinga-sheet"]] = None
        version: Optional[Annotated[StrictInt, Field(ge=1, le=1)]] = None  # Literal[1] takes true and 1.0
        name: Optional[Union[Text, StrictInt]] = None
        rows: Annotated[list[Row], Field(min_length=SIZE, max_length=SIZE)]

    class SheetSetModel(BaseModel):
        model_config = ConfigDict(extra="forbid")
        sheets: Annotated[list[Union[SheetModel, Annotated[list[Row], Field(min_length=SIZE, max_length=SIZE)]]],
                          Field(min_length=1, max_length=MAX_SHEETS)]
        meta: Optional[dict[Annotated[StrictStr, Field(max_length=40)], Any]] = None

    return SheetModel, SheetSetModel


def _sniff_set(d) -> bool:
    return isinstance(d, dict) and "sheets" in d and isinstance(d["sheets"], list) and set(d) <= {"sheets", "meta"}


SHEETS_FORMAT = register_format("tanglekit/zinga-sheets", 1, "Zinga sheet set", lambda: _sheet_models()[1],
                                _sniff_set)


@dataclass(frozen=True)
class Sheet:
    """One score-sheet layout: ``codes[row * 5 + col]`` = colour * 12 + number - 1."""

    codes: tuple[int, ...]
    name: str = ""

    def __post_init__(self) -> None:
        validate_codes(self.codes, self.name or "sheet")

    # --- views -------------------------------------------------------------------------------
    def cell(self, row: int, col: int) -> tuple[str, int]:
        c = self.codes[row * SIZE + col]
        return COLOURS[c // N_NUMBERS], c % N_NUMBERS + 1

    def index_of(self, code: int) -> int | None:
        """Cell index holding this code, or None when the sheet lacks it."""
        try:
            return self.codes.index(code)
        except ValueError:
            return None

    def rows(self) -> list[list[str]]:
        return [[name_of(self.codes[r * SIZE + c]) for c in range(SIZE)] for r in range(SIZE)]

    def numbers(self) -> list[int]:
        return [c % N_NUMBERS + 1 for c in self.codes]

    def lines(self) -> list[list[int]]:
        """The 12 lines as lists of codes."""
        return [[self.codes[i] for i in line] for line in LINES]

    def text(self) -> str:
        """A fixed-width text picture (colour initial + number)."""
        out = []
        for r in range(SIZE):
            out.append(" ".join(f"{COLOURS[c // 12][0].upper()}{c % 12 + 1:<2}" for c in self.codes[r * 5:r * 5 + 5]))
        return "\n".join(out)

    # --- formats -----------------------------------------------------------------------------
    def to_json(self) -> dict:
        d: dict = {"format": SHEET_FORMAT, "rows": self.rows()}
        if self.name:
            d["name"] = self.name
        return d

    @property
    def compact(self) -> str:
        """25 characters, one per cell (used in shareable IDs)."""
        return "".join(ALPHABET[c] for c in self.codes)

    @classmethod
    def from_compact(cls, text: str, name: str = "") -> "Sheet":
        if len(text) != N_CELLS:
            raise FormatError(f"compact sheet {short(text)} must have 25 characters, has {len(text)}")
        bad = [ch for ch in text if ch not in ALPHABET]
        if bad:
            raise FormatError(f"compact sheet {short(text)} has bad character {bad[0]!r}")
        return cls(tuple(ALPHABET.index(ch) for ch in text), name)

    @classmethod
    def from_json(cls, data, name: str = "") -> "Sheet":
        """A sheet from its JSON form: {"rows": [[cell x5] x5]} or a bare list of 5 rows.

        A cell is "red 7", ["red", 7] or {"colour": "red", "number": 7}.
        """
        where = name or "sheet"
        if isinstance(data, dict):
            if "format" in data and data["format"] not in (SHEET_FORMAT, "tanglekit/zinga-sheet"):
                raise FormatError(f"{where}: format is {short(data['format'])}, expected {SHEET_FORMAT!r}")
            name = str(data.get("name", name))
            where = name or where
            if "rows" not in data:
                raise FormatError(f"{where}: missing 'rows' (5 rows of 5 cells)")
            rows = data["rows"]
        else:
            rows = data
        if not isinstance(rows, list) or len(rows) != SIZE:
            n = len(rows) if isinstance(rows, list) else type(rows).__name__
            raise FormatError(f"{where}: expected 5 rows, got {n}")
        codes = []
        for r, row in enumerate(rows):
            if not isinstance(row, list) or len(row) != SIZE:
                n = len(row) if isinstance(row, list) else type(row).__name__
                raise FormatError(f"{where}: row {r + 1} must have 5 cells, got {n}")
            for c, cell in enumerate(row):
                codes.append(_parse_cell(cell, f"{where}: row {r + 1} column {c + 1}"))
        return cls(tuple(codes), name)


def _parse_cell(cell, where: str) -> int:
    try:
        if isinstance(cell, str):
            parts = cell.replace(",", " ").split()
            if len(parts) != 2:
                raise FormatError(f"{where}: cell {short(cell)} must be 'colour number', e.g. 'red 7'")
            colour, number = parts
        elif isinstance(cell, (list, tuple)) and len(cell) == 2:
            colour, number = cell
        elif isinstance(cell, dict) and {"colour", "number"} <= set(cell):
            colour, number = cell["colour"], cell["number"]
        else:
            raise FormatError(f"{where}: cannot read cell {short(cell)}")
        if not (type(number) is int or is_ascii_digits(number.strip() if isinstance(number, str) else None,
                                                       signed=True)) or len(str(number).strip()) > 6:
            raise FormatError(f"{where}: number {short(number)} is not an integer (1..12)")
        return code_of(colour, int(number))
    except FormatError:
        raise
    except ValueError as e:  # RuleError from code_of: add the position
        raise FormatError(f"{where}: {e}") from None


def validate_codes(codes, where: str = "sheet") -> None:
    """Check 25 distinct codes 0..59 with blue 9 in the centre; FormatError names the problem."""
    if len(codes) != N_CELLS:
        raise FormatError(f"{where}: a sheet has 25 cells, got {len(codes)}")
    seen: dict[int, int] = {}
    for i, c in enumerate(codes):
        if not isinstance(c, int) or not 0 <= c < len(COLOURS) * N_NUMBERS:
            raise FormatError(f"{where}: cell {i} has bad code {c!r}")
        if c in seen:
            j = seen[c]
            raise FormatError(
                f"{where}: {name_of(c)} appears twice (row {j // 5 + 1} column {j % 5 + 1} "
                f"and row {i // 5 + 1} column {i % 5 + 1})"
            )
        seen[c] = i
    if codes[CENTRE] != BLUE9:
        raise FormatError(f"{where}: the centre must be blue 9, not {name_of(codes[CENTRE])}")


# --- sets of sheets and files ------------------------------------------------------------------


def sheets_to_json(sheets: list[Sheet], meta: dict | None = None) -> dict:
    """A sheet-set file (``tanglekit/zinga-sheets``)."""
    d = {"sheets": [s.to_json() for s in sheets]}
    if meta:
        d["meta"] = meta
    return tagged(SHEETS_FORMAT, d)


def sheets_from_json(data, where: str = "sheets") -> list[Sheet]:
    """A list of sheets from a set file, a single-sheet file, or a bare list of sheets; other
    formats and malformed files are refused (one line naming the field or the cell)."""
    if isinstance(data, list):
        data = {"sheets": data}
    if isinstance(data, dict) and data.get("format") in (SET_FORMAT, SHEET_FORMAT, "tanglekit/zinga-sheet"):
        tag = data["format"]
        data = {k: v for k, v in data.items() if k not in ("format", "version")}
        if tag != SET_FORMAT:  # a lone sheet (old tag)
            data = {"sheets": [{"format": SHEET_FORMAT, **data}]}
    if isinstance(data, dict) and "rows" in data and "sheets" not in data and "format" not in data:
        data = {"sheets": [data]}
    expect_format(data, SHEETS_FORMAT, where)
    m = validate(data, SHEETS_FORMAT.schema(), where, "Zinga sheet set")
    out = []
    for i, sm in enumerate(m.sheets):
        rows = sm if isinstance(sm, list) else sm.rows
        name = str(i + 1) if isinstance(sm, list) or sm.name is None else str(sm.name)
        out.append(Sheet.from_json({"rows": rows}, name))
    return out


def sheet_set_id(sheets: list[Sheet]) -> str:
    """Descriptive shareable ID holding the whole set: zinga:sheets<k>:<compact>.<compact>..."""
    return f"zinga:sheets{len(sheets)}:" + ".".join(s.compact for s in sheets)


def sheets_from_description(params: tuple[str, ...], description: str, where: str) -> list[Sheet]:
    """The sheets of a descriptive ID's parts: PARAMS ``sheetsK`` and ``<compact>.<compact>...``."""
    if len(params) != 1 or not params[0].startswith("sheets"):
        raise FormatError(f"{where}: expected zinga:sheetsK:<sheet>.<sheet>...")
    parts = description.split(".")
    k = params[0][6:]
    if k and (not is_ascii_digits(k) or len(k) > 4 or int(k) != len(parts)):
        raise FormatError(f"{where}: announces {k[:4]} sheets but holds {len(parts)}")
    if len(parts) > MAX_SHEETS:
        raise FormatError(f"{where}: more than {MAX_SHEETS} sheets")
    return [Sheet.from_compact(p, str(i + 1)) for i, p in enumerate(parts)]


DEFAULT_SHEETS = Path(__file__).parent / "data" / "zinga-default.json"


def load_sheets(source: str | Path | None = None) -> list[Sheet]:
    """Sheets from a JSON file or (None / 'default') the shipped assumed set. IDs are read by
    ``games.zinga.generate.load_sheet_source`` (a seed ID runs the generator, a higher layer)."""
    if source is None or str(source) == "default":
        source = DEFAULT_SHEETS
    s = str(source)
    if s.startswith("zinga:"):  # the descriptive form is this module's; seed IDs need the generator
        params, sep, desc = s[len("zinga:"):].partition(":")
        if "#" in params or not sep:
            raise FormatError(f"{short(s)}: a Zinga seed ID is read by games.zinga.generate.load_sheet_source")
        return sheets_from_description(tuple(params.split(",")), desc, f"ID {short(s)}")
    path = Path(s)
    data = read_json_file(path, "sheet file")
    return sheets_from_json(data, str(path))


def load_sheet(source: str | Path) -> Sheet:
    """Exactly one sheet (file, ID or set file with one sheet)."""
    sheets = load_sheets(source)
    if len(sheets) != 1:
        raise FormatError(f"{source}: holds {len(sheets)} sheets, expected one (use a set command)")
    return sheets[0]


def save_sheets(sheets: list[Sheet], path: str | Path, meta: dict | None = None) -> None:
    """Write a sheet-set file."""
    write_text(path, json.dumps(sheets_to_json(sheets, meta), indent=1) + "\n", "sheet set")
