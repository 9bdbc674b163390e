"""`agentunit metrics` and `agentunit models` (issue 58): the list shows each metric's first full sentence,
markup taken out, wrapped to the terminal; `agentunit metrics NAME` shows one metric in full; bare
`agentunit models` lists the models as `models list` does."""

from __future__ import annotations

import json
import re

from click.testing import CliRunner

from agentunit.cli import app


def _run(*args: str, columns: int = 80):
    return CliRunner(env={"COLUMNS": str(columns)}).invoke(app, list(args))


def test_the_list_shows_whole_first_sentences_without_markup_wrapped_to_the_terminal():
    done = _run("metrics", columns=72)
    assert done.exit_code == 0, done.output
    assert not re.search(r"(?<!`)``(?!`)", done.stdout)  # no ``value`` markup (a ```sql fence is content)
    lines = done.stdout.splitlines()
    descriptions = [line for line in lines if line.startswith("    ")]
    assert descriptions and all(len(line) <= 72 for line in descriptions)
    text = done.stdout
    # a sentence the old list cut at its first line, whole, over two lines
    assert "    Does the final answer give the user what they were after (the goal\n" \
           "    behind the request), judged over the whole run?\n" in text
    # markup gone: ``tool_call`` → tool_call
    assert "    Share of tool calls that succeeded: successful tool_call events /\n    all tool_call events.\n" in text
    # the first sentence only: what follows it is for `agentunit metrics NAME`
    plan = text.split("\nplan-quality ", 1)[1].split("\n", 2)[1]
    assert plan == "    Is the plan a sound, complete and efficient way to do the request?"


def test_one_metric_in_full():
    done = _run("metrics", "tool-correctness", columns=100)
    assert done.exit_code == 0, done.output
    text = done.stdout
    assert text.startswith("tool-correctness\n  Did the agent call the expected tools (by name, then arguments)?\n")
    for fact in ("aliases    —", "family     agentic", "inputs     output", "value      optional",
                 "threshold  1", "direction  higher is better", "kind       score (0..1)", "model      —"):
        assert f"\n  {fact}\n" in text, fact
    algorithm = text.split("How it works\n", 1)[1].split("\nExample\n", 1)[0]
    assert "config.mode: any (default, any order;" in " ".join(algorithm.split())  # the whole docstring
    assert "No expected tools given → not measured." in " ".join(algorithm.split()) and "``" not in text
    assert "\nExample\n  metrics: [{metric: tool-correctness, value: [search," in text
    assert all(len(line) <= 100 for line in text.splitlines() if not line.startswith("  metrics: ["))


def test_a_metric_by_alias_or_negated_and_as_json():
    alias = _run("metrics", "tool-success-metric")
    assert alias.exit_code == 0 and alias.stdout.startswith("tool_success\n")
    assert "\n  aliases    tool-success-metric\n" in alias.stdout
    negated = _run("metrics", "not-contains")
    assert negated.exit_code == 0 and negated.stdout.startswith("not-contains: contains, inverted\n")
    assert "the verdict flips" in negated.stdout
    judged = _run("metrics", "llm-rubric")
    assert "\n  agreement  0." in judged.stdout and "held-out" in judged.stdout
    row = json.loads(_run("metrics", "contains", "--json").stdout)
    assert row["name"] == "contains" and row["doc"].startswith("Pass when") and "Paris" in row["example"]
    assert _run("metrics", "contains", "--markdown").stdout.startswith("### `contains`")


def test_an_unknown_metric_is_a_usage_error_that_suggests_names():
    done = _run("metrics", "contians")
    assert done.exit_code == 2 and "unknown metric 'contians'" in done.stderr and "'contains'" in done.stderr
    both = _run("metrics", "contains", "--family", "text")
    assert both.exit_code == 2 and "not both" in both.stderr


def test_bare_models_lists_the_models_as_models_list_does():
    bare, listed = _run("models"), _run("models", "list")
    assert bare.exit_code == 0, bare.output
    assert bare.stdout == listed.stdout and "judge" in bare.stdout and "embeddings" in bare.stdout
