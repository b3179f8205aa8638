"""``tutor serve`` for real: the server started as a learner's instructor would, the page opened in headless
Chromium (Debian's chromium and chromedriver, driven by Selenium), a wrong token refused, the right one logging
in, and the course map arriving in the browser. A screenshot of the page is kept as an artifact
(``$TUTOR_ARTIFACTS_DIR``, else the test's temporary folder).

What the terminal shows is read from the bytes the page receives over its WebSocket (the page draws them on a
canvas), with the terminal's escape sequences removed.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Classroom
from tutor.i18n import t
from tutor.ui.screens import login as _login_strings  # noqa: F401 - registers the login screen's words

pytestmark = pytest.mark.parametrize("stores", ["postgresql"], indirect=True)

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
CAPTURE = """
window.__tutor = [];
const Native = window.WebSocket;
window.WebSocket = function (url, protocols) {
  const ws = protocols ? new Native(url, protocols) : new Native(url);
  const decoder = new TextDecoder();
  ws.addEventListener('message', (e) => {
    if (typeof e.data !== 'string') { window.__tutor.push(decoder.decode(new Uint8Array(e.data), {stream: true})); }
  });
  return ws;
};
window.WebSocket.prototype = Native.prototype;
"""
ANSI = re.compile(r"\x1b\[[0-9;?<>=]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][A-Z0-9]|\x1b[=>]")


def browser_missing() -> str | None:
    if not (os.access(CHROMIUM, os.X_OK) and os.access(CHROMEDRIVER, os.X_OK)):
        return "Debian's chromium and chromium-driver are not installed (apt-get install chromium chromium-driver)"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed"
    return None


@pytest.fixture
def chromium(tmp_path: Path) -> Iterator[Any]:
    why = browser_missing()
    if why:
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(why)
        pytest.skip(why)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--no-first-run", "--window-size=1280,900", f"--user-data-dir={tmp_path / 'chromium-profile'}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(30)
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": CAPTURE})
    try:
        yield driver
    finally:
        driver.quit()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def served(classroom: Classroom, tmp_path: Path) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    port = free_port()
    env = {**os.environ, "TUTOR_DATA_DIR": str(tmp_path / "data")}
    env.pop("TUTOR_STORE", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "tutor", "serve", "--store", classroom.admin, "--port", str(port), "--lang", "en"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            assert proc.poll() is None, proc.stdout.read() if proc.stdout else ""
            time.sleep(0.1)
        yield f"http://127.0.0.1:{port}/", proc
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)


def screen_text(driver: Any) -> str:
    return ANSI.sub("", "".join(driver.execute_script("return window.__tutor || [];")))


def wait_for_text(driver: Any, words: str, timeout: float = 30) -> str:
    deadline = time.monotonic() + timeout
    text = ""
    while time.monotonic() < deadline:
        text = screen_text(driver)
        if words in text:
            return text
        time.sleep(0.2)
    Path(os.environ.get("TUTOR_ARTIFACTS_DIR") or "/tmp").joinpath("serve-last-screen.txt").write_text(text)
    raise AssertionError(f"{words!r} never reached the browser; it got {text[-600:]!r}")


def type_in(driver: Any, text: str) -> None:
    from selenium.webdriver.common.by import By

    box = driver.find_element(By.CSS_SELECTOR, ".xterm-helper-textarea")
    box.send_keys(text)


def test_a_learner_logs_in_from_chromium_and_sees_the_course_map(
    classroom: Classroom, served: tuple[str, Any], chromium: Any, tmp_path: Path
) -> None:
    from selenium.webdriver.common.keys import Keys

    url, _proc = served
    ana = classroom.learners["ana"]
    chromium.get(url)
    wait_for_text(chromium, t("login.title", "en"))
    # the course map: the bundled course's lessons in a tree (what nobody sees before logging in)
    course_map = "L1 — The GPU as a physical machine"
    assert course_map not in screen_text(chromium)

    type_in(chromium, ana.name + Keys.ENTER)
    time.sleep(1.0)  # Enter moves the focus to the token field: let the app do it before typing on
    type_in(chromium, "not-the-token" + Keys.ENTER)
    wait_for_text(chromium, t("login.refused", "en"))
    assert course_map not in screen_text(chromium)  # a wrong token gets nothing of the course

    type_in(chromium, ana.token + Keys.ENTER)
    # the map fills in as the course loads in the background: wait for each part as a person would look for it
    for words in (course_map, "Level index and guide"):
        wait_for_text(chromium, words)
    time.sleep(0.5)  # let the canvas draw the last frame
    folder = Path(os.environ.get("TUTOR_ARTIFACTS_DIR") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    shot = folder / "serve-course-map.png"
    assert chromium.save_screenshot(str(shot)) and shot.stat().st_size > 10_000
    if folder != tmp_path:
        shutil.copy(shot, tmp_path / shot.name)
