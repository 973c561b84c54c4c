"""The play page driven by the keyboard alone (Tab to the board, arrows between its spots, Enter or
Space to act, u/r/t/h/a for the controls) at phone and desktop size; redo, restart and the answer;
the error states of a bad ID and of illegal moves in the address; Tangle's side-then-placement
choice; no sideways page scroll on a phone. Uses tests/browser_kit.py (skipped without a browser)."""

from __future__ import annotations

import time

import pytest

pytest.importorskip("selenium.webdriver", reason="selenium is not installed (pip install -e '.[test]')")

from browser_kit import *  # the fixtures (server, browser) and the helpers
from browser_kit import (
    DESKTOP,
    PHONE,
    POLL,
    WAIT,
    By,
    Keys,
    WebDriverWait,
    _log_len,
    _open,
    _text,
    _wait_log,
    _wait_text,
    focused,
    press,
    set_window,
)

TANGLUNG = "tanglung:solo:CRBF/HDFR/BHFB/RHDC"  # solvable in 14 moves from 0,0 (descriptive: no generation)
QANGO = "qango:6:k2:.X.OOX/O....O/XO.X../..XO../X...../....X."  # O to move wins in 2
SIZES = {"phone": PHONE, "desktop": DESKTOP}


def _idle(d) -> None:
    WebDriverWait(d, WAIT, poll_frequency=POLL).until(lambda dr: not _text(dr, "#busy"))


def _tab_to_board(d, limit: int = 12):
    """Tab from the top of the page until a spot of the board has the focus; that spot."""
    d.execute_script("document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0)")
    for _ in range(limit):
        press(d, Keys.TAB)
        if d.execute_script("return !!document.activeElement.closest('#board [data-k]')"):
            return focused(d)
    raise AssertionError("Tab never reached the board")


def _centre(d, e) -> tuple[float, float]:
    r = d.execute_script("const r = arguments[0].getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]", e)
    return r[0], r[1]


def _arrow_to(d, css: str, limit: int = 30):
    """Move the focus with the arrow keys (one step at a time, toward the spot) onto ``css``."""
    target = d.find_element(By.CSS_SELECTOR, css)
    for _ in range(limit):
        if focused(d) == target:
            return target
        (x0, y0), (x1, y1) = _centre(d, focused(d)), _centre(d, target)
        dx, dy = x1 - x0, y1 - y0
        key = (Keys.ARROW_RIGHT if dx > 0 else Keys.ARROW_LEFT) if abs(dx) >= abs(dy) else (Keys.ARROW_DOWN if dy > 0 else Keys.ARROW_UP)
        before = focused(d)
        press(d, key)
        assert focused(d) != before, f"the arrow key {key!r} moved the focus nowhere"
    raise AssertionError(f"the arrows never reached {css}")


def _no_sideways_scroll(d) -> None:
    """No sideways scroll of the page, and on a phone every button, link and field of the page at
    least 40 px high and wide."""
    width = d.execute_script("return document.documentElement.clientWidth")
    assert d.execute_script("return document.documentElement.scrollWidth") <= width
    if width < 600:
        small = d.execute_script("""return [...document.querySelectorAll('button, a, input')]
          .filter((e) => e.offsetParent !== null)
          .map((e) => [e.id || e.textContent.trim().slice(0, 20), e.getBoundingClientRect()])
          .filter(([_, r]) => r.height < 39.5 || r.width < 39.5).map(([n, r]) => `${n} ${r.width}x${r.height}`)""")
        assert not small, small
        spots = d.execute_script("""return [...document.querySelectorAll('#board [data-k]')]
          .map((e) => [e.getAttribute('aria-label'), e.getBoundingClientRect()])
          .filter(([_, r]) => Math.min(r.width, r.height) < 39).map(([n, r]) => `${n} ${r.width}x${r.height}`)""")
        assert not spots, spots  # the board's spots too (a small board is drawn larger)


def _undo_redo_restart(d, n: int) -> None:
    """u takes back the last person's move, r plays it again, t goes back to the start."""
    assert n > 0 and _log_len(d) == n
    press(d, "u")
    _idle(d)
    assert _log_len(d) < n
    assert d.find_element(By.ID, "redo").is_enabled()
    press(d, "r")
    _wait_log(d, n)
    assert not d.find_element(By.ID, "redo").is_enabled()
    press(d, "t")
    _wait_log(d, 0)
    assert "moves=" not in d.current_url
    press(d, "r")  # a restart can be taken back too
    _wait_log(d, n)


@pytest.fixture(params=list(SIZES))
def size(request, driver):
    set_window(driver, SIZES[request.param])
    yield request.param
    set_window(driver, DESKTOP)


def test_tanglung_by_keyboard(driver, base, size):
    _open(driver, base, TANGLUNG)
    spot = _tab_to_board(driver)
    # the focused spot is a named button, with a visible ring
    assert spot.get_attribute("role") == "button" and spot.get_attribute("aria-label") == "0,1"
    ring = driver.execute_script("return getComputedStyle(arguments[0]).stroke", spot)
    assert ring not in ("none", ""), ring
    # from 0,1 (a legal move of the Rooster on 0,0) down to 1,1 and left to 1,0
    press(driver, Keys.ARROW_DOWN)
    assert focused(driver).get_attribute("data-action") == "5"
    press(driver, Keys.ARROW_LEFT)
    assert focused(driver).get_attribute("data-action") == "4"
    press(driver, Keys.ENTER)
    _wait_log(driver, 1)
    assert focused(driver).get_attribute("data-action") == "4"  # the focus stays on the board
    press(driver, Keys.ARROW_UP, Keys.ARROW_RIGHT)  # to 0,1: not a legal move from 1,0 (a Horse)
    press(driver, " ")
    msg = _wait_text(driver, "#message", "illegal")
    assert "cannot move to 0,1" in msg
    _undo_redo_restart(driver, 1)
    _no_sideways_scroll(driver)
    if size == "phone":  # board spots of at least 40 px
        w = driver.execute_script("return arguments[0].getBoundingClientRect().width", focused(driver))
        assert w >= 40


def test_qango_puzzle_by_keyboard(driver, base, size):
    _open(driver, base, QANGO)
    spot = _tab_to_board(driver)
    assert spot.get_attribute("aria-label").endswith("(not legal now)") is False
    _arrow_to(driver, '#board .hot[data-action="2"]')  # 0,2: empty
    press(driver, Keys.ENTER)
    _wait_log(driver, 2)  # O's move and the perfect bot's reply
    _undo_redo_restart(driver, 2)
    # the hint by its key (from the start again), then the hinted cell played from the keyboard
    press(driver, "t")
    _wait_log(driver, 0)
    press(driver, "h")
    assert _wait_text(driver, "#hinttext", "hint:").startswith("hint: ")
    hinted = driver.find_element(By.CSS_SELECTOR, "#board .hot.hinted").get_attribute("data-action")
    _tab_to_board(driver)
    _arrow_to(driver, f'#board .hot[data-action="{hinted}"]')
    press(driver, Keys.ENTER)
    _wait_log(driver, 2)
    _no_sideways_scroll(driver)


def test_zinga_by_keyboard(driver, base, size):
    _open(driver, base, "zinga")
    spot = _tab_to_board(driver)
    assert "legal" in spot.get_attribute("class")  # the roving spot starts on a legal cell
    n0 = _log_len(driver)
    press(driver, Keys.ENTER)
    WebDriverWait(driver, WAIT, poll_frequency=POLL).until(lambda d: _log_len(d) > n0 and not _text(d, "#busy"))
    n = _log_len(driver)
    press(driver, "u")
    _wait_log(driver, n0)
    press(driver, "r")
    _wait_log(driver, n)
    press(driver, "t")
    _wait_log(driver, n0)  # the start's chance moves stay
    _no_sideways_scroll(driver)


def test_tanglung_duel_card_by_card_by_keyboard(driver, base, size):
    _open(driver, base, "tanglung-duel")
    spot = _tab_to_board(driver)
    assert spot.get_attribute("data-spot") in ("3", "12") and "legal" in spot.get_attribute("class")
    press(driver, Keys.ENTER)  # one move starts there (the matchbox placed): played at once
    _wait_log(driver, 2)
    starts = [e.get_attribute("data-spot") for e in driver.find_elements(By.CSS_SELECTOR, "#board .hot.legal")]
    assert starts
    _arrow_to(driver, f'#board .hot[data-spot="{starts[0]}"]')
    press(driver, Keys.ENTER)  # the matchbox's card: the moves to it, the fan still to choose
    info = _wait_text(driver, "#pickinfo", "moves start with")
    shown = [b for b in driver.find_elements(By.CSS_SELECTOR, "#buttons button") if b.is_displayed()]
    assert info.startswith(f"{len(shown)} moves") and len(shown) > 1
    fan = driver.find_element(By.CSS_SELECTOR, "#board .hot.legal:not(.chosen)").get_attribute("data-spot")
    _arrow_to(driver, f'#board .hot[data-spot="{fan}"]')
    press(driver, " ")
    _wait_log(driver, 4)
    f = int(fan)
    assert _text(driver, "#log").splitlines()[2].endswith(f"fan {f // 4},{f % 4}")
    _undo_redo_restart(driver, 4)
    _no_sideways_scroll(driver)


def test_tangle_side_then_placement_by_keyboard(driver, base, size):
    _open(driver, base, "tangle")
    assert not [b for b in driver.find_elements(By.CSS_SELECTOR, "#buttons button") if b.is_displayed()]  # no wall of buttons
    spot = _tab_to_board(driver)
    assert spot.get_attribute("aria-label").startswith("side ")
    side = spot.get_attribute("data-side")
    press(driver, Keys.ENTER)  # choose the side: the placements covering it appear
    info = _wait_text(driver, "#pickinfo", "cover")
    shown = [b for b in driver.find_elements(By.CSS_SELECTOR, "#buttons button") if b.is_displayed()]
    assert 0 < len(shown) < 80 and info.startswith(f"{len(shown)} placement")
    assert all(side in b.get_attribute("data-sides").split() for b in shown)
    for _ in range(12):  # Tab on to the first placement (past the zoom button on a phone, the pieces)
        press(driver, Keys.TAB)
        if focused(driver) == shown[0]:
            break
    assert focused(driver) == shown[0]
    assert driver.find_elements(By.CSS_SELECTOR, "#board #overlay .preview")  # drawn on the board
    name = shown[0].text
    press(driver, Keys.ENTER)
    _wait_log(driver, 2)  # the placement and the bot's reply
    assert _text(driver, "#log").startswith("P0: " + name)
    _undo_redo_restart(driver, 2)
    _no_sideways_scroll(driver)


def test_tangle_side_then_placement_by_mouse_and_reason_for_a_side_without_placements(driver, base):
    _open(driver, base, "tangle")
    far = driver.find_element(By.CSS_SELECTOR, '#board .side[aria-label="side 0,0:4"]')  # far from the Center Star
    driver.execute_script("arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))", far)
    msg = _wait_text(driver, "#message", "No placement can cover side 0,0:4")
    assert "Center Star" in msg  # the engine's reason
    star = driver.find_element(By.CSS_SELECTOR, '#board .side[aria-label="side 4,5:0"]')
    star.click()
    _wait_text(driver, "#pickinfo", "cover side 4,5:0")
    many = len([b for b in driver.find_elements(By.CSS_SELECTOR, "#buttons button") if b.is_displayed()])
    assert many > 12
    # many placements: a piece narrows them
    chip = next(c for c in driver.find_elements(By.CSS_SELECTOR, "#kinds button") if c.text.startswith("V2 "))
    chip.click()
    shown = [b for b in driver.find_elements(By.CSS_SELECTOR, "#buttons button") if b.is_displayed()]
    assert 0 < len(shown) < many and all(b.text.startswith("V2 ") for b in shown)
    assert driver.find_element(By.CSS_SELECTOR, '#kinds button[aria-pressed="true"]').text == f"V2 ({len(shown)})"
    assert "with V2" in _text(driver, "#pickinfo")
    b = shown[0]
    name = b.text
    b.click()
    _wait_log(driver, 2)
    assert _text(driver, "#log").startswith("P0: " + name)


def test_zangle_by_keyboard(driver, base, size):
    from tanglekit.web.session import open_session

    spec = _zangle_spec()
    st = open_session(spec, []).state
    zangles = [a for a in st.legal_actions() if a >= 1024]
    assert zangles
    a = zangles[0]
    t, mask = (a - 1024) % 128, (a - 1024) // 128
    _open(driver, base, spec)
    _tab_to_board(driver)
    _arrow_to(driver, f'#board .card[data-place="{t}"]')
    press(driver, Keys.ENTER)  # the target
    assert focused(driver).get_attribute("aria-pressed") == "true"
    for p in range(16):
        if mask >> p & 1 and p != t:
            _arrow_to(driver, f'#board .card[data-place="{p}"]')
            press(driver, " ")
    press(driver, "z")
    _wait_log(driver, 1)
    _undo_redo_restart(driver, 1)
    _no_sideways_scroll(driver)


def _zangle_spec() -> str:
    return ZANGLE_SHARE


ZANGLE_SHARE = "zangle:solo,piles=5:2h2a0r.061z18382t0v0q.0w.013b.0h0b34.1l2b1y21.19321a0p0g"  # the deal of zangle:solo,piles=5,easy#1


def _api(base: str, name: str, **q):
    import json
    import urllib.error
    import urllib.parse
    import urllib.request

    try:
        with urllib.request.urlopen(f"{base}/api/{name}?" + urllib.parse.urlencode(q), timeout=60) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def test_answer_api_plays_the_puzzle_with_the_bots_replies_and_says_why_it_ends(base):
    code, a = _api(base, "answer", id=QANGO)
    assert code == 200 and a["done"] and a["solved"]
    assert [s["move"] for s in a["steps"]] == ["1,4", "2,5"]
    assert a["steps"][0]["replies"] == ["player 0 (perfect): 1,3"]  # the bot answers for its seat
    assert a["steps"][-1]["moves"] == [10, 9, 17]  # the whole address after the step
    assert a["reason"] == "solved in 2 counters (fewest counters: 2)"
    # after a wrong move there is no line: the hint's reason
    code, a = _api(base, "answer", id=QANGO, moves="0.19")
    assert code == 200 and a["steps"] == [] and a["done"] and not a["solved"]
    assert a["reason"].startswith("no winning line from here: the opponent wins in 2 counters")
    # a free game: no line, and the position says so before anyone asks
    code, v = _api(base, "state", id="zinga")
    assert code == 200 and "free game has no goal" in v["answer_why"]
    code, a = _api(base, "answer", id="zinga")
    assert a["steps"] == [] and a["reason"] == v["answer_why"]
    # a one-player game opened by its name (a random layout) has a line all the same: the solver's
    # tour, or its reason when the layout cannot be solved
    code, v = _api(base, "state", id="tanglung-solo", seed="3")
    assert code == 200 and v["answer_why"] is None
    code, a = _api(base, "answer", id="tanglung-solo", seed="3")
    assert code == 200 and a["done"] and (a["solved"] or (a["steps"] == [] and a["reason"]))
    # a best-turn puzzle: the turn's placements, then the turn is over
    code, a = _api(base, "answer", id="tangle:min_points=10,min_chain=2#1")
    assert code == 200 and a["solved"] and a["reason"].startswith("solved: ") and len(a["steps"]) >= 2
    code, v = _api(base, "state", id=QANGO)
    assert v["answer_why"] is None and v["hot_names"]["2"] == "0,2" and v["hot_names"]["1"] == "0,1 (not legal now)"


def test_answer_plays_a_solo_challenge_to_solved(driver, base):
    _open(driver, base, TANGLUNG)
    press(driver, Keys.TAB)  # the page has the focus
    press(driver, "a")
    assert driver.find_element(By.ID, "stop").is_displayed()
    # while it plays, the other controls are disabled
    assert not driver.find_element(By.ID, "undo").is_enabled() or _log_len(driver) == 0
    result = _wait_text(driver, "#result", "solved", timeout=90)
    assert result == "solved in 14 moves (fewest moves: 14)"
    WebDriverWait(driver, WAIT, poll_frequency=POLL).until(lambda d: not d.find_element(By.ID, "stop").is_displayed())
    assert _log_len(driver) == 14
    assert "14 steps played" in _text(driver, "#answerinfo")
    assert not driver.find_element(By.ID, "answer").is_enabled()  # over: nothing left to show


def test_answer_disabled_with_a_reason_in_a_free_game(driver, base):
    _open(driver, base, "zinga")
    assert not driver.find_element(By.ID, "answer").is_enabled()
    assert "free game has no goal" in _text(driver, "#answerinfo")


def test_answer_can_be_stopped(driver, base):
    _open(driver, base, TANGLUNG)
    driver.find_element(By.ID, "answer").click()
    WebDriverWait(driver, WAIT, poll_frequency=POLL).until(lambda d: _log_len(d) >= 2)
    press(driver, Keys.ESCAPE)
    WebDriverWait(driver, WAIT, poll_frequency=POLL).until(lambda d: "stopped" in _text(d, "#answerinfo"))
    n = _log_len(driver)
    assert 2 <= n < 14
    time.sleep(1.0)
    assert _log_len(driver) == n
    assert driver.find_element(By.ID, "undo").is_enabled()


def _error_page(d, base: str, path: str) -> str:
    d.get(base + path)
    return WebDriverWait(d, WAIT, poll_frequency=POLL).until(lambda dr: _text(dr, "#message"))


@pytest.mark.parametrize("path, want", [
    ("/play/qango:6:zz", "qango"),
    ("/play/nosuchgame", "not a game or ID"),
])
def test_bad_id_shows_the_error_with_the_controls_disabled(driver, base, path, want):
    msg = _error_page(driver, base, path)
    assert want in msg
    _idle(driver)
    assert "loading" not in _text(driver, "#board")
    assert "No position to show" in _text(driver, "#board")
    for b in ("undo", "redo", "restart", "hint", "answer"):
        assert not driver.find_element(By.ID, b).is_enabled(), b
    assert _log_len(driver) == 0 and _text(driver, "#result") == "" and _text(driver, "#prompt") == ""


def test_illegal_moves_in_the_address_show_the_error_and_restart_works(driver, base):
    msg = _error_page(driver, base, "/play/" + TANGLUNG + "?moves=4.1")
    assert "move 2 of the URL (1) is illegal" in msg and "cannot move to 0,1" in msg
    WebDriverWait(driver, WAIT, poll_frequency=POLL).until(lambda d: d.find_element(By.ID, "restart").is_enabled())
    assert "loading" not in _text(driver, "#board") and _log_len(driver) == 0
    for b in ("undo", "redo", "hint", "answer"):
        assert not driver.find_element(By.ID, b).is_enabled(), b
    press(driver, "t")  # back to the start without the address's moves
    WebDriverWait(driver, WAIT, poll_frequency=POLL).until(lambda d: "ID " in _text(d, "#idline") and "could not" not in _text(d, "#idline"))
    assert driver.find_elements(By.CSS_SELECTOR, "#board .hot")
    assert driver.find_element(By.ID, "hint").is_enabled()


def test_progress_is_shown_while_the_server_works(driver, base):
    """A slow request (here the whole answer is asked for) shows what is happening and the seconds,
    with the controls disabled."""
    _open(driver, base, TANGLUNG)
    driver.execute_script("""
      const real = window.fetch;
      window.fetch = (...a) => new Promise((res) => setTimeout(() => res(real(...a)), 1500));""")
    press(driver, Keys.TAB)
    press(driver, "h")
    WebDriverWait(driver, 5, poll_frequency=POLL).until(lambda d: "1 s" in _text(d, "#busy"))
    assert "looking for a hint" in _text(driver, "#busy")
    assert driver.find_element(By.ID, "spinner").is_displayed()
    assert not driver.find_element(By.ID, "hint").is_enabled() and not driver.find_element(By.ID, "restart").is_enabled()
    _wait_text(driver, "#hinttext", "hint:")
    _idle(driver)
    assert driver.find_element(By.ID, "hint").is_enabled()


ZINGA_OVER = "14.14.14.11.15.12.1638.15.12.11.15.13.11.125.14.15.11.15.16.15.4488.12.16.13.11.15.16.107.14.12.11.11.11.13.1392"  # a Zinga game to its end (random moves, seed 0)


def test_zinga_end_in_plain_words(driver, base):
    driver.get(f"{base}/play/zinga?moves={ZINGA_OVER}")
    _wait_text(driver, "#result", "game over")
    lines = [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#result li")]
    assert _text(driver, "#result").startswith("game over: winner: player 1 (strong)")
    assert any(x.startswith("player 0 is out after 3 blunders") for x in lines), lines  # why "(out)"
    assert "[" not in _text(driver, "#result") and "-1.0" not in _text(driver, "#result")  # no returns vector
    assert "lost" in driver.find_element(By.ID, "result").get_attribute("class")  # the person lost
    for b in ("hint", "answer"):
        assert not driver.find_element(By.ID, b).is_enabled()
    # a cell chosen after the end is refused with the reason (it was ignored without a word)
    _tab_to_board(driver)
    press(driver, Keys.ENTER)
    assert _wait_text(driver, "#message", "refused") == "refused: the game is over"


def test_redo_kept_along_the_undone_line_and_dropped_by_another_move(driver, base):
    _open(driver, base, TANGLUNG)
    driver.find_element(By.CSS_SELECTOR, '#board .hot[data-action="4"]').click()
    _wait_log(driver, 1)
    second = driver.find_element(By.CSS_SELECTOR, "#board .hot.legal").get_attribute("data-action")
    driver.find_element(By.CSS_SELECTOR, f'#board .hot[data-action="{second}"]').click()
    _wait_log(driver, 2)
    press(driver, Keys.TAB)
    for n in (1, 0):
        press(driver, "u")
        _wait_log(driver, n)
    driver.find_element(By.CSS_SELECTOR, '#board .hot[data-action="4"]').click()  # the undone line's first move
    _wait_log(driver, 1)
    assert driver.find_element(By.ID, "redo").is_enabled()  # its second move is still there to redo
    press(driver, "r")
    _wait_log(driver, 2)
    assert _text(driver, "#log").splitlines()[1].endswith(f"{int(second) // 4},{int(second) % 4}")
    press(driver, "u")
    _wait_log(driver, 1)
    other = [e.get_attribute("data-action") for e in driver.find_elements(By.CSS_SELECTOR, "#board .hot.legal")]
    other = [a for a in other if a != second]
    driver.find_element(By.CSS_SELECTOR, f'#board .hot[data-action="{other[0]}"]').click()  # another move
    _wait_log(driver, 2)
    assert not driver.find_element(By.ID, "redo").is_enabled()


@pytest.mark.parametrize("path", ["/", "/check/zangle", "/check/qango"])
def test_other_pages_have_tap_targets_and_no_sideways_scroll_on_a_phone(driver, base, path):
    """The index and check pages: every visible button, link and field at least 40 px on a phone,
    and nothing scrolls sideways (the same check as the play pages'; /rules is prose, whose inline
    links are exempt from target sizes)."""
    set_window(driver, PHONE)
    try:
        driver.get(base + path)
        WebDriverWait(driver, WAIT, poll_frequency=POLL).until(
            lambda d: d.execute_script("return document.readyState") == "complete"
            and (path != "/" or len(d.find_elements(By.CSS_SELECTOR, "#games a")) > 0)
            and (not path.startswith("/check") or len(d.find_elements(By.CSS_SELECTOR, "#deck .card, #grid svg")) > 0))
        _no_sideways_scroll(driver)
    finally:
        set_window(driver, DESKTOP)
