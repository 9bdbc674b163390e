"""What the engine does with conversations, metric timeouts, media records and matrix labels
(written against the surviving mutants of core/engine.py; docs/testing.md, "Mutation testing")."""

import asyncio

import pytest

from agentunit import evaluate
from agentunit.core.engine import _envelope, _with_labels
from agentunit.core.outcome import Outcome
from agentunit.datasets.base import DatasetCase
from agentunit.metrics.base import MetricResult
from agentunit.targets.base import Reply, Target


class Scripted(Target):
    """Answers from a script keyed by prompt, with a latency it states (so sums can be checked)."""

    kind = "scripted"

    def __init__(self, answers, latencies=None, cache=False):
        super().__init__({"cache": cache})
        self.answers, self.latencies = answers, latencies or {}
        self.seen = []

    def request(self, case):
        return {"prompt": case.query, "history": list(case.conversation or [])}

    async def send(self, case, request):
        self.seen.append((case.query, [t["content"] for t in case.conversation or []],
                          [t["content"] for t in case.vars["history"]]))
        return Reply(body=self.answers[case.query], latency_ms=self.latencies.get(case.query, 0.0))


class Capture:
    """A metric that keeps the case and trace it was given."""

    name = "capture"

    def __init__(self):
        self.cases, self.traces = [], []

    def evaluate(self, case, trace, outcome):
        self.cases.append(case)
        self.traces.append(trace)
        return MetricResult(name="capture", value=1.0, passed=True)


def _turns(*contents):
    return [{"role": "user", "content": c} if c is not None else {"role": "user"} for c in contents]


def test_each_turn_sees_its_prompt_and_the_whole_history_and_metrics_see_all_but_the_last_reply():
    target = Scripted({"one": "", "": "second answer", "three": "third answer"})
    metric = Capture()
    result = evaluate(cases=[{"id": "c", "conversation": _turns("one", None, "three")}], target=target,
                      metrics=[metric])
    assert result.passed
    # a turn without content is sent as the empty prompt; an empty reply stays empty in the history
    assert target.seen == [
        ("one", [], []),
        ("", ["one", ""], ["one", ""]),
        ("three", ["one", "", "", "second answer"], ["one", "", "", "second answer"]),
    ]
    case = metric.cases[0]
    assert case.conversation == [
        {"role": "user", "content": "one"}, {"role": "assistant", "content": ""},
        {"role": "user", "content": ""}, {"role": "assistant", "content": "second answer"},
        {"role": "user", "content": "three"}]
    assert result.cases[0]["output"] == "third answer"


def test_a_conversation_latency_is_the_sum_of_its_turns():
    target = Scripted({"a": "x", "b": "y", "c": "z"}, latencies={"a": 0.0, "b": 20.0, "c": 30.5})
    result = evaluate(cases=[{"id": "c", "conversation": _turns("a", "b", "c")}], target=target,
                      metrics=[Capture()])
    assert result.cases[0]["latency_ms"] == 50.5


def test_a_conversation_is_cached_only_when_every_turn_was(tmp_path):
    db = tmp_path / "runs.db"
    first = Scripted({"a": "x", "b": "y"}, cache=True)
    done = evaluate(cases=[{"id": "c", "conversation": _turns("a", "b")}], target=first, metrics=[Capture()], db=db)
    assert done.cases[0]["cached"] is False
    done.store.close()
    again = Scripted({"a": "x", "b": "y"}, cache=True)
    cached = evaluate(cases=[{"id": "c", "conversation": _turns("a", "b")}], target=again, metrics=[Capture()], db=db)
    assert again.seen == [] and cached.cases[0]["cached"] is True
    cached.store.close()
    # the first turn comes from the cache, the second is new (its history differs): not a cached case
    partly = Scripted({"a": "x", "c": "z"}, cache=True)
    mixed = evaluate(cases=[{"id": "c", "conversation": _turns("a", "c")}], target=partly, metrics=[Capture()], db=db)
    assert [s[0] for s in partly.seen] == ["c"] and mixed.cases[0]["cached"] is False
    mixed.store.close()


def test_each_repeat_of_a_conversation_calls_the_target_again_even_with_the_cache_on():
    target = Scripted({"a": "x", "b": "y"}, cache=True)
    result = evaluate(cases=[{"id": "c", "conversation": _turns("a", "b")}], target=target, metrics=[Capture()],
                      repeat=2)
    assert [s[0] for s in target.seen] == ["a", "b", "a", "b"]
    assert [c["cached"] for c in result.cases] == [False, False]


def _python_chat(replies):
    def chat(prompt):
        return replies[prompt]

    return chat


def test_calls_and_events_of_every_turn_are_kept_in_order():
    replies = {
        "a": {"output": "x", "tool_calls": [{"name": "t1"}], "agent_calls": [{"name": "g1", "seq": 2}]},
        "b": {"output": "y", "agent_calls": [{"name": "g2"}]},
    }
    replies["a"]["tool_calls"][0]["seq"] = 1
    result = evaluate(cases=[{"id": "c", "conversation": _turns("a", "b")}], target=_python_chat(replies),
                      metrics=[Capture()])
    envelope = result.cases[0]["envelope"]
    assert envelope["tool_calls"] == [{"name": "t1", "seq": 1, "arguments": {}}]
    assert envelope["agent_calls"] == [{"name": "g1", "seq": 2}, {"name": "g2"}]
    assert envelope["events"] == [{"type": "tool_call", "name": "t1", "seq": 1, "arguments": {}},
                                  {"type": "agent_call", "name": "g1", "seq": 2},
                                  {"type": "agent_call", "name": "g2"}]


@pytest.mark.parametrize("unknown_first", [True, False])
def test_one_turn_of_unknown_call_order_leaves_the_conversation_order_unknown(unknown_first):
    unknown = {"output": "x", "tool_calls": [{"name": "t"}], "agent_calls": [{"name": "g"}]}  # no seq, no events
    known = {"output": "y", "tool_calls": [{"name": "t2"}]}
    replies = {"a": unknown, "b": known} if unknown_first else {"a": known, "b": unknown}
    result = evaluate(cases=[{"id": "c", "conversation": _turns("a", "b")}], target=_python_chat(replies),
                      metrics=[Capture()])
    case = result.cases[0]
    assert case["status"] == "passed" and "events" not in case["envelope"]
    assert len(case["envelope"]["tool_calls"]) == 2


class SlowJudge:
    """A model-backed metric that never answers in time."""

    name = "slow"
    display_name = "slow judge"
    weight = 2.5
    label = "quality"

    async def evaluate_async(self, case, trace, outcome):
        await asyncio.sleep(5)

    def evaluate(self, case, trace, outcome):  # pragma: no cover - the engine prefers evaluate_async
        raise AssertionError("not called")


def test_a_metric_that_outlives_the_case_limit_is_reported_with_its_name_weight_and_label():
    result = evaluate(cases=[{"id": "c", "output": "x"}], metrics=[SlowJudge()], timeout=0.3)
    case = result.cases[0]
    [metric] = case["metrics"]
    assert metric["metric"] == "slow judge" and metric["weight"] == 2.5 and metric["value"] is None
    assert metric["error"] == ("timed out: the case's 0.3 s limit (target call and metrics, judge calls included) "
                               "ran out")
    assert result.summary["labels"] == {"quality": {"error": 1}}


def test_a_timed_out_metric_without_display_name_is_named_by_name():
    class Slow(SlowJudge):
        display_name = None

    result = evaluate(cases=[{"id": "c", "output": "x"}], metrics=[Slow()], timeout=0.2)
    assert result.cases[0]["metrics"][0]["metric"] == "slow"


def test_an_async_metric_is_given_the_case_trace():
    seen = []

    class Traced:
        name = "traced"

        async def evaluate_async(self, case, trace, outcome):
            seen.append([e.type for e in trace.events])
            return MetricResult(name="traced", value=1.0, passed=True)

        def evaluate(self, case, trace, outcome):  # pragma: no cover - the engine prefers evaluate_async
            raise AssertionError("not called")

    assert evaluate(cases=[{"id": "c", "prompt": "p", "output": "x"}], metrics=[Traced()]).passed
    assert seen == [["prompt", "agent_response"]]


# -- media records: which cases are looked at ---------------------------------------------------------


@pytest.mark.parametrize("field, value, recorded", [
    ("image", "missing.png", "image"),
    ("images", ["missing.png"], "images[0]"),
    ("audio", "missing.wav", "audio"),
    ("video", "missing.mp4", "video"),
])
def test_every_media_field_of_a_case_gets_a_record(tmp_path, field, value, recorded):
    case = DatasetCase(id="c", media_dir=str(tmp_path), **{field: value})
    envelope = _envelope(Outcome(output="x"), case)
    assert [r["field"] for r in envelope["media"]] == [recorded]
    assert "error" in envelope["media"][0]  # the file is missing: recorded as such, never raised


def test_agentunit_metadata_media_paths_and_case_subclasses_get_records(tmp_path):
    case = DatasetCase(id="c", media_dir=str(tmp_path), metadata={"audio_path": "a.wav", "other": 1})
    assert [r["field"] for r in _envelope(Outcome(output="x"), case)["media"]] == ["metadata.audio_path"]

    class Custom(DatasetCase):
        pass

    custom = Custom(id="c", media_dir=str(tmp_path), image="missing.png")
    assert [r["field"] for r in _envelope(Outcome(output="x"), custom)["media"]] == ["image"]


def test_a_text_case_has_no_media_record():
    assert _envelope(Outcome(output="x"), DatasetCase(id="c", metadata={"topic": "a"})) is None


# -- matrix labels ----------------------------------------------------------------------------------


@pytest.mark.parametrize("metadata, labels", [
    ({"p": "short", "t": "gpt"}, {"prompt": "short", "target": "gpt"}),
    ({"p": "short"}, {"prompt": "short", "target": None}),
    ({"t": 2}, {"prompt": None, "target": "2"}),
])
def test_matrix_labels_keep_whichever_of_prompt_and_target_is_known(metadata, labels):
    case = DatasetCase(id="c", metadata=metadata)
    assert _with_labels({"usage": {"x": 1}}, case, ("p", "t")) == {"usage": {"x": 1}, "matrix": labels}
    assert _with_labels(None, case, ("p", "t")) == {"matrix": labels}


def test_a_case_outside_the_matrix_keeps_its_envelope():
    envelope = {"usage": {"x": 1}}
    assert _with_labels(envelope, DatasetCase(id="c"), ("p", "t")) is envelope
    assert _with_labels(None, DatasetCase(id="c"), ("p", "t")) is None


# -- resource metering: asked for by the metrics that need it -----------------------------------------


def _needing(*needs, **attrs):
    from types import SimpleNamespace

    return SimpleNamespace(info=SimpleNamespace(needs=needs), **attrs)


def test_the_meter_samples_at_the_finest_interval_any_wanting_metric_asks_for():
    from agentunit.core.engine import _meter_options

    assert _meter_options([_needing("output"), _needing("output", "latency")]) is None
    assert _meter_options([object(), _needing("resources")]) == {"sample_interval": 1.0}
    metrics = [_needing("resources", sample_interval=0.5), _needing("output", sample_interval=0.01),
               _needing("resources", sample_interval=0.25, cpu_tdp_watts=0), _needing("resources")]
    assert _meter_options(metrics) == {"sample_interval": 0.25}
    metrics += [_needing("resources", cpu_tdp_watts=65), _needing("resources", cpu_tdp_watts=120)]
    options = _meter_options(metrics)
    assert options == {"sample_interval": 0.25, "cpu_tdp_watts": 65.0} and type(options["cpu_tdp_watts"]) is float


def test_a_metric_needing_resources_gets_the_target_calls_measured():
    from types import SimpleNamespace

    class Resources:
        name = "resources-seen"
        info = SimpleNamespace(name="resources-seen", needs=("resources",), kind="score", value="none")
        sample_interval = 0.05

        def evaluate(self, case, trace, outcome):
            return MetricResult(name=self.name, value=1.0, passed=outcome.resources is not None)

    result = evaluate(cases=[{"id": "c", "prompt": "p"}], target=lambda prompt: prompt, metrics=[Resources()])
    assert result.passed and "resources" in result.cases[0]["envelope"]
    plain = evaluate(cases=[{"id": "c", "prompt": "p"}], target=lambda prompt: prompt, metrics=[Capture()])
    assert plain.cases[0]["envelope"] is None


class _Bare:
    """A metric object with nothing but its evaluate methods."""

    async def evaluate_async(self, case, trace, outcome):
        await asyncio.sleep(5)

    def evaluate(self, case, trace, outcome):  # pragma: no cover - the engine prefers evaluate_async
        raise AssertionError("not called")


def test_a_timed_out_metric_without_name_weight_or_label_gets_the_defaults():
    import time
    from types import SimpleNamespace

    from agentunit.core.engine import Engine
    from agentunit.core.envelope import build_trace

    engine = SimpleNamespace(timeout=0.05)  # _score_within reads only the case limit of its engine
    outcome = Outcome(output="x")
    result = asyncio.run(Engine._score_within(engine, _Bare(), DatasetCase(id="c"), build_trace(outcome), outcome,
                                              time.monotonic() + 0.05))
    assert (result.name, result.weight, result.label, result.value) == ("metric", 1.0, None, None)
    assert result.error == ("timed out: the case's 0.05 s limit (target call and metrics, judge calls included) "
                            "ran out")


def test_a_metric_object_without_a_name_is_refused_as_a_suite_problem():
    from agentunit.errors import SuiteError

    with pytest.raises(SuiteError) as info:
        evaluate(cases=[{"id": "c", "output": "x"}], metrics=[_Bare()])
    assert str(info.value) == ("<suite>: metrics[0]: the metric object _Bare has no `name` — give it a `name` "
                               "attribute (text): its results are stored and reported under that name")
