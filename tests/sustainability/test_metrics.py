"""Sustainability figures move with real work and say where they come from."""

import time

import pytest

from agentunit.api import evaluate
from agentunit.core.outcome import Outcome
from agentunit.core.trace import TraceLog
from agentunit.datasets.base import DatasetCase
from agentunit.metrics.base import score
from agentunit.sustainability import CarbonMetric, EnergyMetric, ResourceMeter, ResourceUtilizationMetric
from agentunit.sustainability.metrics import _ratio_score


def busy(prompt: str) -> str:
    end = time.process_time() + 0.4
    total = 0
    while time.process_time() < end:
        total += sum(i * i for i in range(2000))
    return f"busy {total > 0}"


def idle(prompt: str) -> str:
    time.sleep(0.4)
    return "idle"


def _metric_results(target):
    run = evaluate(cases=[{"id": "one", "query": "go"}], target=target, concurrency=1, cache=False,
                   metrics=["energy_consumption", "carbon_emissions", "resource_utilization"])
    return {m["metric"]: m for m in run.cases[0]["metrics"]}


def test_cpu_heavy_target_reports_more_energy_than_an_idle_one():
    heavy, light = _metric_results(busy), _metric_results(idle)
    heavy_energy, light_energy = heavy["energy_consumption"]["detail"], light["energy_consumption"]["detail"]
    assert heavy_energy["cpu_s"] >= 0.35 and light_energy["cpu_s"] < 0.1
    assert heavy_energy["energy_joules"] > 4 * light_energy["energy_joules"]
    assert heavy_energy["energy_source"] in ("rapl", "cpu-time-model", "rapl+nvml", "cpu-time-model+nvml")
    assert heavy["carbon_emissions"]["detail"]["carbon_kg"] > light["carbon_emissions"]["detail"]["carbon_kg"]
    # The busy target's share of one CPU over its wall time: near 100 on an idle machine, as low as the machine's
    # load makes it (a tenth, on two cores shared by twenty busy processes): the CPU time over the wall time.
    cpu = heavy["resource_utilization"]["detail"]["used"]["cpu_percent"]
    assert cpu == pytest.approx(100 * heavy_energy["cpu_s"] / heavy_energy["wall_s"], rel=0.01) and cpu > 0


def test_carbon_is_energy_times_grid_intensity_with_equivalents():
    outcome = Outcome(output="x", resources={"energy_kwh": 0.1, "energy_source": "cpu-time-model"})
    result = score(CarbonMetric(grid_intensity=0.5, threshold_kg=0.01), DatasetCase(id="c"), TraceLog(), outcome)
    assert result.detail["carbon_kg"] == pytest.approx(0.05)
    assert result.value == pytest.approx(0.01 / 0.05) and result.passed is False
    assert result.detail["equivalents"]["km_driven"] == pytest.approx(0.05 / 0.249)


def test_reported_figures_are_used_and_labelled():
    outcome = Outcome(output="x", metadata={"energy_kwh": 0.002, "resources": {"cpu_percent": 40, "memory_gb": 2}})
    energy = score(EnergyMetric(threshold_kwh=0.001), DatasetCase(id="c"), TraceLog(), outcome)
    assert energy.detail["energy_source"] == "reported" and energy.value == pytest.approx(0.5)
    usage = score(ResourceUtilizationMetric(), DatasetCase(id="c"), TraceLog(), outcome)
    assert usage.detail["scores"] == {"cpu_percent": 1.0, "memory_gb": 1.0}


def test_cached_or_recorded_outputs_are_not_measured():
    for outcome in (Outcome(output="x", cached=True), Outcome(output="x")):
        result = score(EnergyMetric(), DatasetCase(id="c"), TraceLog(), outcome)
        assert result.value is None and result.reason.startswith("not measured")


def test_ratio_score_band():
    assert _ratio_score(40, 80) == 1.0 and _ratio_score(96, 80) == 1.0
    assert _ratio_score(20, 80) == pytest.approx(0.5)
    assert _ratio_score(192, 80) == pytest.approx(0.0)


def test_meter_counts_child_processes():
    import subprocess
    import sys

    meter = ResourceMeter(sample_interval=0.05).start()
    spin = "import time\nend = time.process_time() + 0.3\nwhile time.process_time() < end: pass"
    subprocess.run([sys.executable, "-c", spin], check=True)
    usage = meter.stop()
    assert usage.cpu_s >= 0.25 and usage.energy_j > 0


class _FakeNvml:
    """Stands in for pynvml: one GPU whose energy counter rises 5 J per reading, 50 % busy."""

    def __init__(self):
        self.energy_mj = 0

    def nvmlInit(self):
        pass

    def nvmlDeviceGetCount(self):
        return 1

    def nvmlDeviceGetHandleByIndex(self, index):
        return index

    def nvmlDeviceGetTotalEnergyConsumption(self, handle):
        self.energy_mj += 5000
        return self.energy_mj

    def nvmlDeviceGetUtilizationRates(self, handle):
        return type("Rates", (), {"gpu": 50})()


def test_gpu_energy_and_utilisation_come_from_nvml_when_present(monkeypatch):
    import sys

    from agentunit.sustainability import meter as meter_module

    monkeypatch.setitem(sys.modules, "pynvml", _FakeNvml())
    monkeypatch.setattr(meter_module, "_nvml", None)
    usage = ResourceMeter(sample_interval=0.01).start()
    time.sleep(0.05)
    usage = usage.stop()
    monkeypatch.setattr(meter_module, "_nvml", None)  # the next meter looks for a real GPU again
    assert usage.energy_source.endswith("+nvml") and usage.gpu_energy_j == pytest.approx(5.0)
    assert usage.gpu_utilization == 50
    result = score(ResourceUtilizationMetric(target_gpu_percent=50), DatasetCase(id="c"), TraceLog(),
                   Outcome(output="x", resources=usage.to_dict()))
    assert result.detail["scores"]["gpu_percent"] == 1.0


def _remote(**metadata):
    from agentunit.sustainability import REMOTE_SCOPE

    client = {"energy_kwh": 3e-6, "energy_j": 10.8, "energy_source": "cpu-time-model", "scope": REMOTE_SCOPE,
              "cpu_percent": 5.0, "peak_rss_bytes": 60_000_000}
    return Outcome(output="x", resources=client, metadata=metadata)


def _score(metric, outcome):
    return score(metric, DatasetCase(id="c"), TraceLog(), outcome)


def test_a_remote_servers_reported_figures_win_over_our_client_measurement():
    energy = _score(EnergyMetric(threshold_kwh=0.1), _remote(energy_kwh=5.0))
    assert energy.detail["energy_kwh"] == 5.0 and energy.passed is False
    assert energy.detail["energy_source"] == "reported"
    usage = _score(ResourceUtilizationMetric(), _remote(resources={"cpu_percent": 64, "memory_gb": 3}))
    assert usage.detail["used"] == {"cpu_percent": 64.0, "memory_gb": 3.0}
    no_energy = _score(EnergyMetric(), _remote(resources={"cpu_percent": 64}))
    assert no_energy.value is None and "no energy figure" in no_energy.reason


def test_a_remote_call_without_reported_figures_is_not_measured_unless_client_side():
    for metric in (EnergyMetric(), CarbonMetric(), ResourceUtilizationMetric()):
        result = _score(metric, _remote())
        assert result.value is None and "client_side: true" in result.reason
    client = _score(EnergyMetric(client_side=True), _remote())
    assert client.detail["energy_kwh"] == 3e-6 and "client side only" in client.reason
    assert client.detail["scope"].startswith("agentunit's own process only")


def test_an_in_tree_measurement_wins_over_what_the_target_reports():
    measured = {"energy_kwh": 1e-5, "energy_source": "cpu-time-model", "scope": "agentunit process tree"}
    outcome = Outcome(output="x", metadata={"energy_kwh": 5.0}, resources=measured)
    assert _score(EnergyMetric(), outcome).detail["energy_kwh"] == 1e-5


@pytest.mark.parametrize(("metadata", "field"), [
    ({"energy_kwh": "lots"}, "trusys.energy_kwh"), ({"energy_kwh": -1}, "trusys.energy_kwh"),
    ({"energy_kwh": float("nan")}, "trusys.energy_kwh"), ({"energy_kwh": True}, "trusys.energy_kwh"),
    ({"resources": {"cpu_percent": "high"}}, "trusys.resources.cpu_percent"), ({"resources": [1]}, "trusys.resources"),
])
def test_a_malformed_reported_figure_is_an_error_naming_the_field(metadata, field):
    result = _score(EnergyMetric(), _remote(**metadata))
    assert result.status == "error" and field in result.error
