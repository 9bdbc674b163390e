"""Human verdicts on cases and metric entries (`expected_pass`): where they may go, how they are checked."""

from agentunit.suite import load_suite
from agentunit.suite.cases import HumanVerdicts
from tests.suite.test_loader import _problems, _write


def test_verdicts_are_recorded_by_case_and_metric_position(tmp_path):
    path = _write(tmp_path, "s.yaml", """
        metrics: [{metric: contains, value: ok}]
        cases:
          - id: a
            output: ok
            expected_pass: true
            metrics: [{metric: llm-rubric, value: polite}]
          - id: b
            output: ok
            metrics:
              - {metric: llm-rubric, value: polite, expected_pass: false}
              - {metric: factuality, value: ok}
          - id: c
            output: ok
            metrics: [{metric: llm-rubric, value: polite}]
        """)
    suite = load_suite(path)
    suite.validate()
    assert suite.verdicts == {  # the suite-wide `contains` comes first in every case
        "a": HumanVerdicts(True, (None, None)),
        "b": HumanVerdicts(None, (None, False, None)),
    }


def test_verdicts_are_checked_where_they_are_written(tmp_path):
    path = _write(tmp_path, "s.yaml", """
        metrics: [{metric: llm-rubric, value: polite, expected_pass: true}]
        defaults:
          expected_pass: true
        cases:
          - id: a
            output: ok
            expected_pass: "yes"
          - id: b
            output: ok
            metrics:
              - {metric: contains, value: ok, expected_pass: true}
              - {metric: llm-rubric, value: polite, expected_pass: 1}
              - metric: assert-set
                assert: [{metric: llm-rubric, value: polite, expected_pass: true}]
        """)
    text = "\n".join(_problems(path))
    assert (f"{path}:1: metrics[0].expected_pass: expected_pass is a human verdict on one case: it cannot go on a "
            "suite-wide or nested metric — put `expected_pass:` on the case, or on a metric entry of the case") in text
    assert (f"{path}:3: defaults.expected_pass: expected_pass is a human verdict on one case: it cannot be a "
            "default — put `expected_pass:` on each case, or use --labels FILE") in text
    assert f"{path}:7: cases[0].expected_pass: expected_pass must be true or false, got 'yes'" in text
    assert (f"{path}:11: cases[1].metrics[0].expected_pass: expected_pass labels a judge-backed metric for "
            "`agentunit calibrate`; 'contains' does not use the judge") in text
    assert f"{path}:12: cases[1].metrics[1].expected_pass: expected_pass must be true or false, got 1" in text
    assert f"{path}:14: cases[1].metrics[2].assert[0].expected_pass: expected_pass is a human verdict" in text


def test_csv_cases_files_carry_verdicts(tmp_path):
    (tmp_path / "cases.csv").write_text("id,output,expected_pass\na,hello,TRUE\nb,bye,false\nc,x,maybe\n")
    path = _write(tmp_path, "s.yaml", """
        metrics: [{metric: llm-rubric, value: greets}]
        cases_file: cases.csv
        """)
    problems = _problems(path)
    assert problems == [f"{tmp_path / 'cases.csv'}:4: expected_pass: expected_pass must be true or false, got 'maybe'"]
    (tmp_path / "cases.csv").write_text("id,output,expected_pass\na,hello,TRUE\nb,bye,false\n")
    suite = load_suite(path)
    suite.validate()
    assert suite.verdicts == {"a": HumanVerdicts(True, (None,)), "b": HumanVerdicts(False, (None,))}
