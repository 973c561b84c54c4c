"""The lattices by name: ``get_lattice("triangle")``, and ``register_lattice`` for a new one.

Every lattice of the package is imported here and registered under its ``name``: ``triangle``
and ``square`` (:mod:`.lattice`), ``hex`` and ``hexside`` (:mod:`.hexgrid`).
"""

from __future__ import annotations

from ..errors import ShapeError
from .hexgrid import HEX, HEXSIDE
from .lattice import SQUARE, TRIANGLE, Lattice

_LATTICES: dict[str, Lattice] = {lat.name: lat for lat in (TRIANGLE, SQUARE, HEX, HEXSIDE)}


def register_lattice(lattice: Lattice) -> None:
    """Make a lattice available by name."""
    _LATTICES[lattice.name] = lattice


def get_lattice(name: str | Lattice) -> Lattice:
    """The lattice called ``name`` ('triangle', 'square', 'hex', 'hexside', ...)."""
    if isinstance(name, Lattice):
        return name
    try:
        return _LATTICES[name]
    except KeyError:
        raise ShapeError(
            f"unknown lattice {name!r}: expected one of {', '.join(sorted(_LATTICES))}"
        ) from None
