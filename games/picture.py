"""Hot spots on a game's SVG picture: transparent elements carrying ``data-action`` that the
play and check pages click (every game's ``web.py`` draws its own with these two helpers)."""

from __future__ import annotations

HOT = ('<rect class="hot{cls}" data-action="{a}" x="{x}" y="{y}" width="{w}" height="{h}" '
       'fill="#000" fill-opacity="0" style="cursor:pointer"/>')


def inject(svg: str, elements: list[str]) -> str:
    """``svg`` with ``elements`` drawn last (on top), just before ``</svg>``."""
    i = svg.rfind("</svg>")
    return svg[:i] + "\n".join(elements) + "\n" + svg[i:]
