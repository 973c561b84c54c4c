"""Printable booklets: one HTML file with a page per challenge and the answer pages at the back.

Pages are the same SVG sheets that `--svg` writes, inlined; print styles put each on its own
sheet of paper, so a browser's "print" (or "save as PDF") gives the booklet.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape


@dataclass
class BookletPage:
    """One challenge: its heading, the puzzle sheet and the answer sheet (SVG text)."""

    heading: str
    puzzle_svg: str
    answer_svg: str


_STYLE = """
body { font-family: sans-serif; margin: 0; color: #111; }
section.page { padding: 12mm; break-after: page; page-break-after: always; }
section.page:last-child { break-after: auto; page-break-after: auto; }
h1 { font-size: 20pt; margin: 0 0 4mm; }
h2 { font-size: 14pt; margin: 0 0 3mm; }
p.meta { font-size: 10pt; color: #444; margin: 0 0 4mm; }
div.sheet svg { width: 100%; max-width: 170mm; height: auto; }
ol.contents { font-size: 11pt; }
"""


def _inline(svg: str) -> str:
    """An SVG document as inline markup (the XML declaration dropped)."""
    text = svg.strip()
    if text.startswith("<?xml"):
        text = text[text.index("?>") + 2:].lstrip()
    return text


def booklet_html(title: str, pages: list[BookletPage], intro: str = "") -> str:
    """The booklet: a title page with contents, the puzzle pages, then the answers."""
    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
           f"<title>{escape(title)}</title><style>{_STYLE}</style></head><body>"]
    out.append('<section class="page"><h1>' + escape(title) + "</h1>")
    if intro:
        out.append(f'<p class="meta">{escape(intro)}</p>')
    out.append('<ol class="contents">')
    for k, p in enumerate(pages, 1):
        out.append(f"<li>{escape(p.heading)} (puzzle page {k + 1}, answer page {len(pages) + k + 1})</li>")
    out.append("</ol><p class=\"meta\">Answers are at the back.</p></section>")
    for k, p in enumerate(pages, 1):
        out.append(f'<section class="page puzzle"><h2>{k}. {escape(p.heading)}</h2>'
                   f'<div class="sheet">{_inline(p.puzzle_svg)}</div></section>')
    for k, p in enumerate(pages, 1):
        out.append(f'<section class="page answer"><h2>Answer {k}. {escape(p.heading)}</h2>'
                   f'<div class="sheet">{_inline(p.answer_svg)}</div></section>')
    out.append("</body></html>")
    return "\n".join(out) + "\n"


__all__ = ["BookletPage", "booklet_html"]
