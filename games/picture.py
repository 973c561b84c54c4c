"""Hot spots on a game's SVG picture: transparent elements carrying ``data-action`` that the
play and check pages click (every game's ``web.py`` draws its own with these helpers), and the
names screen readers announce for a picture and for each of its hot spots."""

from __future__ import annotations

# role and aria-label: a hot spot is announced as a button named by what clicking it does or shows
HOT = ('<rect class="hot{cls}" data-action="{a}" x="{x}" y="{y}" width="{w}" height="{h}" '
       'fill="#000" fill-opacity="0" style="cursor:pointer" role="button" aria-label="{label}"/>')


def attr(text: object) -> str:
    """``text`` escaped for an XML/HTML attribute value in double quotes."""
    return (str(text).replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;").replace(">", "&gt;"))


def inject(svg: str, elements: list[str]) -> str:
    """``svg`` with ``elements`` drawn last (on top), just before ``</svg>``."""
    i = svg.rfind("</svg>")
    return svg[:i] + "\n".join(elements) + "\n" + svg[i:]


def named(svg: str, label: str, role: str = "img") -> str:
    """``svg`` whose outer ``<svg>`` element has ``role`` and the accessible name ``label``: "img"
    for a picture read as a whole (its text is then not read: the label says what it shows),
    "group" for one holding hot spots (each read as a button of its own)."""
    i = svg.find("<svg")
    if i < 0:
        return svg
    return svg[:i + 4] + f' role="{role}" aria-label="{attr(label)}"' + svg[i + 4:]
