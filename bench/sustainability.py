"""Bench: the sustainability metrics on targets doing different amounts of real work.

Runs four Python targets through the engine with -j 1 — idle (sleeps), light, CPU-bound, and one that
starts a CPU-bound child process — and prints what energy_consumption, carbon_emissions and
resource_utilization report, with the energy source. Usage: python bench/sustainability.py [SECONDS]
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


if __name__ == "__main__":
    main()
