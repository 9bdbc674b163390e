"""Measures the resources a target call uses: CPU time and memory of the process tree, energy, GPU.

Sources, best first, and named in every measurement so a reader knows what the figure means:

- ``rapl``: Intel/AMD RAPL package energy counters (``/sys/class/powercap/*/energy_uj``) when
  readable — machine-wide energy while the call ran.
- ``cpu-time-model``: CPU seconds of the process tree × the per-core share of the CPU's TDP
  (``cpu_tdp_watts``, default 85 W for the socket, CodeCarbon's fallback) + resident memory ×
  0.375 W/GB × wall time.
- ``nvml``: GPU energy (``nvmlDeviceGetTotalEnergyConsumption``) and utilisation when an NVIDIA
  GPU and ``nvidia-ml-py`` are present.
- ``reported``: figures the system under test reports itself in its reply (``trusys.energy_kwh``,
  ``trusys.resources``) — the only meaningful source for a remote HTTP target.

The process tree is agentunit and its children (Python and command targets run there); an HTTP
server elsewhere is not in it, and the measurement's scope says so (``REMOTE_SCOPE``). With
concurrent cases the process-wide figures include the other calls' work; ``concurrent_calls``
records how many were in flight.
"""

from __future__ import annotations

import os
import threading
import time
from dataclasses import asdict, dataclass, field
from typing import Any

DEFAULT_CPU_TDP_WATTS = 85.0
# The scope of a measurement whose call was answered by a server outside agentunit's process tree
# (http and openai targets): the figures are then the client's, not the call's.
REMOTE_SCOPE = "agentunit process tree (the HTTP server answering the call is not in it)"
MEMORY_WATTS_PER_GB = 0.375
_RAPL_GLOB = "/sys/class/powercap/intel-rapl:*/energy_uj"


@dataclass
class ResourceUsage:
    """What one target call used.

    Args:
        wall_s: elapsed seconds.
        cpu_s: CPU seconds (user + system) of the process tree, exited children included.
        peak_rss_bytes: largest resident memory of the process tree seen while sampling.
        energy_j: energy in joules from ``energy_source``.
        energy_source: ``rapl``, ``cpu-time-model`` or ``reported`` (``+nvml`` when a GPU was added).
        gpu_utilization: mean GPU utilisation percent sampled during the call (None: no GPU).
        gpu_energy_j: GPU energy in joules (None: no GPU).
        scope: what was measured, in words.
        concurrent_calls: most target calls in flight at once during this one.
    """

    wall_s: float
    cpu_s: float
    peak_rss_bytes: int
    energy_j: float
    energy_source: str
    cpu_tdp_watts: float = DEFAULT_CPU_TDP_WATTS
    logical_cpus: int = 1
    gpu_utilization: float | None = None
    gpu_energy_j: float | None = None
    scope: str = "agentunit process tree"
    concurrent_calls: int = 1
    samples: int = 0
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def energy_kwh(self) -> float:
        return self.energy_j / 3.6e6

    @property
    def cpu_percent(self) -> float:
        """CPU use as percent of one core (200 = two cores busy)."""
        return 100.0 * self.cpu_s / self.wall_s if self.wall_s > 0 else 0.0

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data.update(energy_kwh=self.energy_kwh, cpu_percent=self.cpu_percent)
        return data


def measured_elsewhere(resources: dict[str, Any]) -> bool:
    """Whether a measurement (``ResourceUsage.to_dict()``) says the call's work ran outside it."""
    return resources.get("scope") == REMOTE_SCOPE


def _rapl_files() -> list[str]:
    import glob  # here: a run without a sustainability metric never reads RAPL

    files = []
    for path in sorted(glob.glob(_RAPL_GLOB)):
        try:
            with open(path) as fh:
                int(fh.read())
            files.append(path)
        except (OSError, ValueError):
            continue
    return files


def _read_rapl(files: list[str]) -> int:
    total = 0
    for path in files:
        with open(path) as fh:
            total += int(fh.read())
    return total


class _Nvml:
    """NVML handles, or nothing when there is no NVIDIA GPU or library."""

    def __init__(self) -> None:
        self.handles: list[Any] = []
        try:
            import pynvml

            pynvml.nvmlInit()
            self.lib = pynvml
            self.handles = [pynvml.nvmlDeviceGetHandleByIndex(i) for i in range(pynvml.nvmlDeviceGetCount())]
        except Exception:  # no library, no driver or no device: GPU figures are simply absent
            self.handles = []

    def energy_mj(self) -> int | None:
        try:
            return sum(self.lib.nvmlDeviceGetTotalEnergyConsumption(h) for h in self.handles)
        except Exception:
            return None

    def utilization(self) -> float | None:
        try:
            return sum(self.lib.nvmlDeviceGetUtilizationRates(h).gpu for h in self.handles) / len(self.handles)
        except Exception:
            return None


_nvml: _Nvml | None = None
_rapl: list[str] | None = None


def _tree_cpu_and_rss() -> tuple[float, int]:
    import psutil

    me = psutil.Process()
    cpu, rss = 0.0, 0
    for proc in [me, *me.children(recursive=True)]:
        try:
            times = proc.cpu_times()
            cpu += times.user + times.system
            if proc is not me:  # a live child's own children that exited are in its children_* times
                cpu += times.children_user + times.children_system
            rss += proc.memory_info().rss
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
    return cpu, rss


def _exited_children_cpu() -> float:
    import resource

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


class ResourceMeter:
    """Start before a call, ``stop()`` after; a sampler thread records peak memory and GPU use.

    Args:
        sample_interval: seconds between samples (memory peak, GPU utilisation).
        cpu_tdp_watts: the CPU socket's TDP for the CPU-time model.
        in_flight: a callable giving the number of calls in flight now (for ``concurrent_calls``).
    """

    def __init__(self, sample_interval: float = 0.1, cpu_tdp_watts: float = DEFAULT_CPU_TDP_WATTS,
                 in_flight: Any = None):
        global _nvml, _rapl
        if _rapl is None:
            _rapl = _rapl_files()
        if _nvml is None:
            _nvml = _Nvml()
        self.sample_interval = max(0.01, sample_interval)
        self.cpu_tdp_watts = cpu_tdp_watts
        self.in_flight = in_flight
        self._stop = threading.Event()
        self._peak_rss = 0
        self._gpu: list[float] = []
        self._samples = 0
        self._concurrent = 1

    def _sample(self) -> float:
        """Record memory (and GPU use, concurrency); return the tree's CPU seconds read on the way."""
        cpu, rss = _tree_cpu_and_rss()
        self._peak_rss = max(self._peak_rss, rss)
        if _nvml.handles:
            util = _nvml.utilization()
            if util is not None:
                self._gpu.append(util)
        if self.in_flight is not None:
            self._concurrent = max(self._concurrent, int(self.in_flight()))
        self._samples += 1
        return cpu

    def _run(self) -> None:
        while not self._stop.wait(self.sample_interval):
            self._sample()

    def start(self) -> ResourceMeter:
        self._cpu0 = self._sample() + _exited_children_cpu()
        self._rapl0 = _read_rapl(_rapl) if _rapl else None
        self._gpu0 = _nvml.energy_mj() if _nvml.handles else None
        self._thread = threading.Thread(target=self._run, daemon=True, name="agentunit-meter")
        self._t0 = time.perf_counter()
        self._thread.start()
        return self

    def stop(self) -> ResourceUsage:
        wall = time.perf_counter() - self._t0
        self._stop.set()
        self._thread.join()
        cpu = max(0.0, self._sample() + _exited_children_cpu() - self._cpu0)
        cpus = os.cpu_count() or 1
        if self._rapl0 is not None:
            delta = _read_rapl(_rapl) - self._rapl0
            energy, source = max(0, delta) / 1e6, "rapl"
        else:
            energy = cpu * self.cpu_tdp_watts / cpus + self._peak_rss / 1e9 * MEMORY_WATTS_PER_GB * wall
            source = "cpu-time-model"
        gpu_energy = None
        if self._gpu0 is not None:
            now = _nvml.energy_mj()
            if now is not None:
                gpu_energy = max(0, now - self._gpu0) / 1000.0
                energy += gpu_energy
                source += "+nvml"
        return ResourceUsage(
            wall_s=wall, cpu_s=cpu, peak_rss_bytes=self._peak_rss, energy_j=energy, energy_source=source,
            cpu_tdp_watts=self.cpu_tdp_watts, logical_cpus=cpus,
            gpu_utilization=sum(self._gpu) / len(self._gpu) if self._gpu else None, gpu_energy_j=gpu_energy,
            concurrent_calls=self._concurrent, samples=self._samples,
        )


def measure_call(function: Any, *args: Any, **kwargs: Any) -> tuple[Any, ResourceUsage]:
    """Run ``function(*args, **kwargs)`` under a meter; returns (result, usage)."""
    meter = ResourceMeter().start()
    try:
        result = function(*args, **kwargs)
    finally:
        usage = meter.stop()
    return result, usage
