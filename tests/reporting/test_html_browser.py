"""The HTML report in a real browser (Playwright + Debian's chromium): its filter script runs under the
hash-based policy (a policy violation is a console error), the filters work, and the XSS corpus runs nothing."""

import pytest

from agentunit.reporting.html import write_html
from tests.viewer.browser import require_browser
from tests.viewer.hostile import HOSTILE_RUN, XSS, build_runs, report_result

require_browser()


@pytest.fixture(scope="module")
def reports(tmp_path_factory):
    folder = tmp_path_factory.mktemp("html")
    build_runs(folder / "results.db")
    for name, run_id in (("run-b.html", "run-b"), ("hostile.html", HOSTILE_RUN)):
        write_html(report_result(folder / "results.db", run_id), folder / name)
    return folder


def _visible(page):
    return page.locator("tr.case:not([hidden]) td:first-child").all_inner_texts()


def test_the_report_filters_by_status_metric_and_search(tab, reports):
    page = tab.page
    page.goto((reports / "run-b.html").as_uri())
    assert len(_visible(page)) == 40 and page.locator("svg.rates").count() == 1
    page.select_option("select[name=status]", "failed")
    assert sorted(_visible(page)) == ["c05", "c09", "c20", "c21"] and page.inner_text("#shown") == "4"
    page.select_option("select[name=status]", "unpassed")
    page.fill("input[name=q]", "c2")
    assert sorted(_visible(page)) == ["c20", "c21"]
    page.select_option("select[name=status]", "")
    page.fill("input[name=q]", "NEEDLE")
    assert _visible(page) == ["c30"]
    page.fill("input[name=q]", "")
    page.select_option("select[name=metric]", "equals")
    assert len(_visible(page)) == 4


def test_the_hostile_report_runs_nothing_but_its_own_filter(tab, reports):
    page = tab.page
    page.goto((reports / "hostile.html").as_uri())
    assert tab.inert() == {"scripts": 1, "handlers": 0, "jsLinks": 0}
    assert len(_visible(page)) == len(XSS)
    page.fill("input[name=q]", "onerror=alert(2)")
    assert len(_visible(page)) == 1
