"""A tiny, safe renderer for the project's own markdown (docs/*.md, the games' rules panels):
headings with anchors, paragraphs, lists (nested by indentation), tables, fenced code, block
quotes, and inline code, bold, italics and links. Everything else is text, HTML-escaped: nothing
in a document becomes markup the renderer did not write itself.

Links: ``x.md#part`` (another page of docs/) becomes ``/docs/x#part`` (``rules.md``: ``/rules``),
``#part`` and ``http(s)://`` links stay, any other target (a file of the repository) is shown as
its text without a link; an image is shown as its description.
"""

from __future__ import annotations

import re
from html import escape

from ..games.plugin import slug

__all__ = ["doc_url", "render", "render_inline", "slug"]

_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_ITEM = re.compile(r"^(\s*)([-*+]|\d{1,9}[.)])\s+(.*)$")
_FENCE = re.compile(r"^\s*(```|~~~)")
_ROW = re.compile(r"^\s*\|.*\|\s*$")
_RULE = re.compile(r"^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$")
_DOC = re.compile(r"^(?:\./)?([A-Za-z0-9_-]+)\.md(#[\w-]*)?$")


def doc_url(target: str) -> str | None:
    """Where a link of a docs page leads on the server (None: nowhere, shown as text)."""
    t = target.strip()
    if t.startswith("#") and re.fullmatch(r"#[\w-]*", t):
        return t
    if re.match(r"https?://[^\s<>\"']+$", t):
        return t
    m = _DOC.match(t)
    if m:
        page = "/rules" if m.group(1) == "rules" else f"/docs/{m.group(1)}"
        return page + (m.group(2) or "")
    return None


def render_inline(text: str) -> str:
    """One line's inline markdown as HTML: `code`, **bold**, *italics*, [links](x.md), images as
    their description; the rest escaped."""
    out = []
    for k, part in enumerate(re.split(r"(`[^`]*`)", text)):
        if k % 2:
            out.append(f"<code>{escape(part[1:-1])}</code>")
        else:
            out.append(_inline_text(part))
    return "".join(out)


def _inline_text(text: str) -> str:
    pieces = []
    pos = 0
    for m in re.finditer(r"(!?)\[([^\]]*)\]\(([^)\s]*)\)", text):
        pieces.append(_emphasis(escape(text[pos:m.start()], quote=False)))
        label = _emphasis(escape(m.group(2), quote=False))
        url = None if m.group(1) else doc_url(m.group(3))
        pieces.append(label if url is None else f'<a href="{escape(url)}">{label}</a>')
        pos = m.end()
    pieces.append(_emphasis(escape(text[pos:], quote=False)))
    return "".join(pieces)


def _emphasis(html: str) -> str:
    html = re.sub(r"\*\*(?=\S)(.+?)(?<=\S)\*\*", r"<strong>\1</strong>", html)
    return re.sub(r"(?<![\w*])\*(?=\S)([^*]+?)(?<=\S)\*(?![\w*])", r"<em>\1</em>", html)


def _cells(line: str) -> list[str]:
    s = line.strip()
    s = s.removeprefix("|")
    if s.endswith("|") and not s.endswith("\\|"):
        s = s[:-1]
    cells, cur, code = [], "", False
    for i, c in enumerate(s):  # a pipe inside `code` or escaped as \| is no cell border
        if c == "`":
            code = not code
        if c == "|" and not code and (i == 0 or s[i - 1] != "\\"):
            cells.append(cur)
            cur = ""
        else:
            cur += c
    cells.append(cur)
    return [c.strip().replace("\\|", "|") for c in cells]


def _table(lines: list[str]) -> str:
    head, rule, body = _cells(lines[0]), _cells(lines[1]), [_cells(x) for x in lines[2:]]
    align = ["right" if r.endswith(":") and not r.startswith(":") else "center" if r.startswith(":") and r.endswith(":")
             else "" for r in rule]

    def cell(tag: str, text: str, i: int) -> str:
        a = align[i] if i < len(align) else ""
        style = f' class="{a}"' if a else ""
        scope = ' scope="col"' if tag == "th" else ""
        return f"<{tag}{scope}{style}>{render_inline(text)}</{tag}>"

    out = ["<table>", "<thead><tr>" + "".join(cell("th", c, i) for i, c in enumerate(head)) + "</tr></thead>", "<tbody>"]
    for row in body:
        row = (row + [""] * len(head))[: len(head)]
        out.append("<tr>" + "".join(cell("td", c, i) for i, c in enumerate(row)) + "</tr>")
    out.append("</tbody></table>")
    return "\n".join(out)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _list(lines: list[str], ids: dict[str, int], base_level: int) -> str:
    """A list (its items and their continuation lines, nested lists by deeper indentation)."""
    first = _ITEM.match(lines[0])
    assert first is not None
    indent = len(first.group(1))
    tag = "ol" if first.group(2)[0].isdigit() else "ul"
    items: list[list[str]] = []
    for line in lines:
        m = _ITEM.match(line)
        if m and len(m.group(1)) <= indent:
            items.append([m.group(3)])
        else:
            items[-1].append(line)
    out = [f"<{tag}>"]
    for item in items:
        text = [item[0]]
        k = 1
        while k < len(item) and not _ITEM.match(item[k]) and item[k].strip():
            text.append(item[k].strip())
            k += 1
        rest = [x for x in item[k:]]
        inner = render_inline(" ".join(text))
        if any(x.strip() for x in rest):
            shift = min(_indent(x) for x in rest if x.strip())
            inner += "\n" + _blocks([x[shift:] if x.strip() else "" for x in rest], ids, base_level)
        out.append(f"<li>{inner}</li>")
    out.append(f"</{tag}>")
    return "\n".join(out)


def _blocks(lines: list[str], ids: dict[str, int], base_level: int) -> str:
    out: list[str] = []
    i, n = 0, len(lines)
    while i < n:
        line = lines[i]
        if not line.strip():
            i += 1
            continue
        fence = _FENCE.match(line)
        if fence:
            j = i + 1
            while j < n and not lines[j].strip().startswith(fence.group(1)):
                j += 1
            out.append('<pre tabindex="0"><code>' + escape("\n".join(lines[i + 1:j])) + "</code></pre>")
            i = j + 1
            continue
        h = _HEADING.match(line)
        if h:
            level = min(6, len(h.group(1)) + base_level)
            text = h.group(2)
            anchor = slug(re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text))
            count = ids.get(anchor, 0)
            ids[anchor] = count + 1
            if count:
                anchor = f"{anchor}-{count}"
            out.append(f'<h{level} id="{escape(anchor)}">{render_inline(text)}</h{level}>')
            i += 1
            continue
        if _ROW.match(line) and i + 1 < n and _RULE.match(lines[i + 1]):
            j = i + 2
            while j < n and _ROW.match(lines[j]):
                j += 1
            out.append(_table(lines[i:j]))
            i = j
            continue
        if _ITEM.match(line):
            j = i + 1
            while j < n:
                if lines[j].strip():
                    if not (_indent(lines[j]) > _indent(line) or _ITEM.match(lines[j]) and _indent(lines[j]) >= _indent(line)):
                        break
                elif j + 1 < n and not (lines[j + 1].strip() and (_indent(lines[j + 1]) > _indent(line) or _ITEM.match(lines[j + 1]))):
                    break
                j += 1
            out.append(_list(lines[i:j], ids, base_level))
            i = j
            continue
        if line.lstrip().startswith(">"):
            j = i
            while j < n and lines[j].lstrip().startswith(">"):
                j += 1
            quoted = [x.lstrip()[1:].removeprefix(" ") for x in lines[i:j]]
            out.append("<blockquote>" + _blocks(quoted, ids, base_level) + "</blockquote>")
            i = j
            continue
        j = i
        para = []
        while j < n and lines[j].strip() and not (_HEADING.match(lines[j]) or _FENCE.match(lines[j]) or _ITEM.match(lines[j])
                                                  or lines[j].lstrip().startswith(">")
                                                  or _ROW.match(lines[j]) and j + 1 < n and _RULE.match(lines[j + 1])):
            para.append(lines[j].strip())
            j += 1
        if not para:  # a line no block takes: its text
            para, j = [line.strip()], i + 1
        out.append("<p>" + render_inline(" ".join(para)) + "</p>")
        i = j
    return "\n".join(out)


def render(text: str, base_level: int = 0) -> str:
    """A markdown document as HTML (headings shifted down by ``base_level`` levels, each with the
    ``id`` GitHub gives it, repeats numbered ``-1``, ``-2``...)."""
    return _blocks(text.replace("\r\n", "\n").replace("\t", "    ").split("\n"), {}, base_level)
