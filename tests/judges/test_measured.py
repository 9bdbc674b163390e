"""The judge's measured agreement with people, shown beside a run's verdicts (agentunit.judges.measured)."""

import io
import json
import re
from pathlib import Path

import pytest

import agentunit
from agentunit.calibration.fit import Calibration, FittedThreshold
from agentunit.judges.measured import HELD_OUT, is_embedded, run_agreement
from agentunit.judges.model_file import EMBEDDED_JUDGE
from agentunit.metrics.registry import all_metrics, lookup
from agentunit.reporting.console import print_summary
from tests.judge_helpers import ScriptedProvider, pass_with, scripted_judge

DOCS = Path(__file__).resolve().parents[2] / "docs"
EMBEDDED = {"provider": "local", "model": EMBEDDED_JUDGE, "prefill": "segmented-1"}
# Judge-backed metrics with no published balanced accuracy, and why (the HELD_OUT docstring says the same).
UNPUBLISHED = {"video_response_relevance"}


def test_every_judge_backed_metric_has_a_figure_or_is_named_as_unpublished():
    judged = {i.name for i in all_metrics() if i.model == "judge" and i.cls.__module__.startswith("agentunit.")}
    assert set(HELD_OUT) | UNPUBLISHED == judged and not set(HELD_OUT) & UNPUBLISHED


def test_each_figure_was_measured_at_the_pass_mark_the_metric_ships():
    for name, measured in HELD_OUT.items():
        info, _ = lookup(name)
        assert measured.pass_mark == info.threshold, name


def test_the_figures_are_those_docs_judges_md_publishes():
    """Each metric of the "Where each judge metric stands" table has the test BA written there."""
    text = (DOCS / "judges.md").read_text()
    table = text.split("## Where each judge metric stands", 1)[1]
    published = {}
    for line in table.splitlines():
        found = re.match(r"\| `([^`]+)`(?: / `([^`]+)`)? \| (?:top-1 )?\**([01]\.\d+)", line)
        if found:
            for name in filter(None, found.group(1, 2)):
                published[name] = float(found.group(3))
    assert len(published) >= 24
    for name, value in published.items():
        if name == "select-best":  # the table leads with top-1 accuracy; HELD_OUT keeps the per-output BA
            assert "per output BA 0.932" in table and HELD_OUT[name].balanced_accuracy == 0.932
            continue
        assert HELD_OUT[name].balanced_accuracy == value, name


def test_each_figure_links_to_a_section_that_exists_and_states_it():
    for name, measured in HELD_OUT.items():
        file, anchor = measured.doc.split("#")
        text = (DOCS.parent / file).read_text()
        headings = {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-")
                    for h in re.findall(r"^#+ (.+)$", text, re.M)}
        assert anchor in headings, (name, measured.doc)
        assert f"{measured.balanced_accuracy:.3f}" in text or f"{measured.balanced_accuracy:.2f}" in text, name


def test_the_embedded_judge_is_the_local_provider_without_a_model_file():
    assert is_embedded(EMBEDDED)
    assert not is_embedded({**EMBEDDED, "path": "/models/other.gguf"})
    assert not is_embedded({"provider": "openai", "model": EMBEDDED_JUDGE})
    assert not is_embedded({"provider": "local", "model": "other"})


def test_a_metric_at_its_shipped_pass_mark_with_the_embedded_judge_gets_the_held_out_figure():
    got = run_agreement({"context-faithfulness": {0.65}, "contains": {None}}, EMBEDDED)
    assert got == {"context-faithfulness": {"balanced_accuracy": 0.762, "n": 248, "unit": "rows", "pass_mark": 0.65,
                                            "bar": 0.9, "meets_bar": False,
                                            "source": "docs/judges.md#measured-embedded-judge-2-cores"}}
    assert run_agreement({"factuality": {0.5}}, EMBEDDED)["factuality"]["meets_bar"] is True


def test_names_results_carry_aliases_and_negation_find_their_metric():
    got = run_agreement({"hallucination_rate": {0.35}, "not-llm-rubric": {0.75}}, EMBEDDED)
    assert got["hallucination_rate"]["balanced_accuracy"] == 0.762  # canonical: hallucination
    # balanced accuracy survives flipping both verdicts
    assert got["not-llm-rubric"]["balanced_accuracy"] == HELD_OUT["llm-rubric"].balanced_accuracy


def test_another_judge_or_another_pass_mark_gets_no_figure_and_says_why():
    other = run_agreement({"llm-rubric": {0.75}}, {"provider": "openai", "model": "gpt-4o"})["llm-rubric"]
    assert other["balanced_accuracy"] is None
    assert other["reason"].startswith("measured for the embedded judge, not for openai gpt-4o;")
    assert "agentunit calibrate" in other["reason"]
    moved = run_agreement({"llm-rubric": {0.75, 0.6}}, EMBEDDED)["llm-rubric"]
    assert moved["balanced_accuracy"] is None
    assert moved["reason"].startswith("measured at pass mark 0.75; this run used 0.6, 0.75;")
    # a metric with no pass mark of its own is measured only without one
    assert run_agreement({"agent-llm-rubric": {None}}, EMBEDDED)["agent-llm-rubric"]["balanced_accuracy"] == 0.583
    ruled = run_agreement({"agent-llm-rubric": {0.9}}, EMBEDDED)["agent-llm-rubric"]
    assert ruled["reason"].startswith("measured at its own pass mark; this run used 0.9;")


def test_a_judge_metric_without_a_published_figure_says_so():
    got = run_agreement({"video_response_relevance": {0.5}}, EMBEDDED)["video_response_relevance"]
    assert got["balanced_accuracy"] is None
    assert got["reason"].startswith("no held-out balanced accuracy is published for video_response_relevance;")


def test_a_calibration_fitted_with_the_run_judge_gives_the_users_own_figure():
    fitted = FittedThreshold(0.31, n=40, balanced_accuracy=0.9, extra={"cross_validated_balanced_accuracy": 0.85})
    calibration = Calibration({"provider": "openai", "model": "gpt-4o"}, {"llm-rubric": fitted})
    judge = {"provider": "openai", "model": "gpt-4o", "base_url": "http://x"}
    got = run_agreement({"llm-rubric": {0.31}}, judge, calibration=calibration, calibration_source="cal.json")
    assert got["llm-rubric"] == {"balanced_accuracy": 0.85, "n": 40, "pass_mark": 0.31, "cross_validated": True,
                                 "source": "calibration cal.json"}
    no_cv = Calibration(calibration.judge, {"llm-rubric": FittedThreshold(0.31, n=40, balanced_accuracy=0.9)})
    in_sample = run_agreement({"llm-rubric": {0.31}}, judge, calibration=no_cv)["llm-rubric"]
    assert in_sample["balanced_accuracy"] == 0.9 and in_sample["cross_validated"] is False
    # results that did not use the fitted mark (an explicit threshold) are not described by the file
    explicit = run_agreement({"llm-rubric": {0.5}}, judge, calibration=calibration)["llm-rubric"]
    assert explicit["balanced_accuracy"] is None
    # a file fitted with another judge describes nothing, even at its pass mark
    other = run_agreement({"llm-rubric": {0.31}}, EMBEDDED, calibration=calibration)["llm-rubric"]
    assert other["balanced_accuracy"] is None
    assert other["reason"].startswith("measured at pass mark 0.75; this run used 0.31;")
    assert run_agreement({"llm-rubric": {0.75}}, EMBEDDED, calibration=calibration)["llm-rubric"]["n"] == 142


class _EmbeddedLookalike(ScriptedProvider):
    """A scripted judge that describes itself as the embedded one (the figures are keyed on that)."""

    def describe(self):
        return dict(EMBEDDED)


def _run(provider_cls, cases, db=":memory:"):
    with scripted_judge(lambda request: pass_with(0.9)) as provider:
        judge = provider.service
        judge.provider = provider_cls(provider.respond)
        return agentunit.evaluate(cases=cases, target={"type": "echo"}, judge=judge, db=db)


CASES = [{"id": "a", "prompt": "It ships Monday.", "metrics": [{"metric": "llm-rubric", "value": "Gives a day"},
                                                                "answer-relevance", "context-faithfulness"]},
         {"id": "b", "prompt": "It ships Monday.",
          "metrics": [{"metric": "model-graded-closedqa", "value": "Gives a day", "threshold": 0.9},
                      {"metric": "contains", "value": "Monday"}]}]


def test_a_run_reports_the_agreement_of_each_judge_metric_in_its_summary_and_console():
    result = _run(_EmbeddedLookalike, CASES)
    agreement = result.summary["judge"]["agreement"]
    # not the deterministic contains, nor context-faithfulness, not measured without a context
    assert result.summary["metrics"]["context-faithfulness"] == {"not_measured": 1}
    assert set(agreement) == {"llm-rubric", "answer-relevance", "model-graded-closedqa"}
    assert agreement["llm-rubric"]["balanced_accuracy"] == 0.852 and agreement["llm-rubric"]["n"] == 142
    assert agreement["model-graded-closedqa"]["balanced_accuracy"] is None
    assert agreement["model-graded-closedqa"]["reason"].startswith("measured at pass mark 0.75; this run used 0.9;")
    out = io.StringIO()
    print_summary(result, out=out)
    text = out.getvalue()
    assert "judge agreement with people" in text
    assert "  llm-rubric: 0.852 on 142 held-out rows, below its 0.90 bar: read its failures before gating" in text
    assert ("  answer-relevance: 0.781 on 96 held-out rows, below its 0.85 bar: read its failures before gating"
            " on them (docs/judges.md#measured-embedded-judge-2-cores)") in text
    assert "  model-graded-closedqa: not known — measured at pass mark 0.75; this run used 0.9;" in text


def test_a_run_with_another_judge_names_it_and_points_to_calibrate(tmp_path):
    result = _run(ScriptedProvider, CASES[:1])
    for entry in result.summary["judge"]["agreement"].values():
        assert entry["balanced_accuracy"] is None
        assert entry["reason"].startswith("measured for the embedded judge, not for scripted;")
    report = tmp_path / "out.json"
    from agentunit.reporting.json_report import write_json

    write_json(result, report)
    assert json.loads(report.read_text())["summary"]["judge"]["agreement"] == result.summary["judge"]["agreement"]


def test_markdown_and_html_reports_show_the_agreement_inert(tmp_path):
    from agentunit.reporting.html import write_html
    from agentunit.reporting.markdown import write_markdown

    result = _run(_EmbeddedLookalike, CASES)
    result.summary["judge"]["agreement"]["<script>x</script>"] = {"balanced_accuracy": None, "reason": "*bold*"}
    write_markdown(result, tmp_path / "r.md")
    write_html(result, tmp_path / "r.html")
    md, page = (tmp_path / "r.md").read_text(), (tmp_path / "r.html").read_text()
    assert "- llm-rubric: 0.852 on 142 held-out rows" in md and "\\*bold\\*" in md
    assert "<li>llm-rubric: 0.852 on 142 held-out rows" in page
    assert "<script>x</script>" not in page and "&lt;script&gt;x&lt;/script&gt;" in page


def test_the_junit_report_carries_the_judge_and_its_agreement_as_suite_properties(tmp_path):
    from xml.etree import ElementTree

    from agentunit.reporting.junit import write_junit

    result = _run(_EmbeddedLookalike, CASES)
    result.summary["judge"]["agreement"]["<x>"] = {"balanced_accuracy": None, "reason": "a \"quoted\" <reason>"}
    write_junit(result, tmp_path / "r.xml")
    suite = ElementTree.parse(tmp_path / "r.xml").getroot().find("testsuite")
    properties = [(p.get("name"), p.get("value")) for p in suite.find("properties")]
    assert properties[0][0] == "judge" and properties[0][1].startswith("judge local: ")
    assert ("judge agreement", "llm-rubric: 0.852 on 142 held-out rows, below its 0.90 bar: read its failures"
            " before gating on them (docs/judges.md#measured-embedded-judge-2-cores)") in properties
    assert ("judge agreement", '<x>: not known — a "quoted" <reason>') in properties
    assert suite[0].tag == "properties"  # before the testcases, as the JUnit schema wants


@pytest.mark.parametrize("name", ["llm-rubric", "context-faithfulness"])
def test_the_metric_listing_and_reference_show_the_figure(name):
    from agentunit.metrics.docs import render_reference

    section = render_reference().split(f"### `{name}`", 1)[1].split("### ", 1)[0]
    measured = HELD_OUT[name]
    assert f"balanced accuracy {measured.balanced_accuracy:.3f} on {measured.n} rows" in section


def test_agentunit_metrics_lists_the_figure_of_each_judge_metric():
    from click.testing import CliRunner

    from agentunit.cli import app

    listed = CliRunner().invoke(app, ["metrics", "--family", "rag"])
    assert listed.exit_code == 0
    faithfulness = next(line for line in listed.output.splitlines() if line.startswith("context-faithfulness "))
    assert faithfulness.endswith("model=judge  agreement=0.762 (held-out, bar 0.90)")
    rows = {r["name"]: r for r in json.loads(CliRunner().invoke(app, ["metrics", "--json"]).output)}
    assert rows["llm-rubric"]["agreement"] == HELD_OUT["llm-rubric"].to_dict()
    assert rows["video_response_relevance"]["agreement"] is None  # judge-backed, nothing published
    assert "agreement" not in rows["contains"]  # not judge-backed


def test_the_viewer_shows_a_stored_runs_agreement_and_survives_a_hostile_one(tmp_path):
    from agentunit.store.sqlite import Store
    from agentunit.viewer.pages import run_page
    from agentunit.viewer.queries import connect

    db = tmp_path / "r.db"
    result = _run(_EmbeddedLookalike, CASES, db=str(db))
    status, page = run_page(connect(db), result.run_id, {})
    assert status == 200 and "<li>llm-rubric: 0.852 on 142 held-out rows, below its 0.90 bar" in page
    store = Store(db)  # a summary written by something else: entries of the wrong shape
    bad = {**result.summary, "judge": {"provider": "x", "agreement": {"a": 3, "b": {"balanced_accuracy": "high",
                                                                                  "reason": "<b>"}, "c": {"bar": 1}}}}
    store.mark_run(result.run_id, "completed", summary=bad)
    store.close()
    status, page = run_page(connect(db), result.run_id, {})
    assert status == 200 and "<li>a: not known — no figure recorded</li>" in page
    assert "<li>b: not known — &lt;b&gt;</li>" in page


def test_an_entry_calibrated_under_its_label_is_reported_under_that_label(tmp_path):
    from agentunit.calibration.fit import Calibration, FittedThreshold, write_calibration

    suite = tmp_path / "suite.yaml"
    suite.write_text("name: labelled\ntarget: {type: echo}\ncases:\n"
                     "  - id: a\n    prompt: It ships Monday.\n    metrics:\n"
                     "      - {metric: llm-rubric, value: Gives a day, label: tone}\n"
                     "      - {metric: llm-rubric, value: Names a weekday}\n")
    fitted = FittedThreshold(0.4, n=30, balanced_accuracy=0.9, extra={"cross_validated_balanced_accuracy": 0.8})
    cal = tmp_path / "cal.json"
    write_calibration(cal, Calibration({"provider": "scripted"}, {"tone": fitted}))
    with scripted_judge(lambda request: pass_with(0.9)) as provider:
        result = agentunit.evaluate(suite, judge=provider.service, calibration=cal)
    agreement = result.summary["judge"]["agreement"]
    assert agreement["tone"]["balanced_accuracy"] == 0.8 and agreement["tone"]["n"] == 30
    # the unlabelled entry is not described by the label's fit
    assert agreement["llm-rubric"]["balanced_accuracy"] is None
    direct = run_agreement({("llm-rubric", "tone"): {0.4}, ("llm-rubric", "style"): {0.75}}, EMBEDDED,
                           calibration=Calibration(dict(EMBEDDED), {"tone": fitted}))
    assert direct["tone"]["n"] == 30 and direct["llm-rubric"]["n"] == 142
