"""The HTML report: per-metric charts with Wilson intervals, a client-side filter allowed by its hash, and the
XSS corpus (tests/viewer/hostile.py) escaped everywhere."""

import base64
import hashlib
import re

import pytest

from agentunit.reporting.charts import _wilson, wilson
from agentunit.reporting.html import CSP, write_html
from tests.viewer.hostile import HOSTILE_RUN, XSS, build_runs, check_markup, report_result


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    path = tmp_path_factory.mktemp("report") / "results.db"
    build_runs(path)
    return path


def _sha256(text):
    return "sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()


def test_the_policy_allows_exactly_the_page_s_own_script_and_style(db, tmp_path):
    write_html(report_result(db, "run-b"), tmp_path / "r.html")
    page = (tmp_path / "r.html").read_text()
    (script,) = re.findall(r"<script>(.*?)</script>", page, re.S)
    (style,) = re.findall(r"<style>(.*?)</style>", page, re.S)
    policy = re.search(r"content=\"([^\"]+)\"", page).group(1)
    assert policy == CSP and f"script-src '{_sha256(script)}'" in policy and f"style-src '{_sha256(style)}'" in policy
    assert "unsafe-inline" not in policy and "default-src 'none'" in policy and "img-src data:" in policy
    assert "http" not in page.split("<body>")[0].replace("http-equiv", "")  # nothing fetched


def test_each_metric_has_a_bar_with_its_wilson_interval_and_the_filter_lists_it(db, tmp_path):
    write_html(report_result(db, "run-b"), tmp_path / "r.html")
    page = (tmp_path / "r.html").read_text()
    assert "<svg class='chart rates'" in page and "90.0% [76.9%–96.0%] n=40" in page
    assert "no verdicts" in page  # latency: informational only
    assert "<option value='equals'>equals</option>" in page and "<b id='shown'>40</b> of 40" in page
    failing = re.findall(r"data-failing='([^']*)'", page)
    assert len(failing) == 40 and failing.count("[&quot;equals&quot;]") == 4


def test_the_interval_matches_the_reference_formula():
    # statsmodels' proportion_confint(method="wilson") for these counts
    assert _wilson(36, 40, 0.95) == pytest.approx((0.769482247724777, 0.9604204713173937))
    assert _wilson(0, 10, 0.95) == pytest.approx((0.0, 0.2775327998628893))
    assert wilson(36, 40) == pytest.approx(_wilson(36, 40, 0.95))
    assert _wilson(0, 0, 0.95) == (0.0, 1.0)


def test_the_xss_corpus_is_escaped_in_the_report(db, tmp_path):
    write_html(report_result(db, HOSTILE_RUN), tmp_path / "x.html")
    page = (tmp_path / "x.html").read_text()
    assert check_markup(page, scripts_allowed=1) == []
    assert page.count("&lt;script&gt;alert(1)&lt;/script&gt;") >= 3 and len(XSS) == page.count("<tr class='case'")
