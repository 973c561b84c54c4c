"""The Zangle finder's answer for a deal: every valid Zangle of its table, best first, with its
proof, as text and JSON (the search itself is ``moves.find_zangles``)."""

from __future__ import annotations

from typing import Sequence

from .moves import CardRef, Zangle, find_zangles


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



__all__ = ["describe_zangle", "find_zangles_in_deal", "format_zangles", "zangles_to_json"]
