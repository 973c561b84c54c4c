"""The documentation stands alone in a clone (issue 26): README.md and docs/*.md link and name only
files of this repository, hold no placeholder tokens, every docs page is reachable, and
docs/rules.md (the rules as tanglekit reads them) names every rule option the code declares.

What the checks mean, precisely:

- **Links** (`[text](target)`, `![alt](target)`, `<scheme://...>`, `[ref]: target`) outside fenced
  code: a relative target must not start with `/` nor contain a `..` segment, must name an
  existing file or folder of the repository (resolved from the page's folder), and its
  `#fragment` must be a heading of that page (GitHub's anchor rule). A link with a scheme is
  allowed only to the few public project sites in ``PUBLIC_SITES`` (and the loopback address
  that `tanglekit serve` prints); any other scheme or site fails.
- **Bare paths** (words of prose, code spans and code blocks): a word that starts with `../`
  leaves the repository and fails; an absolute path fails unless it is a route of the web app
  (``WEB_ROUTES``) or a device file the docs name as refused input (``DEVICES``); a path under
  the home folder fails unless it is the documented kernel cache; a word whose first segment is
  a top-level entry of the repository (`games/...`, `tests/...`, `docs/...`) must match a file or
  folder (``<...>``, ``…``, ``*`` and all-caps words such as ``NAME`` are wildcards; a module may
  be named without ``.py``).
- **Placeholders**: a token matching ``[A-Z]{3,}_[A-Z_]{2,}`` (e.g. an unfilled ``STARTUP_...``
  figure) is a placeholder unless it is a real name: an identifier, attribute or keyword of the
  Python sources, or a word of one of their non-docstring string constants (environment
  variables such as ``TANGLEKIT_ENGINE`` are read through such constants). Comments and
  docstrings do not make a token real.
- **Reachability**: every ``docs/*.md`` page is the target of a link from README.md or from
  another docs page.
- **Rule options**: every options class of the code (a class deriving from ``RuleOptions``
  anywhere under ``games/``, found by reading the sources) has a ``## <GAME>`` section in
  docs/rules.md, and that section's tables have a row ``| `option` | values | `default` | ... |``
  for each of its options, with the default the README's table shows; README.md's "Rule
  options" section and every game's page (``docs/<family>.md`` of each game plugin) link
  docs/rules.md.
"""

from __future__ import annotations

import ast
import importlib
import re
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
RULES = DOCS / "rules.md"
PAGES = [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]
PAGE_IDS = [str(p.relative_to(ROOT)) for p in PAGES]

#: public project sites the docs may link to (scheme + host + path prefix), with why
PUBLIC_SITES = {
    "https://github.com/google-deepmind/open_spiel": "OpenSpiel, whose API names the game API follows",
    "https://pettingzoo.farama.org": "PettingZoo, the multi-agent environment API of the adapter",
    "http://127.0.0.1:8765/": "the loopback address `tanglekit serve` listens on (this machine)",
}
#: first segments of absolute paths that are routes of the local web app (web/server.py), not files
WEB_ROUTES = ("play", "check", "new", "api", "static", "rules", "docs")
#: device files the docs name as inputs that are refused or as output targets
DEVICES = ("/dev/null", "/dev/zero", "/dev/stdout", "/dev/stdin")
#: paths under the home folder that the docs may name: the per-user kernel cache
HOME_PATHS = ("~/.cache/tanglekit/",)

PLACEHOLDER = re.compile(r"\b[A-Z]{3,}_[A-Z_]{2,}\b")
INLINE_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
AUTOLINK = re.compile(r"<([a-zA-Z][a-zA-Z0-9+.-]*:[^>\s]+)>")
REF_DEF = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s.*)?$")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
FENCE = re.compile(r"^\s*(```|~~~)")


def _text(page: Path) -> str:
    return page.read_text(encoding="utf-8")


def _split_fences(text: str) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    """(prose lines, fenced code lines), each as (line number, text)."""
    prose, code, fenced = [], [], False
    for n, line in enumerate(text.splitlines(), 1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        (code if fenced else prose).append((n, line))
    return prose, code


def _strip_code_spans(line: str) -> str:
    return re.sub(r"(`+)(.+?)\1", lambda m: " " * len(m.group(0)), line)


def slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link keeps its text
    text = re.sub(r"[^\w\- ]", "", text.strip().lower())
    return text.replace(" ", "-")


@cache
def anchors(page: Path) -> frozenset[str]:
    seen: dict[str, int] = {}
    out = set()
    prose, _ = _split_fences(_text(page))
    for _, line in prose:
        m = HEADING.match(line)
        if m:
            base = slug(m.group(2))
            k = seen.get(base, 0)
            seen[base] = k + 1
            out.add(base if k == 0 else f"{base}-{k}")
    return frozenset(out)


def links(page: Path) -> list[tuple[int, str]]:
    """(line, target) of every link outside fenced code."""
    prose, _ = _split_fences(_text(page))
    out = []
    for n, line in prose:
        bare = _strip_code_spans(line)
        for rx in (INLINE_LINK, AUTOLINK):
            out += [(n, m.group(1)) for m in rx.finditer(bare)]
        m = REF_DEF.match(bare)
        if m:
            out.append((n, m.group(1)))
    return out


def _resolve(page: Path, target: str) -> tuple[Path | None, str]:
    """The repository file a relative link names (None: not a relative link) and its fragment."""
    path, _, frag = target.partition("#")
    if not path:
        return page, frag
    return (page.parent / path), frag


def link_problems(page: Path) -> list[str]:
    bad = []
    for n, target in links(page):
        where = f"{page.relative_to(ROOT)}:{n}: {target}"
        if re.match(r"[a-zA-Z][a-zA-Z0-9+.-]*:", target):
            if not any(target == site or target.startswith(site.rstrip("/") + "/") for site in PUBLIC_SITES):
                bad.append(f"{where}: leaves the repository (allowed sites: {', '.join(PUBLIC_SITES)})")
            continue
        path = target.partition("#")[0]
        if path.startswith(("/", "~")):
            bad.append(f"{where}: an absolute path (a clone has only the repository)")
            continue
        if ".." in Path(path).parts:
            bad.append(f"{where}: a `..` path (leaves the repository, or folder it should not need)")
            continue
        file, frag = _resolve(page, target)
        assert file is not None
        try:
            file.resolve().relative_to(ROOT)
        except ValueError:
            bad.append(f"{where}: outside the repository")
            continue
        if not file.exists():
            bad.append(f"{where}: no such file in the repository")
        elif frag and file.suffix == ".md" and frag not in anchors(file.resolve()):
            bad.append(f"{where}: no heading #{frag} in {file.resolve().relative_to(ROOT)}")
    return bad


# ---- bare paths ------------------------------------------------------------------------------
TOP_LEVEL = sorted(p.name for p in ROOT.iterdir() if p.name not in (".git", "__pycache__"))
_WORD_STRIP = "`'\"()[]{},;:!?*"


def _words(page: Path):
    for n, line in enumerate(_text(page).splitlines(), 1):
        line = re.sub(r"\]\([^)]*\)", "] ", line)  # link targets are checked as links
        for w in re.split(r"[\s`|=]+", line):
            w = w.strip(_WORD_STRIP).rstrip(".")
            if "/" in w and re.search(r"[A-Za-z]", w) and "://" not in w and not w.startswith("<http"):
                yield n, w


def _globs_of(path: str) -> list[str]:
    """The path as a glob (``<...>``, ``…``, ``...`` as ``*``), then with all-caps words
    (``NAME``, ``FILE``) as ``*`` too: a literal name is tried first."""
    path = re.sub(r"<[^>]*>", "*", path).replace("…", "*").replace("...", "*")
    return [path, re.sub(r"\b[A-Z][A-Z0-9_]+\b", "*", path)]


def path_problems(page: Path) -> list[str]:
    bad = []
    for n, w in _words(page):
        where = f"{page.relative_to(ROOT)}:{n}: {w}"
        if w.startswith("../"):
            bad.append(f"{where}: a path that leaves the repository")
        elif w.startswith("/"):
            first = w[1:].split("/", 1)[0].split("?", 1)[0]
            if first not in WEB_ROUTES and not w.startswith(DEVICES):
                bad.append(f"{where}: an absolute path (not a web route {WEB_ROUTES} nor a device file)")
        elif w.startswith("~"):
            if not w.startswith(HOME_PATHS):
                bad.append(f"{where}: a path in someone's home folder")
        elif w.split("/", 1)[0] in TOP_LEVEL:
            hits = [h for g in _globs_of(w.rstrip("/")) for h in [*ROOT.glob(g), *ROOT.glob(g + ".py")]]
            if not hits:
                bad.append(f"{where}: no such file or folder in the repository")
    return bad


# ---- placeholders ----------------------------------------------------------------------------
@cache
def real_names() -> frozenset[str]:
    """Identifiers, attributes, keywords and words of non-docstring string constants of every
    Python source of the repository (this test file aside)."""
    names: set[str] = set()
    for src in ROOT.rglob("*.py"):
        if src == Path(__file__).resolve() or ".git" in src.parts:
            continue
        tree = ast.parse(src.read_text(encoding="utf-8"))
        docstrings = set()
        for node in ast.walk(tree):
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                body = node.body
                if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                    docstrings.add(id(body[0].value))
        for node in ast.walk(tree):
            if isinstance(node, ast.Name):
                names.add(node.id)
            elif isinstance(node, ast.Attribute):
                names.add(node.attr)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, ast.alias):
                names.add((node.asname or node.name).split(".")[-1])
            elif (isinstance(node, ast.keyword) and node.arg) or isinstance(node, ast.arg):
                names.add(node.arg)
            elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
                names.update(re.findall(r"\w+", node.value))
    return frozenset(names)


def placeholders(page: Path) -> dict[str, list[int]]:
    found: dict[str, list[int]] = {}
    for n, line in enumerate(_text(page).splitlines(), 1):
        for tok in PLACEHOLDER.findall(line):
            if tok not in real_names():
                found.setdefault(tok, []).append(n)
    return found


# ---- rule options ----------------------------------------------------------------------------
def option_classes() -> list[type]:
    """Every class deriving from ``RuleOptions`` under games/, found by reading the sources."""
    from tanglekit.games.options import RuleOptions

    out = []
    for src in sorted((ROOT / "games").rglob("*.py")):
        tree = ast.parse(src.read_text(encoding="utf-8"))
        for node in tree.body:
            if isinstance(node, ast.ClassDef) and any(
                    (isinstance(b, ast.Name) and b.id == "RuleOptions")
                    or (isinstance(b, ast.Attribute) and b.attr == "RuleOptions") for b in node.bases):
                module = ".".join(("tanglekit", *src.relative_to(ROOT).with_suffix("").parts))
                cls = getattr(importlib.import_module(module), node.name)
                assert issubclass(cls, RuleOptions)
                out.append(cls)
    return out


def rules_section(game: str) -> str:
    """The text of docs/rules.md under its ``## <game>`` heading (to the next ``## ``)."""
    m = re.search(rf"^## {re.escape(game)}[ \t]*\n(.*?)(?=^## |\Z)", _text(RULES), re.MULTILINE | re.DOTALL)
    return m.group(1) if m else ""


def _links_to(page: Path, target: Path) -> bool:
    return any((f := _resolve(page, t)[0]) is not None and "://" not in t and f.resolve() == target.resolve()
               for _, t in links(page))


# ---- tests -----------------------------------------------------------------------------------
@pytest.mark.parametrize("page", PAGES, ids=PAGE_IDS)
def test_links_stay_in_the_repository(page):
    assert not link_problems(page), "\n".join(link_problems(page))


@pytest.mark.parametrize("page", PAGES, ids=PAGE_IDS)
def test_bare_paths_name_files_of_the_repository(page):
    assert not path_problems(page), "\n".join(path_problems(page))


@pytest.mark.parametrize("page", PAGES, ids=PAGE_IDS)
def test_no_placeholder_tokens(page):
    found = placeholders(page)
    assert not found, "placeholders (not names in the code): " + ", ".join(
        f"{t} (line {', '.join(map(str, ns))})" for t, ns in sorted(found.items()))


def test_every_docs_page_is_linked():
    for doc in sorted(DOCS.glob("*.md")):
        sources = [p for p in PAGES if p != doc and _links_to(p, doc)]
        assert sources, f"docs/{doc.name} is linked from neither README.md nor another docs page"


def test_rules_page_names_every_rule_option():
    classes = option_classes()
    games = {cls.GAME for cls in classes}
    assert {"Zangle", "Tanglung", "QANGO", "Zinga", "Tangle"} <= games, games
    for cls in classes:
        section = rules_section(cls.GAME)
        assert section, f"docs/rules.md has no '## {cls.GAME}' section"
        rows = {}
        for line in section.splitlines():
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            m = re.fullmatch(r"`([a-z_0-9]+)`", cells[0]) if len(cells) >= 4 else None
            if m:
                rows[m.group(1)] = cells
        for _, name, shown, _ in cls.docs_rows():
            assert name in rows, f"docs/rules.md '## {cls.GAME}' has no table row for option `{name}`"
            assert rows[name][2].strip("`") == shown, (
                f"docs/rules.md gives {cls.GAME} `{name}` the default {rows[name][2]}, the code {shown}")


def test_readme_and_game_pages_link_the_rules():
    from tanglekit.games.plugin import plugins

    readme = _text(ROOT / "README.md")
    section = re.search(r"^## Rule options\n(.*?)(?=^## |\Z)", readme, re.MULTILINE | re.DOTALL)
    assert section and "(docs/rules.md" in section.group(1), "README's Rule options section does not link docs/rules.md"
    for p in plugins():
        page = DOCS / f"{p.family}.md"
        assert page.exists(), f"game {p.family} has no page docs/{p.family}.md"
        assert _links_to(page, RULES), f"docs/{p.family}.md does not link rules.md"


def test_allowed_absolute_paths_are_routes_of_the_web_app():
    server = _text(ROOT / "web" / "server.py")
    for route in WEB_ROUTES:
        assert f'"/{route}' in server, f"/{route} is not a route of web/server.py: drop it from WEB_ROUTES"
