"""Bench: the sustainability metrics on targets doing different amounts of real work.

Runs four Python targets through the engine with -j 1 — idle (sleeps), light, CPU-bound, and one that
starts a CPU-bound child process — and prints what energy_consumption, carbon_emissions and
resource_utilization report, with the energy source. Where PyTorch sees a CUDA GPU and nvidia-ml-py is
installed, a fifth target keeps the GPU busy with matrix products, and its GPU energy is checked against
an independent reading: the board power (``nvmlDeviceGetPowerUsage``) sampled every 20 ms by this script
and integrated over the call. Usage: python bench/sustainability.py [SECONDS]
"""

from __future__ import annotations

import subprocess
import sys
import time

from agentunit.api import evaluate

SECONDS = float(sys.argv[1]) if len(sys.argv) > 1 else 0.5


def idle(prompt: str) -> str:
    time.sleep(SECONDS)
    return "idle"


def _spin(seconds: float) -> None:
    end = time.process_time() + seconds
    while time.process_time() < end:
        sum(i * i for i in range(1000))


def light(prompt: str) -> str:
    _spin(SECONDS / 10)
    time.sleep(SECONDS * 0.9)
    return "light"


def busy(prompt: str) -> str:
    _spin(SECONDS)
    return "busy"


def child(prompt: str) -> str:
    code = f"import time\nend = time.process_time() + {SECONDS}\nwhile time.process_time() < end: pass"
    subprocess.run([sys.executable, "-c", code], check=True)
    return "child"


def gpu(prompt: str) -> str:
    import torch

    a = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
    end = time.perf_counter() + SECONDS
    while time.perf_counter() < end:
        for _ in range(20):
            a = (a @ a).clamp_(-1, 1)
        torch.cuda.synchronize()
    return "gpu"


def _cuda() -> bool:
    try:
        import pynvml
        import torch
    except ImportError:
        return False
    try:
        pynvml.nvmlInit()
    except pynvml.NVMLError:
        return False
    return torch.cuda.is_available()


class _PowerIntegral:
    """Board power sampled every 20 ms on a thread and integrated (trapezoids): joules, independent of
    the energy counter the meter reads."""

    def __init__(self) -> None:
        import threading

        import pynvml

        self._nvml, self._handle = pynvml, pynvml.nvmlDeviceGetHandleByIndex(0)
        self._stop, self.joules = threading.Event(), 0.0
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        last_t, last_w = time.perf_counter(), self._nvml.nvmlDeviceGetPowerUsage(self._handle) / 1000
        while not self._stop.wait(0.02):
            now, watts = time.perf_counter(), self._nvml.nvmlDeviceGetPowerUsage(self._handle) / 1000
            self.joules += (now - last_t) * (watts + last_w) / 2
            last_t, last_w = now, watts

    def __enter__(self) -> _PowerIntegral:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


def _gpu_check() -> None:
    import torch

    gpu("warm-up")  # CUDA context and kernels loaded outside the measured call
    torch.cuda.synchronize()
    with _PowerIntegral() as board:
        run = evaluate(cases=[{"id": "gpu", "query": "go"}], target=gpu, concurrency=1, cache=False,
                       metrics=["energy_consumption", "resource_utilization"])
    results = {m["metric"]: m for m in run.cases[0]["metrics"]}
    energy = results["energy_consumption"]["detail"]
    util = results["resource_utilization"]
    print(f"gpu: {energy['energy_source']}, GPU energy {energy.get('gpu_energy_j')} J over {energy['wall_s']:.2f} s, "
          f"GPU utilisation {util['detail']['used'].get('gpu_percent')} % (score {util['value']:.2f}); "
          f"board power integrated by this script over the whole evaluate() call: {board.joules:.1f} J "
          f"({torch.cuda.get_device_name(0)})")


def main() -> None:
    print(f"{'target':<8} {'wall s':>7} {'cpu s':>7} {'cpu %':>6} {'energy J':>9} {'CO2e mg':>8} "
          f"{'util score':>10}  source")
    for target in (idle, light, busy, child):
        run = evaluate(cases=[{"id": target.__name__, "query": "go"}], target=target, concurrency=1, cache=False,
                       metrics=["energy_consumption", "carbon_emissions", "resource_utilization"])
        results = {m["metric"]: m for m in run.cases[0]["metrics"]}
        energy = results["energy_consumption"]["detail"]
        carbon = results["carbon_emissions"]["detail"]["carbon_kg"]
        print(f"{target.__name__:<8} {energy['wall_s']:>7.2f} {energy['cpu_s']:>7.2f} {energy['cpu_percent']:>6.0f} "
              f"{energy['energy_joules']:>9.2f} {carbon * 1e6:>8.3f} {results['resource_utilization']['value']:>10.2f}"
              f"  {energy['energy_source']} ({energy['logical_cpus']} CPUs, {energy['cpu_tdp_watts']:g} W TDP)")
    if _cuda():
        _gpu_check()


if __name__ == "__main__":
    main()
