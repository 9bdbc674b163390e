"""The ``traces`` target over hand-written OTLP files: which recorded trace or session answers a case (its id,
``case_id_attribute``, ``metadata.trace_id`` / ``session_id``, the first of two with one id), the exact
errors (no such trace, a failed run naming its trace and files or its session), prices, and a reply's
fields (mutation testing found these unpinned; the recorder-based tests are in tests/traces/)."""

import asyncio
import json

import pytest

from agentunit.datasets.base import DatasetCase
from agentunit.errors import AgentUnitError
from agentunit.targets import make_target
from agentunit.targets.traces import TracesTarget  # imported at collection: see test_settings_and_the_request…

_T0 = 1_700_000_000_000_000_000


def _span(trace, span, name, start_ms, end_ms, parent=None, status=None, **attrs):
    return {"traceId": trace, "spanId": span, **({"parentSpanId": parent} if parent else {}), "name": name,
            "startTimeUnixNano": str(_T0 + start_ms * 1_000_000), "endTimeUnixNano": str(_T0 + end_ms * 1_000_000),
            **({"status": status} if status else {}),
            "attributes": [{"key": k, "value": {"intValue": str(v)} if isinstance(v, int) else {"stringValue": v}}
                           for k, v in attrs.items()]}


def _run(trace, start_ms, answer, root_attrs=None, status=None, tokens=(10, 5)):
    """One agent run: a root span and a chat span answering ``answer``; span ids from the trace id."""
    root = trace[:14] + "01"
    return [_span(trace, root, "invoke_agent a", start_ms, start_ms + 100, status=status,
                  **{"gen_ai.operation.name": "invoke_agent", **(root_attrs or {})}),
            _span(trace, trace[:14] + "02", "chat", start_ms + 10, start_ms + 90, parent=root,
                  **{"gen_ai.operation.name": "chat", "gen_ai.output.messages": answer,
                     "gen_ai.usage.input_tokens": tokens[0], "gen_ai.usage.output_tokens": tokens[1]})]


def _write(path, *runs):
    path.write_text(json.dumps({"resourceSpans": [{"scopeSpans": [{"spans": [s for run in runs for s in run]}]}]}),
                    encoding="utf-8")
    return path


_A = "aa" * 16
_B = "bb" * 16
_C = "cc" * 16


def _send(spec, tmp_path, case):
    target = make_target({"type": "traces", "path": "t.json", **spec}, tmp_path)
    return asyncio.run(target.send(case, target.request(case)))


def _error(spec, tmp_path, case):
    with pytest.raises(AgentUnitError) as raised:
        _send(spec, tmp_path, case)
    return str(raised.value)


def test_settings_and_the_request_name_the_trace_wanted():
    """(The traces modules are imported when this file is collected: importing them for the first time late in
    a long pytest process, after tests that recursed to the limit, has failed in CPython 3.11's parser with
    "AST constructor recursion depth mismatch" while pytest rewrote them.)"""
    target = make_target({"type": "traces", "path": "t.json"})
    assert type(target) is TracesTarget
    assert (target.cache_enabled, target.format, target.base_dir) == (False, "auto", None)
    assert target.request(DatasetCase(id="c1", query="")) == {"trace": "c1"}
    assert target.request(DatasetCase(id="c1", query="", metadata={"trace_id": 7})) == {"trace": "7"}
    both = DatasetCase(id="c1", query="", metadata={"trace_id": "t", "session_id": "s"})
    assert target.request(both) == {"trace": "s"}


def test_a_case_is_answered_by_its_trace_with_usage_cost_latency_and_finish(tmp_path):
    _write(tmp_path / "t.json", _run(_A, 0, "first"), _run(_B, 1000, "second", tokens=(1000, 500)))
    prices = {"cost_per_1k_prompt_tokens": "0.01", "cost_per_1k_completion_tokens": 0.03}
    reply = _send(prices, tmp_path, DatasetCase(id="x", query="", metadata={"trace_id": _B}))
    assert reply.body["output"] == "second" and reply.body["trusys"]["recorded_trace"]["trace_id"] == _B
    assert reply.usage == {"prompt_tokens": 1000, "completion_tokens": 500, "total_tokens": 1500}
    assert reply.cost == pytest.approx(0.01 + 0.015) and reply.latency_ms == pytest.approx(100.0)
    assert reply.finish_reason is None
    assert _send({}, tmp_path, DatasetCase(id=_A, query="")).body["output"] == "first"


def test_a_case_id_attribute_names_traces_and_the_first_of_two_with_one_id_answers(tmp_path):
    _write(tmp_path / "t.json", _run(_C, 0, "third", {"app.case_id": _A}),
           _run(_A, 1000, "first", {"app.case_id": "k"}), _run(_B, 2000, "second", {"app.case_id": "k"}))
    spec = {"case_id_attribute": "app.case_id"}
    assert _send(spec, tmp_path, DatasetCase(id="k", query="")).body["output"] == "first"
    assert _send(spec, tmp_path, DatasetCase(id=_B, query="")).body["output"] == "second"  # by its trace id too
    assert _send(spec, tmp_path, DatasetCase(id=_A, query="")).body["output"] == "third"  # the earlier trace's case id
    assert _error(spec, tmp_path, DatasetCase(id="nope", query="")) == \
        "no recorded trace for case 'nope': no trace id or app.case_id 'nope' in 't.json'"
    assert _error({}, tmp_path, DatasetCase(id="c", query="", metadata={"trace_id": "gone"})) == \
        "no recorded trace for case 'c': no trace id or case id 'gone' in 't.json'"


def test_sessions_group_traces_by_their_attribute_and_answer_with_the_last_turn(tmp_path):
    _write(tmp_path / "t.json", _run(_A, 0, "one", {"conv": "s1"}), _run(_B, 1000, "two", {"conv": "s1"}),
           _run(_C, 2000, "other", {"conv": "s2"}))
    spec = {"sessions": True, "session_attribute": "conv"}
    reply = _send(spec, tmp_path, DatasetCase(id="x", query="", metadata={"session_id": "s1"}))
    assert reply.body["output"] == "two"
    assert reply.body["trusys"]["recorded_session"] == {"session_id": "s1", "turns": 2, "trace_ids": [_A, _B]}
    assert reply.usage == {"prompt_tokens": 20, "completion_tokens": 10, "total_tokens": 30}
    assert reply.latency_ms == pytest.approx(1100.0)
    assert _error(spec, tmp_path, DatasetCase(id=_A, query="")) == \
        "no recorded trace for case " + repr(_A) + ": no trace id or case id " + repr(_A) + " in 't.json'"


def test_a_failed_run_is_an_error_naming_its_trace_and_files_or_its_session(tmp_path):
    failed = {"code": 2, "message": "quota"}
    _write(tmp_path / "t.json", _run(_A, 0, "x", {"session.id": "s"}, status=failed))
    reason = "the recorded run failed: root span 'invoke_agent a' has status ERROR: quota"
    assert _error({}, tmp_path, DatasetCase(id=_A, query="")) == f"{reason} (trace {_A} in {tmp_path / 't.json'})"
    assert _error({"sessions": True}, tmp_path, DatasetCase(id="s", query="")) == f"{reason} (session s)"


def _both_conventions(tmp_path):
    """A run whose chat span carries GenAI attributes and an OpenInference span kind with another answer."""
    run = _run(_A, 0, "genai answer", {"session.id": "s"})
    run[1]["attributes"] += [{"key": "openinference.span.kind", "value": {"stringValue": "LLM"}},
                             {"key": "output.value", "value": {"stringValue": "oi answer"}},
                             {"key": "gen_ai.response.finish_reasons", "value": {"stringValue": "stop"}}]
    _write(tmp_path / "t.json", run)


def test_the_format_decides_which_conventions_read_a_span_that_has_both(tmp_path):
    _both_conventions(tmp_path)
    case = DatasetCase(id=_A, query="")
    assert make_target({"type": "traces", "path": "t.json", "format": "otlp"}).format == "otlp"
    genai = _send({"format": "otlp"}, tmp_path, case)
    assert (genai.body["output"], genai.finish_reason, genai.usage) == \
        ("genai answer", "stop", {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15})
    assert _send({}, tmp_path, case).body["output"] == "oi answer"  # auto: the OpenInference kind wins
    session = DatasetCase(id="s", query="")
    assert _send({"format": "otlp", "sessions": True}, tmp_path, session).body["output"] == "genai answer"
    assert _send({"sessions": True}, tmp_path, session).body["output"] == "oi answer"
    assert _error({"format": "jaeger"}, tmp_path, case) == \
        "traces format must be one of auto, otlp, openinference, got 'jaeger'"


def test_a_session_is_priced_and_a_trace_across_files_names_them_all(tmp_path):
    _write(tmp_path / "t.json", _run(_A, 0, "one", {"session.id": "s"}, tokens=(1000, 0)),
           _run(_B, 1000, "two", {"session.id": "s"}, tokens=(1000, 0)))
    reply = _send({"sessions": True, "cost_per_1k_prompt_tokens": 0.5}, tmp_path, DatasetCase(id="s", query=""))
    assert reply.cost == pytest.approx(1.0)
    root, chat = _run(_C, 0, "x", status={"code": 2, "message": "down"})
    _write(tmp_path / "a.json", [root])
    _write(tmp_path / "b.json", [chat])
    files = f"{tmp_path / 'a.json'}, {tmp_path / 'b.json'}"
    assert _error({"path": ["a.json", "b.json"]}, tmp_path, DatasetCase(id=_C, query="")) == \
        f"the recorded run failed: root span 'invoke_agent a' has status ERROR: down (trace {_C} in {files})"
