"""Debian's Chromium for the page tests and benches, started one way everywhere: headless,
through the system chromedriver (no browser download), a fresh profile per browser, and the
flags that keep it off a closed network (without --disable-background-networking Chromium
keeps trying Google's hosts, and this machine refuses them many at a time)."""

import os
import shutil
import tempfile

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"

FLAGS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync")


def available():
    return os.path.exists(CHROMIUM) and os.path.exists(CHROMEDRIVER)


def start(width=1600, height=1000, lang="ko-KR", console_log=False, prefix="lumen-chromium-"):
    """A selenium driver on a new profile; ``quit()`` also removes the profile."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    profile = tempfile.mkdtemp(prefix=prefix)
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for arg in FLAGS + ("--user-data-dir=" + profile, "--window-size=%d,%d" % (width, height)):
        opts.add_argument(arg)
    if lang:
        opts.add_argument("--lang=" + lang)
    if console_log:
        opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)
    quit_driver = driver.quit

    def quit_and_clean():
        try:
            quit_driver()
        finally:
            shutil.rmtree(profile, ignore_errors=True)
    driver.quit = quit_and_clean
    return driver


def text(driver, element_id):
    """An element's text read in one script call: a page that re-renders between a lookup
    and a read can't make it stale."""
    return driver.execute_script("var e = document.getElementById(arguments[0]); return e ? e.innerText : '';",
                                 element_id)


def click(driver, css, timeout=60.0):
    """Click the element ``css`` names once it is there; a re-render between finding it and
    clicking it (a stale element) means find it again, not fail."""
    import time
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By
    deadline = time.monotonic() + timeout
    while True:
        try:
            found = driver.find_elements(By.CSS_SELECTOR, css)
            if found:
                found[0].click()
                return
        except StaleElementReferenceException:
            pass
        if time.monotonic() > deadline:
            raise AssertionError("timed out after %.0f s waiting to click %s" % (timeout, css))
        time.sleep(0.05)
