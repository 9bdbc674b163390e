"""Judge-backed test metrics whose P(pass) is written in the output (``[p=0.7]``), so the calibration
logic is checked without any model: ``scored`` (higher passes) and ``scored-risk`` (lower passes)."""

from __future__ import annotations

import re

from agentunit.core.engine import RunOptions
from agentunit.metrics.base import Metric
from agentunit.metrics.registry import register_metric
from agentunit.store.sqlite import Store

_P = re.compile(r"\[p=([0-9.]+)\]")


class Scored(Metric):
    """P(pass) from the output's ``[p=…]``; ``boom`` raises; no marker → not measured."""

    def evaluate(self, case, trace, outcome):
        text = outcome.output or ""
        if "boom" in text:
            raise RuntimeError("the judge exploded")
        found = _P.search(text)
        if found is None:
            return self.not_measured("no [p=…] in the output")
        return self.result(float(found.group(1)), reason=f"read p = {found.group(1)}")


class ScoredRisk(Scored):
    """The same P(pass) stored as a risk (1 − p): lower passes, like hallucination."""

    def evaluate(self, case, trace, outcome):
        result = super().evaluate(case, trace, outcome)
        if result.value is not None:
            result = self.result(1.0 - result.value, reason=result.reason)
        return result


register_metric("scored", Scored, model="judge", threshold=0.5)
register_metric("scored-risk", ScoredRisk, model="judge", threshold=0.5, direction="lower")


def run_calibration(suite, rows=(), metrics=(), store=None, **kwargs):
    from agentunit.calibration import calibrate, select_labelled

    suite.validate(require_target=True)
    labelled = select_labelled(suite, rows, metrics)
    return calibrate(suite, store or Store(":memory:"), RunOptions(concurrency=2), labelled, **kwargs)
