"""The HTML and Markdown reports of issue 58: a zero count is not styled as an alert, and a run whose every
case errored says so instead of reading as an ordinary completed run."""

from __future__ import annotations

from agentunit import evaluate
from agentunit.reporting.html import write_html
from agentunit.reporting.markdown import write_markdown

_CASES = [{"id": f"q{i}", "prompt": f"question {i}", "metrics": [{"metric": "contains", "value": "question"}]}
          for i in range(3)]


def _fail(prompt: str) -> str:
    raise ConnectionError("nothing answers at 127.0.0.1:8799")


def test_zero_counts_are_grey_and_real_ones_keep_their_colour(tmp_path):
    write_html(evaluate(cases=_CASES, target=lambda p: p), tmp_path / "clean.html")
    page = (tmp_path / "clean.html").read_text()
    for kind in ("failed", "errored", "unmeasured"):
        assert f"<span class='muted'>0 {kind}</span>" in page and f"<span class='{kind}'>0 {kind}" not in page
    assert "id='outcome'" not in page
    mixed = evaluate(cases=[*_CASES, {"id": "off", "prompt": "x", "metrics": [{"metric": "contains", "value": "y"}]}],
                     target=lambda p: p)
    write_html(mixed, tmp_path / "mixed.html")
    assert "<span class='failed'>1 failed</span>" in (tmp_path / "mixed.html").read_text()


def test_a_run_whose_every_case_errored_says_so(tmp_path):
    result = evaluate(cases=_CASES, target=_fail)
    assert result.status == "completed" and result.summary["errored"] == 3
    write_html(result, tmp_path / "r.html")
    page = (tmp_path / "r.html").read_text()
    assert "<p id='outcome' class='errored'>Run completed — every case errored.</p>" in page
    assert "<span class='errored'>3 errored</span>" in page
    write_markdown(result, tmp_path / "r.md")
    assert "\nRun completed — every case errored.\n" in (tmp_path / "r.md").read_text()


def test_the_outcome_names_only_what_completed_would_hide():
    from agentunit.reporting.console import outcome_text

    assert outcome_text("completed", {"cases": 3, "errored": 3}) == "completed — every case errored"
    assert outcome_text("completed", {"cases": 0, "errored": 0}) == "completed — no cases"
    assert outcome_text("completed", {"cases": 3, "errored": 2}) == "completed"
    assert outcome_text("interrupted", {"cases": 3, "errored": 3}) == "interrupted"
    assert outcome_text("completed", {}) == "completed"  # a summary without counts
