"""Command-line values converted without pydantic: start-up of every command.

Recent typers (0.2x) convert every command-line value through a pydantic ``TypeAdapter``, which
costs an import of pydantic and a schema build per parameter: 0.1-0.15 s of CPU, more than a
small solve. Our commands only take ``str``, ``int``, ``float``, ``bool``, ``Path``, enums and
lists of strings, so :func:`install` wraps typer's ``build_runtime_param`` with a converter that
handles exactly the values whose pydantic result is plain (an ASCII integer or decimal number, a
non-empty path, an enum member or its name...) the same way, and hands everything else - every
value it is not sure of, and so every error - to typer's own pydantic path, built on first need.
So answers and error messages are typer's; ``tests/test_cli_coerce.py`` compares the two paths
value by value. Typers without ``build_runtime_param`` (older ones, which never used pydantic)
are left alone.
"""

from __future__ import annotations

import re
from enum import Enum
from pathlib import Path

_INT = re.compile(r"[+-]?[0-9](?:_?[0-9])*(?:\.0+)?\Z")
_DIGITS = r"[0-9](?:_?[0-9])*"
_FLOAT = re.compile(rf"[+-]?(?:{_DIGITS}(?:\.(?:{_DIGITS})?)?|\.{_DIGITS})(?:[eE][+-]?{_DIGITS})?\Z")
_FLOAT_WORDS = {"inf", "+inf", "-inf", "nan", "+nan", "-nan", "infinity", "+infinity", "-infinity"}

_INSTALLED = [False]


def _plain(pi) -> bool:
    """True when the parameter has none of the checks typer's adapter would add."""
    return (getattr(pi, "parser", None) is None and getattr(pi, "min", None) is None
            and getattr(pi, "max", None) is None and not getattr(pi, "clamp", False)
            and not getattr(pi, "exists", False) and not getattr(pi, "resolve_path", False)
            and not getattr(pi, "allow_dash", False) and getattr(pi, "path_type", None) is None
            and getattr(pi, "click_type", None) is None)


def convert(kind: str, value, parameter_info=None, annotation=None, param=None, ctx=None):
    """``(True, converted)`` when ``value`` of ``kind`` converts plainly, else ``(False, None)``."""
    if kind == "str":
        if type(value) is str:
            return True, value
    elif kind == "int":
        if type(value) is int:
            return True, value
        if type(value) is str and _INT.match(value.strip()):
            return True, int(value.strip().split(".")[0])
    elif kind == "float":
        if type(value) is float:
            return True, value
        if type(value) is int:
            return True, float(value)
        if type(value) is str:
            s = value.strip()
            if _FLOAT.match(s) or s.lower() in _FLOAT_WORDS:
                return True, float(s)
    elif kind == "bool":
        if type(value) is bool:
            return True, value
    elif kind == "enum":
        if isinstance(value, annotation):
            return True, value
        if type(value) is str:
            from typer._param_types import coerce_cli_choice

            try:
                return True, coerce_cli_choice(value, choices=tuple(annotation),
                                               case_sensitive=parameter_info.case_sensitive, ctx=ctx)
            except ValueError:
                return False, None
    elif kind == "path":
        if type(value) is str and value and "\x00" not in value:
            value = Path(value)
        if isinstance(value, Path):
            from typer._param_types import coerce_cli_path

            return True, coerce_cli_path(value, parameter_info, path_type=Path, param=param, ctx=ctx)
    elif kind == "list_str":
        if isinstance(value, (list, tuple)) and all(type(v) is str for v in value):
            return True, list(value)
    return False, None


def _kind(annotation) -> str | None:
    from typing import List, get_args, get_origin

    if annotation in (str, int, float, bool):
        return annotation.__name__
    if annotation is Path:
        return "path"
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        return "enum"
    if get_origin(annotation) in (list, List) and get_args(annotation) == (str,):
        return "list_str"
    return None


def install() -> None:
    """Wrap typer's ``build_runtime_param`` (once); a no-op on typers without it."""
    if _INSTALLED[0]:
        return
    _INSTALLED[0] = True
    try:
        import typer.core as core
        from typer._coercion import RuntimeParam
    except ImportError:
        return
    original = getattr(core, "build_runtime_param", None)
    if original is None:
        return

    class _Light(RuntimeParam):
        """Plain values converted here; anything else by typer's own runtime param."""

        def _coerce_value(self, value, param, ctx):
            ok, out = convert(self.__dict__["_kind"], value, self.parameter_info, self.annotation, param, ctx)
            if ok:
                return out
            full = self.__dict__.get("_full")
            if full is None:
                full = original(self.__dict__["_descriptor"])
                object.__setattr__(self, "_full", full)
            return full._coerce_value(value, param=param, ctx=ctx)

    def build_runtime_param(descriptor):
        kind = _kind(descriptor.annotation)
        if kind is None or descriptor.file_annotation is not None or not _plain(descriptor.parameter_info):
            return original(descriptor)
        light = _Light(parameter_info=descriptor.parameter_info, annotation=descriptor.annotation)
        object.__setattr__(light, "_kind", kind)
        object.__setattr__(light, "_descriptor", descriptor)
        return light

    build_runtime_param.original = original  # type: ignore[attr-defined]
    core.build_runtime_param = build_runtime_param


__all__ = ["convert", "install"]
