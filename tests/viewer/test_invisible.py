"""Bidi controls and invisible characters stored in a run are shown as escapes on every viewer page, never raw
(a U+202E would reorder what the page shows); a form field keeps its value as a character reference."""

import re
import threading
from urllib.parse import urlencode

import pytest

from agentunit.api import evaluate
from agentunit.viewer import make_server
from tests.viewer.conftest import fetch

HIDDEN = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c\u200b\u2060\ufeff\xad\U000e0041\x85"
RAW = re.compile("[" + HIDDEN + "]")


@pytest.fixture
def served(tmp_path):
    db = tmp_path / "r.db"
    runs = [evaluate({"name": "suite\u202eeman", "target": {"type": "echo"},
                      "cases": [{"id": "case\u202e1", "prompt": f"invoice{HIDDEN}fdp.exe\nsecond line",
                                 "metrics": [{"metric": "contains", "value": "absent"}]}]}, db=db).run_id
            for _ in range(2)]
    server = make_server(db, port=0)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    yield server, runs
    server.shutdown()
    server.server_close()


def test_no_viewer_page_holds_a_raw_bidi_control_or_invisible_character(served):
    server, (first, second) = served
    pages = ["", "?" + urlencode({"suite": "suite\u202eeman"}), f"run/{first}",
             f"run/{first}?" + urlencode({"q": "invoice\u202e"}),
             f"run/{first}/case?" + urlencode({"id": "case\u202e1"}),
             "compare?" + urlencode({"a": first, "b": second}),
             "compare?" + urlencode({"a": "x\u202ey", "b": second})]
    bodies = {}
    for path in pages:
        status, _, body = fetch(server.url + path)
        assert status in (200, 404), path
        assert RAW.search(body) is None, (path, sorted({f"U+{ord(c):04X}" for c in RAW.findall(body)}))
        bodies[path] = body
    case_page = bodies[f"run/{first}/case?" + urlencode({"id": "case\u202e1"})]
    assert "invoice\\u202a\\u202b\\u202c\\u202d\\u202e" in case_page and "case\\u202e1" in case_page
    # a form field's value comes back as it was typed: a character reference, not an escape
    assert "value='invoice&#x202e;'" in bodies[f"run/{first}?" + urlencode({"q": "invoice\u202e"})]
    assert "case%E2%80%AE1" in bodies[f"run/{first}"]  # links carry the id itself, URL-encoded
