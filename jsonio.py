"""The one input layer: every file, inline JSON and ID text a user gives goes through here.

Reading is bounded (size cap, UTF-8 only, nesting depth, number range, no NaN/Infinity) and
every failure is a one-line ``FormatError`` that names the source and, for schema errors, the
field path and what was expected, without echoing the input back. Formats carry a ``format``
tag and a ``version``; a file of another registered format is refused as "this is a <X> file,
expected <Y>". Schemas are pydantic v2 models (imported only when a schema is checked, so
commands that read no JSON do not pay for pydantic).
"""

from __future__ import annotations

import json
import math
import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from .errors import FormatError
from .outputs import note_input

MAX_BYTES = 32 * 1024 * 1024  # no tanglekit file comes near this (a census checkpoint is ~1 MB)
MAX_DEPTH = 64  # the deepest legitimate file (a proof tree) is stored flat, not nested
MAX_INT_DIGITS = 30  # seeds are < 2**64 (20 digits); cell coordinates far smaller
MAX_TEXT_ARG = 100_000  # an inline argument (an ID, a layout, a position) longer than this is refused
MAX_SHOWN = 60  # characters of an offending value quoted in a message


def short(value: Any, limit: int = MAX_SHOWN) -> str:
    """``repr(value)`` cut to ``limit`` characters, so messages never echo a huge input."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 5] + "...'" + f" ({len(text)} chars)"


# --------------------------------------------------------------------------------------------
# Bytes and text
# --------------------------------------------------------------------------------------------
def _not_regular(mode: int) -> str | None:
    """What a file of this ``st_mode`` is when it is not a regular file (None when it is one)."""
    if stat.S_ISREG(mode):
        return None
    for test, name in ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a named pipe (FIFO)"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "not a regular file"


def check_regular_file(path: str | Path, what: str = "file") -> os.stat_result:
    """``os.stat`` of an input path that must be a regular file (symbolic links followed): a
    folder, a FIFO, a device or a socket is a one-line FormatError, found without opening it (a
    FIFO would block the open until a writer comes; /dev/zero never ends)."""
    p = Path(path)
    if "\x00" in str(p):
        raise FormatError(f"{_name(p)}: a path cannot contain a NUL character")
    try:
        st = os.stat(p)
    except (OSError, ValueError) as e:
        raise FormatError(f"{_name(p)}: cannot read {what} ({getattr(e, 'strerror', None) or e})") from None
    kind = _not_regular(st.st_mode)
    if kind is not None:
        raise FormatError(f"{_name(p)}: is {kind}, expected a {what} (a regular file)")
    return st


def read_bytes(path: str | Path, what: str = "file", max_bytes: int = MAX_BYTES, state: bool = False) -> bytes:
    """The bytes of a regular file of at most ``max_bytes``: folders, FIFOs, devices and sockets
    are refused before any open (``check_regular_file``); the open itself does not block and
    checks again what it opened (a path swapped for a FIFO in between is refused too). Every
    input file tanglekit reads comes through here.

    The file is recorded as an input of the running command (``outputs.note_input``), so no
    output of the command may overwrite it; ``state=True`` is for a command's own state file (a
    checkpoint it reads back and rewrites on purpose)."""
    p = Path(path)
    st = check_regular_file(p, what)
    if st.st_size > max_bytes:
        raise FormatError(f"{_name(p)}: larger than {max_bytes // (1024 * 1024)} MiB, not a {what}")
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(p, flags)
        try:
            st = os.fstat(fd)
            kind = _not_regular(st.st_mode)
            if kind is not None:
                raise FormatError(f"{_name(p)}: is {kind}, expected a {what} (a regular file)")
            if not state:
                note_input(p, st)
            with os.fdopen(fd, "rb") as f:
                fd = -1  # the file object closes it now
                data = f.read(max_bytes + 1)
        finally:
            if fd >= 0:
                os.close(fd)
    except FormatError:
        raise
    except OSError as e:
        raise FormatError(f"{_name(p)}: cannot read {what} ({e.strerror or e})") from None
    if len(data) > max_bytes:
        raise FormatError(f"{_name(p)}: larger than {max_bytes // (1024 * 1024)} MiB, not a {what}")
    return data


def decode_text(data: bytes, where: str, what: str = "file") -> str:
    """UTF-8 text (a UTF-8 BOM is allowed); UTF-16/32 and binary data get a clear refusal."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise FormatError(f"{where}: is UTF-16 text; save the {what} as UTF-8")
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    if b"\x00" in data[:4096]:
        raise FormatError(f"{where}: is a binary file, expected a {what} (UTF-8 text)")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise FormatError(f"{where}: is not UTF-8 text (bad byte at offset {e.start}), expected a {what}") from None


def read_text_file(path: str | Path, what: str = "file", max_bytes: int = MAX_BYTES, state: bool = False) -> str:
    """A text file through the size, encoding and binary checks (``state``: see read_bytes)."""
    return decode_text(read_bytes(path, what, max_bytes, state), _name(Path(path)), what)


def check_text_arg(text: str, what: str = "argument", max_len: int = MAX_TEXT_ARG) -> str:
    """An inline argument (ID, layout, position text): bounded length, no control characters."""
    if not isinstance(text, str):
        raise FormatError(f"{what}: expected text")
    if len(text) > max_len:
        raise FormatError(f"{what} is {len(text)} characters long (at most {max_len})")
    if re.search(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]", text):
        raise FormatError(f"{what}: contains control characters")
    return text


# --------------------------------------------------------------------------------------------
# Whole numbers in user text: ASCII digits only
# --------------------------------------------------------------------------------------------
_ASCII_DIGITS = re.compile(r"[0-9]+\Z")
_ASCII_SIGNED = re.compile(r"-?[0-9]+\Z")


def is_ascii_digits(text: Any, signed: bool = False) -> bool:
    """Whether ``text`` is a whole number written in ASCII digits ``0-9`` (a leading ``-`` when
    ``signed``): no spaces, ``+``, ``_``, and none of the other characters ``str.isdigit`` and
    ``int()`` take (superscripts, Arabic-Indic or fullwidth digits...). The one rule for every
    number a user types: IDs, parameters, move numbers, option values."""
    return type(text) is str and bool((_ASCII_SIGNED if signed else _ASCII_DIGITS).match(text))


def text_int(text: str) -> int:
    """``int(text)`` for typed text (move notation, cells): ASCII digits with an optional ``-``
    and spaces around, else ``ValueError`` as ``int()`` raises, so it drops in where ``int()`` was
    (which took Arabic-Indic and fullwidth digits, ``_`` and ``+``)."""
    t = text.strip(" \t") if isinstance(text, str) else text
    if not is_ascii_digits(t, signed=True) or len(t) > MAX_INT_DIGITS:
        raise ValueError(f"not a whole number in ASCII digits: {short(text)}")
    return int(t)


def ascii_int(text: Any, what: str, lo: int | None = None, hi: int | None = None,
              signed: bool = False, error: type[Exception] = FormatError) -> int:
    """``text`` (ASCII digits, see ``is_ascii_digits``) as an int within ``lo``..``hi``;
    anything else is one line of ``error`` naming ``what``."""
    rng = (f" in {lo}..{hi}" if lo is not None and hi is not None else f" >= {lo}" if lo is not None
           else f" <= {hi}" if hi is not None else "")
    if not is_ascii_digits(text, signed) or len(text) > MAX_INT_DIGITS:
        raise error(f"{what}: {short(text)} is not a whole number{rng} (digits 0-9)")
    v = int(text)
    if lo is not None and v < lo or hi is not None and v > hi:
        raise error(f"{what}: {v} is not a whole number{rng}")
    return v


def _name(p: Path) -> str:
    s = str(p)
    if not s.isprintable():  # a line break or control character in a name stays on one line
        s = repr(s)[1:-1]
    return s if len(s) <= 120 else "…" + s[-100:]


# --------------------------------------------------------------------------------------------
# JSON
# --------------------------------------------------------------------------------------------
def _refuse_constant(name: str):
    raise ValueError(f"{name} is not allowed")


def _bounded_int(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_INT_DIGITS:
        raise ValueError(f"a {digits}-digit number is out of range")
    return int(text)


def _finite_float(text: str) -> float:
    v = float(text)
    if not math.isfinite(v):
        raise ValueError(f"number {text[:20]} is out of range")
    return v


def _depth(obj: Any, limit: int) -> int:
    """Nesting depth of parsed JSON, iteratively (no recursion on hostile input)."""
    deepest, stack = 0, [(obj, 1)]
    while stack:
        node, d = stack.pop()
        if isinstance(node, (list, dict)):
            if d > limit:
                return d
            deepest = max(deepest, d)
            stack.extend((c, d + 1) for c in (node.values() if isinstance(node, dict) else node))
    return deepest


def parse_json_text(text: str, where: str, what: str = "file", max_depth: int = MAX_DEPTH) -> Any:
    """Parse JSON text with the number, constant and depth rules above; errors say where."""
    # A cheap pre-scan keeps a 200,000-deep document away from the recursive C parser.
    if text.count("[") + text.count("{") > max_depth:
        from itertools import accumulate

        stripped = re.sub(r'"(?:[^"\\]|\\.)*"', "", text)
        steps = (1 if ch in "[{" else -1 for ch in re.findall(r"[\[\]{}]", stripped))
        if max(accumulate(steps), default=0) > max_depth:
            raise FormatError(f"{where}: JSON nested more than {max_depth} deep, not a {what}")
    try:
        data = json.loads(text, parse_constant=_refuse_constant, parse_int=_bounded_int,
                          parse_float=_finite_float)
    except json.JSONDecodeError as e:
        raise FormatError(f"{where}: not valid JSON ({e.msg} at line {e.lineno}, column {e.colno})") from None
    except ValueError as e:
        raise FormatError(f"{where}: {e}") from None
    except RecursionError:
        raise FormatError(f"{where}: JSON nested too deep, not a {what}") from None
    if _depth(data, max_depth) > max_depth:
        raise FormatError(f"{where}: JSON nested more than {max_depth} deep, not a {what}")
    return data


def read_json_file(path: str | Path, what: str = "file", state: bool = False) -> Any:
    """Parse a JSON file through every check of this module; errors name the file (``state``:
    a command's own state file, see read_bytes)."""
    return parse_json_text(read_text_file(path, what, state=state), _name(Path(path)), what)


def read_json_lines(path_or_text: str | Path, what: str = "file", from_text: bool = False) -> list[Any]:
    """A JSON-lines file (one document per non-empty line); errors name the line."""
    text = path_or_text if from_text else read_text_file(path_or_text, what)
    where = "input" if from_text else _name(Path(path_or_text))
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        if line.strip():
            out.append(parse_json_text(line, f"{where} line {n}", what))
    return out


def looks_like_json(text: str) -> bool:
    """Inline JSON rather than a path, ID or notation (starts with ``{`` or ``[``)."""
    return text.lstrip()[:1] in ("{", "[")


def load_json_source(source: str | Path, what: str = "file") -> tuple[Any, str]:
    """JSON given inline (``{...}``) or as a file path: (data, where) for error messages."""
    s = str(source)
    if isinstance(source, str) and looks_like_json(s):
        check_text_arg(s, what, MAX_BYTES)
        return parse_json_text(s, f"inline {what}", what), f"inline {what}"
    return read_json_file(source, what), _name(Path(s))


# --------------------------------------------------------------------------------------------
# Formats: tags, versions, schemas
# --------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Format:
    """A file format: its tag (``tanglekit/<game>-<thing>``), current version, a human name,
    and the pydantic model of its body (``None`` when the reader checks the shape itself)."""

    tag: str
    version: int
    title: str
    model: Any = None  # a pydantic BaseModel subclass, or a zero-argument callable returning one
    sniff: Callable[[Any], bool] | None = None  # recognises an untagged file of this format

    def schema(self) -> Any:
        m = self.model
        if m is not None and not isinstance(m, type):
            m = m()
        return m


FORMATS: dict[str, Format] = {}


def register_format(tag: str, version: int, title: str, model: Any = None,
                    sniff: Callable[[Any], bool] | None = None) -> Format:
    """Declare a format (once, at import of the module that owns it) and return it."""
    fmt = Format(tag, version, title, model, sniff)
    FORMATS[tag] = fmt
    return fmt


def tagged(fmt: Format, body: dict) -> dict:
    """``body`` with the format's tag and version first: what every writer puts in a file."""
    return {"format": fmt.tag, "version": fmt.version, **{k: v for k, v in body.items() if k not in ("format", "version")}}


def identify(data: Any) -> Format | None:
    """The registered format a parsed document says it is, or looks like when untagged."""
    if isinstance(data, dict) and isinstance(data.get("format"), str):
        return FORMATS.get(data["format"]) or _legacy(data["format"])
    for fmt in FORMATS.values():
        try:
            if fmt.sniff is not None and fmt.sniff(data):
                return fmt
        except Exception:  # a sniffer looks only; any surprise means "not mine"
            continue
    return None


def _legacy(tag: str) -> Format | None:
    base = tag.split("/")[0]
    for fmt in FORMATS.values():
        if fmt.tag == base or fmt.tag.replace("tanglekit/", "tanglekit-") == base:
            return fmt
    return None


def expect_format(data: Any, expected: Format | tuple[Format, ...], where: str) -> Format:
    """Check that ``data`` is (one of) the expected format(s): a tag of another format, a newer
    version, or an untagged document of another known format is a one-line FormatError.
    Untagged documents are accepted as the first expected format (older files had no tag)."""
    wanted = expected if isinstance(expected, tuple) else (expected,)
    names = " or ".join(f.title for f in wanted)
    if not isinstance(data, dict):
        kind = {list: "a list", str: "a string", int: "a number", float: "a number", bool: "true/false",
                type(None): "null"}.get(type(data), "not an object")
        raise FormatError(f"{where}: is {kind}, expected a {names} (a JSON object)")
    tag = data.get("format")
    if tag is not None:
        if not isinstance(tag, str):
            raise FormatError(f"{where}: 'format' must be text")
        for f in wanted:
            if tag == f.tag or _legacy(tag) is f:
                version = data.get("version", 1)
                if not isinstance(version, int) or isinstance(version, bool) or version < 1:
                    raise FormatError(f"{where}: 'version' must be a whole number >= 1")
                if version > f.version:
                    raise FormatError(f"{where}: {f.title} version {version} is newer than this "
                                      f"tanglekit reads (version {f.version})")
                return f
        other = FORMATS.get(tag) or _legacy(tag)
        what = f"a {other.title} file" if other else f"a file of unknown format {short(tag)}"
        raise FormatError(f"{where}: this is {what}, expected a {names}")
    other = identify(data)
    if other is not None and other not in wanted:
        raise FormatError(f"{where}: this is a {other.title} file, expected a {names}")
    return wanted[0]


def validate(data: Any, model: Any, where: str, what: str | None = None,
             quick: Callable[[Any], bool] | None = None) -> Any:
    """``model.model_validate(data)`` with the first error as one line: where, field path, why.
    The offending value is never echoed (it may be huge).

    ``model`` may be a zero-argument callable returning the model (built on first use).
    ``quick``, if given, is a plain check of the body (``data`` without format and version)
    that returns True only for documents the model accepts as they are (no coercion): then
    pydantic is not loaded and ``validate`` returns None, so callers that pass it read the
    data itself. Anything it is unsure of goes to the model, so errors are the model's."""
    body = {k: v for k, v in data.items() if k not in ("format", "version")} if isinstance(data, dict) else data
    if quick is not None and quick(body):
        return None
    from pydantic import ValidationError

    if not hasattr(model, "model_validate"):
        model = model()
    try:
        return model.model_validate(body)
    except ValidationError as e:
        err = e.errors(include_input=False, include_url=False)
        first = err[0] if err else {"loc": (), "msg": "invalid"}
        path = _loc(first.get("loc", ()))
        more = f" (and {len(err) - 1} more)" if len(err) > 1 else ""
        thing = f" in the {what}" if what else ""
        at = f" at {path}" if path else ""
        raise FormatError(f"{where}{thing}{at}: {_msg(first)}{more}") from None


# plain checks for ``validate(..., quick=...)``: strict JSON types, as pydantic's strict mode
def plain_text(v: Any, max_len: int | None = None, min_len: int = 0) -> bool:
    """A str (JSON text, no lone surrogates) of ``min_len`` to ``max_len`` characters."""
    if type(v) is not str or len(v) < min_len or (max_len is not None and len(v) > max_len):
        return False
    if v.isascii():
        return True
    try:
        v.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def plain_int(v: Any, lo: int | None = None, hi: int | None = None) -> bool:
    """An int (not a bool) within ``lo``..``hi``."""
    return type(v) is int and (lo is None or v >= lo) and (hi is None or v <= hi)


def whole_number(v: Any, lo: int | None = None, hi: int | None = None) -> bool:
    """A JSON whole number: an int, never a bool (``true`` is 1 to Python) or a float (``1.0``)
    within ``lo``..``hi``; the rule for every count, seed, player and action read from a file."""
    return plain_int(v, lo, hi)


def same_json(a: Any, b: Any) -> bool:
    """Equality of JSON values that tells types apart: ``true``, ``1`` and ``1.0`` differ (Python's
    ``==`` says they are equal, so a check like ``stored == expected`` would take ``true`` for
    ``1``). Lists and tuples compare alike; keys must match exactly."""
    stack = [(a, b)]
    while stack:
        x, y = stack.pop()
        if isinstance(x, (list, tuple)) and isinstance(y, (list, tuple)):
            if len(x) != len(y):
                return False
            stack.extend(zip(x, y))
        elif isinstance(x, dict) and isinstance(y, dict):
            if x.keys() != y.keys():
                return False
            stack.extend((x[k], y[k]) for k in x)
        elif type(x) is not type(y) and not (isinstance(x, str) and isinstance(y, str)) or x != y:
            return False
    return True


def plain_keys(d: Any, allowed) -> bool:
    """A dict whose keys are all among ``allowed``."""
    return type(d) is dict and all(type(k) is str and k in allowed for k in d)


def _loc(loc) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            text = str(part)
            if not (text.isprintable() and len(text) <= 40 and " " not in text):
                text = short(text, 40)  # a hostile key: quoted, cut short, never a line break
            out += ("." if out else "") + text
    return out


def _msg(err: dict) -> str:
    msg = str(err.get("msg", "invalid"))
    kind = err.get("type", "")
    if kind == "missing":
        return "missing (required)"
    if kind == "extra_forbidden":
        return "unknown field"
    return msg[:200]


def load_format(source: str | Path, expected: Format | tuple[Format, ...], what: str | None = None) -> tuple[Any, Format, str]:
    """Read a file or inline JSON, check its format tag and its schema: (validated, format, where)."""
    title = what or (expected.title if isinstance(expected, Format) else expected[0].title)
    data, where = load_json_source(source, title)
    fmt = expect_format(data, expected, where)
    model = fmt.schema()
    return (validate(data, model, where) if model is not None else data), fmt, where


# --------------------------------------------------------------------------------------------
# Checksums (checkpoints and other files that must not be edited by hand)
# --------------------------------------------------------------------------------------------
def checksum(obj: Any) -> str:
    """A SHA-256 of the canonical JSON of ``obj`` (sorted keys, no spaces)."""
    import hashlib

    return hashlib.sha256(json.dumps(obj, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def with_checksum(obj: dict) -> dict:
    """``obj`` plus a ``checksum`` of everything else in it."""
    body = {k: v for k, v in obj.items() if k != "checksum"}
    return {**body, "checksum": checksum(body)}


def verify_checksum(obj: dict, where: str) -> dict:
    """Refuse a document whose ``checksum`` does not match its content (edited or damaged)."""
    if not isinstance(obj, dict) or "checksum" not in obj:
        raise FormatError(f"{where}: has no checksum (not written by tanglekit, or damaged)")
    body = {k: v for k, v in obj.items() if k != "checksum"}
    if obj["checksum"] != checksum(body):
        raise FormatError(f"{where}: checksum does not match its content (edited or damaged)")
    return body
