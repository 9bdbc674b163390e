"""Sanity of the labelled agentic and conversational sets in tests/data/labelled (agent_*.jsonl,
conversation_*.jsonl): what the builders write, valid inputs for each metric, one split per group,
balanced labels, and trivial baselines far from perfect."""

from __future__ import annotations

import json
import math
import sys
from collections import Counter, defaultdict
from pathlib import Path

import pytest

from agentunit import check
from agentunit.core.envelope import observed_sequence
from agentunit.core.outcome import Outcome
from agentunit.judges.base import JudgeReply
from agentunit.metrics.agentic import check_rule
from agentunit.metrics.agentic.rules import _parse_rule
from agentunit.metrics.json_checks import compile_schema, schema_errors
from tests.judge_helpers import pass_with, scripted_judge

DATA = Path(__file__).resolve().parent / "data"
LABELLED = DATA / "labelled"
sys.path.insert(0, str(DATA))

import build_labelled_agent  # noqa: E402
import build_labelled_conversation  # noqa: E402
from splits import split_of  # noqa: E402

FILES = sorted([*LABELLED.glob("agent_*.jsonl"), *LABELLED.glob("conversation_*.jsonl")])
ROWS = [json.loads(line) for path in FILES for line in path.read_text().splitlines()]
AGENT_METRICS = {"task-completion", "goal-fulfillment", "tool-selection-quality", "plan-quality",
                 "reasoning-coherence", "argument-correctness", "agent-llm-rubric", "plan-adherence"}
CONVERSATION_METRICS = {"knowledge-retention", "role-adherence", "conversation-relevancy", "conversational-g-eval"}


def test_every_agentic_and_conversational_judge_metric_has_a_set():
    assert {r["metric"] for r in ROWS} == AGENT_METRICS | CONVERSATION_METRICS
    assert [p.name for p in FILES] == ["agent_arguments.jsonl", "agent_rules.jsonl", "agent_runs.jsonl",
                                       "conversation_dialogues.jsonl"]


def test_files_are_what_the_builders_write():
    built = {**build_labelled_agent.build(), **build_labelled_conversation.build()}
    for path in FILES:
        on_disk = [json.loads(line) for line in path.read_text().splitlines()]
        assert on_disk == built[path.name], f"{path.name} is stale: run python tests/data/{path.stem} builder"


def test_ids_are_unique_and_rows_carry_the_common_fields():
    ids = Counter(r["id"] for r in ROWS)
    assert not [i for i, n in ids.items() if n > 1]
    for r in ROWS:
        assert r["label"] in (0, 1) and r["source"] == "handwritten" and r["kind"] and r["group"], r["id"]


def test_split_follows_the_group_so_pairs_never_straddle():
    for path in FILES:
        splits = defaultdict(set)
        for line in path.read_text().splitlines():
            r = json.loads(line)
            assert r["set"] == path.stem, r["id"]
            assert r["split"] == split_of(r["set"], r["group"]), r["id"]
            splits[r["group"]].add(r["split"])
        assert all(len(s) == 1 for s in splits.values())


@pytest.mark.parametrize("metric", sorted(AGENT_METRICS | CONVERSATION_METRICS))
def test_enough_rows_and_groups_with_balanced_labels_in_each_split(metric):
    rows = [r for r in ROWS if r["metric"] == metric]
    assert len(rows) >= 60
    for split in ("tune", "test"):
        part = [r for r in rows if r["split"] == split]
        assert len({r["group"] for r in part}) >= 20, (metric, split)
        labels = Counter(r["label"] for r in part)
        assert labels[0] == labels[1] > 0, (metric, split, labels)
    # balanced within every group, so no group leans the figures either way
    per_group = defaultdict(Counter)
    for r in rows:
        per_group[r["group"]][r["label"]] += 1
    assert all(c[0] == c[1] for c in per_group.values()), metric


def _scripted(request):
    """A judge that always answers: PASS/FAIL at 0.6, a middle digit, generated evaluation steps, a plan
    of tool calls (the first tool it may name)."""
    calls = (request.json_schema or {}).get("properties", {}).get("calls")
    if calls is not None:
        return JudgeReply(json.dumps({"calls": calls["items"]["enum"][:1]}))
    if request.json_schema is not None:
        return JudgeReply('{"steps": ["Read the conversation.", "Check the criteria."]}')
    if request.options and request.options[0].isdigit():
        return JudgeReply("3", [("3", math.log(0.6)), ("4", math.log(0.4))])
    return pass_with(0.6)


_INPUTS = ("query", "tools", "plan", "conversation", "role", "rules", "tool_calls", "agent_calls")


def _run(r: dict):
    return check(r["output"], {"metric": r["metric"], "value": r.get("value")},
                 **{k: r[k] for k in _INPUTS if r.get(k) is not None})


def test_every_row_is_measured_by_its_metric():
    """Each row gives the metric the inputs it reads: a verdict, never "not measured" or an error."""
    with scripted_judge(_scripted):
        for r in ROWS:
            result = _run(r)
            assert result.status in ("passed", "failed"), (r["id"], result.status, result.reason, result.error)


def test_argument_rows_are_type_valid_so_only_the_judge_can_tell_them_apart():
    rows = [r for r in ROWS if r["metric"] == "argument-correctness"]
    for r in rows:
        (call,) = r["tool_calls"]
        (tool,) = r["tools"]
        assert tool["name"] == call["name"]
        if "parameters" in tool:
            assert not schema_errors(compile_schema(tool["parameters"], call["name"]), call["arguments"]), r["id"]
    with scripted_judge(_scripted):
        for r in rows:
            assert [c["method"] for c in _run(r).detail["calls"]] == ["judge"], r["id"]
    assert any("parameters" not in r["tools"][0] for r in rows)  # some rows leave it all to the judge


def test_rule_rows_reach_the_checker_their_kind_names():
    """Known-form rules are settled on the observed trace and agree with the label; every other rule is
    free-form, so the judge decides it."""
    rows = [r for r in ROWS if r["metric"] == "agent-llm-rubric"]
    traced = [r for r in rows if r["kind"].startswith("trace-")]
    assert traced and len(traced) < len(rows) / 4
    for r in rows:
        outcome = Outcome(tool_calls=r["tool_calls"], agent_calls=r.get("agent_calls") or [])
        sequence, order, _ = observed_sequence(outcome)
        assert order == "observed", r["id"]
        names = [str(payload["name"]) for _, payload in sequence]
        for rule in r["rules"]:
            if r["kind"].startswith("trace-"):
                assert check_rule(rule, names)["passed"] is bool(r["label"]), r["id"]
            else:
                assert _parse_rule(rule) is None, (r["id"], rule)


def test_conversations_end_on_the_user_turn_the_reply_answers():
    for r in ROWS:
        if r["metric"] in CONVERSATION_METRICS:
            turns = r["conversation"]
            assert turns[-1]["role"] == "user" and any(t["role"] == "assistant" for t in turns), r["id"]
            assert all(set(t) == {"role", "content"} and t["content"] for t in turns), r["id"]
    long_ones = {r["group"] for r in ROWS if r["metric"] in CONVERSATION_METRICS and len(r["conversation"]) >= 9}
    assert len(long_ones) >= 15


@pytest.mark.parametrize(("builder", "name"), [(build_labelled_agent, "agent_runs.jsonl"),
                                                (build_labelled_agent, "agent_arguments.jsonl"),
                                                (build_labelled_agent, "agent_rules.jsonl"),
                                                (build_labelled_conversation, "conversation_dialogues.jsonl")])
def test_trivial_baselines_stay_far_from_perfect(builder, name):
    """A keyword rule and a word-overlap threshold (fitted on tune) score below 0.9 everywhere."""
    rows = [json.loads(line) for line in (LABELLED / name).read_text().splitlines()]
    for metric, split, keyword, overlap in builder.baseline_report(rows, builder.overlap_score,
                                                                   builder.keyword_baseline):
        assert keyword < 0.9 and overlap < 0.9, (metric, split, keyword, overlap)
