"""Rule options shared by every game: building an options dataclass from values or CLI strings."""

from __future__ import annotations

from dataclasses import fields
from typing import Any, TypeVar

from ..errors import RuleError

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
        try:
            return int(value)
        except (TypeError, ValueError):
            raise RuleError(f"option {name} takes a whole number, not {value!r}") from None
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
