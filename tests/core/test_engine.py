import asyncio
import time

import pytest

from agentunit import evaluate
from agentunit.core.engine import Engine, RunOptions
from agentunit.errors import SuiteError
from agentunit.store.sqlite import Store
from agentunit.suite import suite_from_dict


def _contains(value):
    return [{"metric": "contains", "value": value}]


def test_sync_and_async_python_targets_and_a_raising_target_does_not_stop_the_run():
    def sync_target(prompt):
        if prompt == "boom":
            raise RuntimeError("agent crashed")
        return prompt.upper()

    result = evaluate(cases=[{"id": "a", "prompt": "hi", "metrics": _contains("HI")},
                             {"id": "b", "prompt": "boom", "metrics": _contains("x")},
                             {"id": "c", "prompt": "there", "metrics": _contains("nope")}], target=sync_target)
    cases = {c["id"]: c for c in result.cases}
    assert cases["a"]["status"] == "passed"
    assert cases["b"]["status"] == "errored" and "RuntimeError: agent crashed" in cases["b"]["error"]
    assert cases["c"]["status"] == "failed"
    assert result.summary["cases"] == 3 and result.exit_code == 1

    async def async_target(prompt, vars):
        await asyncio.sleep(0)
        return f"{prompt}-{vars.get('x', '')}"

    ok = evaluate(cases=[{"prompt": "p", "vars": {"x": "y"}, "metrics": [{"metric": "equals", "value": "p-y"}]}],
                  target=async_target)
    assert ok.passed and ok.exit_code == 0


def test_concurrency_overlaps_slow_calls():
    async def slow(prompt):
        await asyncio.sleep(0.2)
        return prompt

    cases = [{"id": f"c{i}", "prompt": f"p{i}", "metrics": _contains(f"p{i}")} for i in range(16)]
    start = time.perf_counter()
    result = evaluate(cases=cases, target=slow, concurrency=16)
    assert result.passed and time.perf_counter() - start < 1.5  # serial would take 3.2 s


def test_per_case_timeout_errors_only_that_case():
    async def target(prompt):
        await asyncio.sleep(5 if prompt == "hang" else 0)
        return prompt

    result = evaluate(cases=[{"id": "hang", "prompt": "hang", "metrics": _contains("x")},
                             {"id": "fast", "prompt": "fast", "metrics": _contains("fast")}],
                      target=target, timeout=0.2)
    cases = {c["id"]: c for c in result.cases}
    assert "timed out after 0.2 s" in cases["hang"]["error"] and cases["fast"]["passed"]


def test_recorded_outputs_need_no_target_and_missing_output_is_refused_before_the_run():
    recorded = [{"id": "rec", "output": "recorded answer", "metrics": _contains("answer")},
                {"id": "rec-json", "output": {"output": "x", "trusys": {"tool_calls": [{"name": "t"}]}},
                 "metrics": ["tool_success"]}]
    result = evaluate(cases=recorded)
    cases = {c["id"]: c for c in result.cases}
    assert cases["rec"]["passed"] and cases["rec"]["latency_ms"] is None
    assert cases["rec-json"]["metrics"][0]["value"] == 1.0
    with pytest.raises(SuiteError, match="no `target`"):
        evaluate(cases=[*recorded, {"id": "nothing", "prompt": "no target", "metrics": _contains("x")}])


def test_latency_is_not_measured_for_recorded_outputs():
    result = evaluate(cases=[{"output": "x", "metrics": [{"metric": "latency", "threshold": 10}]}])
    metric = result.cases[0]["metrics"][0]
    assert metric["value"] is None and metric["status"] == "not_measured"
    # nothing was measured, so the case is not a pass (issue 11): it is unmeasured and fails the run
    assert result.cases[0]["status"] == "unmeasured" and not result.passed


def test_metric_error_is_recorded_and_the_run_goes_on():
    class Broken:
        name = "broken"

        def evaluate(self, case, trace, outcome):
            raise ValueError("cannot compute")

    result = evaluate(cases=[{"id": "a", "output": "x"}, {"id": "b", "output": "y"}], metrics=[Broken()])
    assert result.summary["errored"] == 2
    assert all("ValueError: cannot compute" in c["metrics"][0]["error"] for c in result.cases)


def test_envelope_cost_usage_and_tool_costs_flow_into_metrics():
    def agent(prompt):
        return {"output": "done", "trusys": {"cost": 0.01, "usage": {"prompt_tokens": 7, "completion_tokens": 3},
                                              "tool_calls": [{"name": "a", "cost": 0.002},
                                                             {"name": "b", "status": "error"}]}}

    result = evaluate(cases=[{"prompt": "go", "metrics": [
        {"metric": "cost", "threshold": 0.02}, "token_usage", {"metric": "tool_success", "threshold": 0.5}]}],
        target=agent)
    metrics = {m["metric"]: m for m in result.cases[0]["metrics"]}
    assert metrics["cost"]["value"] == pytest.approx(0.012) and metrics["cost"]["passed"] is True
    assert metrics["token_usage"]["value"] == 10 and metrics["token_usage"]["passed"] is None
    assert metrics["tool_success"]["value"] == 0.5 and metrics["tool_success"]["passed"] is True


def test_resume_skips_committed_cases(tmp_path):
    calls = []

    def target(prompt):
        calls.append(prompt)
        return prompt

    suite = {"name": "r", "cases": [{"id": f"c{i}", "prompt": f"p{i}", "metrics": _contains("p")} for i in range(5)]}
    store = Store(tmp_path / "r.db")
    built = suite_from_dict(suite)
    built.validate()
    first = asyncio.run(Engine(built, store, RunOptions(filter="c[0-2]"),
                               target=_python_target(target)).run())
    assert first.summary["cases"] == 3
    resumed = asyncio.run(Engine(built, store, RunOptions(resume=first.run_id), target=_python_target(target)).run())
    assert resumed.run_id == first.run_id and resumed.summary["cases"] == 5
    assert sorted(calls) == ["p0", "p1", "p2", "p3", "p4"]


def test_resume_runs_the_repeats_that_were_not_committed(tmp_path):
    calls = []

    def target(prompt):
        calls.append(prompt)
        return prompt

    built = suite_from_dict({"name": "r", "cases": [{"id": c, "prompt": c, "metrics": _contains(c)} for c in "ab"]})
    built.validate()
    store = Store(tmp_path / "r.db")
    first = asyncio.run(Engine(built, store, RunOptions(repeat=3), target=_python_target(target)).run())
    # as if killed after committing only the first repeat of "a"
    store.conn.execute("DELETE FROM case_results WHERE run_id = ? AND NOT (case_id = 'a' AND repeat = 0)",
                       (first.run_id,))
    calls.clear()
    resumed = asyncio.run(Engine(built, store, RunOptions(repeat=3, resume=first.run_id),
                                 target=_python_target(target)).run())
    assert sorted(calls) == ["a", "a", "b", "b", "b"]
    assert resumed.summary["cases"] == 6 and resumed.summary["repeat"]["k"] == 3


def test_resume_of_unknown_run_is_an_error(tmp_path):
    from agentunit.errors import AgentUnitError

    built = suite_from_dict({"cases": [{"output": "x"}]})
    with pytest.raises(AgentUnitError, match="no run"):
        asyncio.run(Engine(built, Store(tmp_path / "r.db"), RunOptions(resume="nope")).run())


def _python_target(function):
    from agentunit.targets import make_target

    return make_target({"type": "python", "function": function})


def test_user_turn_conversations_are_played_turn_by_turn():
    seen = []

    def chatbot(prompt, case):
        seen.append((prompt, [t["content"] for t in case.conversation]))
        name = next((t["content"].split()[-1] for t in case.conversation if t["content"].startswith("I am")), "?")
        return f"Hello {name}" if "name" in prompt else "Noted."

    result = evaluate(cases=[{"id": "chat", "conversation": [
        {"role": "user", "content": "I am Ana"}, {"role": "user", "content": "What is my name?"}],
        "metrics": [{"metric": "equals", "value": "Hello Ana"}]}], target=chatbot)
    assert result.passed and seen == [("I am Ana", []), ("What is my name?", ["I am Ana", "Noted."])]
    assert result.cases[0]["output"] == "Hello Ana"


def test_http_bodies_get_the_history_as_json(agent_server):
    suite = {"name": "http-chat", "target": {"type": "http", "url": agent_server.url,
                                             "body": {"prompt": "{{ prompt }}", "history": "{{ history }}"}},
             "cases": [{"conversation": [{"role": "user", "content": "ok:first"},
                                         {"role": "user", "content": "ok:second"}],
                        "metrics": [{"metric": "equals", "value": "second"}, "tool_success"]}]}
    result = evaluate(suite)
    assert result.passed
    bodies = [r["body"] for r in agent_server.requests]
    assert bodies[0]["history"] == [] and bodies[1]["history"] == [
        {"role": "user", "content": "ok:first"}, {"role": "assistant", "content": "first"}]
    assert result.cases[0]["metrics"][1]["detail"]["calls"] == 2  # tool calls of both turns


def test_the_run_database_is_the_judges_only_for_the_run(tmp_path):
    from agentunit.judges.service import current_judge

    before = current_judge().store
    result = evaluate(cases=[{"output": "x", "metrics": _contains("x")}], db=tmp_path / "r.db")
    result.store.close()  # a later check() must not reach for this closed database
    assert current_judge().store is before
