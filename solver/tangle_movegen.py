"""Kept for old imports: the Tangle move generator now lives in ``games/tangle/movegen.py``."""

from ..games.tangle.movegen import legal_placements_fast, legal_placements_reference, tables  # noqa: F401
