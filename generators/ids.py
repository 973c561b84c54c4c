"""The one ID registry: every shareable ID is split here by one grammar and resolved by its prefix.

Grammar (docs/ids.md)::

    descriptive   GAME ":" PARAMS ":" DESCRIPTION      the whole instance
    seed          GAME ":" PARAMS "#" SEED             regenerate with the generator

``GAME`` is the family name of a game plugin with IDs (``games/plugin.py``);
``PARAMS`` is a comma-separated list of ``key=value`` pairs and bare words (no ``:``, ``#`` or
spaces) and holds every generation parameter that changes the result; ``DESCRIPTION`` may hold
any printable ASCII character but a space, ``#`` and ``:`` included (QANGO 7 Plus positions have
``#`` cells): the first ``:`` after PARAMS starts it. ``SEED`` is a whole number in [0, 2**63)
written in ASCII digits. The whole ID is printable ASCII: any other character (a superscript or
Arabic-Indic digit, a fullwidth letter, a Unicode space) is refused, never read as a look-alike;
surrounding ASCII spaces are ignored. Each game's description grammar is as strict (no empty
rows, no trailing separators beyond what the game writes).

Games own their descriptive encodings (``games/<game>/``); this module owns the grammar and
the dispatch; each game's plugin provides ``resolve_id(parsed) -> Instance``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from ..errors import FormatError
from ..games.plugin import plugins
from ..jsonio import check_text_arg, is_ascii_digits, short

MAX_SEED = 2**63 - 1
_PARAMS_RE = re.compile(r"[A-Za-z0-9_.=,+\-]*\Z")
_ID_CHARS_RE = re.compile(r"[!-~]*\Z")  # printable ASCII, no space
_ASCII_SPACE = " \t\r\n"

def _id_plugins() -> dict:
    """ID prefix -> the plugin of every game that has shareable IDs (its family name)."""
    return {p.family: p for p in plugins() if p.has_ids}


@dataclass(frozen=True)
class ParsedId:
    """An ID split by the grammar, not yet resolved."""

    text: str
    game: str
    params: tuple[str, ...]
    description: str | None = None
    seed: int | None = None

    @property
    def is_seed(self) -> bool:
        return self.seed is not None

    def flags(self) -> list[str]:
        """Bare words of PARAMS, in order (``solo``, ``hard``, ``6``, ``k3``...)."""
        return [p for p in self.params if "=" not in p]

    def values(self) -> dict[str, str]:
        """``key=value`` pairs of PARAMS; a repeated key is an error."""
        out: dict[str, str] = {}
        for p in self.params:
            if "=" in p:
                k, _, v = p.partition("=")
                if not k or not v:
                    raise FormatError(f"ID {short(self.text)}: bad parameter {short(p)} (expected key=value)")
                if k in out:
                    raise FormatError(f"ID {short(self.text)}: parameter {k!r} given twice")
                out[k] = v
        return out

    def error(self, why: str) -> FormatError:
        """A FormatError naming this ID (cut short) and why it cannot be used."""
        return FormatError(f"ID {short(self.text)}: {why}")


@dataclass
class Instance:
    """What an ID stands for: its ``kind`` (e.g. ``zangle-solo-deal``), the object itself, and the
    ID pair that regenerates it (``seed_id`` is None for instances not made by a generator)."""

    kind: str
    value: Any
    id: str
    seed_id: str | None = None
    extra: dict = field(default_factory=dict)


def looks_like_id(text: str) -> bool:
    """Whether ``text`` starts with a registered game prefix and a colon."""
    if not isinstance(text, str):
        return False
    head, sep, _ = text.strip(_ASCII_SPACE).partition(":")
    return bool(sep) and head.lower() in _id_plugins()


def split_id(text: str) -> ParsedId:
    """Split an ID by the grammar above; every malformed part is a one-line FormatError."""
    check_text_arg(text, "ID")
    s = text.strip(_ASCII_SPACE)
    if not _ID_CHARS_RE.match(s):
        bad = next(c for c in s if not "!" <= c <= "~")
        raise FormatError(f"ID {short(s)}: character {s.index(bad) + 1} is {bad!r} (U+{ord(bad):04X}); "
                          "an ID is printable ASCII without spaces")
    game, sep, rest = s.partition(":")
    game = game.lower()
    if not sep:
        raise FormatError(f"not an ID: {short(s)} (expected GAME:PARAMS:DESCRIPTION or GAME:PARAMS#SEED)")
    known = _id_plugins()
    if game not in known:
        raise FormatError(f"unknown ID prefix {short(game)}: known {', '.join(known)}")
    colon, hash_ = rest.find(":"), rest.find("#")
    if colon >= 0 and (hash_ < 0 or colon < hash_):
        params, description, seed = rest[:colon], rest[colon + 1:], None
        if not description:
            raise FormatError(f"ID {short(s)}: empty description after {game}:{params}:")
    elif hash_ >= 0:
        params, description, seed_text = rest[:hash_], None, rest[hash_ + 1:]
        if not is_ascii_digits(seed_text) or len(seed_text) > 19:
            raise FormatError(f"ID {short(s)}: seed {short(seed_text)} is not a whole number in [0, 2**63)")
        seed = int(seed_text)
        if seed > MAX_SEED:
            raise FormatError(f"ID {short(s)}: seed is larger than 2**63 - 1")
    else:
        raise FormatError(f"ID {short(s)}: expected {game}:PARAMS:DESCRIPTION or {game}:PARAMS#SEED")
    if not _PARAMS_RE.match(params):
        raise FormatError(f"ID {short(s)}: bad parameters {short(params)} (letters, digits, '=', ',', '-', '.')")
    parts = tuple(params.split(",")) if params else ()
    if "" in parts:
        raise FormatError(f"ID {short(s)}: an empty parameter (a ',' too many) in {short(params)}")
    return ParsedId(s, game, parts, description, seed)


def format_params(*flags: str, **values) -> str:
    """PARAMS text: bare words then ``key=value`` pairs in the order given (None values left out)."""
    out = [str(f) for f in flags if f not in (None, "")]
    out += [f"{k}={_value(v)}" for k, v in values.items() if v is not None]
    for part in out:
        if not _PARAMS_RE.match(part) or not part:
            raise FormatError(f"cannot put {short(part)} in an ID's parameters")
    return ",".join(out)


def _value(v) -> str:
    if isinstance(v, bool):
        return "on" if v else "off"
    return str(v)


def make_descriptive(game: str, params: str, description: str) -> str:
    """``game:params:description``."""
    return f"{game}:{params}:{description}"


def make_seed(game: str, params: str, seed: int) -> str:
    """``game:params#seed``."""
    if not 0 <= int(seed) <= MAX_SEED:
        raise FormatError(f"seed {seed} is not in [0, 2**63)")
    return f"{game}:{params}#{int(seed)}"


def resolve(text: str, expect: str | tuple[str, ...] | None = None) -> Instance:
    """The instance an ID stands for (seed IDs run their generator); ``expect`` names the kind(s)
    the caller can use, and another kind is refused as "this is a <kind> ID, expected ...".
    """
    parsed = split_id(text)
    wanted = None if expect is None else (expect,) if isinstance(expect, str) else tuple(expect)
    plugin = _id_plugins()[parsed.game]
    if wanted is not None and plugin.one_kind is not None:
        # an ID of a kind the caller cannot use is refused before its generator runs (a seed
        # ID of a Zinga sheet set takes a minute to regenerate, only to be refused after)
        _check_kind(plugin.one_kind, wanted)
    inst = plugin.resolve_id(parsed)
    if wanted is not None:
        _check_kind(inst.kind, wanted)
    return inst


def _check_kind(kind: str, wanted: tuple[str, ...]) -> None:
    if kind not in wanted:
        raise FormatError(f"this is a {_kind_title(kind)} ID, expected a "
                          f"{' or '.join(_kind_title(k) for k in wanted)}")


def _kind_title(kind: str) -> str:
    titles = {k: t for p in plugins() for k, t in p.kinds.items()}
    return titles.get(kind, kind)
