"""The viewer in a real browser (Playwright + Debian's chromium): pages load, filters work, a comparison
shows the flipped cases, and the XSS corpus fires no dialog and no error."""

from urllib.parse import quote, urlencode

from tests.viewer.browser import require_browser
from tests.viewer.hostile import HOSTILE_RUN

require_browser()


def test_runs_run_and_case_pages_load_and_link(tab, viewer):
    page = tab.page
    page.goto(viewer.url)
    assert page.locator("h1").first.inner_text() == "Runs"
    page.select_option("select[name=suite]", "demo")
    page.click("button:has-text('Show')")
    assert page.locator("svg.trend").count() == 2 and page.locator("table#runs tr").count() == 3
    page.get_by_role("link", name="run-b").click()
    assert page.locator("svg.rates").count() == 1 and page.locator("tr.case").count() == 40
    page.get_by_role("link", name="c05", exact=True).click()
    assert page.locator("h1").inner_text() == "case c05"
    assert page.locator("#timeline li").count() == 1 and page.locator("#metrics tr").count() == 3


def test_the_case_grid_filters_and_searches(tab, viewer):
    page = tab.page
    page.goto(viewer.url + "run/run-b")
    page.select_option("select[name=status]", "failed")
    page.click("button:has-text('Filter')")
    assert sorted(page.locator("tr.case td:first-child").all_inner_texts()) == ["c05", "c09", "c20", "c21"]
    page.select_option("select[name=status]", "")
    page.select_option("select[name=metric]", "equals")
    page.select_option("select[name=verdict]", "passed")
    page.fill("input[name=q]", "NEEDLE")
    page.click("button:has-text('Filter')")
    assert page.locator("tr.case td:first-child").all_inner_texts() == ["c30"]
    assert "q=NEEDLE" in page.url and page.input_value("input[name=q]") == "NEEDLE"


def test_a_comparison_shows_the_flipped_cases(tab, viewer, results):
    page = tab.page
    page.goto(viewer.url + "compare")
    page.fill("input[name=a]", "run-a")
    page.fill("input[name=b]", "latest")  # the newest run of run-a's suite
    page.click("button:has-text('Compare')")
    assert page.locator("#broken > li > a").all_inner_texts() == results["broken"]
    assert page.locator("#fixed > li > a").all_inner_texts() == results["fixed"]
    page.locator("#broken li a").first.click()
    assert page.locator("h1").inner_text() == "case c05" and "/run/run-b/" in page.url


def test_the_xss_corpus_runs_nothing_in_the_browser(tab, viewer, results):
    run = quote(HOSTILE_RUN, safe="")
    paths = [f"run/{run}", "compare?" + urlencode({"a": "run-b", "b": HOSTILE_RUN})]
    paths += [f"run/{run}/case?" + urlencode({"id": case_id}) for case_id in results["hostile_ids"]]
    for path in paths:
        tab.page.goto(viewer.url + path)
        assert tab.inert() == {"scripts": 0, "handlers": 0, "jsLinks": 0}, path
    tab.page.goto(viewer.url)  # the runs page lists the hostile run and its suite
    assert HOSTILE_RUN in tab.page.locator("table#runs").inner_text()
