"""The Zangle finder kernels live with the move generator (``games/zangle/_kernel.py``); this
name is kept for the solo kernel and older imports."""

from ..games.zangle._kernel import _lookup, _search, batch_zangles, table_zangles  # noqa: F401

__all__ = ["_lookup", "_search", "batch_zangles", "table_zangles"]
