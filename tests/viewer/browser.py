"""A real browser for the viewer and report tests: Playwright driving Debian's chromium, never a download.

``make browser`` (a dependency of ``make test``) installs /usr/bin/chromium; without it, or without the
playwright package, the browser tests are skipped with the reason. ``AGENTUNIT_CHROMIUM`` names another
chromium binary.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path(os.environ.get("AGENTUNIT_CHROMIUM", "/usr/bin/chromium"))


def require_browser() -> None:
    """Skip the calling test module, with the reason, when playwright or chromium is missing."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        pytest.skip("playwright is not installed: pip install -e '.[test]'", allow_module_level=True)
    if not CHROMIUM.exists():
        pytest.skip(f"no chromium at {CHROMIUM}: `make browser` installs Debian's", allow_module_level=True)


def launch() -> Iterator[Any]:
    """One headless chromium for a module (a generator for a module-scoped fixture)."""
    from playwright.sync_api import sync_playwright

    os.environ.setdefault("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")
    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=str(CHROMIUM), headless=True)
        yield browser
        browser.close()


class Watched:
    """A page that records every dialog (dismissed), console error and uncaught exception."""

    def __init__(self, browser: Any) -> None:
        self.page = browser.new_page(viewport={"width": 1100, "height": 800})
        self.dialogs: list[str] = []
        self.errors: list[str] = []
        self.page.on("dialog", self._dialog)
        self.page.on("console", lambda message: message.type == "error" and self.errors.append(message.text))
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))

    def _dialog(self, dialog: Any) -> None:
        self.dialogs.append(dialog.message)
        dialog.dismiss()

    def inert(self) -> dict[str, Any]:
        """What would show that a payload ran: scripts, event-handler attributes, javascript: links."""
        return self.page.evaluate("""() => ({
            scripts: document.scripts.length,
            handlers: Array.from(document.querySelectorAll('*')).filter(
                e => Array.from(e.attributes).some(a => a.name.startsWith('on'))).length,
            jsLinks: Array.from(document.querySelectorAll('[href],[src]')).filter(
                e => /^\\s*javascript:/i.test(e.getAttribute('href') || e.getAttribute('src') || '')).length})""")

    def close(self) -> None:
        self.page.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One chromium per test module."""
    yield from launch()


@pytest.fixture
def tab(browser: Any) -> Iterator[Watched]:
    """A fresh page; the test fails if the page raised a dialog or logged an error."""
    watched = Watched(browser)
    yield watched
    watched.close()
    assert watched.dialogs == [] and watched.errors == []
