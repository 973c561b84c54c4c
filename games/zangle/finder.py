"""Zangle finder on a deal: every valid Zangle of a table, best first, with its proof, as text
and JSON. The move generator itself (tiling tables, the numba kernel, proofs) is the games
layer's ``games/zangle/moves.py``; its names are re-exported here, and this module adds the
exact-cover tiling engine (``TilingTable(..., engine="exact_cover")``) that tests compare with.
"""

from __future__ import annotations

from typing import Iterable, Sequence

from ...shapes.polyform import Polyform
from ...solver.tiling import solve_tiling
from . import moves as _moves
from .moves import (  # noqa: F401  (re-exported)
    ENGINES,
    MAX_CARDS,
    PLACE_RANK,
    CardRef,
    Zangle,
    _backtrack_tiling,
    _choose_z,
    _kernels,
    _key,
    _shape_of,
    batch_zangles,
    deck_sids,
    deck_table,
    find_zangles,
    raw_zangles,
    resolve_engine,
    tile_shape,
    tiling_table,
)
from .svg import zangle_svg  # noqa: F401  (re-exported)


def exact_cover_exists(target: Polyform, pieces: Sequence[Polyform]) -> bool:
    """Whether ``pieces`` tile ``target``, decided by the exact-cover engine (solver.tiling)."""
    return bool(solve_tiling(target, list(pieces), each="exactly", mirror=True, query="first").solutions)


def tiling_exists(target: Polyform, pieces: Sequence[Polyform], engine: str = "backtrack") -> bool:
    """Whether ``pieces`` (each used once, rotated/mirrored freely) tile ``target`` exactly."""
    if engine == "exact_cover":
        return exact_cover_exists(target, pieces)
    return tile_shape(target, pieces) is not None


class TilingTable(_moves.TilingTable):
    """The games layer's tiling table, with ``engine="exact_cover"`` available as well."""

    def __init__(self, shapes: Iterable[Polyform], cache_dir=None, engine: str = "auto", exists=None):
        if resolve_engine(engine) == "exact_cover" and exists is None:
            exists = exact_cover_exists
        super().__init__(shapes, cache_dir, engine, exists)


def find_zangles_in_deal(deal, deck=None, options=None, proofs: bool = True) -> list:
    """``find_zangles`` on a parsed ``Deal``."""
    return find_zangles(deal.middle, deal.own, deck=deck, options=options, proofs=proofs)


def zangles_to_json(deal, zangles: Sequence[Zangle]) -> dict:
    """The ``--json`` output of ``tanglekit zangle find``; indexes are deal-file list positions."""
    out = []
    for z in zangles:
        pieces = []
        for ref, cells in zip(z.pieces, z.cells or [()] * len(z.pieces)):
            pieces.append({"place": ref.place, "index": ref.index, "cells": [list(c) for c in cells]})
        out.append(
            {
                "target": z.target.to_json(),
                "pieces": pieces,
                "z_cards": [r.to_json() for r in z.z_cards],
                "cards": z.cards,
                "triangles": z.triangles,
            }
        )
    return {"zangles": out}


def describe_zangle(deal, z: Zangle) -> str:
    """One text line: ``own[2] T4-bar-3 <= middle[0] T2-5 + own[1] T2-9 (+ Z own[3]); 4 cards, 8 triangles``."""

    def name(r: CardRef) -> str:
        c = deal.cards(r.place)[r.index]
        label = getattr(c, "id", "")
        return f"{r.place}[{r.index}]" + (f" {label}" if label and label != f"{r.place}[{r.index}]" else "")

    s = f"{name(z.target)} <= " + " + ".join(name(p) for p in z.pieces)
    if z.z_cards:
        s += " + Z " + ", ".join(name(r) for r in z.z_cards)
    return s + f"; {z.cards} cards, {z.triangles} triangles"


def format_zangles(deal, zangles: Sequence[Zangle]) -> str:
    """Plain-text listing for the CLI, best first (numbered)."""
    if not zangles:
        return "no Zangle"
    return "\n".join(f"{i + 1}. {describe_zangle(deal, z)}" for i, z in enumerate(zangles))



__all__ = [
    "CardRef",
    "TilingTable",
    "Zangle",
    "batch_zangles",
    "deck_sids",
    "deck_table",
    "describe_zangle",
    "find_zangles",
    "find_zangles_in_deal",
    "format_zangles",
    "raw_zangles",
    "tile_shape",
    "tiling_table",
    "zangle_svg",
    "zangles_to_json",
]
