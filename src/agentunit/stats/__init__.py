"""Statistics for runs and comparisons: one module used by the console, the reports, the viewer
and ``agentunit compare`` (docs/statistics.md gives every formula).

- intervals: ``wilson_interval`` (a pass rate), ``bootstrap_mean_interval`` (a mean score);
- paired tests: ``mcnemar_exact`` (verdicts), ``wilcoxon_signed_rank``/``wilcoxon_p`` (scores,
  used by ``compare`` by default), ``paired_bootstrap_p`` (scores, ``--score-test bootstrap``);
- agreement: ``krippendorff_alpha`` (across repeats), ``flaky_cases``/``flakiness``;
- one run: ``metric_summary``, ``repeat_statistics``; two runs: ``compare_runs``, ``resolve_run``.
"""

from agentunit._lazy import lazy_exports

_EXPORTS = {
    "SCORE_TESTS": "compare",
    "UnknownRunError": "agentunit.store.sqlite",
    "WilcoxonResult": "paired",
    "bootstrap_mean_interval": "intervals",
    "compare_runs": "compare",
    "flakiness": "agreement",
    "flaky_cases": "agreement",
    "krippendorff_alpha": "agreement",
    "mcnemar_exact": "paired",
    "metric_rows": "summary",
    "metric_summary": "summary",
    "paired_bootstrap_p": "paired",
    "recent_runs_of": "compare",
    "render_comparison": "render",
    "repeat_statistics": "summary",
    "resolve_run": "compare",
    "wilcoxon_p": "paired",
    "wilcoxon_signed_rank": "paired",
    "wilson_interval": "intervals",
    "z_value": "intervals",
}

__all__ = sorted(_EXPORTS)
__getattr__, __dir__ = lazy_exports(globals(), _EXPORTS)
