"""select-best, max-score, classifier, scenarios and a test's own provider, from promptfoo configs."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from agentunit.cli import app
from agentunit.core.engine import Engine, RunOptions
from agentunit.core.outcome import Outcome
from agentunit.datasets.base import DatasetCase
from agentunit.errors import SuiteError
from agentunit.metrics import metric_from_spec
from agentunit.store.sqlite import Store
from agentunit.suite.loader import load_suite
from tests.judge_helpers import pass_with, scripted_judge, verdict

TWO_PROMPTS = "prompts:\n  - 'Short: {{q}}'\n  - 'A much longer answer about {{q}}'\nproviders: [echo]\n"


def _write(tmp_path: Path, text: str) -> Path:
    folder = tmp_path / "cfg"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "promptfooconfig.yaml"
    path.write_text(text)
    return path


def _run(path: Path, tmp_path: Path, respond=lambda r: pass_with(0.9), **options) -> tuple[dict, list]:
    suite = load_suite(path)
    suite.validate(require_target=True)
    store = Store(tmp_path / "r.db")
    try:
        with scripted_judge(respond) as judge:
            result = asyncio.run(Engine(suite, store, RunOptions(cache=True, **options), target=suite.build_target(),
                                        judge=judge.service).run())
            cases = list(store.iter_cases(result.run_id))
        return cases, judge.requests
    finally:
        store.close()


def _choose(fragment: str, probability: float = 0.9):
    """A judge that picks, in whatever order the texts are shown, the one containing ``fragment``."""
    def respond(request):
        texts = re.findall(r'<Text index="(\d+)">\n(.*?)\n</Text>', request.messages[-1][1], re.S)
        pick = next(i for i, text in texts if fragment in text)
        return verdict(pick, probability, next(i for i, _ in texts if i != pick))
    return respond


def _cats_and_dogs(assertion: str) -> str:
    """TWO_PROMPTS with two tests, cats and dogs, each asserting ``assertion``."""
    return TWO_PROMPTS + "tests:\n" + "".join(
        f"  - description: {q}\n    vars: {{q: {q}}}\n    assert: [{assertion}]\n" for q in ("cats", "dogs"))


def _statuses(cases: list) -> dict[str, str]:
    out: dict[str, str] = {}
    for case in cases:
        previous = out.setdefault(case["id"], case["status"])
        assert previous == case["status"], f"{case['id']}: attempts disagree"
    return out


@pytest.mark.parametrize("concurrency", [1, 8])
def test_select_best_passes_only_the_judges_choice(tmp_path: Path, concurrency: int) -> None:
    path = _write(tmp_path, _cats_and_dogs("{type: select-best, value: the longest, config: {method: compare}}"))
    cases, requests = _run(path, tmp_path, _choose("longer"), concurrency=concurrency)
    assert _statuses(cases) == {"cats [prompt 1]": "failed", "cats [prompt 2]": "passed",
                                "dogs [prompt 1]": "failed", "dogs [prompt 2]": "passed"}
    assert len(requests) == 4  # one decision per test in each of the two orders, shared by its cells
    cats = [r.messages[-1][1] for r in requests if "cats" in r.messages[-1][1]]
    assert len(cats) == 2 and all(r.options == ("0", "1") for r in requests)
    assert {text.index("Short: cats") < text.index("A much longer answer about cats") for text in cats} == {True, False}
    loser = next(c for c in cases if c["id"] == "cats [prompt 1]")["metrics"][0]
    assert loser["detail"]["chosen"] == "cats [prompt 2]"
    assert loser["detail"]["shares"] == {"cats [prompt 1]": 0.1, "cats [prompt 2]": 0.9}
    assert loser["detail"]["judge_reversed"]["option"] == "0"  # the longer text is shown first when reversed


def test_select_best_cancels_a_judge_that_always_picks_the_last_text(tmp_path: Path) -> None:
    path = _write(tmp_path, TWO_PROMPTS + "tests:\n  - description: t\n    vars: {q: x}\n"
                  "    assert: [{type: select-best, value: the shortest, config: {method: compare}}]\n")
    # P(last) 0.7 in both orders: the shares tie at 0.5, and the first order's pick (the last text) wins
    cases, _ = _run(path, tmp_path, lambda r: verdict("1", 0.7, "0"))
    winner = next(c for c in cases if c["id"] == "t [prompt 2]")["metrics"][0]
    assert winner["detail"]["shares"] == {"t [prompt 1]": 0.5, "t [prompt 2]": 0.5}
    # a real preference for the first text outweighs a lean to the last: 0.6 shown first, 0.8 shown last
    def leaning(request):
        text = request.messages[-1][1]
        short_first = text.index("Short: x") < text.index("longer")
        return verdict("1", 0.4, "0") if short_first else verdict("1", 0.8, "0")

    cases, _ = _run(path, tmp_path / "b", leaning)
    assert _statuses(cases) == {"t [prompt 1]": "passed", "t [prompt 2]": "failed"}
    winner = next(c for c in cases if c["id"] == "t [prompt 1]")["metrics"][0]
    assert winner["detail"]["shares"] == {"t [prompt 1]": 0.7, "t [prompt 2]": 0.3}


@pytest.mark.parametrize(("config", "problem"), [("{orders: 3}", "config.orders must be 1"),
                                                ("{method: vote}", "config.method must be 'rubric'")])
def test_select_best_config_is_validated(tmp_path: Path, config: str, problem: str) -> None:
    path = _write(tmp_path, TWO_PROMPTS + "tests:\n  - description: t\n    vars: {q: x}\n"
                  f"    assert: [{{type: select-best, value: best, config: {config}}}]\n")
    with pytest.raises(SuiteError) as info:
        load_suite(path).validate()
    assert problem in info.value.problems[0].message


def test_select_best_asks_once_with_orders_1(tmp_path: Path) -> None:
    path = _write(tmp_path, TWO_PROMPTS + "tests:\n  - description: t\n    vars: {q: x}\n"
                  "    assert: [{type: select-best, value: the longest, config: {method: compare, orders: 1}}]\n")
    cases, requests = _run(path, tmp_path, lambda r: verdict("1", 0.9, "0"))
    assert len(requests) == 1 and _statuses(cases) == {"t [prompt 1]": "failed", "t [prompt 2]": "passed"}
    assert "judge_reversed" not in cases[0]["metrics"][0]["detail"]


def test_select_best_follows_the_judge_either_way(tmp_path: Path) -> None:
    path = _write(tmp_path, TWO_PROMPTS + "tests:\n  - description: t\n    vars: {q: x}\n"
                  "    assert: [{type: select-best, value: the shortest, config: {method: compare}}]\n")
    cases, _ = _run(path, tmp_path, _choose("Short", 0.8))
    assert _statuses(cases) == {"t [prompt 1]": "passed", "t [prompt 2]": "failed"}


def _rubric_judge(request):
    """llm-rubric's statement about one output: yes 0.9 for the cats answer, 0.6 for any other."""
    text = request.messages[-1][1]
    assert "Statement: The text " in text and text.count("Text: ") == 1  # one output at a time
    return pass_with(0.9 if "Text: A much longer answer about cats" in text else 0.6)


@pytest.mark.parametrize("concurrency", [1, 8])
def test_select_best_scores_each_output_alone_by_default(tmp_path: Path, concurrency: int) -> None:
    path = _write(tmp_path, _cats_and_dogs("{type: select-best, value: Is about cats}"))
    cases, requests = _run(path, tmp_path, _rubric_judge, concurrency=concurrency)
    # cats: the longer answer scores 0.9 against 0.6; dogs: both 0.6, and the first output wins the tie
    assert _statuses(cases) == {"cats [prompt 1]": "failed", "cats [prompt 2]": "passed",
                                "dogs [prompt 1]": "passed", "dogs [prompt 2]": "failed"}
    assert len(requests) == 4 and {r.options for r in requests} == {("yes", "no")}  # one per output
    loser = next(c for c in cases if c["id"] == "cats [prompt 1]")["metrics"][0]
    assert loser["detail"]["method"] == "rubric" and loser["detail"]["chosen"] == "cats [prompt 2]"
    assert loser["detail"]["shares"] == {"cats [prompt 1]": 0.6, "cats [prompt 2]": 0.9}
    assert "P(pass) = 0.900" in loser["detail"]["reasons"]["cats [prompt 2]"]



@pytest.mark.parametrize("concurrency", [1, 8])
def test_max_score_picks_the_highest_aggregate(tmp_path: Path, concurrency: int) -> None:
    path = _write(tmp_path, TWO_PROMPTS + "tests:\n"
                  "  - description: t\n    vars: {q: cats}\n"
                  "    assert:\n      - {type: contains, value: longer}\n      - {type: icontains, value: CATS}\n"
                  "      - {type: max-score}\n")
    cases, _ = _run(path, tmp_path, concurrency=concurrency)
    assert _statuses(cases) == {"t [prompt 1]": "failed", "t [prompt 2]": "passed"}
    winner = next(c for c in cases if c["id"] == "t [prompt 2]")["metrics"][2]
    assert winner["detail"]["compared"] == {"t [prompt 1]": 0.5, "t [prompt 2]": 1.0}


def test_max_score_weights_sum_and_threshold(tmp_path: Path) -> None:
    path = _write(tmp_path, TWO_PROMPTS + "tests:\n"
                  "  - description: weighted\n    vars: {q: cats}\n"
                  "    assert:\n      - {type: contains, value: Short}\n      - {type: contains, value: answer}\n"
                  "      - {type: starts-with, value: Short}\n"
                  "      - {type: max-score, value: {method: sum, weights: {starts-with: 0}}}\n"
                  "  - description: too low\n    vars: {q: cats}\n"
                  "    assert:\n      - {type: contains, value: dogs}\n"
                  "      - {type: max-score, value: {threshold: 0.5}}\n")
    cases, _ = _run(path, tmp_path)
    # weighted: starts-with counts 0, so both outputs score 1 and the first one wins (promptfoo's tie rule)
    assert _statuses(cases) == {"weighted [prompt 1]": "failed", "weighted [prompt 2]": "failed",
                                "too low [prompt 1]": "failed", "too low [prompt 2]": "failed"}
    first = next(c for c in cases if c["id"] == "weighted [prompt 1]")["metrics"][3]
    assert first["passed"] is True
    assert first["detail"]["compared"] == {"weighted [prompt 1]": 1.0, "weighted [prompt 2]": 1.0}
    low = next(c for c in cases if c["id"] == "too low [prompt 1]")["metrics"][1]
    assert low["passed"] is False and "below threshold 0.5" in low["reason"]


def test_each_cell_is_sent_once_per_attempt_and_attempts_are_compared_apart(tmp_path: Path) -> None:
    folder = tmp_path / "cfg"
    folder.mkdir()
    log = tmp_path / "calls.log"
    (folder / "provider.py").write_text(
        "def call_api(prompt, options, context):\n"
        f"    with open({str(log)!r}, 'a') as f:\n"
        "        f.write(prompt + '\\n')\n"
        "    return {'output': prompt}\n")
    path = _write(tmp_path, TWO_PROMPTS.replace("[echo]", "['file://provider.py']") + "tests:\n"
                  "  - description: t\n    vars: {q: cats}\n"
                  "    assert: [{type: contains, value: longer}, {type: max-score}]\n")
    cases, _ = _run(path, tmp_path, concurrency=1, repeat=3)
    assert len(cases) == 6 and _statuses(cases) == {"t [prompt 1]": "failed", "t [prompt 2]": "passed"}
    assert len(log.read_text().splitlines()) == 6  # 2 cells × 3 attempts, none sent twice


def test_comparisons_name_their_limits(tmp_path: Path) -> None:
    negated = _write(tmp_path, TWO_PROMPTS + "tests:\n  - vars: {q: x}\n    assert:\n"
                     "      - type: not-select-best\n        value: best\n")
    with pytest.raises(SuiteError) as info:
        load_suite(negated).validate()
    assert "no negation" in info.value.problems[0].message and info.value.problems[0].line == 8
    compared = _write(tmp_path / "b", TWO_PROMPTS + "tests:\n  - vars: {q: x}\n    assert: [{type: max-score}]\n")
    result = CliRunner().invoke(app, ["import", "promptfoo", str(compared), "-o", str(tmp_path / "s.yaml")])
    assert result.exit_code != 0 and "native suite" in result.output
    metric = metric_from_spec({"metric": "select-best", "value": "best"})  # outside a promptfoo config
    with pytest.raises(Exception, match="runs only there"):
        asyncio.run(metric.evaluate_async(DatasetCase(id="a", query="q"), None, Outcome(output="x")))


def test_classifier_stands_in_for_a_hate_speech_model(tmp_path: Path) -> None:
    model = "huggingface:text-classification:facebook/roberta-hate-speech-dynabench-r4-target"
    path = _write(tmp_path, "prompts: ['{{q}}']\nproviders: [echo]\ntests:\n"
                  "  - description: clean\n    vars: {q: 'Have a lovely day, friend!'}\n"
                  f"    assert: [{{type: classifier, provider: '{model}', value: nothate, threshold: 0.5}}]\n"
                  "  - description: hateful\n    vars: {q: 'All immigrants are vermin and should be wiped out.'}\n"
                  f"    assert: [{{type: classifier, provider: '{model}', value: nothate, threshold: 0.5}}]\n")
    cases, _ = _run(path, tmp_path)
    assert _statuses(cases) == {"clean": "passed", "hateful": "failed"}
    assert cases[1]["metrics"][0]["detail"]["labels"]["hate"] > 0.5


def test_classifier_without_a_local_stand_in_is_a_located_error(tmp_path: Path) -> None:
    path = _write(tmp_path, "prompts: ['{{q}}']\nproviders: [echo]\ntests:\n  - vars: {q: hi}\n    assert:\n"
                  "      - type: classifier\n"
                  "        provider: huggingface:text-classification:protectai/deberta-v3-base-prompt-injection\n"
                  "        value: SAFE\n")
    with pytest.raises(SuiteError) as info:
        load_suite(path).validate()
    problem = info.value.problems[0]
    assert problem.line == 7 and "no local stand-in" in problem.message
    assert "moderation" in (problem.suggestion or "")


def test_scenarios_expand_config_entries_times_tests(tmp_path: Path) -> None:
    path = _write(tmp_path, "prompts: ['{{language}}: {{input}}']\nproviders: [echo]\n"
                  "defaultTest:\n  assert: [{type: contains, value: ':'}]\n"
                  "scenarios:\n  - config:\n"
                  "      - vars: {language: Spanish, expected: Spanish}\n"
                  "        assert: [{type: contains, value: '{{expected}}'}]\n"
                  "      - vars: {language: French, expected: French}\n"
                  "    tests:\n"
                  "      - description: hello\n        vars: {input: Hello}\n"
                  "        assert: [{type: contains, value: Hello}]\n"
                  "      - description: override\n        vars: {input: Bye, language: German}\n"
                  "        assert: [{type: contains, value: '{{expected}}'}]\n")
    suite = load_suite(path)
    cases = list(suite.iter_cases())
    assert [(c.id, c.query, len(c.metrics)) for c in cases] == [
        ("hello", "Spanish: Hello", 3), ("override", "German: Bye", 3),
        ("hello #2", "French: Hello", 2), ("override #2", "German: Bye", 2)]
    ran, _ = _run(path, tmp_path)
    assert _statuses(ran) == {"hello": "passed", "override": "failed", "hello #2": "passed", "override #2": "failed"}


def test_a_bad_scenario_is_a_located_error(tmp_path: Path) -> None:
    path = _write(tmp_path, "prompts: ['{{q}}']\nproviders: [echo]\nscenarios:\n  - tests: []\n")
    with pytest.raises(SuiteError) as info:
        load_suite(path).validate()
    assert info.value.problems[0].line == 4 and "config" in info.value.problems[0].message


def test_a_tests_own_provider_and_filters(tmp_path: Path) -> None:
    path = _write(tmp_path, "prompts:\n  - {raw: 'A {{q}}', label: a}\n  - {raw: 'B {{q}}', label: b}\n"
                  "providers: [echo, {id: echo, label: second}]\ntests:\n"
                  "  - description: own\n    vars: {q: x}\n    provider: 'exec: printf fixed'\n"
                  "    prompts: [a]\n    assert: [{type: equals, value: fixed}]\n"
                  "  - description: filtered\n    vars: {q: y}\n    providers: [second]\n"
                  "    assert: [{type: contains, value: y}]\n")
    suite = load_suite(path)
    cases = list(suite.iter_cases())
    assert [(c.id, c.metadata["provider"]) for c in cases] == [
        ("own [a] [echo]", "exec: printf fixed"), ("own [a] [second]", "exec: printf fixed"),
        ("filtered [a] [second]", "second"), ("filtered [b] [second]", "second")]
    ran, _ = _run(path, tmp_path)
    assert set(_statuses(ran).values()) == {"passed"}
    assert {c["output"] for c in ran if c["id"].startswith("own")} == {"fixed"}
