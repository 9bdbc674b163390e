"""Viewer pages of issue 58: a run whose every case errored says so, zero counts are not alerts, a prompt ×
target run has its grid, a comparison shows each broken case's two outputs side by side (escaped), and
`latest~N` on the compare page counts the runs of one suite."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

import pytest

from agentunit import evaluate
from agentunit.viewer import ViewerServer, make_server
from tests.viewer.conftest import fetch

_MATRIX = {"name": "matrix", "prompts": ["Answer briefly: {{ question }}",
                                         {"label": "polite", "template": "Please answer: {{ question }}"}],
           "targets": [{"type": "echo", "label": "echo-a"}, {"type": "echo", "label": "echo-b"}],
           "metrics": [{"metric": "icontains", "value": "briefly"}],
           "cases": [{"id": "capital", "vars": {"question": "capital of France?"}},
                     {"id": "river", "vars": {"question": "longest river?"}}]}
_CASES = [{"id": f"q{i}", "prompt": f"question {i}", "metrics": [{"metric": "contains", "value": "ok"}]}
          for i in range(4)]


def _fail(prompt: str) -> str:
    raise ConnectionError("nothing answers at 127.0.0.1:8799")


def _runs(db: Path) -> dict[str, str]:
    """Two runs of `answers` (the second breaks q1 and q2, with markup in its outputs), a matrix run, and a
    run of `flaky-api` whose every case errored — the newest run of the database."""
    ids = {}
    ids["before"] = evaluate(cases=_CASES, target=lambda p: f"ok, {p}", name="answers", db=db).run_id
    ids["after"] = evaluate(cases=_CASES, target=lambda p: f"ok, {p}" if p[-1] in "03" else f"<b>no</b> {p} & co",
                            name="answers", db=db).run_id
    ids["matrix"] = evaluate(_MATRIX, db=db).run_id
    ids["errored"] = evaluate(cases=_CASES, target=_fail, name="flaky-api", db=db).run_id
    return ids


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ViewerServer, dict[str, str]]]:
    db = tmp_path_factory.mktemp("outcomes") / "results.db"
    ids = _runs(db)
    server = make_server(db, port=0)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    yield server, ids
    server.shutdown()
    server.server_close()


def _page(served: tuple[ViewerServer, dict[str, str]], path: str) -> str:
    status, _, body = fetch(served[0].url + path)
    assert status == 200, (path, body[:500])
    return body


def test_a_run_whose_every_case_errored_says_so(served):
    ids = served[1]
    runs = _page(served, "")
    row = next(r for r in runs.split("<tr>") if ids["errored"] in r)
    assert "completed — every case errored" in row
    page = _page(served, f"run/{quote(ids['errored'])}")
    status = page.split("id='status'>", 1)[1].split("</span></span>", 1)[0]
    assert "<span class='errored outcome'>completed — every case errored" in status
    good = _page(served, f"run/{quote(ids['before'])}").split("id='status'>", 1)[1]
    assert good.startswith("status <span class='completed'>completed</span>")


def test_zero_counts_are_grey_and_others_keep_their_colour(served):
    ids = served[1]
    clean = _page(served, f"run/{quote(ids['before'])}")
    for kind in ("failed", "errored", "unmeasured"):
        assert f"<span class='muted'>0 {kind}</span>" in clean and f"<span class='{kind}'>0 {kind}" not in clean
    errored = _page(served, f"run/{quote(ids['errored'])}")
    assert "<span class='errored'>4 errored</span>" in errored and "<span class='muted'>0 failed</span>" in errored


def test_a_prompt_by_target_run_shows_its_grid(served):
    page = _page(served, f"run/{quote(served[1]['matrix'])}")
    grid = page.split("<table class='matrix' id='matrix'>", 1)[1].split("</table>", 1)[0]
    rows = re.findall(r"<tr>(.*?)</tr>", grid)
    assert re.findall(r"<th class='text'>(.*?)</th>", rows[0]) == ["echo-a", "echo-b"]
    assert [re.search(r"<th class='text'>(.*?)</th>", r).group(1) for r in rows[1:]] == ["prompt-1", "polite"]
    assert re.findall(r"<td class='(\w+)'>([^<]*)</td>", rows[1]) == [("passed", "2/2 (100%)")] * 2
    assert re.findall(r"<td class='(\w+)'>([^<]*)</td>", rows[2]) == [("failed", "0/2 (0%)")] * 2
    assert "id='matrix-metrics'" in page and "metric icontains" in page
    assert "<table class='matrix'" not in _page(served, f"run/{quote(served[1]['before'])}")


def test_broken_cases_show_both_outputs_side_by_side_escaped(served):
    ids = served[1]
    page = _page(served, "compare?" + urlencode({"a": ids["before"], "b": ids["after"]}))
    broken = page.split("<ul id='broken'>", 1)[1].split("</ul>", 1)[0]
    items = broken.split("<li class='text'>")[1:]
    assert [re.search(r">(q\d)</a>", item).group(1) for item in items] == ["q1", "q2"]
    pair = items[0].split("<div class='pair'>", 1)[1]
    a_side, b_side = pair.split("<div><h4>")[1:3]
    assert a_side.startswith("A: <span class='passed'>passed</span>") and "<pre>ok, question 1</pre>" in a_side
    assert b_side.startswith("B: <span class='failed'>failed</span>")
    assert "<pre>&lt;b&gt;no&lt;/b&gt; question 1 &amp; co</pre>" in b_side and "<b>no</b>" not in page
    assert "<span class='tag'>contains</span>" in b_side and "not found in output" in b_side


def test_latest_on_the_compare_page_counts_one_suites_runs(served):
    ids = served[1]
    linked = _page(served, "compare")  # as the header links it: the newest suite that ran twice
    assert f">{ids['before']}</a> → " in linked and f">{ids['after']}</a></h1>" in linked
    assert "id='suites'" not in linked
    named = _page(served, "compare?" + urlencode({"a": ids["before"], "b": "latest"}))
    assert f">{ids['after']}</a></h1>" in named  # latest of the other side's suite, not the errored run
    missing = fetch(served[0].url + "compare?a=latest~1&b=latest")  # flaky-api ran once
    assert missing[0] == 404 and "of suite &#x27;flaky-api&#x27;" in missing[2]
    across = _page(served, "compare?" + urlencode({"a": ids["before"], "b": ids["errored"]}))
    assert "id='suites'" in across and "answers" in across.split("id='suites'", 1)[1].split("</p>", 1)[0]


def test_the_chart_labels_fit_and_the_pages_look_right(served, tmp_path: Path) -> None:
    from tests.viewer.browser import CHROMIUM, launch

    pytest.importorskip("playwright.sync_api")
    if not CHROMIUM.exists():
        pytest.skip(f"no chromium at {CHROMIUM}")
    server, ids = served
    for browser in launch():
        page = browser.new_page(viewport={"width": 1100, "height": 900})
        for index, path in enumerate(("", f"run/{quote(ids['before'])}", f"run/{quote(ids['matrix'])}",
                                      f"run/{quote(ids['errored'])}",
                                      "compare?" + urlencode({"a": ids["before"], "b": ids["after"]}))):
            page.goto(server.url + path)
            outside: list[Any] = page.evaluate("""() => Array.from(document.querySelectorAll('svg')).flatMap(svg => {
                const box = svg.viewBox.baseVal;
                return Array.from(svg.querySelectorAll('text')).map(t => [t.textContent, t.getBBox()])
                  .filter(([_, b]) => b.x < 0 || b.y < 0 || b.x + b.width > box.width || b.y + b.height > box.height)
                  .map(([text, b]) => [text, b.x, b.x + b.width, box.width]);
            })""")
            assert outside == [], (path, outside)
            page.screenshot(path=str(tmp_path / f"page-{index}.png"), full_page=True)  # to look at
        page.goto(server.url + f"run/{quote(ids['before'])}")  # 4 of 4 passed: the widest label, "100.0% […] n=4"
        texts = page.evaluate("() => Array.from(document.querySelectorAll('svg.rates text')).map(t => t.textContent)")
        assert any(t.endswith("n=4") for t in texts), texts  # shown whole, not cut to "n="
        page.close()
