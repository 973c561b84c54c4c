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


_PLANS: dict[type, list[tuple[str, Any, Any]]] = {}


def _plan(cls: type) -> list[tuple[str, Any, Any]]:
    """Per field of ``cls``: (name, numpy scalar type or None, array dtype), worked out once."""
    plan = _PLANS.get(cls)
    if plan is None:
        dtypes = getattr(cls, "DTYPES", {})
        notes = getattr(cls, "__annotations__", {})
        plan = []
        for name in cls._fields:  # type: ignore[attr-defined]
            note = notes.get(name)
            note = getattr(note, "__forward_arg__", note)  # NamedTuple keeps string annotations as ForwardRef
            kind = _SCALARS.get(_NAMES.get(note, note))  # type: ignore[arg-type]
            if kind is not None:
                plan.append((name, np.dtype(dtypes.get(name, kind)).type, None))
            else:
                plan.append((name, None, np.dtype(dtypes.get(name, np.int64))))
        _PLANS[cls] = plan
    return plan


def _mismatch(cls: type, values: dict, shapes: dict) -> TypeError:
    names = cls._fields  # type: ignore[attr-defined]
    given = set(values) | set(shapes)
    both = set(values) & set(shapes)
    missing = [n for n in names if n not in given]
    extra = sorted(given - set(names))
    return TypeError(f"{cls.__name__}: fields given twice {sorted(both)}, missing {missing}, unknown {extra}")


def kernel_bundle(cls: type[T], *, shapes: dict[str, Any] | None = None, **values: Any) -> T:
    """An instance of the NamedTuple ``cls``: each field from ``values`` (converted to a
    C-contiguous array of its declared dtype, or a numpy scalar) or, when named in ``shapes``,
    a new zeroed array of that shape. Every field must be given exactly once."""
    shapes = shapes or {}
    plan = _plan(cls)
    if len(values) + len(shapes) != len(plan) or any(n in shapes for n in values):
        raise _mismatch(cls, values, shapes)
    out = []
    for name, scalar, dtype in plan:
        if name in shapes:
            if scalar is not None:
                raise TypeError(f"{cls.__name__}.{name} is a scalar and has no shape")
            out.append(np.zeros(shapes[name], dtype=dtype))
        elif name not in values:
            raise _mismatch(cls, values, shapes)
        elif scalar is not None:
            out.append(scalar(values[name]))
        else:
            out.append(np.ascontiguousarray(values[name], dtype=dtype))
    return cls(*out)
