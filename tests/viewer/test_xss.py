"""The XSS corpus (tests/viewer/hostile.py) in every field, on every viewer page: nothing comes out as markup."""

from urllib.parse import quote, urlencode

from agentunit.viewer import queries
from tests.viewer.conftest import fetch
from tests.viewer.hostile import HOSTILE_RUN, XSS, check_markup


def _pages(viewer, results):
    run = quote(HOSTILE_RUN, safe="")
    yield ""
    yield "?" + urlencode({"suite": XSS[0]})
    yield f"run/{run}"
    yield f"run/{run}?" + urlencode({"q": XSS[1], "metric": XSS[2], "verdict": XSS[3], "status": XSS[4]})
    for case_id in results["hostile_ids"]:
        yield f"run/{run}/case?" + urlencode({"id": case_id})
    yield "compare?" + urlencode({"a": "run-b", "b": HOSTILE_RUN})
    yield "compare?" + urlencode({"a": HOSTILE_RUN, "b": "run-a"})
    yield "compare?" + urlencode({"a": XSS[1], "b": XSS[0]})  # unknown runs: the error names them, escaped
    yield f"run/{quote(XSS[0], safe='')}"
    yield quote(XSS[2])


def test_no_viewer_page_lets_a_payload_become_markup(viewer, results):
    seen = 0
    for path in _pages(viewer, results):
        status, _, body = fetch(viewer.url + path)
        assert status in (200, 404), path
        assert check_markup(body) == [], path
        seen += 1
    assert seen > len(XSS)


def test_the_hostile_case_page_still_shows_every_field_escaped(viewer, results):
    run = quote(HOSTILE_RUN, safe="")
    _, _, body = fetch(viewer.url + f"run/{run}/case?" + urlencode({"id": results["hostile_ids"][1]}))
    escaped = "&quot;&gt;&lt;img src=x onerror=alert(2)&gt;"
    assert body.count(escaped) >= 10  # prompt, output, metric, reason, detail, context, timeline, plan, media, …
    assert "<img" not in body  # forged thumbnails are left out


def test_every_hostile_case_is_stored_and_listed(viewer, results):
    conn = queries.connect(results["db"])
    cases, more = queries.case_page(conn, HOSTILE_RUN, limit=100)
    assert len(cases) == len(XSS) and not more
    assert max(len(c["output"]) for c in cases) == queries.PREVIEW_CHARS  # the very long payload is cut
