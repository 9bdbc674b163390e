"""Reports a person can read: durations in ms/s, the info column, pass@k and the judge's use in the HTML
report, each attempt of a repeated case numbered in every report."""

import io
import re
from types import SimpleNamespace

import pytest

from agentunit import evaluate
from agentunit.reporting.console import attempt_text, duration_text, print_summary
from agentunit.reporting.html import write_html
from agentunit.reporting.markdown import write_markdown
from agentunit.targets.base import Reply, Target


class _SlowTarget(Target):
    """Answers the prompt, reporting the latency the prompt names (``slow`` = 11,190 ms)."""

    kind = "test"

    def __init__(self):
        super().__init__({"type": "test"})

    def request(self, case):
        return {"prompt": case.query}

    async def send(self, case, request):
        return Reply(body=case.query, latency_ms=11190.0 if case.query == "slow" else 37.4)


@pytest.fixture
def slow_run():
    return evaluate(cases=[
        {"id": "slow", "prompt": "slow", "metrics": [{"metric": "latency", "threshold": 5000}]},
        {"id": "quick", "prompt": "quick", "metrics": ["latency", {"metric": "contains", "value": "quick"}]},
    ], target=_SlowTarget())


@pytest.fixture
def repeated_run():
    return evaluate(cases=[{"id": "flip", "prompt": "hello", "metrics": [{"metric": "contains", "value": "bye"}]}],
                    target=lambda prompt: prompt, repeat=3)


@pytest.mark.parametrize(("ms", "text"), [(None, "—"), (0.42, "0.42 ms"), (3.25, "3.2 ms"), (37.4, "37 ms"),
                                          (999.4, "999 ms"), (1119.0, "1.12 s"), (11190.0, "11.2 s"),
                                          (150_000.0, "2.5 min")])
def test_durations_read_as_ms_s_or_min(ms, text):
    assert duration_text(ms) == text


def test_html_shows_latency_as_a_duration_never_in_exponent_notation(slow_run, tmp_path):
    write_html(slow_run, tmp_path / "r.html")
    page = (tmp_path / "r.html").read_text()
    assert "e+0" not in page and "<td>11.2 s</td>" in page and "<td>37 ms</td>" in page
    assert "latency: 11.2 s (failed)" in page  # the metric's value too
    assert "<td>5,614 [37.4, 11,190]</td>" in page  # and its mean score


def test_html_has_the_info_column_and_the_console_s_intervals(slow_run, tmp_path):
    write_html(slow_run, tmp_path / "r.html")
    page = (tmp_path / "r.html").read_text()
    header = re.search(r"<table id='metrics'><tr>(.*?)</tr>", page).group(1)
    assert re.findall(r"<th[^>]*>([^<]*)</th>", header) == [
        "metric", "pass rate", "95% CI", "passed", "failed", "not measured", "errors", "info", "mean score"]
    # latency without a threshold on `quick` is informational: counted under info, as on the console
    latency_row = re.search(r"<tr><td>latency</td>(.*?)</tr>", page).group(1)
    cells = re.findall(r"<td>([^<]*)</td>", latency_row)
    assert cells[0] == "0.0%" and cells[2:7] == ["0", "1", "0", "0", "1"]
    console = io.StringIO()
    print_summary(slow_run, out=console)
    assert re.search(r"latency +0\.0% .* 0 +1 +0 +0 +1 ", console.getvalue())


def test_html_shows_pass_at_k_flaky_cases_and_numbers_each_attempt(repeated_run, tmp_path):
    write_html(repeated_run, tmp_path / "r.html")
    page = (tmp_path / "r.html").read_text()
    assert "<p id='repeats'>repeats k=3: pass rate 0, pass@3 0, pass^3 0</p>" in page
    assert "flaky cases (verdict differs across repeats): 0/1" in page
    ids = re.findall(r"<tr class='case'[^>]*><td>([^<]*)</td>", page)
    assert ids == ["flip (attempt 1/3)", "flip (attempt 2/3)", "flip (attempt 3/3)"]


def test_markdown_and_console_number_each_attempt(repeated_run, tmp_path):
    write_markdown(repeated_run, tmp_path / "r.md")
    listed = [line for line in (tmp_path / "r.md").read_text().splitlines() if line.startswith("- **flip**")]
    assert [line.split(" (failed)")[0] for line in listed] == [
        f"- **flip** (attempt {i}/3)" for i in (1, 2, 3)]
    console = io.StringIO()
    print_summary(repeated_run, out=console)
    assert "FAIL flip (attempt 1/3)" in console.getvalue() and "FAIL flip (attempt 3/3)" in console.getvalue()


def test_attempts_are_unnumbered_without_repeats():
    assert attempt_text({"repeat": 0}, {}) == ""
    assert attempt_text({"repeat": 2}, {}) == " #2"  # an older summary without k
    assert attempt_text({"repeat": 0}, {"repeat": {"k": 4}}) == " (attempt 1/4)"


def test_html_and_markdown_give_the_judge_s_use_like_the_console(tmp_path):
    judge = {"provider": "local", "calls": 3, "cache_hits": 1, "prompt_tokens": 420, "completion_tokens": 3}
    run = evaluate(cases=[{"id": "a", "prompt": "x", "metrics": [{"metric": "contains", "value": "x"}]}],
                   target=lambda prompt: prompt)
    run = SimpleNamespace(**{k: getattr(run, k) for k in ("suite", "run_id", "started_at", "store", "status",
                                                          "passed", "iter_cases")},
                          summary={**run.summary, "judge": judge})
    write_html(run, tmp_path / "r.html")
    write_markdown(run, tmp_path / "r.md")
    line = "judge local: 3 calls, 1 cached, 420 prompt + 3 completion tokens"
    assert f"<p id='judge'>{line}</p>" in (tmp_path / "r.html").read_text()
    assert f"\n{line}.\n" in (tmp_path / "r.md").read_text().replace("\\", "")  # inert: punctuation escaped
    console = io.StringIO()
    print_summary(run, out=console)
    assert line in console.getvalue()
