"""`tanglekit serve` driven by a real headless Chromium (Debian's chromium and chromium-driver,
Selenium with an explicit driver path: nothing is downloaded). Skipped when no browser is here."""

from __future__ import annotations

import pytest

pytest.importorskip("selenium.webdriver", reason="selenium is not installed (pip install -e '.[test]')")

from browser_kit import *  # noqa: E402,F401,F403  (the server, the browser and the helpers)
from browser_kit import WAIT, POLL, By, WebDriverWait, _click_cell, _log_len, _open, _text, _wait_log, _wait_text  # noqa: E402,F401


def test_tanglung_challenge_played_to_solved_by_clicking(driver, base):
    from tanglekit.games.tanglung.solo_search import solve_solo
    from tanglekit.web.session import cached_start

    st = cached_start(TANGLUNG_ID).state  # the server's own cache: generated once
    sol = solve_solo(st.engine.layout, st.engine.positions[0])
    _open(driver, base, TANGLUNG_ID)
    assert "fewest moves: 14" in _text(driver, "#goal")
    for k, cell in enumerate(sol.path[1:], 1):
        _click_cell(driver, cell)
        _wait_log(driver, k)
    assert _wait_text(driver, "#result", "solved") == f"solved in {sol.moves} moves (fewest moves: {sol.moves})"
    # the address holds the position: opening it again shows the same finished game
    url = driver.current_url
    assert "moves=" + ".".join(map(str, sol.path[1:])) in url
    driver.get(url)
    _wait_text(driver, "#result", f"solved in {sol.moves} moves")


def test_tanglung_illegal_move_refused_then_undo_and_hint(driver, base):
    _open(driver, base, TANGLUNG_ID)
    st_legal = driver.find_elements(By.CSS_SELECTOR, "#board .hot.legal")
    legal = sorted(int(e.get_attribute("data-action")) for e in st_legal)
    assert legal == [2, 7]  # from the Rooster on 0,3: 0,2 and 1,3
    _click_cell(driver, 5)
    msg = _wait_text(driver, "#message", "illegal")
    assert "cannot move to 1,1" in msg and "0,2 or 1,3" in msg
    assert _log_len(driver) == 0
    _click_cell(driver, 2)
    _wait_log(driver, 1)
    assert _text(driver, "#message") == ""
    driver.find_element(By.ID, "undo").click()
    _wait_log(driver, 0)
    assert "moves=" not in driver.current_url
    driver.find_element(By.ID, "hint").click()
    hint = _wait_text(driver, "#hinttext", "hint:")
    assert "shortest winning line needs 14 more moves" in hint
    hinted = driver.find_elements(By.CSS_SELECTOR, "#board .hot.hinted")
    assert len(hinted) == 1 and int(hinted[0].get_attribute("data-action")) in legal


def _zangle_line():
    """The solver's winning line of the Zangle challenge as game-API actions."""
    from tanglekit.games.zangle.solo_search import SoloDeal, solve_deal
    from tanglekit.web.session import cached_start

    st = cached_start(ZANGLE_ID).state
    res = solve_deal(SoloDeal.from_game(st.engine), time_limit=30)
    assert res.solvable
    out = []
    for native in res.line:
        a = st.action_of(native)
        out.append(a)
        st.apply_action(a)
    assert st.returns() == [1.0]
    return out


@pytest.mark.slow  # the whole winning line clicked (5 s, most of it the browser's CPU); by default the
# Zangle page is driven by test_zangle_hint_selects_the_cards_and_undo (a Zangle played and undone)
def test_zangle_challenge_played_to_solved_by_clicking(driver, base):
    line = _zangle_line()
    _open(driver, base, ZANGLE_ID)
    assert "clear every tableau pile" in _text(driver, "#goal")
    # a wrong Zangle first: the first middle card as target with one unfitting piece
    places = driver.find_elements(By.CSS_SELECTOR, "#board .card[data-place]")
    assert len(places) == 8  # 3 middle cards and 5 pile tops
    for p in (0, 1):
        driver.find_element(By.CSS_SELECTOR, f'#board .card[data-place="{p}"]').click()
    driver.find_element(By.ID, "zangle-go").click()
    msg = _wait_text(driver, "#message", "illegal")
    assert msg == "illegal: a Zangle needs two or more pieces, or one piece and a Z card"
    assert _log_len(driver) == 0
    for k, a in enumerate(line, 1):
        if a >= 1024:
            t, mask = (a - 1024) % 128, (a - 1024) // 128
            driver.find_element(By.ID, "zangle-clear").click()
            driver.find_element(By.CSS_SELECTOR, f'#board .card[data-place="{t}"]').click()
            for p in range(16):
                if mask >> p & 1 and p != t:
                    driver.find_element(By.CSS_SELECTOR, f'#board .card[data-place="{p}"]').click()
            driver.find_element(By.ID, "zangle-go").click()
        else:
            driver.find_element(By.CSS_SELECTOR, f'#buttons button[data-action="{a}"]').click()
        _wait_log(driver, k)
    result = _wait_text(driver, "#result", "solved")
    assert result.startswith(f"solved in {len(line)} actions")


def test_zangle_hint_selects_the_cards_and_undo(driver, base):
    _open(driver, base, ZANGLE_ID)
    driver.find_element(By.ID, "hint").click()
    _wait_text(driver, "#hinttext", "hint: zangle")
    assert driver.find_elements(By.CSS_SELECTOR, "#board .card.target")
    driver.find_element(By.ID, "zangle-go").click()  # the hinted Zangle, as selected
    _wait_log(driver, 1)
    driver.find_element(By.ID, "undo").click()
    _wait_log(driver, 0)


@pytest.mark.slow  # some 40 clicks (4 s, most of it the browser's CPU); tests/test_web_api.py checks the
# Zangle deal check over HTTP and test_check_tanglung_layout_built_by_clicking the check page by default
def test_check_zangle_deal_built_by_clicking(driver, base):
    from tanglekit.games.zangle.solo_search import SoloDeal
    from tanglekit.web.session import cached_start

    deal = SoloDeal.from_game(cached_start(ZANGLE_ID).state.engine)
    driver.get(f"{base}/check/zangle")
    WebDriverWait(driver, WAIT, poll_frequency=POLL).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#deck .card"))

    def put(zone: str, cards) -> None:
        driver.find_element(By.CSS_SELECTOR, f'.zone[data-zone="{zone}"]').click()
        for c in cards:
            driver.find_element(By.CSS_SELECTOR, f'#deck .card[data-card="{c}"]').click()

    put("middle", deal.middle)
    for i, pile in enumerate(deal.piles):
        put(f"pile {i}", pile)
    put("draw", deal.draw)
    driver.find_element(By.ID, "solve").click()
    answer = _wait_text(driver, "#answer", "solvable")
    assert answer.startswith("solvable: a winning line of")
    assert _text(driver, "#shareid") == deal.share_id()
    assert len(driver.find_elements(By.CSS_SELECTOR, "#line li")) >= 1
    n = len(driver.find_elements(By.CSS_SELECTOR, "#line li"))
    driver.find_element(By.ID, "anim-last").click()
    assert _text(driver, "#caption").endswith(f"({n}/{n})")  # the last step of the animated line
    assert "solved" in _text(driver, "#frame")
    driver.find_element(By.ID, "anim-first").click()
    assert _text(driver, "#caption").startswith("the deal")
    assert len(driver.find_elements(By.CSS_SELECTOR, "#frame .card[data-place]")) == 8


def test_check_tanglung_layout_built_by_clicking(driver, base):
    from selenium.webdriver.common.keys import Keys

    layout = "CRBF/HDFR/BHFB/RHDC"
    driver.get(f"{base}/check/tanglung")
    WebDriverWait(driver, WAIT, poll_frequency=POLL).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#grid .hot"))
    # the first row typed, the other twelve cards placed by clicking
    box = driver.find_element(By.ID, "entrytext")
    box.clear()
    box.send_keys(layout[:4] + "/..../..../....", Keys.TAB)
    WebDriverWait(driver, WAIT, poll_frequency=POLL).until(lambda d: "C rooster 1/2" in _text(d, "#palette"))
    for i, letter in enumerate(layout.replace("/", "")):
        if i < 4:
            continue
        driver.find_element(By.CSS_SELECTOR, f'#palette button[data-value="{letter}"]').click()
        driver.find_element(By.CSS_SELECTOR, f'#grid .hot[data-action="{i}"]').click()
        WebDriverWait(driver, WAIT, poll_frequency=POLL).until(
            lambda d, i=i: d.find_element(By.ID, "entrytext").get_attribute("value").replace("/", "")[i] == letter)
    palette = _text(driver, "#palette")
    assert "C rooster 2/2" in palette and "D dragon 2/2" in palette
    driver.find_element(By.ID, "solve").click()
    assert _wait_text(driver, "#answer", "solvable").startswith("solvable in 14 moves from 0,0")
    assert _text(driver, "#shareid") == f"tanglung:solo:{layout}"


def test_qango_puzzle_solved_by_clicking_the_hinted_cells(driver, base):
    pid = "qango:6:k2:.X.OOX/O....O/XO.X../..XO../X...../....X."  # O to move wins in 2
    _open(driver, base, pid)
    assert "O to move wins in 2 counters (3 plies)" in _text(driver, "#goal")
    _click_cell(driver, 0)  # a legal move (not the winning one), taken back below
    _wait_log(driver, 2)  # O's move and the perfect bot's reply
    driver.find_element(By.ID, "undo").click()
    _wait_log(driver, 0)
    _click_cell(driver, 1)
    assert "cell 0,1 is taken" in _wait_text(driver, "#message", "illegal")
    for k in (1, 2):
        driver.find_element(By.ID, "hint").click()
        _wait_text(driver, "#hinttext", "hint:")
        hinted = driver.find_element(By.CSS_SELECTOR, "#board .hot.hinted")
        hinted.click()
        if k == 1:
            _wait_log(driver, 2)
    assert _wait_text(driver, "#result", "solved") == "solved in 2 counters (fewest counters: 2)"
