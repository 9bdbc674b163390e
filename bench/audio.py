"""Bench: the audio timing metrics on the composed test calls (tests/data/audio/calls.py).

Prints seconds of work per minute of audio for decode + voice activity + the four timing metrics (no
speech recognition yet), and the timing errors against the truth of the clip placement: response gaps,
barge-in times and overlaps, dead-air lengths (s), and the talk ratio (relative). Each call is measured
as composed (8 kHz), resampled to 16 and 48 kHz, and with louder line noise (-35 dBFS).
Usage: python bench/audio.py [REPEATS]
"""

from __future__ import annotations

import importlib.util
import sys
import time
from pathlib import Path

import numpy as np

from agentunit import check
from agentunit.audio import clear_cache

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "audio" / "calls.py"
_spec = importlib.util.spec_from_file_location("audio_calls", DATA)
calls = importlib.util.module_from_spec(_spec)
sys.modules["audio_calls"] = calls
_spec.loader.exec_module(calls)

METRICS = ("audio-agent-response-time", "audio-talk-to-listen-ratio", "audio-interruption-handling",
           "audio-drop-out-rates")
VARIANTS = {"8 kHz": {}, "16 kHz": {"rate": 16000}, "48 kHz": {"rate": 48000}, "noise -35 dBFS": {"noise_db": -35.0}}


def _measure(scene, wav: bytes) -> tuple[float, dict[str, list[float]]]:
    clear_cache()
    start = time.perf_counter()
    results = {name: check("", name, audio=wav) for name in METRICS}
    elapsed = time.perf_counter() - start
    errors: dict[str, list[float]] = {"gap": [], "barge_at": [], "overlap": [], "dead_air": [], "ratio_rel": []}
    gaps = [g["gap_ms"] / 1000 for g in results[METRICS[0]].detail["gaps"]]
    errors["gap"] = [abs(a - b) for a, b in zip(gaps, scene.gaps, strict=True)]
    for event, (_, at, overlap, _) in zip(results[METRICS[2]].detail["barge_ins"], scene.barge_ins, strict=True):
        errors["barge_at"].append(abs(event["at"] - at))
        errors["overlap"].append(abs(event["overlap_s"] - overlap))
    lengths = [d["length_s"] for d in results[METRICS[3]].detail["dead_air"]]
    errors["dead_air"] = [abs(a - b) for a, b in zip(lengths, scene.dead_air, strict=True)]
    errors["ratio_rel"] = [abs(results[METRICS[1]].value / scene.talk_ratio - 1)]
    return elapsed, errors


def main() -> None:
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    check("", METRICS[0], audio=calls.scenarios()[0].wav())  # imports and first-call costs out of the timing
    print(f"{'variant':16} {'audio s':>8} {'s/min audio':>12} {'gap err mean/max s':>19} "
          f"{'barge-in at/overlap max s':>26} {'dead air max s':>15} {'ratio err max':>14}")
    for label, kwargs in VARIANTS.items():
        seconds, audio_s, errors = 0.0, 0.0, {"gap": [], "barge_at": [], "overlap": [], "dead_air": [], "ratio_rel": []}
        for scene in calls.scenarios():
            wav = scene.wav(**kwargs)
            audio_s += scene.duration
            times = []
            for _ in range(repeats):
                elapsed, found = _measure(scene, wav)
                times.append(elapsed)
            seconds += min(times)
            for key, values in found.items():
                errors[key] += values
        gap = np.array(errors["gap"])
        print(f"{label:16} {audio_s:8.1f} {seconds / audio_s * 60:12.3f} {gap.mean():9.3f} / {gap.max():.3f}"
              f" {max(errors['barge_at']):15.3f} / {max(errors['overlap']):.3f} {max(errors['dead_air']):15.3f}"
              f" {max(errors['ratio_rel']):13.1%}")
    print(f"({len(calls.scenarios())} calls per variant; {len(gap)} response gaps, "
          f"{len(errors['barge_at'])} barge-ins, {len(errors['dead_air'])} dead-air stretches; best of {repeats})")


if __name__ == "__main__":
    main()
