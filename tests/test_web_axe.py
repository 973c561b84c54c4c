"""Accessibility and layout of every page of `tanglekit serve`, checked by a tool (issue 26, items 1
and 6): axe-core (vendored, tests/vendor/axe-core) runs in headless Chromium on the index, a play
page of every game and of every playable instance kind, every check page, the rules page when the
server has one, and a play page's error state, each at phone (390x844) and desktop (1366x768)
size. No page may have an axe violation of impact "serious" or "critical" (contrast, names of
pictures, buttons and inputs, ...), and at phone size no page may scroll sideways.

The pages are visited once (a module-scoped fixture) and each page's test reads its findings.
With TANGLEKIT_SHOTS=<folder> set, a full-page PNG of every page at both sizes is saved there."""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("selenium.webdriver", reason="selenium is not installed (pip install -e '.[test]')")

from browser_kit import *  # the server, the browser and the helpers (fixtures)
from browser_kit import DESKTOP, PHONE, POLL, WAIT, By, Keys, WebDriverWait, set_window

AXE = Path(__file__).resolve().parent / "vendor" / "axe-core" / "axe.min.js"
BAD_IMPACTS = ("serious", "critical")

#: a play page of each playable instance kind: a descriptive ID (no generation while the test runs)
#: and the query (the seats); a kind missing here fails test_every_playable_kind_has_a_page
KIND_PAGES = {
    "zangle-solo-deal": "zangle:solo,piles=5,easy:2h2a0r.061z18382t0v0q.0w.013b.0h0b34.1l2b1y21.19321a0p0g",
    "tanglung-challenge": "tanglung:solo,easy:RHHC/FRBF/FBBD/CHRD",
    "qango-puzzle": "qango:6:k2:.X.OOX/O....O/XO.X../..XO../X...../....X.",
    # a position played by two people (both seats human)
    "qango-position": "qango:6:.X.OOX/O....O/XO.X../..XO../X...../....X.?bots=human,human",
    "tangle-puzzle": "tangle:players=2,board=tangle-default,pieces=tangle-default,min_points=10,min_chain=2:"
                     "325.30b.ao.10h.fe.2vs.2jr.2xe.283.1wo.1i2.17v.1jv.1po",
}
BAD_ID = "qango:6:k2:nonsense"
ANSWERED_LAYOUT = "CRBF/HDFR/BHFB/RHDC"  # the check page's answered state: solvable in 14 moves


def _get(base: str, path: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(base + path, timeout=30) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def _catalog(base: str) -> dict:
    code, body = _get(base, "/api/catalog")
    assert code == 200
    return json.loads(body)


def _pages(base: str) -> dict[str, tuple[str, str]]:
    """name -> (path, what to wait for: index, play, error, check, answer (a check page's answer) or page)."""
    from urllib.parse import quote

    cat = _catalog(base)
    pages = {"index": ("/", "index")}
    for game in cat["games"]:  # the index links each game: a new game from a seed
        pages[f"play-{game}"] = (f"/play/{game}?seed=1", "play")
    for kind, spec in KIND_PAGES.items():
        spec, _, query = spec.partition("?")
        pages[f"id-{kind}"] = (f"/play/{quote(spec, safe=':,=/')}" + (f"?{query}" if query else ""), "play")
    for game in cat["check"]:
        pages[f"check-{game}"] = (f"/check/{game}", "check")
    if "zangle" in cat["check"]:  # a deal being entered: cards in a zone, used in the deck
        pages["check-zangle-entered"] = ("/check/zangle", "entered")
    if "tanglung" in cat["check"]:  # a check page with its answer: the solver's line, animated
        pages["check-tanglung-answered"] = ("/check/tanglung", "answer")
    if _get(base, "/rules")[0] == 200:  # the rules page, where the server has one
        pages["rules"] = ("/rules", "page")
    pages["error-bad-id"] = (f"/play/{quote(BAD_ID, safe=':,=/')}", "error")
    return pages


def _ready(d, what: str) -> bool:
    """Whether the page has drawn what it loads (the API's answer), so axe sees the real page."""
    if d.execute_script("return document.readyState") != "complete":
        return False
    found = lambda css: bool(d.find_elements(By.CSS_SELECTOR, css))
    if what == "index":
        return found("#generators tr") and found("#games tr")
    if what == "play":
        return "ID " in d.find_element(By.ID, "idline").text and not d.find_element(By.ID, "busy").text
    if what == "error":
        return bool(d.find_element(By.ID, "message").text)
    if what == "entered":
        return len(d.find_elements(By.CSS_SELECTOR, ".zone .card")) == 3
    if what == "answer":
        return bool(d.find_element(By.ID, "answer").text) and found("#frame svg")
    if what == "check":
        return (found("#deck .card") or found("#grid svg")) and not d.find_element(By.ID, "busy").text
    return True


_RUN = """
const done = arguments[arguments.length - 1];
axe.run(document, {resultTypes: ["violations"]}).then(
  (r) => done(r.violations.map((v) => ({id: v.id, impact: v.impact, help: v.help,
                                         targets: v.nodes.map((n) => n.target.join(" ")).slice(0, 8),
                                         count: v.nodes.length}))),
  (e) => done([{id: "axe-error", impact: "critical", help: String(e), targets: [], count: 0}]));
"""

# What axe does not look at, checked the same way (the same result shape, impact "serious"):
# - svg-text-contrast: text drawn in the pictures (SVG <text>) against the shape under it,
#   at least 4.5:1 (3:1 for large text), the WCAG AA figures axe applies to HTML text;
# - picture-name: every picture (an <svg> not inside another) has a role and an accessible name
#   (aria-label, aria-labelledby or <title>) or is hidden from assistive technology as decoration;
#   every hot spot in a picture (data-action, data-side) has a role and a name;
# - target-size-40: at phone size, the cards and zones a person taps are at least 40 x 40 px.
_OWN = """
const W = arguments[0], bad = {};
function add(id, help, target) {
  bad[id] = bad[id] || {id, impact: "serious", help, targets: [], count: 0};
  bad[id].count++;
  if (bad[id].targets.length < 8) bad[id].targets.push(target);
}
function where(e) {  // a readable selector: the nearest id, the tag, the text of a text element, the hot spot
  const s = e.closest("[id]"), d = e.dataset || {};
  return (s && s !== e ? "#" + s.id + " " : "") + e.tagName.toLowerCase() + (e.id ? "#" + e.id : "")
    + (e.tagName === "text" ? ` "${e.textContent.trim().slice(0, 30)}"` : "")
    + (d.action ? `[data-action=${d.action}]` : "") + (d.side ? `[data-side=${d.side}]` : "")
    + (d.card ? `[data-card=${d.card}]` : "") + (d.zone ? `[data-zone="${d.zone}"]` : "");
}
function rgb(s) {
  const m = /rgba?\\(([\\d.]+), ([\\d.]+), ([\\d.]+)(?:, ([\\d.]+))?\\)/.exec(s);
  return m ? [+m[1], +m[2], +m[3], m[4] === undefined ? 1 : +m[4]] : null;
}
function lum([r, g, b]) {
  const f = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
  return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
}
function over(top, a, under) { return top.map((c, i) => c * a + under[i] * (1 - a)); }
function ratio(a, b) { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); }
function paint(e) {  // the colour of a filled shape or text and its opacity (fill-opacity times opacity)
  const cs = getComputedStyle(e), c = rgb(cs.fill);
  if (!c || cs.fill === "none") return null;
  return [c.slice(0, 3), c[3] * +cs.fillOpacity * +cs.opacity];
}
function bgAt(x, y, svg) {  // the colour under a point: the picture's shapes there, over white
  let colour = [255, 255, 255];
  const stack = document.elementsFromPoint(x, y).filter((e) => svg.contains(e) && e !== svg
    && ["rect", "circle", "polygon", "path", "ellipse"].includes(e.tagName) && !e.classList.contains("hot"));
  for (const e of stack.reverse()) { const p = paint(e); if (p && p[1] > 0) colour = over(p[0], p[1], colour); }
  return colour;
}
for (const t of document.querySelectorAll("svg text")) {
  const svg = t.ownerSVGElement, p = paint(t);
  let r = t.getBoundingClientRect();
  if (!p || !t.textContent.trim() || r.width === 0 || getComputedStyle(t).visibility === "hidden") continue;
  if (r.top < 0 || r.bottom > innerHeight || r.left < 0 || r.right > innerWidth) {  // the shapes under it: on screen only
    t.scrollIntoView({block: "center", inline: "center"});
    r = t.getBoundingClientRect();
  }
  const bg = bgAt(r.left + r.width / 2, r.top + r.height / 2, svg), fg = over(p[0], p[1], bg);
  const cs = getComputedStyle(t), px = parseFloat(cs.fontSize) * svg.getScreenCTM().a;  // as drawn, in CSS px
  const k = ratio(fg, bg), large = px >= 24 || (px >= 18.66 && +cs.fontWeight >= 700);
  if (k < (large ? 3 : 4.5))
    add("svg-text-contrast", "Text in pictures must have a contrast of at least 4.5:1 (3:1 large)", where(t) + ` ${k.toFixed(2)}:1`);
}
const named = (e) => e.getAttribute("aria-label") || e.getAttribute("aria-labelledby")
  || [...e.children].some((c) => c.tagName === "title" && c.textContent.trim());
for (const svg of document.querySelectorAll("svg")) {
  if (svg.parentElement.closest("svg") || svg.closest("[aria-hidden=true]")) continue;
  if (!svg.getAttribute("role") || !named(svg))
    add("picture-name", "Pictures must have a role and an accessible name (or aria-hidden as decoration)", where(svg));
}
for (const h of document.querySelectorAll("svg [data-action], svg [data-side]")) {
  if (!h.getAttribute("role") || !named(h)) add("picture-name", "Hot spots in pictures must have a role and an accessible name", where(h));
}
if (W < 600) for (const c of document.querySelectorAll(".deck .card, .zone .card, #board .card[data-place], .zone")) {
  const r = c.getBoundingClientRect();
  if (r.width < 40 || r.height < 40)
    add("target-size-40", "Cards and zones tapped on a phone must be at least 40 x 40 px", where(c) + ` ${Math.round(r.width)}x${Math.round(r.height)}`);
}
return Object.values(bad);
"""


def _shot(d, folder: Path, name: str) -> None:
    """A PNG of the whole page (not only the viewport) at the current size."""
    import base64  # only when screenshots were asked for

    w, h = d.execute_script("return [innerWidth, Math.max(document.documentElement.scrollHeight, innerHeight)]")
    clip = {"x": 0, "y": 0, "width": w, "height": min(h, 6000), "scale": 1}
    png = d.execute_cdp_cmd("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True, "clip": clip})
    (folder / f"{name}.png").write_bytes(base64.b64decode(png["data"]))


@pytest.fixture(scope="module")
def audit(driver, base):
    """(page name, "phone" | "desktop") -> {"violations": [...], "scroll": scrollWidth, "width": the viewport's}."""
    axe = AXE.read_text(encoding="utf-8")
    shots = os.environ.get("TANGLEKIT_SHOTS")
    folder = Path(shots) if shots else None
    if folder is not None:
        folder.mkdir(parents=True, exist_ok=True)
    driver.set_script_timeout(60)
    out = {}
    for size_name, size in (("phone", PHONE), ("desktop", DESKTOP)):
        set_window(driver, size)
        for name, (path, what) in _pages(base).items():
            driver.get(base + path)
            if what == "answer":  # a layout typed in, then checked
                WebDriverWait(driver, WAIT, poll_frequency=POLL).until(lambda d: _ready(d, "check"))
                box = driver.find_element(By.ID, "entrytext")
                box.clear()
                box.send_keys(ANSWERED_LAYOUT, Keys.TAB)
                WebDriverWait(driver, WAIT, poll_frequency=POLL).until(
                    lambda d: d.find_element(By.ID, "entrytext").get_attribute("value") == ANSWERED_LAYOUT)
                driver.find_element(By.ID, "solve").click()
            if what == "entered":  # three cards of the deck put in the middle
                WebDriverWait(driver, WAIT, poll_frequency=POLL).until(lambda d: _ready(d, "check"))
                for _ in range(3):  # the deck is drawn again after each click
                    driver.find_elements(By.CSS_SELECTOR, "#deck .card:not(.used)")[0].click()
            WebDriverWait(driver, WAIT, poll_frequency=POLL).until(lambda d, what=what: _ready(d, what))
            driver.execute_script(axe)
            found = driver.execute_async_script(_RUN) + driver.execute_script(_OWN, size[0])
            # the document's width against the viewport asked for (a phone's innerWidth grows to fit a page
            # wider than the screen: the browser zooms out, which is the sideways scrolling this catches)
            scroll = driver.execute_script("return document.documentElement.scrollWidth")
            out[name, size_name] = {"violations": found, "scroll": scroll, "width": size[0]}
            if folder is not None:
                _shot(driver, folder, f"{name}-{size_name}")
    set_window(driver, DESKTOP)
    if folder is not None:  # every finding (the minor ones too), for a person to read
        (folder / "axe.json").write_text(json.dumps({f"{n} {s}": v for (n, s), v in out.items()}, indent=1))
    return out


def _readable(violations: list[dict]) -> str:
    return "\n".join(f"  {v['id']} ({v['impact']}, {v['count']} element(s)): {v['help']}\n"
                     f"      at {'; '.join(v['targets'])}" for v in violations)


# the page names are known without a server: the catalog of the registered plugins
def _page_names() -> list[str]:
    from tanglekit.games.plugin import plugins
    from tanglekit.web.session import catalog

    cat = catalog()
    names = ["index", *(f"play-{g}" for g in cat["games"]), *(f"id-{k}" for k in KIND_PAGES),
             *(f"check-{g}" for g in cat["check"]), "check-zangle-entered", "check-tanglung-answered", "rules",
             "error-bad-id"]
    assert {k for p in plugins() for k in p.playable_kinds} <= set(KIND_PAGES)
    return names


def test_every_playable_kind_has_a_page():
    from tanglekit.games.plugin import plugins

    kinds = {k for p in plugins() for k in p.playable_kinds}
    assert kinds and kinds <= set(KIND_PAGES), f"no play page tested for {sorted(kinds - set(KIND_PAGES))}"


@pytest.mark.parametrize("page", _page_names())
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_no_serious_axe_violation_and_no_sideways_scroll(audit, page, size):
    if (page, size) not in audit:
        assert page in ("rules", "check-zangle-entered", "check-tanglung-answered"), f"{page} was not visited"
        pytest.skip(f"this server has no {page} page")
    found = audit[page, size]
    bad = [v for v in found["violations"] if v["impact"] in BAD_IMPACTS]
    assert not bad, f"{page} at {size} size has axe violations:\n{_readable(bad)}"
    if size == "phone":
        assert found["scroll"] <= found["width"] + 1, \
            f"{page} scrolls sideways at phone size: {found['scroll']} px wide in a {found['width']} px viewport"
