"""Statistics for runs and comparisons: one module used by the console, the reports, the viewer
and ``agentunit compare`` (docs/statistics.md gives every formula).

- intervals: ``wilson_interval`` (a pass rate), ``bootstrap_mean_interval`` (a mean score);
- paired tests: ``mcnemar_exact`` (verdicts), ``wilcoxon_signed_rank``/``wilcoxon_p`` (scores,
  used by ``compare`` by default), ``paired_bootstrap_p`` (scores, ``--score-test bootstrap``);
- agreement: ``krippendorff_alpha`` (across repeats), ``flaky_cases``/``flakiness``;
- one run: ``metric_summary``, ``repeat_statistics``; two runs: ``compare_runs``, ``resolve_run``.
"""

from agentunit.stats.agreement import flakiness, flaky_cases, krippendorff_alpha
from agentunit.stats.compare import SCORE_TESTS, compare_runs, recent_runs_of, resolve_run
from agentunit.stats.intervals import bootstrap_mean_interval, wilson_interval, z_value
from agentunit.stats.paired import (
    WilcoxonResult,
    mcnemar_exact,
    paired_bootstrap_p,
    wilcoxon_p,
    wilcoxon_signed_rank,
)
from agentunit.stats.render import render_comparison
from agentunit.stats.summary import metric_rows, metric_summary, repeat_statistics
from agentunit.store.sqlite import UnknownRunError

__all__ = [
    "SCORE_TESTS", "UnknownRunError", "WilcoxonResult", "bootstrap_mean_interval", "compare_runs", "flakiness",
    "flaky_cases", "krippendorff_alpha", "mcnemar_exact", "metric_rows", "metric_summary", "paired_bootstrap_p",
    "recent_runs_of", "render_comparison", "repeat_statistics", "resolve_run", "wilcoxon_p", "wilcoxon_signed_rank",
    "wilson_interval", "z_value",
]
