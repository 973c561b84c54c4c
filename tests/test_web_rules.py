"""The rules panel of every play and check page (issue 26 items 3 and 8): each game's rules in
short with the rule options in force, from ``GamePlugin.rules`` through ``/api/rules``; the
project's rules (docs/rules.md) as the page ``/rules``; and a plugin with no rules of its own (the
toy Nim of tests/) still gets a panel."""

from __future__ import annotations

import json
import re
import tomllib
import urllib.error
import urllib.request
from dataclasses import fields
from fnmatch import fnmatch
from html import unescape
from pathlib import Path
from urllib.parse import urlencode

import pytest

from tanglekit.games.plugin import game_names, load_game, plugin_of, plugins, slug

ROOT = Path(__file__).resolve().parents[1]
RULES_MD = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
#: descriptive IDs (nothing to generate) whose game has a rule option off its default
NON_DEFAULT = {
    "tanglung:solo,hard,literal_blocking=1:BRDC/BFRH/BFHD/CRFH": ("literal_blocking", True, "on"),
    "qango:7plus:##...##/#.....#/......./......./......./#.....#/##...##": ("board", "qango7plus", "qango7plus"),
}


def get(base: str, path: str, **q) -> tuple[int, bytes]:
    url = base + path + ("?" + urlencode(q) if q else "")
    try:
        with urllib.request.urlopen(url, timeout=120) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def panel(base: str, **q) -> dict:
    code, body = get(base, "/api/rules", **q)
    assert code == 200, body
    return json.loads(body)


def engine_options(game) -> object:
    """The options object the game's engine plays by, read here game by game (tests may name
    games; the plugin's ``rule_options`` is what is being checked)."""
    if game.name == "tangle":
        return game.engine_game.options
    return game.options


def assert_options_are(rows: list[dict], options: object) -> None:
    declared = [f for f in fields(options) if "doc" in f.metadata]
    assert [r["name"] for r in rows] == [f.name for f in declared]
    for r, f in zip(rows, declared):
        assert r["json"] == getattr(options, f.name), r
        assert r["default_json"] == f.default, r
        assert r["changed"] == (getattr(options, f.name) != f.default), r
        assert r["meaning"] == f.metadata["doc"]
        if isinstance(f.default, bool):
            assert r["value"] == ("on" if getattr(options, f.name) else "off")


@pytest.mark.parametrize("name", [n for n in game_names()])
def test_every_game_has_a_panel_with_its_engine_options(base, name):
    game = load_game(name)
    for p in (panel(base, game=name), panel(base, id=name)):
        assert p["game"] == name and p["title"] == plugin_of(name).title
        assert_options_are(p["options"], engine_options(game))
        assert p["sections"], "a built-in game's panel has sections of its rules"
        for s in p["sections"]:
            assert s["title"] and s["text"] and s["html"].strip()
            assert "{" not in s["title"]  # the games a section is for are not shown
        assert p["link"] == f"/rules#{slug(plugin_of(name).title)}"


def test_each_rules_doc_names_only_its_own_games_and_covers_each():
    from tanglekit.games.plugin import parse_rules

    for p in plugins():
        text = p.rules_text()
        assert text.startswith(f"# {p.title}\n"), p.family
        for m in re.finditer(r"^## .*\{(.*)\}\s*$", text, re.MULTILINE):
            assert set(m.group(1).split()) <= set(p.games), (p.family, m.group(0))  # a typo would hide a section
        every = parse_rules(text, "-")[1]  # the sections for every game of the family
        for name in p.games:
            summary, sections = parse_rules(text, name)
            assert summary and sections and (len(sections) > len(every) or len(p.games) == 1), name
            assert any(re.search(r"wins|who wins|winning|goal", s["title"], re.IGNORECASE) for s in sections) or \
                any("win" in s["text"] for s in sections), name


def test_a_family_panel_is_its_first_game_with_defaults(base):
    for p in plugins():
        got = panel(base, game=p.family)
        assert got["game"] == next(iter(p.games)) and got["family"] == p.family
        assert got["options"] and not any(o["changed"] for o in got["options"])


def test_sections_follow_the_game_shown(base):
    solo = [s["title"] for s in panel(base, game="tanglung-solo")["sections"]]
    duel = [s["title"] for s in panel(base, game="tanglung-duel")["sections"]]
    assert "A move" in solo and "A move" not in duel
    assert "A turn" in duel and "A turn" not in solo
    assert "Cards and moves" in solo and "Cards and moves" in duel  # a section for every game


@pytest.mark.parametrize("spec", sorted(NON_DEFAULT))
def test_a_non_default_option_of_the_id_is_shown_in_force(base, spec):
    from tanglekit.web.session import cached_start

    name, value, shown = NON_DEFAULT[spec]
    p = panel(base, id=spec, moves="")
    row = next(o for o in p["options"] if o["name"] == name)
    assert row["json"] == value and row["value"] == shown and row["changed"] is True
    assert row["default"] != shown
    assert_options_are(p["options"], engine_options(cached_start(spec).state.get_game()))


def test_a_challenge_panel_starts_with_its_goal(base):
    spec = "tanglung:solo,easy:RHHC/FRBF/FBBD/CHRD"
    code, body = get(base, "/api/state", id=spec)
    assert code == 200
    goal = json.loads(body)["goal"]
    p = panel(base, id=spec)
    assert goal and p["sections"][0] == {"title": "Goal", "text": goal, "html": f"<p>{goal}</p>"}


def rules_md_options() -> dict[str, list[str]]:
    """Game title -> the option names of its "### <game> options" table in docs/rules.md."""
    out: dict[str, list[str]] = {}
    for m in re.finditer(r"^### (.+) options\n\n((?:\|.*\|\n?)+)", RULES_MD, re.MULTILINE):
        rows = m.group(2).strip().splitlines()
        assert rows[0].startswith("| option |") and set(rows[1]) <= set("|-: ")
        out[m.group(1)] = [re.fullmatch(r"\|\s*`([a-z_]+)`\s*", "|" + r.split("|")[1]).group(1) for r in rows[2:]]
    return out


def test_every_option_docs_rules_lists_is_in_its_games_panel(base):
    tables = rules_md_options()
    titles = {p.title: p for p in plugins()}
    assert set(tables) == {"Zangle", "Tanglung", "QANGO", "Zinga", "Tangle"}
    for title, names in tables.items():
        assert names, title
        for name in titles[title].games:
            shown = {o["name"] for o in panel(base, game=name)["options"]}
            assert set(names) <= shown, (name, set(names) - shown)


def test_the_rules_page_renders_docs_rules_md(base):
    code, body = get(base, "/rules")
    assert code == 200
    page = body.decode()
    assert page.startswith("<!doctype html>") and '<html lang="en">' in page
    headings = re.findall(r"^(#{1,6}) (.+)$", RULES_MD, re.MULTILINE)
    assert len(headings) >= 30
    shown = re.findall(r'<h([1-6]) id="([^"]+)">(.*?)</h\1>', page)
    assert len(shown) == len(headings)
    for (marks, text), (level, anchor, html) in zip(headings, shown):
        assert int(level) == len(marks)
        assert unescape(re.sub(r"<[^>]+>", "", html)) == text.replace("`", "")
    ids = [a for _, a, _ in shown]
    assert len(set(ids)) == len(ids)
    for p in plugins():  # every panel's link leads to its game's part of the page
        if p.rules_doc:
            assert slug(p.title) in ids
    assert "|" not in page  # every table rendered, no raw markdown row left
    assert page.count("<table>") == RULES_MD.count("\n|---")
    assert "**" not in page and "](" not in page
    assert '<a href="/docs/ids">ids.md</a>' in page  # links to other docs pages lead to their pages
    code, body = get(base, "/docs/ids")
    assert code == 200 and b'<h1 id="' in body
    for bad in ("/docs/nope", "/docs/..%2Fpyproject", "/docs/rules.md"):
        assert get(base, bad)[0] == 404


def test_the_renderer_escapes_everything_it_does_not_write():
    from tanglekit.web.markdown import render

    html = render("# A <b>title</b>\n\n<script>alert(1)</script> **x** [a](javascript:alert(1)) "
                  '[b](ids.md#top) [c](https://example.org/) ![d](x.png) `<i>`\n\n| a | b |\n|---|--:|\n| `x|y` | 2 |\n')
    assert "<script>" not in html and "&lt;script&gt;" in html and "<b>" not in html
    assert '<h1 id="a-btitleb">A &lt;b&gt;title&lt;/b&gt;</h1>' in html
    assert "javascript" not in html  # a link anywhere but docs/ and the web is its text only
    assert '<a href="/docs/ids#top">b</a>' in html and '<a href="https://example.org/">c</a>' in html
    assert "<img" not in html and "x.png" not in html and " d <code>" in html  # an image is its description
    assert "<code>&lt;i&gt;</code>" in html and "<strong>x</strong>" in html
    assert '<td><code>x|y</code></td><td class="right">2</td>' in html


def test_a_plugin_with_no_rules_gets_a_title_and_goal_panel(base):
    from toy_nim import PLUGIN

    from tanglekit.games.plugin import register_plugin, unregister_plugin

    register_plugin(PLUGIN)
    try:
        for p in (panel(base, id="nim"), panel(base, game="nim")):
            assert p["title"] == "Nim" and p["game"] == "nim" and p["options"] == []
            assert "Nim" in p["summary"] and p["summary_html"].startswith("<p>")
            assert p["sections"] == []
        code, body = get(base, "/api/state", id="nim")
        assert code == 200 and json.loads(body)["game"] == "nim"  # the game still plays
    finally:
        unregister_plugin("nim")


def test_a_bad_rules_request_is_one_line_400(base):
    code, body = get(base, "/api/rules", game="no-such-game")
    assert code == 400 and "no game" in json.loads(body)["error"]
    code, body = get(base, "/api/rules", id="no-such-game")
    assert code == 400 and json.loads(body)["error"]


def test_the_rules_texts_ship_with_the_package():
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["package-data"]
    for p in plugins():
        if p.rules_doc:
            assert any(fnmatch(p.rules_doc, g) for g in data["*"]), p.family
            assert (ROOT / "games" / p.family / p.rules_doc).is_file()
    assert any(fnmatch("docs/rules.md", g) for g in data["tanglekit"])
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "(docs/rules.md)" in readme



# --- in the browser: the panel opened with the keyboard ------------------------------------------
try:  # the browser tests' kit: Chromium through Selenium (it skips when there is no browser)
    import browser_kit as kit
except pytest.skip.Exception:
    kit = None

if kit is not None:
    driver = kit.driver
else:
    @pytest.fixture(scope="module")
    def driver():
        pytest.skip("no browser: Chromium, its driver and selenium are needed")


@pytest.mark.parametrize("page", ["/play/tanglung:solo,easy,literal_blocking=1:RHHC/FRBF/FBBD/CHRD", "/check/qango"])
def test_the_panel_opens_with_the_keyboard_and_shows_the_options(base, driver, page):
    from selenium.webdriver.common.by import By  # only with a browser
    from selenium.webdriver.common.keys import Keys  # only with a browser
    from selenium.webdriver.support.ui import WebDriverWait  # only with a browser

    d = driver
    kit.set_window(d, kit.DESKTOP)
    d.get(base + page)
    wait = WebDriverWait(d, kit.WAIT, poll_frequency=kit.POLL)
    # filled once the page has loaded its game
    wait.until(lambda dr: dr.find_elements(By.CSS_SELECTOR, "#rules table.rule-options"))
    rules = d.find_element(By.ID, "rules")
    table = d.find_element(By.CSS_SELECTOR, "#rules table.rule-options")
    assert rules.get_attribute("open") is None and not table.is_displayed()
    summary = d.find_element(By.CSS_SELECTOR, "#rules > summary")
    assert summary.text == "Rules"
    d.execute_script("document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0);")
    for _ in range(40):
        kit.press(d, Keys.TAB)
        if kit.focused(d) == summary:
            break
    else:
        pytest.fail("Tab never reached the rules panel's summary")
    kit.press(d, Keys.ENTER)
    wait.until(lambda dr: table.is_displayed())
    assert rules.get_attribute("open") is not None
    rows = {r.find_element(By.CSS_SELECTOR, "th").text: r.find_elements(By.CSS_SELECTOR, "td")
            for r in table.find_elements(By.CSS_SELECTOR, "tbody tr")}
    if page.startswith("/play/"):
        assert rows["literal_blocking"][0].text == "on (changed)" and rows["literal_blocking"][1].text == "off"
        assert rows["horse_fan_route"][0].text == "either"
    else:
        assert set(rows) == {"board", "opening", "max_counters"} and rows["board"][0].text == "6"
    link = d.find_element(By.CSS_SELECTOR, "#rules a[href^='/rules#']")
    assert link.is_displayed()
    kit.press(d, Keys.ENTER)  # the summary still has the focus: Enter closes the panel again
    wait.until(lambda dr: not table.is_displayed())


def test_a_game_panel_takes_rule_options(base):
    """A check page's choices (Zangle's piles, QANGO's board) reach its rules panel as options."""
    p = panel(base, game="zangle-solo", piles="6")
    row = next(o for o in p["options"] if o["name"] == "piles")
    assert row["json"] == 6 and row["changed"] is True
    assert_options_are(p["options"], load_game("zangle-solo", piles=6).options)
    p = panel(base, game="qango", board="7plus")
    assert_options_are(p["options"], load_game("qango", board="7plus").options)
    assert next(o for o in p["options"] if o["name"] == "board")["changed"] is True
    code, body = get(base, "/api/rules", game="zangle-solo", piles="99")
    assert code == 400 and "piles" in json.loads(body)["error"]


@pytest.mark.parametrize("family,select,value,row,shown", [("zangle", "sel-piles", "6", "piles", "6 (changed)"),
                                                             ("qango", "sel-board", "7plus", "board", "(changed)")])
def test_a_check_pages_choice_changes_its_rules_panel(base, driver, family, select, value, row, shown):
    """The bug: the Zangle check page's panel said 5 piles while its piles choice said 6."""
    from selenium.webdriver.common.by import By  # only with a browser
    from selenium.webdriver.support.ui import Select, WebDriverWait  # only with a browser

    d = driver
    kit.set_window(d, kit.PHONE)
    d.get(base + f"/check/{family}")
    wait = WebDriverWait(d, kit.WAIT, poll_frequency=kit.POLL)
    wait.until(lambda dr: dr.find_elements(By.CSS_SELECTOR, "#rules table.rule-options"))

    def cell() -> str:
        return d.execute_script(
            "const r = [...document.querySelectorAll('#rules table.rule-options tbody tr')]"
            ".find((tr) => tr.querySelector('th').textContent === arguments[0]);"
            "return r ? r.querySelector('td').textContent : null;", row)

    assert "(changed)" not in cell()
    Select(d.find_element(By.ID, select)).select_by_value(value)
    wait.until(lambda dr: shown in (cell() or ""))
    assert cell().endswith(shown)
