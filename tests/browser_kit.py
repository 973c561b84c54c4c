"""Shared pieces of the browser tests: Debian's headless Chromium through Selenium with an
explicit driver path (nothing is downloaded) and the page helpers; the server is conftest.py's
``base`` fixture. A test module uses them with ``from browser_kit import *`` after
``pytest.importorskip`` has passed; each module gets its own server and browser (module-scoped
fixtures)."""

from __future__ import annotations

import os
import shutil
import tempfile
from urllib.parse import quote

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"

webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (pip install -e '.[test]')")
if not (os.path.exists(CHROMIUM) and os.path.exists(CHROMEDRIVER)):
    pytest.skip(f"no browser: {CHROMIUM} and {CHROMEDRIVER} are needed "
                "(apt-get install chromium chromium-driver; .ci/run does it)", allow_module_level=True)

from selenium.webdriver.chrome.options import Options  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

PHONE = (390, 844)
DESKTOP = (1366, 768)

TANGLUNG_ID = "tanglung:solo,easy#1"
ZANGLE_ID = "zangle:solo,piles=5,easy#1"
WAIT = 30
POLL = 0.1  # seconds between checks of a wait: each check is a few WebDriver round trips (browser CPU)


@pytest.fixture(scope="module")
def driver():
    profile = tempfile.mkdtemp(prefix="tanglekit-chromium-")
    opts = Options()
    opts.binary_location = CHROMIUM
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", "--window-size=1280,1000", f"--user-data-dir={profile}",
                 # fewer helper processes and background work: the browser's CPU is most of these tests'
                 "--disable-extensions", "--mute-audio", "--disable-site-isolation-trials", "--renderer-process-limit=1",
                 "--disable-features=Translate,OptimizationHints,MediaRouter,DialMediaRouteProvider,AutofillServerCommunication"):
        opts.add_argument(flag)
    d = webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)
    yield d
    d.quit()
    shutil.rmtree(profile, ignore_errors=True)


def _text(d, css: str) -> str:
    return d.find_element(By.CSS_SELECTOR, css).text


def _wait_text(d, css: str, want: str, timeout: float = WAIT) -> str:
    WebDriverWait(d, timeout, poll_frequency=POLL).until(lambda dr: want in _text(dr, css))
    return _text(d, css)


def _log_len(d) -> int:
    return len(d.find_elements(By.CSS_SELECTOR, "#log li"))


def _wait_log(d, n: int) -> None:
    WebDriverWait(d, WAIT, poll_frequency=POLL).until(lambda dr: _log_len(dr) == n and not _text(dr, "#busy"))


def _open(d, base: str, spec: str) -> None:
    d.get(f"{base}/play/{quote(spec, safe=':,=/')}")
    WebDriverWait(d, WAIT, poll_frequency=POLL).until(lambda dr: "ID " in _text(dr, "#idline"))


def _click_cell(d, cell: int) -> None:
    d.find_element(By.CSS_SELECTOR, f'#board .hot[data-action="{cell}"]').click()




def set_window(d, size: tuple[int, int]) -> None:
    """Make the page's viewport (not the outer window) the given CSS size, e.g. PHONE or DESKTOP."""
    d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                      {"width": size[0], "height": size[1], "deviceScaleFactor": 1, "mobile": size[0] < 600})


def press(d, *keys) -> None:
    """Send keys to whatever has the focus (keyboard play)."""
    from selenium.webdriver.common.action_chains import ActionChains  # selenium's, only for key tests

    ActionChains(d).send_keys(*keys).perform()


def focused(d):
    """The element that has the keyboard focus."""
    return d.switch_to.active_element
