"""The web app in a real browser: Referee served on a free port (base_url), Debian's Chromium
driven by Playwright.

Every page a test opens is watched: a request to another origin, a console error or an uncaught
exception fails the test. Each test leaves a screenshot in var/screenshots/ (the test artefacts).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from benchmarks.browser import CHROMIUM_ARGS, PHONE, chromium_path

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "var" / "screenshots"
AXE = Path(__file__).resolve().parent / "vendor" / "axe-core" / "axe.min.js"
INSTALL_HINT = ("The browser tests need Chromium. Install it with `apt-get install -y chromium` "
                "(`make test` does this itself when run as root), set REFEREE_CHROMIUM to its path, "
                "or leave these tests out with `make test BROWSER=0`.")


@pytest.fixture(scope="session")
def browser():
    executable = chromium_path()
    if executable is None:
        pytest.fail(INSTALL_HINT, pytrace=False)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


class Watch:
    """What a page did that it must not: requests to other origins, console errors, exceptions.

    Chromium logs every 4xx answer as a console error; those are answers the page shows (a 404 page,
    a 422 naming a broken invariant), so they are not counted. A 5xx is.
    """

    @staticmethod
    def answered(text: str) -> bool:
        return re.match(r"Failed to load resource: the server responded with a status of 4\d\d", text) is not None

    def __init__(self, page, origin: str):
        self.outside: list[str] = []
        self.errors: list[str] = []
        page.on("request", lambda r: None if r.url.startswith((origin, "data:")) else self.outside.append(r.url))
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" and not self.answered(m.text) else None)
        page.on("pageerror", lambda e: self.errors.append(str(e)))


@pytest.fixture()
def open_page(browser, base_url, request):
    """open_page(path, locale="en-US", dark=False, width=None) -> a page at 375 px (or ``width``), watched until the test ends."""
    contexts = []
    watches = []

    def open_(path: str = "/", locale: str = "en-US", dark: bool = False, width: int | None = None):
        # bypass_csp: the app's policy forbids eval, which Playwright's wait_for_function needs;
        # requests to other origins are watched below instead.
        viewport = {**PHONE, "width": width} if width else PHONE
        context = browser.new_context(viewport=viewport, locale=locale, color_scheme="dark" if dark else "light",
                                      bypass_csp=True)
        contexts.append(context)
        page = context.new_page()
        watches.append(Watch(page, base_url))
        page.goto(base_url + path)
        return page

    yield open_
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for n, context in enumerate(contexts):
        for page in context.pages:
            name = re.sub(r"[^\w.-]+", "_", request.node.name).strip("_")
            page.screenshot(path=SCREENSHOTS / f"{name}-{n}.png", full_page=True)
        context.close()
    for watch in watches:
        assert watch.outside == [], f"requests outside Referee's origin: {watch.outside}"
        assert watch.errors == [], f"console errors: {watch.errors}"


@pytest.fixture(scope="session")
def axe_source() -> str:
    return AXE.read_text(encoding="utf-8")
