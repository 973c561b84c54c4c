"""What the Tanglung commands read: rule options from --option pairs, and a layout from letters, an
ID or a file (shared by the solo, census and duel commands)."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

from ...cli_common import parse_options
from ...errors import FormatError
from ...jsonio import check_text_arg, looks_like_json, parse_json_text, read_text_file


def _options(pairs, base: dict | None = None):
    """Rule options: those of an ID or file (``base``), then --option pairs over them."""
    from .rules import TanglungOptions  # start-up: loaded when the command runs

    merged = dict(base or {})
    for k, v in parse_options(pairs).items():
        if len(k) > 40 or len(v) > 100:
            raise FormatError(f"--option {k[:40]}...: names are short words and values at most 100 characters")
        merged[k] = v
    return TanglungOptions.from_dict(merged)


_LAYOUT_RE = r"^[A-Za-z.]{4}([/ ]?[A-Za-z.]{4}){3}$"


def _load_layout(spec: str, pairs, cards: Optional[str] = None):
    """(layout, options, card set, start) from layout letters, any Tanglung challenge ID (through
    the one ID registry), or a file: a layout text file or a challenge file (what
    ``solo generate --json``/``--out`` wrote). Options and the card set stored in an ID or a file
    apply unless --option / --cards override them; ``start`` is the file's or ID's start Rooster."""
    import re

    from .cards import load_card_set  # start-up: loaded when the command runs
    from .layout import Layout  # start-up: loaded when the command runs

    text = check_text_arg(spec, "layout").strip()
    chosen = load_card_set(cards) if cards is not None else None
    if re.match(_LAYOUT_RE, text) or "\n" in text or "\r" in text:  # no file name has a line break
        return Layout.parse(text), _options(pairs), chosen, None
    from ...generators.ids import looks_like_id, resolve  # start-up: loaded when the command runs

    if looks_like_id(text) or text.lower().startswith("tanglung:"):
        ch = resolve(text, expect="tanglung-challenge").value
    elif looks_like_json(text):  # inline, as a file's content (a --batch line)
        from .formats import challenge_from_document  # start-up: loaded when the command runs

        ch = challenge_from_document(parse_json_text(text, "inline challenge", "challenge file"), "inline challenge")
    else:
        from .formats import challenge_from_document  # start-up: loaded when the command runs

        p = Path(text[1:] if text.startswith("@") else text)
        raw = read_text_file(p, "layout or challenge file")
        where = str(p)[-120:]
        if looks_like_json(raw):
            ch = challenge_from_document(parse_json_text(raw, where, "challenge file"), where)
        else:
            try:
                return Layout.parse(raw.strip()), _options(pairs), chosen, None
            except FormatError as e:
                raise FormatError(f"{where}: {e}") from None
    return ch.layout, _options(pairs, ch.options.to_json()), chosen or ch.card_set, ch.start
