"""Fixtures of the browser tests."""

from tests.viewer.browser import browser, tab  # noqa: F401
