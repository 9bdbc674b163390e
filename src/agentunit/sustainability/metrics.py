"""Sustainability metrics: energy, carbon and resource utilisation of the target call.

The engine measures a call with ``ResourceMeter`` whenever a case has one of these metrics (they
declare the ``resources`` input), and puts the figures on the outcome. A system that reports its
own figures (``trusys.energy_kwh``; ``trusys.resources`` with ``cpu_percent``, ``memory_gb``,
``gpu_percent``) is used when nothing was measured — for an HTTP target on another machine that
is the only real source. Cached replies and recorded outputs ran nothing: not measured.
"""

from __future__ import annotations

from typing import Any

from agentunit.metrics.base import Metric, MetricResult, keyword_config
from agentunit.metrics.registry import register

__all__ = ["CarbonMetric", "EnergyMetric", "ResourceUtilizationMetric"]

CAR_KG_CO2_PER_KM = 0.249  # US EPA: a typical passenger vehicle emits about 400 g CO2 per mile
TREE_KG_CO2_PER_YEAR = 21.0  # a mature tree absorbs roughly 21 kg CO2 a year


def usage_of(outcome) -> tuple[dict[str, Any] | None, str | None]:
    """The call's resource figures (measured, else reported) or the reason there are none."""
    if outcome.resources:
        return outcome.resources, None
    reported = outcome.metadata.get("resources") if isinstance(outcome.metadata.get("resources"), dict) else {}
    energy = outcome.metadata.get("energy_kwh", reported.get("energy_kwh"))
    if energy is not None or reported:
        data = dict(reported)
        if energy is not None:
            data["energy_kwh"] = float(energy)
            data["energy_j"] = float(energy) * 3.6e6
        data.update(energy_source="reported", scope="figures reported by the system under test")
        return data, None
    if outcome.cached:
        return None, "the reply came from the cache (nothing ran); use --no-cache"
    return None, ("no resource measurement for this call (a recorded output, a conversation played turn by "
                  "turn, or a metric scored outside a run)")


def _ratio_score(actual: float, target: float) -> float:
    """1 inside 50–120 % of the target, falling linearly to 0 at 0 % below and at 240 % above."""
    ratio = actual / target if target > 0 else 0.0
    if ratio < 0.5:
        return ratio / 0.5
    if ratio <= 1.2:
        return 1.0
    return max(0.0, 1.0 - (ratio - 1.2) / 1.2)


def _measurement_detail(usage: dict[str, Any]) -> dict[str, Any]:
    keys = ("energy_source", "scope", "cpu_s", "wall_s", "cpu_percent", "peak_rss_bytes", "cpu_tdp_watts",
            "logical_cpus", "gpu_energy_j", "gpu_utilization", "concurrent_calls")
    detail = {k: usage[k] for k in keys if k in usage}
    if usage.get("concurrent_calls", 1) > 1:
        detail["attribution"] = (f"shared: {usage['concurrent_calls']} calls were in flight, so process figures "
                                 "include their work; run with -j 1 for per-case figures")
    return detail


class _MeasuredMetric(Metric):
    def setup(self) -> None:
        self.sample_interval = float(self.config.get("sample_interval", 1.0))
        self.cpu_tdp_watts = self.config.get("cpu_tdp_watts")


@register("energy_consumption", family="sustainability", aliases=("energy", "energy-consumption"),
          needs=("resources",), example="{metric: energy_consumption, config: {threshold_kwh: 0.0001}}")
class EnergyMetric(_MeasuredMetric):
    """Energy the target call used; score 1.0 within ``threshold_kwh`` (0.1), else threshold / energy.

    Measured during the call (see ``agentunit.sustainability.meter``): RAPL counters where readable,
    else CPU seconds of the process tree × the per-core share of ``cpu_tdp_watts`` (85 W) plus
    memory × 0.375 W/GB × wall time; NVIDIA GPU energy from NVML is added when present. The detail
    gives ``energy_kwh``, ``energy_joules`` and ``energy_source`` so the figure's nature is clear.
    """

    def __init__(self, value: Any = None, *, threshold_kwh: float = 0.1, sample_interval: float = 1.0,
                 cpu_tdp_watts: float | None = None, **base: Any):
        named = {"threshold_kwh": threshold_kwh, "sample_interval": sample_interval, "cpu_tdp_watts": cpu_tdp_watts}
        super().__init__(value, config=keyword_config(named, base), **base)

    def evaluate(self, case, trace, outcome) -> MetricResult:
        usage, why = usage_of(outcome)
        if usage is None or usage.get("energy_kwh") is None:
            return self.not_measured(why or "the reported resources hold no energy figure")
        kwh, limit = float(usage["energy_kwh"]), float(self.config.get("threshold_kwh", 0.1))
        value = 1.0 if kwh <= limit else limit / kwh
        detail = {"energy_kwh": kwh, "energy_joules": kwh * 3.6e6, "threshold_kwh": limit,
                  "under_threshold": kwh <= limit, **_measurement_detail(usage)}
        return self.result(value, passed=kwh <= limit, detail=detail,
                           reason=f"{kwh * 3.6e6:.3g} J ({usage.get('energy_source')})")


@register("carbon_emissions", family="sustainability", aliases=("carbon", "carbon-emissions"),
          needs=("resources",), example="{metric: carbon_emissions, config: {grid_intensity: 0.233}}")
class CarbonMetric(_MeasuredMetric):
    """CO2-equivalent of the call's energy: energy (kWh) × ``grid_intensity`` (0.475 kg/kWh, world mean).

    Score 1.0 within ``threshold_kg`` (0.05), else threshold / emissions. Equivalents: km driven by
    an average car (0.249 kg/km, US EPA) and trees needed for a year to absorb it (21 kg/tree/year).
    """

    def __init__(self, value: Any = None, *, threshold_kg: float = 0.05, grid_intensity: float = 0.475,
                 sample_interval: float = 1.0, cpu_tdp_watts: float | None = None, **base: Any):
        named = {"threshold_kg": threshold_kg, "grid_intensity": grid_intensity, "sample_interval": sample_interval,
                 "cpu_tdp_watts": cpu_tdp_watts}
        super().__init__(value, config=keyword_config(named, base), **base)

    def evaluate(self, case, trace, outcome) -> MetricResult:
        usage, why = usage_of(outcome)
        if usage is None or usage.get("energy_kwh") is None:
            return self.not_measured(why or "the reported resources hold no energy figure")
        intensity = float(self.config.get("grid_intensity", 0.475))
        limit = float(self.config.get("threshold_kg", 0.05))
        kg = float(usage["energy_kwh"]) * intensity
        value = 1.0 if kg <= limit else limit / kg
        detail = {"carbon_kg": kg, "threshold_kg": limit, "under_threshold": kg <= limit,
                  "grid_intensity": intensity, "energy_kwh": usage["energy_kwh"],
                  "equivalents": {"km_driven": kg / CAR_KG_CO2_PER_KM, "trees_needed": kg / TREE_KG_CO2_PER_YEAR},
                  **_measurement_detail(usage)}
        return self.result(value, passed=kg <= limit, detail=detail, reason=f"{kg * 1000:.3g} g CO2e")


@register("resource_utilization", family="sustainability", aliases=("resource-utilization",),
          needs=("resources",), example="{metric: resource_utilization, config: {target_cpu_percent: 100}}")
class ResourceUtilizationMetric(_MeasuredMetric):
    """How well the call used CPU, memory and GPU against targets: mean of per-resource scores.

    Per resource, ratio = used / target: 1.0 inside the optimal band 50–120 % of the target, falling
    linearly to 0 at 0 % (under-use) and at 240 % (over-use). CPU is percent of one core over the
    call (``target_cpu_percent`` 80), memory the peak resident set in GB (``target_memory_gb`` 4),
    GPU the mean utilisation (``target_gpu_percent`` 80, only when a GPU was seen).
    """

    def __init__(self, value: Any = None, *, target_cpu_percent: float = 80.0, target_memory_gb: float = 4.0,
                 target_gpu_percent: float = 80.0, sample_interval: float = 1.0, **base: Any):
        named = {"target_cpu_percent": target_cpu_percent, "target_memory_gb": target_memory_gb,
                 "target_gpu_percent": target_gpu_percent, "sample_interval": sample_interval}
        super().__init__(value, config=keyword_config(named, base), **base)

    def evaluate(self, case, trace, outcome) -> MetricResult:
        usage, why = usage_of(outcome)
        if usage is None:
            return self.not_measured(why)
        c = self.config
        actual: dict[str, float] = {}
        if usage.get("cpu_percent") is not None:
            actual["cpu_percent"] = float(usage["cpu_percent"])
        if usage.get("peak_rss_bytes"):
            actual["memory_gb"] = usage["peak_rss_bytes"] / 1e9
        elif usage.get("memory_gb") is not None:
            actual["memory_gb"] = float(usage["memory_gb"])
        gpu = usage.get("gpu_utilization", usage.get("gpu_percent"))
        if gpu is not None:
            actual["gpu_percent"] = float(gpu)
        if not actual:
            return self.not_measured("the reported resources hold no CPU, memory or GPU figure")
        targets = {"cpu_percent": float(c.get("target_cpu_percent", 80.0)),
                   "memory_gb": float(c.get("target_memory_gb", 4.0)),
                   "gpu_percent": float(c.get("target_gpu_percent", 80.0))}
        scores = {k: _ratio_score(v, targets[k]) for k, v in actual.items()}
        value = sum(scores.values()) / len(scores)
        detail = {"used": actual, "targets": {k: targets[k] for k in actual}, "scores": scores,
                  **_measurement_detail(usage)}
        return self.result(value, detail=detail,
                           reason=", ".join(f"{k} {v:.3g} ({scores[k]:.2f})" for k, v in actual.items()))
