"""Rule options shared by every game: building an options dataclass from values or CLI strings."""

from __future__ import annotations

import numbers
from dataclasses import fields
from typing import Any, TypeVar

from ..errors import RuleError
from ..jsonio import is_ascii_digits, short

T = TypeVar("T")

_TRUE = ("1", "true", "on", "yes", "y", "t")
_FALSE = ("0", "false", "off", "no", "n", "f")


def coerce_option(name: str, default: Any, value: Any) -> Any:
    """Convert one option value to the type of its default (strings come from `--option N=V`)."""
    if isinstance(default, bool):
        if isinstance(value, (str, int)) and not isinstance(value, bool):
            low = str(value).strip().lower()
            if low not in _TRUE + _FALSE:
                raise RuleError(f"option {name} takes true/false (or on/off), not {value!r}")
            return low in _TRUE
        if not isinstance(value, bool):
            raise RuleError(f"option {name} takes true or false, not {value!r}")
        return value
    if isinstance(default, int):
        # a whole number: an int (numpy's too), or text of ASCII digits (`--option N=V`, IDs);
        # never true/false, 5.0 or 2.5 (int() would make them 1, 5 and 2) nor other digits
        if isinstance(value, numbers.Integral) and not isinstance(value, bool):
            return int(value)
        if isinstance(value, str) and is_ascii_digits(value.strip(), signed=True) and len(value.strip()) <= 20:
            return int(value.strip())
        raise RuleError(f"option {name} takes a whole number, not {short(value)}")
    return str(value) if isinstance(value, str) else value


def options_from_dict(cls: type[T], data: dict | None, game: str) -> T:
    """An options dataclass from a dict of values or strings; unknown names are an error."""
    if not data:
        return cls()
    defaults = {f.name: getattr(cls(), f.name) for f in fields(cls)}
    bad = sorted(set(data) - set(defaults))
    if bad:
        raise RuleError(
            f"unknown {game} rule option(s): {', '.join(bad)} (known: {', '.join(defaults)})"
        )
    return cls(**{k: coerce_option(k, defaults[k], v) for k, v in data.items()})


# --------------------------------------------------------------------------------------------
# One base for every game's rule options: declared once, validated once, documented once.
# --------------------------------------------------------------------------------------------
def option(default: Any, doc: str, *, choices: tuple | None = None, minimum: int | None = None,
           maximum: int | None = None, rulebook: bool = True, shown: str | None = None):
    """A rule-option field: its default, a one-line meaning for the docs table, the allowed
    values (``choices``) or range, and whether it is a reading of the rulebook (``rulebook``) or
    a safety cap of ours; ``shown``: the default as the docs table writes it, when not the value."""
    from dataclasses import field

    return field(default=default, metadata={"doc": doc, "choices": choices, "minimum": minimum,
                                             "maximum": maximum, "rulebook": rulebook, "shown": shown})


class RuleOptions:
    """Mixin for a game's frozen options dataclass whose fields are made with ``option()``:
    ``__post_init__`` checks types, choices and ranges; ``from_dict`` reads values or CLI
    strings; ``to_json`` writes them; ``docs_rows`` gives the README table rows."""

    GAME = "game"

    def __post_init__(self) -> None:
        for f in fields(self):
            meta, value = f.metadata, getattr(self, f.name)
            if "doc" not in meta:
                continue
            default = f.default
            if isinstance(default, bool):
                if not isinstance(value, bool):
                    raise RuleError(f"{self.GAME} option {f.name} takes true or false, not {value!r}")
            elif isinstance(default, int) and not (value is None and default is None):
                if isinstance(value, bool) or not isinstance(value, int):
                    raise RuleError(f"{self.GAME} option {f.name} takes a whole number, not {value!r}")
            if meta.get("choices") and value not in meta["choices"]:
                raise RuleError(f"{self.GAME} option {f.name} must be one of "
                                f"{', '.join(map(str, meta['choices']))}, not {value!r}")
            if isinstance(value, int) and not isinstance(value, bool):
                lo, hi = meta.get("minimum"), meta.get("maximum")
                if lo is not None and value < lo or hi is not None and value > hi:
                    rng = f"at least {lo}" if hi is None else f"between {lo} and {hi}"
                    raise RuleError(f"{self.GAME} option {f.name} must be {rng}, not {value!r}")

    def to_json(self) -> dict:
        from dataclasses import asdict

        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict | None):
        """Options from a dict of values or of strings (CLI ``--option NAME=VALUE``)."""
        return options_from_dict(cls, data, cls.GAME)

    from_json = from_dict

    def with_(self, **changes):
        from dataclasses import replace

        return replace(self, **changes)

    @classmethod
    def docs_rows(cls) -> list[tuple[str, str, str, str]]:
        """(game, option, default, meaning) for each documented field, for the README table."""
        rows = []
        for f in fields(cls):
            if "doc" in f.metadata:
                d = f.default
                shown = f.metadata.get("shown") or (("on" if d else "off") if isinstance(d, bool) else str(d))
                rows.append((cls.GAME, f.name, shown, f.metadata["doc"]))
        return rows


def options_markdown(classes) -> str:
    """The README's rule-options table, generated from the options classes."""
    lines = ["| game | option | default | meaning |", "|---|---|---|---|"]
    for cls in classes:
        lines += [f"| {g} | `{n}` | `{d}` | {m} |" for g, n, d, m in cls.docs_rows()]
    return "\n".join(lines)
