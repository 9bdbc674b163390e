from pathlib import Path

from agentunit.metrics.docs import render_reference

DOCS = Path(__file__).resolve().parent.parent / "docs"


def test_metric_reference_is_up_to_date():
    assert (DOCS / "metrics.md").read_text() == render_reference(), \
        "docs/metrics.md is stale: run `agentunit metrics --markdown > docs/metrics.md`"


def test_every_builtin_metric_is_documented():
    from agentunit.metrics.registry import all_metrics

    text = (DOCS / "metrics.md").read_text()
    for info in all_metrics():
        if info.cls.__module__.startswith("agentunit."):
            assert f"### `{info.name}`" in text
