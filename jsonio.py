"""Reading JSON files with one-line FormatErrors that name the file, used by every loader."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .errors import FormatError


def read_json_file(path: str | Path, what: str = "file") -> Any:
    """Parse a JSON file; a missing/unreadable file or bad JSON becomes a FormatError."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8-sig")
    except OSError as e:
        raise FormatError(f"{p}: cannot read {what} ({e.strerror})") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise FormatError(f"{p}: not valid JSON ({e.msg} at line {e.lineno})") from None
