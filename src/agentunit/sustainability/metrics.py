"""Sustainability metrics: energy, carbon and resource utilisation of the target call.

The engine measures a call with ``ResourceMeter`` whenever a case has one of these metrics (they
declare the ``resources`` input), and puts the figures on the outcome. Which figures a metric uses:

- a call that ran in agentunit's process tree (Python and command targets): the measurement;
- a call answered by a server elsewhere (http, openai: the measurement's scope says the server is
  not in it): the figures the system reports itself (``trusys.energy_kwh``; ``trusys.resources``
  with ``cpu_percent``, ``memory_gb``, ``gpu_percent``, ``energy_kwh``). Without them the call is
  not measured — our client's figures are not the call's — unless ``client_side: true`` asks for
  the client's own figures, labelled so;
- no measurement (a recorded output): the reported figures, else not measured.

Cached replies ran nothing: not measured. A reported figure that is not a number ≥ 0 is an error.
"""

from __future__ import annotations

import math
from typing import Any

from agentunit.metrics.base import Metric, MetricResult, keyword_config
from agentunit.metrics.registry import register
from agentunit.sustainability.meter import measured_elsewhere

__all__ = ["CarbonMetric", "EnergyMetric", "ResourceUtilizationMetric"]

CAR_KG_CO2_PER_KM = 0.249  # US EPA: a typical passenger vehicle emits about 400 g CO2 per mile
TREE_KG_CO2_PER_YEAR = 21.0  # a mature tree absorbs roughly 21 kg CO2 a year
_REPORTED_KEYS = ("energy_kwh", "cpu_percent", "memory_gb", "gpu_percent")
CLIENT_SIDE_SCOPE = "agentunit's own process only (client_side: true): the server's work is not included"


def _figure(value: Any, field: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) or value < 0:
        raise ValueError(f"{field} must be a finite number ≥ 0, got {value!r}")
    return float(value)


def reported_usage(outcome) -> dict[str, Any] | None:
    """The figures the system under test reported in its reply, validated, or None when it reported none.

    Raises ValueError naming the field when a reported figure is not a finite number ≥ 0.
    """
    resources = outcome.metadata.get("resources")
    if resources is not None and not isinstance(resources, dict):
        raise ValueError(f"trusys.resources must be an object, got {type(resources).__name__}")
    resources = resources or {}
    data = {k: _figure(resources[k], f"trusys.resources.{k}") for k in _REPORTED_KEYS if resources.get(k) is not None}
    if outcome.metadata.get("energy_kwh") is not None:
        data["energy_kwh"] = _figure(outcome.metadata["energy_kwh"], "trusys.energy_kwh")
    if not data:
        return None
    if "energy_kwh" in data:
        data["energy_j"] = data["energy_kwh"] * 3.6e6
    data.update(energy_source="reported", scope="figures reported by the system under test")
    return data


def usage_of(outcome, client_side: bool = False) -> tuple[dict[str, Any] | None, str | None]:
    """The call's resource figures and None, or None and the reason there are none (see the module doc)."""
    measured = outcome.resources
    if measured and not measured_elsewhere(measured):
        return measured, None
    reported = reported_usage(outcome)
    if reported is not None:
        return reported, None
    if measured and client_side:
        return {**measured, "scope": CLIENT_SIDE_SCOPE}, None
    if measured:
        return None, ("the call ran on the server, outside the measured process tree, and the reply reported no "
                      "trusys.energy_kwh or trusys.resources; set config client_side: true to score agentunit's "
                      "own process instead")
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


def _source(usage: dict[str, Any]) -> str:
    """The energy source for a reason line, flagged when only the client was measured."""
    source = str(usage.get("energy_source"))
    return f"{source}, client side only" if usage.get("scope") == CLIENT_SIDE_SCOPE else source


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
        self.client_side = bool(self.config.get("client_side", False))

    def usage(self, outcome) -> tuple[dict[str, Any] | None, str | None]:
        return usage_of(outcome, self.client_side)


@register("energy_consumption", family="sustainability", aliases=("energy", "energy-consumption"),
          needs=("resources",), example="{metric: energy_consumption, config: {threshold_kwh: 0.0001}}")
class EnergyMetric(_MeasuredMetric):
    """Energy the target call used; score 1.0 within ``threshold_kwh`` (0.1), else threshold / energy.

    Measured during the call (see ``agentunit.sustainability.meter``): RAPL counters where readable,
    else CPU seconds of the process tree × the per-core share of ``cpu_tdp_watts`` (85 W) plus
    memory × 0.375 W/GB × wall time; NVIDIA GPU energy from NVML is added when present. A call
    answered by a server elsewhere (http, openai targets) is scored on the energy the server reports
    (``trusys.energy_kwh``); without one it is not measured, unless ``client_side: true`` asks for
    agentunit's own figures. The detail gives ``energy_kwh``, ``energy_joules``, ``energy_source``
    and ``scope`` so the figure's nature is clear.
    """

    def __init__(self, value: Any = None, *, threshold_kwh: float = 0.1, sample_interval: float = 1.0,
                 cpu_tdp_watts: float | None = None, client_side: bool = False, **base: Any):
        named = {"threshold_kwh": threshold_kwh, "sample_interval": sample_interval, "cpu_tdp_watts": cpu_tdp_watts,
                 "client_side": client_side}
        super().__init__(value, config=keyword_config(named, base), **base)

    def evaluate(self, case, trace, outcome) -> MetricResult:
        usage, why = self.usage(outcome)
        if usage is None or usage.get("energy_kwh") is None:
            return self.not_measured(why or "the reported resources hold no energy figure")
        kwh, limit = float(usage["energy_kwh"]), float(self.config.get("threshold_kwh", 0.1))
        value = 1.0 if kwh <= limit else limit / kwh
        detail = {"energy_kwh": kwh, "energy_joules": kwh * 3.6e6, "threshold_kwh": limit,
                  "under_threshold": kwh <= limit, **_measurement_detail(usage)}
        return self.result(value, passed=kwh <= limit, detail=detail,
                           reason=f"{kwh * 3.6e6:.3g} J ({_source(usage)})")


@register("carbon_emissions", family="sustainability", aliases=("carbon", "carbon-emissions"),
          needs=("resources",), example="{metric: carbon_emissions, config: {grid_intensity: 0.233}}")
class CarbonMetric(_MeasuredMetric):
    """CO2-equivalent of the call's energy: energy (kWh) × ``grid_intensity`` (0.475 kg/kWh, world mean).

    Score 1.0 within ``threshold_kg`` (0.05), else threshold / emissions. Equivalents: km driven by
    an average car (0.249 kg/km, US EPA) and trees needed for a year to absorb it (21 kg/tree/year).
    The energy comes from where ``energy_consumption`` takes it (a remote server's report, ``client_side``).
    """

    def __init__(self, value: Any = None, *, threshold_kg: float = 0.05, grid_intensity: float = 0.475,
                 sample_interval: float = 1.0, cpu_tdp_watts: float | None = None, client_side: bool = False,
                 **base: Any):
        named = {"threshold_kg": threshold_kg, "grid_intensity": grid_intensity, "sample_interval": sample_interval,
                 "cpu_tdp_watts": cpu_tdp_watts, "client_side": client_side}
        super().__init__(value, config=keyword_config(named, base), **base)

    def evaluate(self, case, trace, outcome) -> MetricResult:
        usage, why = self.usage(outcome)
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
        return self.result(value, passed=kg <= limit, detail=detail,
                           reason=f"{kg * 1000:.3g} g CO2e ({_source(usage)})")


@register("resource_utilization", family="sustainability", aliases=("resource-utilization",),
          needs=("resources",), example="{metric: resource_utilization, config: {target_cpu_percent: 100}}")
class ResourceUtilizationMetric(_MeasuredMetric):
    """How well the call used CPU, memory and GPU against targets: mean of per-resource scores.

    Per resource, ratio = used / target: 1.0 inside the optimal band 50–120 % of the target, falling
    linearly to 0 at 0 % (under-use) and at 240 % (over-use). CPU is percent of one core over the
    call (``target_cpu_percent`` 80), memory the peak resident set in GB (``target_memory_gb`` 4),
    GPU the mean utilisation (``target_gpu_percent`` 80, only when a GPU was seen). For a remote
    server, the figures it reports (``trusys.resources``); none → not measured unless ``client_side``.
    """

    def __init__(self, value: Any = None, *, target_cpu_percent: float = 80.0, target_memory_gb: float = 4.0,
                 target_gpu_percent: float = 80.0, sample_interval: float = 1.0, client_side: bool = False,
                 **base: Any):
        named = {"target_cpu_percent": target_cpu_percent, "target_memory_gb": target_memory_gb,
                 "target_gpu_percent": target_gpu_percent, "sample_interval": sample_interval,
                 "client_side": client_side}
        super().__init__(value, config=keyword_config(named, base), **base)

    def evaluate(self, case, trace, outcome) -> MetricResult:
        usage, why = self.usage(outcome)
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
        reason = ", ".join(f"{k} {v:.3g} ({scores[k]:.2f})" for k, v in actual.items())
        return self.result(value, detail=detail, reason=f"{reason} ({_source(usage)})")
