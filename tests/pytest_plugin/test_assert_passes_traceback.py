"""A failing ``assert_passes`` shows the test's own line and the message, not agentunit's source (issue 58: it
printed ~40 lines of ``assert_passes`` before the message)."""

from __future__ import annotations

import pytest
import yaml  # noqa: F401  (imported once here: pytester's in-process runs must not re-import its C loader)

pytest_plugins = ["pytester"]

_TEST = '''
import agentunit


def test_the_weather_answer():
    agentunit.assert_passes("It is 18C in Lyon", [{"metric": "contains", "value": "Paris"},
                                                  {"metric": "contains", "value": "18C"}])
'''


@pytest.mark.parametrize("style", ["auto", "long"])
def test_a_failure_shows_the_test_line_and_the_message_only(pytester: pytest.Pytester, style: str) -> None:
    pytester.makepyfile(test_weather=_TEST)
    result = pytester.runpytest(f"--tb={style}", "-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)
    text = result.stdout.str()
    report = text.split("test_the_weather_answer _", 1)[1].split("short test summary info", 1)[0]
    assert "1 of 2 metric(s) did not pass" in report and "contains: failed, value 0 — 'Paris' not found" in report
    assert "agentunit/api.py" not in report and "def assert_passes" not in report and "problems" not in report
    assert len(report.strip().splitlines()) <= 12, report
