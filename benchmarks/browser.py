"""The web app in headless Chromium: how long an answer takes to appear after Enter, and what the
first load of a game page transfers. Also where the browser tests learn how to start Chromium here.
"""

from __future__ import annotations

import os
import shutil

# As the machine's probe starts it: no sandbox (root in CI), and none of the calls home that the
# closed network refuses.
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-sync",
                 "--disable-background-networking", "--disable-component-update"]
PHONE = {"width": 375, "height": 812}


def chromium_path() -> str | None:
    """Debian's Chromium (Playwright's own browser download cannot be reached); REFEREE_CHROMIUM overrides."""
    path = os.environ.get("REFEREE_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    return path if os.path.exists(path) else None


def answer_latency(base: str, cases) -> dict:
    """Ask every question on its game's Chat page (the whole library's when it has no game), typed and
    sent with Enter as a player does. Time from the submit (Enter) to the answer drawn in the page,
    as the app's own performance measure "answer" records it."""
    from playwright.sync_api import sync_playwright

    executable = chromium_path()
    if executable is None:
        raise RuntimeError("Chromium is missing: apt-get install -y chromium")
    samples, first_load = [], None
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        page = browser.new_context(viewport=PHONE, bypass_csp=True).new_page()  # wait_for_function evaluates
        for game in sorted({case.game or "mamma-mia" for case in cases}):
            page.goto(f"{base}/games/{game}/chat")
            page.wait_for_selector("#question")
            page.wait_for_load_state("networkidle")
            if first_load is None:
                first_load = page.evaluate("""() => performance.getEntriesByType('navigation')[0].transferSize +
                    performance.getEntriesByType('resource').reduce((sum, r) => sum + r.transferSize, 0)""")
            for case in (c for c in cases if (c.game or "mamma-mia") == game):
                count = page.locator(".chat-log > li").count()
                page.fill("#question", case.q)
                page.press("#question", "Enter")
                page.wait_for_function(f"document.querySelectorAll('.chat-log > li').length > {count}")
                samples.append(page.evaluate("performance.getEntriesByName('answer').pop().duration") / 1000)
        browser.close()
    return {"samples": samples, "first_load_bytes": first_load}
