"""Recorded traces as a target: OTLP JSON (GenAI conventions) and OpenInference spans written by the real
OpenTelemetry SDK and OpenInference tracer, read as cases, and scored by the agentic metrics."""

from __future__ import annotations

import asyncio
import functools
import json
from pathlib import Path

import pytest
from openinference.instrumentation import TracerProvider as OITracerProvider

import agentunit
from agentunit.errors import SuiteError
from agentunit.suite.loader import load_suite
from agentunit.targets import make_target
from agentunit.traces import TraceFileError, load_traces, recorded_run
from tests.traces.recorders import (
    genai_travel_agent,
    openinference_support_agent,
    record,
    write_otlp,
    write_span_list,
)

IN_ORDER = ("search_flights", "book_flight")


def _genai(folder: Path, *, hex_ids: bool = True) -> Path:
    """Two GenAI runs, tools in order and reversed, exported as OTLP JSON."""
    folder.mkdir(exist_ok=True)
    write_otlp(record(functools.partial(genai_travel_agent, case="in-order", tools=IN_ORDER)),
               folder / "run1.json", hex_ids=hex_ids)
    write_otlp(record(functools.partial(genai_travel_agent, case="reversed", tools=IN_ORDER[::-1])),
               folder / "run2.json", hex_ids=hex_ids)
    return folder


def _suite(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "suite.yaml"
    path.write_text(body, encoding="utf-8")
    return path


@pytest.mark.parametrize("hex_ids", [True, False], ids=["otlp-hex-ids", "protobuf-base64-ids"])
def test_a_genai_trace_reads_as_a_run_in_the_order_it_happened(tmp_path: Path, hex_ids: bool) -> None:
    _genai(tmp_path / "traces", hex_ids=hex_ids)
    traces = load_traces("traces/*.json", tmp_path, case_id_attribute="app.case_id")
    assert [t.case_id for t in traces] == ["in-order", "reversed"]
    assert all(len(t.trace_id) == 32 for t in traces)
    run = recorded_run(traces[0])
    meta = run.envelope["trusys"]
    assert meta["query"] == "Book me a flight to Paris"
    assert run.envelope["output"] == "Booked AF123 to Paris."
    assert [(e["type"], e["name"]) for e in meta["events"]] == [
        ("tool_call", "search_flights"), ("agent_call", "booking"), ("tool_call", "book_flight")]
    assert meta["events"][0]["arguments"] == {"to": "Paris"} and meta["events"][0]["output"] == '["AF123"]'
    assert run.usage == {"prompt_tokens": 320, "completion_tokens": 70, "total_tokens": 390}
    assert run.finish_reason == "stop"
    spans = traces[0].spans
    assert run.latency_ms == pytest.approx((max(s.end_ns for s in spans) - min(s.start_ns for s in spans)) / 1e6)
    assert run.error is None and run.cost is None


def test_tool_call_order_is_kept_end_to_end(tmp_path: Path) -> None:
    """tool-correctness (exact order) passes the trace that called the tools in order and fails the other."""
    _genai(tmp_path / "traces")
    suite = _suite(tmp_path, """
name: recorded travel runs
target: {type: traces, path: "traces/*.json", format: otlp, case_id_attribute: app.case_id}
defaults:
  expected_tools: [search_flights, book_flight]
  metrics:
    - {metric: tool-correctness, config: {mode: exact}}
    - {metric: contains, value: AF123}
""")
    result = agentunit.evaluate(suite)
    cases = {c["id"]: c for c in result.cases}
    assert cases["in-order"]["status"] == "passed", cases["in-order"]
    assert cases["reversed"]["status"] == "failed"
    failed = [m for m in cases["reversed"]["metrics"] if m["status"] == "failed"]
    assert [m["metric"] for m in failed] == ["tool-correctness"]
    assert cases["in-order"]["latency_ms"] > 0
    events = cases["reversed"]["envelope"]["events"]
    assert [e["name"] for e in events] == ["booking", "book_flight", "search_flights"]
    assert cases["in-order"]["prompt"] == "Book me a flight to Paris"


def test_cases_listed_in_the_suite_are_answered_from_their_trace(tmp_path: Path) -> None:
    _genai(tmp_path / "traces")
    suite = _suite(tmp_path, """
target: {type: traces, path: "traces/*.json", case_id_attribute: app.case_id}
cases:
  - {id: reversed, prompt: book, expected_tools: [book_flight, search_flights],
     metrics: [{metric: tool-correctness, config: {mode: ordered}}, {metric: cost, threshold: 1}]}
  - {id: missing, prompt: book, metrics: [{metric: contains, value: x}]}
""")
    result = agentunit.evaluate(suite)
    cases = {c["id"]: c for c in result.cases}
    assert cases["reversed"]["status"] in ("passed", "unmeasured")
    tool = next(m for m in cases["reversed"]["metrics"] if m["metric"] == "tool-correctness")
    assert tool["status"] == "passed"
    assert cases["missing"]["status"] == "errored"
    assert "no recorded trace for case 'missing'" in cases["missing"]["error"]


def test_openinference_spans_from_its_tracer(tmp_path: Path) -> None:
    """OpenInference's own tracer, exported both as OTLP JSON and as the SDK's span JSON (Phoenix's shape)."""
    def run(tracer: object, question: str, order: list[str]) -> None:
        tools = {"lookup_order": ({"order": 42}, '{"status": "shipped"}'),
                 "refund": ({"order": 42, "amount": 10}, "refunded")}
        openinference_support_agent(tracer, question=question, tools=[(n, *tools[n]) for n in order],
                                    answer="Your refund is on its way.")

    spans = record(functools.partial(run, question="Refund order 42", order=["lookup_order", "refund"]),
                   OITracerProvider)
    for path in (write_otlp(spans, tmp_path / "oi.json"), write_span_list(spans, tmp_path / "oi.jsonl")):
        for fmt in ("openinference", "auto"):
            traces = load_traces(str(path), format=fmt)
            assert len(traces) == 1
            run_ = recorded_run(traces[0], fmt)
            meta = run_.envelope["trusys"]
            assert meta["query"] == "Refund order 42", path
            assert run_.envelope["output"] == "Your refund is on its way."
            assert [(e["type"], e["name"], e["arguments"]) for e in meta["events"]] == [
                ("tool_call", "lookup_order", {"order": 42}), ("tool_call", "refund", {"order": 42, "amount": 10})]
            assert meta["events"][1]["description"] == "the refund tool"
            assert run_.usage == {"prompt_tokens": 50, "completion_tokens": 5, "total_tokens": 55}
            assert run_.cost == pytest.approx(0.0012)
            assert meta["context"] == ["Refunds take 5 days."]


def test_a_case_per_trace_with_suite_metrics(tmp_path: Path) -> None:
    spans = record(lambda t: openinference_support_agent(
        t, question="Refund order 7", tools=[("refund", {"order": 7}, "Error: payment service down")],
        answer="Sorry, try later."), OITracerProvider)
    write_span_list(spans, tmp_path / "oi.jsonl")
    suite = _suite(tmp_path, """
target: {type: traces, path: oi.jsonl, format: openinference}
metrics: [tool_success, {metric: cost, threshold: 0.01}, {metric: latency, threshold: 60000}]
""")
    result = agentunit.evaluate(suite)
    (case,) = result.cases
    assert case["id"] == spans[0].context.trace_id.to_bytes(16, "big").hex()
    by_metric = {m["metric"]: m for m in case["metrics"]}
    assert by_metric["tool_success"]["status"] == "failed"  # the tool's output is an error report
    assert by_metric["cost"]["value"] == pytest.approx(0.0012) and by_metric["cost"]["status"] == "passed"
    assert by_metric["latency"]["status"] == "passed"


def test_exact_times_usage_cost_and_prices(tmp_path: Path) -> None:
    def span(span_id: str, parent: str | None, name: str, start_ms: int, end_ms: int, **attrs: object) -> dict:
        return {"traceId": "0af7651916cd43dd8448eb211c80319c", "spanId": span_id,
                **({"parentSpanId": parent} if parent else {}), "name": name,
                "startTimeUnixNano": str(1_700_000_000_000_000_000 + start_ms * 1_000_000),
                "endTimeUnixNano": str(1_700_000_000_000_000_000 + end_ms * 1_000_000),
                "attributes": [{"key": k, "value": {"intValue": str(v)} if isinstance(v, int) else
                                {"stringValue": str(v)}} for k, v in attrs.items()]}

    document = {"resourceSpans": [{"scopeSpans": [{"spans": [
        span("b7ad6b7169203331", None, "agent", 0, 1500, **{"gen_ai.operation.name": "invoke_agent",
                                                              "gen_ai.agent.name": "a"}),
        # tools listed out of order in the file: their start times decide
        span("00f067aa0ba902b7", "b7ad6b7169203331", "execute_tool b", 900, 1000,
             **{"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "b"}),
        span("00f067aa0ba902b8", "b7ad6b7169203331", "execute_tool a", 100, 300,
             **{"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "a"}),
        span("00f067aa0ba902b9", "b7ad6b7169203331", "chat", 1000, 1400,
             **{"gen_ai.operation.name": "chat", "gen_ai.usage.input_tokens": 1000,
                "gen_ai.usage.output_tokens": 500, "gen_ai.output.messages": "done"}),
    ]}]}]}
    (tmp_path / "t.json").write_text(json.dumps(document), encoding="utf-8")
    target = make_target({"type": "traces", "path": "t.json", "cost_per_1k_prompt_tokens": 0.01,
                          "cost_per_1k_completion_tokens": 0.03}, tmp_path)
    case = agentunit.DatasetCase(id="0af7651916cd43dd8448eb211c80319c", query="")
    reply = asyncio.run(target.send(case, target.request(case)))
    assert reply.latency_ms == pytest.approx(1500.0)
    assert reply.usage == {"prompt_tokens": 1000, "completion_tokens": 500, "total_tokens": 1500}
    assert reply.cost == pytest.approx(0.01 + 0.015)
    assert [e["name"] for e in reply.body["trusys"]["events"]] == ["a", "b"]
    assert reply.body["output"] == "done"


def test_a_failed_run_and_a_failed_tool(tmp_path: Path) -> None:
    def failing(tracer: object) -> None:
        from opentelemetry.trace import Status, StatusCode

        with tracer.start_as_current_span("invoke_agent travel", attributes={  # type: ignore[attr-defined]
                "gen_ai.operation.name": "invoke_agent"}) as root:
            root.set_status(Status(StatusCode.ERROR, "model quota exceeded"))

    write_otlp(record(failing), tmp_path / "failed.json")
    write_otlp(record(functools.partial(genai_travel_agent, case="x", tools=IN_ORDER, fail_tool="search_flights")),
               tmp_path / "tool.json")
    result = agentunit.evaluate(_suite(tmp_path, """
target: {type: traces, path: [failed.json, tool.json]}
metrics: [tool_success]
"""))
    first, second = result.cases
    assert first["status"] == "errored"
    assert "root span 'invoke_agent travel' has status ERROR: model quota exceeded" in first["error"]
    assert "failed.json" in first["error"]
    assert second["status"] == "failed"
    assert second["envelope"]["events"][0]["error"] == "upstream 503"


@pytest.mark.parametrize(("content", "expected"), [
    ('{"resourceSpans": [', "bad.json:1: invalid JSON"),
    ('{"hello": 1}', "bad.json:1: not a trace export"),
    ('{"resourceSpans": [{"scopeSpans": [{"spans": [{"traceId": "0af7651916cd43dd8448eb211c80319c", '
     '"name": "execute_tool", "startTimeUnixNano": "1", "endTimeUnixNano": "2"}]}]}]}',
     "span resourceSpans[0].scopeSpans[0].spans[0] ('execute_tool'): spanId must be a 8-byte id"),
    ('{"resourceSpans": [{"scopeSpans": [{"spans": [{"traceId": "0af7651916cd43dd8448eb211c80319c", '
     '"spanId": "b7ad6b7169203331", "name": "llm", "startTimeUnixNano": "soon", "endTimeUnixNano": "2"}]}]}]}',
     "('llm'): startTimeUnixNano must be nanoseconds since the epoch, got 'soon'"),
])
def test_a_malformed_trace_file_is_a_suite_problem_naming_file_and_span(tmp_path: Path, content: str,
                                                                        expected: str) -> None:
    (tmp_path / "bad.json").write_text(content, encoding="utf-8")
    with pytest.raises(TraceFileError, match=None) as raised:
        load_traces("bad.json", tmp_path)
    assert expected.split(": ", 1)[-1] in str(raised.value)
    suite = load_suite(_suite(tmp_path, "target: {type: traces, path: bad.json}\nmetrics: [contains]\n"))
    with pytest.raises(SuiteError) as error:
        suite.validate(require_target=True)
    assert expected in str(error.value) and str(tmp_path / "bad.json") in str(error.value)


def test_a_bad_line_of_a_jsonl_export_is_named(tmp_path: Path) -> None:
    spans = record(functools.partial(genai_travel_agent, case="x", tools=IN_ORDER))
    path = write_span_list(spans, tmp_path / "spans.jsonl")
    path.write_text(path.read_text(encoding="utf-8") + "{oops\n", encoding="utf-8")
    with pytest.raises(TraceFileError) as raised:
        load_traces(str(path))
    assert str(raised.value).startswith(f"{path}:{len(spans) + 1}: invalid JSON")


def test_target_spec_problems(tmp_path: Path) -> None:
    with pytest.raises(SuiteError) as error:
        load_suite(_suite(tmp_path, "target: {type: traces, path: 'nothing/*.json'}\n")).validate()
    assert "traces path 'nothing/*.json' matches no file" in str(error.value)
    with pytest.raises(SuiteError) as error:
        load_suite(_suite(tmp_path, "target: {type: traces, path: x.json, format: jaeger}\n")).validate()
    assert "target.format" in str(error.value)
    with pytest.raises(SuiteError) as error:
        load_suite(_suite(tmp_path, "target: {type: traces}\ncases: [{prompt: hi}]\n")).validate()
    assert "traces target needs 'path'" in str(error.value)
