"""The Tanglung grid's geometry: 4x4 cells numbered row by row from 0."""

from __future__ import annotations

SIZE = 4
N_CELLS = SIZE * SIZE


def rc(i: int) -> tuple[int, int]:
    """Cell index -> (row, col)."""
    return divmod(i, SIZE)
