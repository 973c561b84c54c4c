"""Zinga score sheets: a 5x5 grid of distinct (colour, number) cells; JSON load/save, validation, IDs."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from ...errors import FormatError
from ...jsonio import read_json_file
from .rules import CENTRE, BLUE9, COLOURS, LINES, N_CELLS, N_NUMBERS, SIZE, code_of, name_of

ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWX"  # 60 symbols, one per code
SHEET_FORMAT = "zinga-sheet"
SET_FORMAT = "zinga-sheets"


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
        d = {"format": SHEET_FORMAT, "rows": self.rows()}
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
            raise FormatError(f"compact sheet {text!r} must have 25 characters, has {len(text)}")
        bad = [ch for ch in text if ch not in ALPHABET]
        if bad:
            raise FormatError(f"compact sheet {text!r} has bad character {bad[0]!r}")
        return cls(tuple(ALPHABET.index(ch) for ch in text), name)

    @classmethod
    def from_json(cls, data, name: str = "") -> "Sheet":
        """A sheet from its JSON form: {"rows": [[cell x5] x5]} or a bare list of 5 rows.

        A cell is "red 7", ["red", 7] or {"colour": "red", "number": 7}.
        """
        where = name or "sheet"
        if isinstance(data, dict):
            if "format" in data and data["format"] != SHEET_FORMAT:
                raise FormatError(f"{where}: format is {data['format']!r}, expected {SHEET_FORMAT!r}")
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
                raise FormatError(f"{where}: cell {cell!r} must be 'colour number', e.g. 'red 7'")
            colour, number = parts
        elif isinstance(cell, (list, tuple)) and len(cell) == 2:
            colour, number = cell
        elif isinstance(cell, dict) and {"colour", "number"} <= set(cell):
            colour, number = cell["colour"], cell["number"]
        else:
            raise FormatError(f"{where}: cannot read cell {cell!r}")
        if isinstance(number, bool) or not str(number).strip().lstrip("-").isdigit():
            raise FormatError(f"{where}: number {number!r} is not an integer")
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
    d = {"format": SET_FORMAT, "sheets": [s.to_json() for s in sheets]}
    if meta:
        d["meta"] = meta
    return d


def sheets_from_json(data, where: str = "sheets") -> list[Sheet]:
    """A list of sheets from a set file, a single-sheet file, or a bare list of sheets."""
    if isinstance(data, dict) and data.get("format", SET_FORMAT) == SET_FORMAT and "sheets" in data:
        items = data["sheets"]
    elif isinstance(data, dict) and "rows" in data:
        return [Sheet.from_json(data, data.get("name", where))]
    elif isinstance(data, list) and data and isinstance(data[0], dict):
        items = data
    else:
        raise FormatError(f"{where}: expected a {SET_FORMAT!r} file with 'sheets' or a sheet with 'rows'")
    if not isinstance(items, list) or not items:
        raise FormatError(f"{where}: 'sheets' must be a non-empty list")
    return [Sheet.from_json(s, str(s.get("name", i + 1)) if isinstance(s, dict) else str(i + 1))
            for i, s in enumerate(items)]


def sheet_set_id(sheets: list[Sheet]) -> str:
    """Descriptive shareable ID holding the whole set: zinga:sheets<k>:<compact>.<compact>..."""
    return f"zinga:sheets{len(sheets)}:" + ".".join(s.compact for s in sheets)


def parse_sheet_set_id(text: str) -> list[Sheet]:
    """Sheets from a descriptive ID, or regenerate from a seed ID zinga:sheets4#SEED."""
    if not text.startswith("zinga:"):
        raise FormatError(f"not a Zinga ID: {text!r}")
    rest = text[len("zinga:"):]
    if "#" in rest:
        params, _, seed = rest.partition("#")
        if not params.startswith("sheets") or not seed.strip().lstrip("-").isdigit():
            raise FormatError(f"bad Zinga seed ID {text!r}: expected zinga:sheets4#SEED")
        k = int(params[6:] or 4)
        from ...generators.zinga import generate_sheet_set

        return generate_sheet_set(n_sheets=k, seed=int(seed), verify_games=0).sheets
    params, sep, desc = rest.partition(":")
    if not sep or not params.startswith("sheets"):
        raise FormatError(f"bad Zinga ID {text!r}: expected zinga:sheetsK:DESCRIPTION or zinga:sheetsK#SEED")
    parts = desc.split(".")
    if params[6:] and params[6:].isdigit() and int(params[6:]) != len(parts):
        raise FormatError(f"Zinga ID {text!r} announces {params[6:]} sheets but holds {len(parts)}")
    return [Sheet.from_compact(p, str(i + 1)) for i, p in enumerate(parts)]


def load_sheets(source: str | Path | None = None) -> list[Sheet]:
    """Sheets from a JSON file, a shareable ID, or (None / 'default') the shipped assumed set."""
    if source is None or str(source) == "default":
        source = Path(__file__).parent / "data" / "zinga-default.json"
    s = str(source)
    if s.startswith("zinga:"):
        return parse_sheet_set_id(s)
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
    Path(path).write_text(json.dumps(sheets_to_json(sheets, meta), indent=1) + "\n", encoding="utf-8")
