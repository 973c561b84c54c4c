"""The check pages of `tanglekit serve` (/check/<family>) in a real headless Chromium: each page
driven by the keyboard alone at phone and desktop size to an answer, the page fitting a phone,
the play-it link of a checked position that is no puzzle, results cleared by an edit, errors
standing alone and disabling the check, the progress of a long check. Skipped without a browser."""

from __future__ import annotations

import time

import pytest

pytest.importorskip("selenium.webdriver", reason="selenium is not installed (pip install -e '.[test]')")

from browser_kit import *  # noqa: E402,F401,F403  (the server, the browser and the helpers)
from http_kit import get_json, post_json  # noqa: E402
from browser_kit import (  # noqa: E402
    DESKTOP, PHONE, POLL, WAIT, By, Keys, WebDriverWait, _log_len, _text, _wait_log, _wait_text, focused, press, set_window)

SIZES = pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
# X to move wins in 2 counters with two winning first moves: not a puzzle, a position to play
QANGO_TWO_WINNERS = ".XX.../...XO./..O.O./....O./.X..../......"
TANGLUNG_LAYOUT = "CRBF/HDFR/BHFB/RHDC"
ZANGLE_DEAL = {"middle": ["T3-10", "T3-7", "T5-b-2"], "piles": [["T5-a-1"], ["T1-12"], ["T5-d-4"], ["T2-15"], ["T1-15"]]}


def _wait(d, fn, timeout: float = WAIT):
    return WebDriverWait(d, timeout, poll_frequency=POLL).until(fn)


def _open_check(d, base: str, family: str, size) -> None:
    set_window(d, size)
    d.get(f"{base}/check/{family}")
    _wait(d, lambda dr: dr.find_elements(By.CSS_SELECTOR, "#grid .hot, #deck .card") and not _text(dr, "#busy"))


def _is(d, css: str) -> bool:
    return bool(d.execute_script("return document.activeElement.matches(arguments[0])", css))


def _tab_to(d, css: str, limit: int = 40):
    """Press Tab until the focus is on an element matching ``css`` (the keyboard's way in)."""
    for _ in range(limit):
        press(d, Keys.TAB)
        if _is(d, css):
            return focused(d)
    raise AssertionError(f"Tab never reached {css}")


def _no_sideways_scroll(d) -> None:
    w = d.execute_script("return [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert w[0] <= w[1], f"the page scrolls sideways: {w[0]} px wide in a {w[1]} px viewport"


def _entry_text(d) -> str:
    return d.execute_script("const e = document.querySelector('#entrytext') || document.querySelector('#postext');"
                            "return e ? (e.value || e.textContent) : ''")


def _focus_ring(d) -> str:
    """The focused element's visible focus mark: its outline, or (an SVG cell) its stroke."""
    return d.execute_script("const s = getComputedStyle(document.activeElement);"
                            "return s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2 ? 'outline' :"
                            " (s.stroke !== 'none' && parseFloat(s.strokeWidth) >= 2 ? 'stroke' : '')")


def _content(d, css: str) -> str:
    """An element's text even when hidden (Selenium's .text is empty for a hidden element)."""
    return d.execute_script("return document.querySelector(arguments[0]).textContent", css)


def _result_cleared(d) -> None:
    assert _content(d, "#answer") == "" and _content(d, "#shareid") == "—"
    assert not d.find_element(By.ID, "playlink").is_displayed()
    assert not d.find_elements(By.CSS_SELECTOR, "#frame *, #line li, #controls button")


def _snake(d, grid: str, keys_for) -> None:
    """Enter a grid ("row/row/...", the focus on cell 0,0) by arrow keys in a snake (left to right,
    down, right to left, down...), pressing ``keys_for(value)`` on each cell."""
    rows = grid.split("/")
    for r, row in enumerate(rows):
        width = len(row)
        keys = []
        for k, c in enumerate(range(width) if r % 2 == 0 else range(width - 1, -1, -1)):
            keys += keys_for(row[c])
            if k < width - 1:
                keys.append(Keys.ARROW_RIGHT if r % 2 == 0 else Keys.ARROW_LEFT)
        if r < len(rows) - 1:
            keys.append(Keys.ARROW_DOWN)
        press(d, *keys)


# --- each page by the keyboard alone --------------------------------------------------------------
@SIZES
def test_tanglung_check_by_keyboard(driver, base, size):
    d = driver
    _open_check(d, base, "tanglung", size)
    _no_sideways_scroll(d)
    cell = _tab_to(d, "#grid .hot")
    assert cell.get_attribute("role") == "button" and cell.get_attribute("aria-label") == "cell 0,0: empty"
    assert _focus_ring(d) == "stroke"
    kinds = "CRBFHD"  # the palette's order: keys 1-6
    _snake(d, TANGLUNG_LAYOUT, lambda v: [str(kinds.index(v) + 1), Keys.ENTER])
    _wait(d, lambda dr: _entry_text(dr) == TANGLUNG_LAYOUT)
    assert focused(d).get_attribute("aria-label") == "cell 3,0: R rabbit"  # the snake ends bottom left
    # Delete empties the cell, u puts it back
    press(d, Keys.DELETE)
    _wait(d, lambda dr: _entry_text(dr) == TANGLUNG_LAYOUT[:-4] + ".HDC")
    assert "1 cell still empty" in _text(d, "#why") and not d.find_element(By.ID, "solve").is_enabled()
    press(d, "u")
    _wait(d, lambda dr: _entry_text(dr) == TANGLUNG_LAYOUT)
    press(d, "c")
    assert _wait_text(d, "#answer", "solvable").startswith("solvable in 14 moves from 0,0")
    assert _text(d, "#shareid") == f"tanglung:solo:{TANGLUNG_LAYOUT}"
    assert len(d.find_elements(By.CSS_SELECTOR, "#frame svg")) == 1 and d.find_elements(By.ID, "anim-last")
    assert d.find_element(By.ID, "playlink").is_displayed()
    _no_sideways_scroll(d)


@SIZES
def test_qango_check_by_keyboard_and_its_play_link(driver, base, size):
    d = driver
    _open_check(d, base, "qango", size)
    _no_sideways_scroll(d)
    cell = _tab_to(d, "#grid .hot")
    assert cell.get_attribute("aria-label") == "cell 0,0: empty"
    # each Enter cycles: empty, X, O
    _snake(d, QANGO_TWO_WINNERS, lambda v: [Keys.ENTER] if v == "X" else [Keys.ENTER] * 2 if v == "O" else [])
    _wait(d, lambda dr: _entry_text(dr) == QANGO_TWO_WINNERS)
    press(d, "c")
    answer = _wait_text(d, "#answer", "wins")
    assert answer.startswith("X to move wins in 2 counters (3 plies)")
    assert _text(d, "#shareid") == f"qango:6:{QANGO_TWO_WINNERS}"  # a position: two winning first moves
    n = len(d.find_elements(By.CSS_SELECTOR, "#line li"))
    assert n == 3 and d.find_elements(By.CSS_SELECTOR, "#controls button")
    _no_sideways_scroll(d)
    # the play-it link, by the keyboard: a game from this position, the person on X (to move)
    link = _tab_to(d, "#playlink")
    assert link.text == "play it"
    press(d, Keys.ENTER)
    _wait(d, lambda dr: "ID " in _text(dr, "#idline") or _text(dr, "#message"))
    assert QANGO_TWO_WINNERS in d.current_url and not _text(d, "#message")


def test_the_play_link_of_a_position_with_two_winning_moves_plays(driver, base):
    """Bug: the link was a win-in-2 puzzle ID, refused ("2 winning first moves, a puzzle has one")."""
    d = driver
    _open_check(d, base, "qango", DESKTOP)
    for i, v in enumerate(QANGO_TWO_WINNERS.replace("/", "")):
        if v != ".":
            _click_cell(d, i, "X")
        if v == "O":
            _click_cell(d, i, "O")
    d.find_element(By.ID, "solve").click()
    assert _wait_text(d, "#answer", "wins").startswith("X to move wins in 2 counters (3 plies)")
    d.find_element(By.ID, "playlink").click()
    _wait(d, lambda dr: "ID " in _text(dr, "#idline") or _text(dr, "#message"))
    assert not _text(d, "#message")
    assert "X to move" in _text(d, "#board") or d.find_elements(By.CSS_SELECTOR, "#board .hot.legal")
    for k in (1, 2):  # the hinted moves win: X, the bot's reply, X again
        d.find_element(By.ID, "hint").click()
        _wait_text(d, "#hinttext", "hint:")
        d.find_element(By.CSS_SELECTOR, "#board .hot.hinted").click()
        if k == 1:
            _wait_log(d, 2)
    assert _wait_text(d, "#result", "game over") == "game over: winner: player 0 (human)"


@SIZES
def test_zangle_check_by_keyboard(driver, base, size):
    d = driver
    _open_check(d, base, "zangle", size)
    _no_sideways_scroll(d)
    deck = d.execute_script("return [...document.querySelectorAll('#deck .card')].map((c) => c.dataset.card)")
    # every deck card a tap target of at least 40 px
    sizes = d.execute_script("return [...document.querySelectorAll('#deck .card')].map((c) => "
                             "{const r = c.getBoundingClientRect(); return [r.width, r.height];})")
    assert min(min(w, h) for w, h in sizes) >= 40, min(sizes)
    first = _tab_to(d, "#deck .card")
    assert first.get_attribute("aria-label") == f"{deck[0]}: put it in middle" and _focus_ring(d) == "outline"
    # the arrows: down to the card below, up again, right along the row
    r0 = first.rect
    press(d, Keys.ARROW_DOWN)
    below = focused(d).rect
    assert below["y"] > r0["y"] + r0["height"] / 2 and abs(below["x"] - r0["x"]) < 2
    press(d, Keys.ARROW_UP)
    assert focused(d).get_attribute("data-card") == deck[0]
    at = 0

    def put(card: str) -> None:
        nonlocal at
        i = deck.index(card)
        press(d, *([Keys.ARROW_RIGHT] * (i - at) if i >= at else [Keys.ARROW_LEFT] * (at - i)), Keys.ENTER)
        at = i

    press(d, "1")  # the middle
    for c in ZANGLE_DEAL["middle"]:
        put(c)
    for p, pile in enumerate(ZANGLE_DEAL["piles"]):
        press(d, str(p + 2))  # pile p: key p+2
        for c in pile:
            put(c)
    _wait(d, lambda dr: len(dr.find_elements(By.CSS_SELECTOR, "#zones .card")) == 8)
    assert focused(d).get_attribute("aria-disabled") == "true"  # the card just placed
    press(d, "u")  # the last card back to the deck, then again
    _wait(d, lambda dr: len(dr.find_elements(By.CSS_SELECTOR, "#zones .card")) == 7)
    assert "pile 4 needs at least 1 card (has 0)" in _text(d, "#why")
    press(d, Keys.ENTER)
    _wait(d, lambda dr: len(dr.find_elements(By.CSS_SELECTOR, "#zones .card")) == 8)
    placed = d.find_elements(By.CSS_SELECTOR, '#zones .card[data-zone="pile 4"]')
    assert [c.get_attribute("data-card") for c in placed] == ZANGLE_DEAL["piles"][4]
    assert min(placed[0].rect["width"], placed[0].rect["height"]) >= 40
    press(d, "c")
    assert _wait_text(d, "#answer", "solvable").startswith("solvable: a winning line of 2 actions")
    from tanglekit.games.zangle.solo_search import SoloDeal

    deal = SoloDeal(tuple(ZANGLE_DEAL["middle"]), (), tuple(tuple(p) for p in ZANGLE_DEAL["piles"]))
    assert _text(d, "#shareid") == deal.share_id()
    assert len(d.find_elements(By.CSS_SELECTOR, "#line li")) == 2
    _no_sideways_scroll(d)
    # back to the placed cards (Shift+Tab), Delete takes the first back: the answer goes with the edit
    for _ in range(20):
        press(d, Keys.SHIFT, Keys.TAB, Keys.SHIFT)
        if _is(d, "#zones .card"):
            break
    assert focused(d).get_attribute("aria-label") == f"{ZANGLE_DEAL['middle'][0]} in middle: take it back"
    press(d, Keys.DELETE)
    _wait(d, lambda dr: len(dr.find_elements(By.CSS_SELECTOR, "#zones .card")) == 7)
    _result_cleared(d)
    assert focused(d).get_attribute("data-card") == ZANGLE_DEAL["middle"][1]  # the next placed card


# --- bugs: stale results, errors, progress ------------------------------------------------------------
def _click_cell(d, cell: int, want: str) -> None:
    """Click a board cell, wait for the entry text to show it (works on the page before the fix too)."""
    d.find_element(By.CSS_SELECTOR, f'#grid .hot[data-action="{cell}"]').click()
    _wait(d, lambda dr: _entry_text(dr).replace("/", "")[cell] == want)


def test_an_edit_clears_the_answer_and_an_error_stands_alone(driver, base):
    d = driver
    _open_check(d, base, "qango", DESKTOP)
    for cell in (0, 1):
        _click_cell(d, cell, "X")
    for cell in (12, 14):  # O: a second click
        _click_cell(d, cell, "X")
        _click_cell(d, cell, "O")
    d.find_element(By.ID, "solve").click()
    assert _wait_text(d, "#answer", "wins").startswith("X to move wins in 1 counter")
    assert d.find_element(By.ID, "playlink").is_displayed() and _text(d, "#shareid") != "—"
    # an edit that makes the position impossible (X 2, O 3): the old answer goes at once
    _click_cell(d, 3, "X")
    _click_cell(d, 3, "O")
    _result_cleared(d)
    solve = d.find_element(By.ID, "solve")
    if solve.is_enabled():  # (the page before the fix let the check run)
        solve.click()
        _wait(d, lambda dr: _text(dr, "#message") or _text(dr, "#why"))
    shown = _text(d, "#message") + _text(d, "#why")
    assert "counts X=2, O=3 do not fit" in shown
    _result_cleared(d)  # the error alone, nothing of the last answer
    assert not d.find_element(By.ID, "solve").is_enabled()  # a check of this cannot work
    # the next edit makes it checkable again
    _click_cell(d, 3, ".")
    _wait(d, lambda dr: dr.find_element(By.ID, "solve").is_enabled())
    assert not _text(d, "#why") and not _text(d, "#message")


def test_a_layout_the_rules_refuse_disables_the_check(driver, base):
    d = driver
    _open_check(d, base, "tanglung", DESKTOP)
    # a layout with every card but the Roosters on the same side: refused by the check's rules
    box = d.find_element(By.CSS_SELECTOR, "#entrytext, #layouttext")
    box.clear()
    box.send_keys("CCBF/HDFR/BHFB/RHDR", Keys.TAB)
    _wait(d, lambda dr: "opposite corners" in _text(dr, "#why") + _text(dr, "#message"))
    assert not d.find_element(By.ID, "solve").is_enabled()
    _result_cleared(d)


def test_a_long_check_shows_its_progress_and_disables_the_controls(driver, base):
    d = driver
    from selenium.webdriver.support.ui import Select  # selenium's, only for this choice

    _open_check(d, base, "qango", PHONE)  # QANGO 7, X in the centre: some 5 s of search (1.3 M nodes)
    Select(d.find_element(By.CSS_SELECTOR, "#sel-board, #board")).select_by_value("7")
    _wait(d, lambda dr: _entry_text(dr).count("/") == 6)
    _click_cell(d, 24, "X")
    d.find_element(By.ID, "solve").click()
    _wait(d, lambda dr: dr.find_element(By.ID, "bar").is_displayed(), timeout=4)
    busy = _wait_text(d, "#progress", " s", timeout=4)
    assert busy.startswith("checking…")
    for b in ("solve", "undo", "reset"):
        assert not d.find_element(By.ID, b).is_enabled()
    assert d.find_element(By.CSS_SELECTOR, "#grid .hot").get_attribute("aria-disabled") == "true"
    assert not d.find_element(By.ID, "sel-board").is_enabled()
    time.sleep(1.2)
    assert int(_text(d, "#busy").split()[-2]) >= 2  # the seconds go on
    assert _wait_text(d, "#answer", "wins").startswith("O to move wins in 7 counters")
    assert not d.find_element(By.ID, "bar").is_displayed() and _text(d, "#busy") == ""
    for b in ("solve", "undo", "reset"):
        assert d.find_element(By.ID, b).is_enabled()
    assert d.find_element(By.CSS_SELECTOR, "#grid .hot").get_attribute("aria-disabled") is None


# --- the API behind the pages: every answer's ID plays ---------------------------------------------
def test_every_checked_id_opens_a_play_page(base):
    cases = [
        ("qango", {"board": "6", "position": QANGO_TWO_WINNERS}, f"qango:6:{QANGO_TWO_WINNERS}", "X to move wins in 2"),
        ("qango", {"board": "6", "position": ".X.OOX/O....O/XO.X../..XO../X...../....X."},  # a true puzzle
         "qango:6:k2:.X.OOX/O....O/XO.X../..XO../X...../....X.", "O to move wins in 2"),
        ("qango", {"board": "6", "position": "XX..../X...../OO..../....../....../......"},
         "qango:6:XX..../X...../OO..../....../....../......", "the game is over: X has won"),
        ("tanglung", {"layout": TANGLUNG_LAYOUT}, f"tanglung:solo:{TANGLUNG_LAYOUT}", "solvable in 14 moves"),
        ("zangle", {"middle": ZANGLE_DEAL["middle"], "draw": [], "piles": [["T1-1"], ["T1-2"], ["T1-3"], ["T1-4"], ["T1-5"]]},
         None, "solvable: a winning line of 1 action (1 state searched)"),
    ]
    for family, body, want_id, answer in cases:
        code, r = post_json(base, f"/api/check/{family}", body)
        assert code == 200, r
        assert r["answer"].startswith(answer), r["answer"]
        if want_id is not None:
            assert r["id"] == want_id
        code, v = get_json(base, "/api/state", id=r["id"])
        assert code == 200, (r["id"], v)
        assert v["id"] == r["id"]
    # the person plays the side to move of a QANGO position (O here: the bot does not move first)
    code, v = get_json(base, "/api/state", id="qango:6:X...../....../....../....../....../......")
    assert code == 200 and v["human_to_move"] and v["current_player"] == 1 and v["moves"] == []
    # what the pages load first says how to enter, and the draw says whether it can be checked
    code, d = post_json(base, "/api/draw/tanglung", {"cells": {"0": "C"}})
    assert code == 200 and (d["ready"], d["why"]) == (False, "15 cells still empty") and d["text"] == "C.../..../..../...."
    code, d = post_json(base, "/api/draw/qango", {"board": "6", "cells": {"0": "O"}})
    assert code == 200 and not d["ready"] and "counts X=0, O=1 do not fit" in d["why"]
