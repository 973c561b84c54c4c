"""Argument bundles for numba kernels: one NamedTuple of arrays per kernel, made by one factory.

A kernel that needs many arrays takes them as one ``typing.NamedTuple`` (numba passes it as a
struct, reads fields by name and caches kernels taking it), so a call site names what it passes
instead of lining up two dozen positional arguments. The bundle class declares its fields with
annotations and their dtypes in a ``DTYPES`` class attribute (a field missing there is int64);
:func:`kernel_bundle` builds an instance, converting given values and allocating zeroed arrays
for the fields given by shape::

    class Work(NamedTuple):
        DTYPES = {"dist": np.int32, "seen": np.uint8}
        dist: np.ndarray
        seen: np.ndarray
        limit: int

    work = kernel_bundle(Work, shapes={"dist": 16, "seen": (4, 4)}, limit=100)

Scalar fields (annotated ``int``, ``float`` or ``bool``) become numpy scalars of the declared
type, so the kernel's signature - and its on-disk cache entry - does not change with the value.
Indices into flag and counter arrays shared by the packer and the kernel are module constants
of the kernel's module (numba freezes module globals), never bare numbers at either end.
"""

from __future__ import annotations

from typing import Any, TypeVar

import numpy as np

T = TypeVar("T")

_SCALARS = {int: np.int64, float: np.float64, bool: np.bool_}
_NAMES = {"int": int, "float": float, "bool": bool}  # annotations read as strings (PEP 563)


_PLANS: dict[type, tuple] = {}


def _plan(cls: type) -> tuple:
    """(field names, per field: numpy scalar type or None for an array, array dtype), made once
    per bundle class."""
    plan = _PLANS.get(cls)
    if plan is None:
        names = cls._fields  # type: ignore[attr-defined]
        dtypes = getattr(cls, "DTYPES", {})
        notes = getattr(cls, "__annotations__", {})
        rows = []
        for name in names:
            note = notes.get(name)
            note = getattr(note, "__forward_arg__", note)  # NamedTuple keeps string annotations as ForwardRef
            kind = _SCALARS.get(_NAMES.get(note, note))  # type: ignore[arg-type]
            if kind is not None:
                rows.append((name, np.dtype(dtypes.get(name, kind)).type, None))
            else:
                rows.append((name, None, dtypes.get(name, np.int64)))
        plan = _PLANS[cls] = (names, tuple(rows))
    return plan


def kernel_bundle(cls: type[T], *, shapes: dict[str, Any] | None = None, **values: Any) -> T:
    """An instance of the NamedTuple ``cls``: each field from ``values`` (converted to a
    C-contiguous array of its declared dtype, or a numpy scalar) or, when named in ``shapes``,
    a new zeroed array of that shape. Every field must be given exactly once."""
    shapes = shapes or {}
    names, rows = _plan(cls)
    if len(values) + len(shapes) != len(names) or any(n not in values and n not in shapes for n in names):
        given = set(values) | set(shapes)
        both = set(values) & set(shapes)
        missing = [n for n in names if n not in given]
        extra = sorted(given - set(names))
        raise TypeError(f"{cls.__name__}: fields given twice {sorted(both)}, missing {missing}, "
                        f"unknown {extra}")
    out = []
    for name, scalar, dtype in rows:
        if scalar is not None:
            if name in shapes:
                raise TypeError(f"{cls.__name__}.{name} is a scalar and has no shape")
            out.append(scalar(values[name]))
        elif name in shapes:
            out.append(np.zeros(shapes[name], dtype=dtype))
        else:
            out.append(np.ascontiguousarray(values[name], dtype=dtype))
    return cls(*out)
