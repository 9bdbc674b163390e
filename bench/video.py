"""Bench: the video metrics on generated clips (tests/video/clips.py) — speed and separations.

- speed: seconds of work per minute of video for decoding alone (the quality plan: 16 frames spread
  over the video, seeking; the temporal plan: 96 consecutive frames in 4 windows) and for each metric
  (decode included), on a 60 s smooth pan at 640×360 and at 1280×720 (MPEG-4 Part 2, 25 fps), caches cleared;
- separations: video-visual-quality and video-temporal-consistency on every kind of generated clip
  (smooth, flicker, jumps, blur, noise, compressed, dark, bright) over three of scikit-image's photos
  (coffee, astronaut, chelsea): the score of each, and the aspect named weakest.

Usage: python bench/video.py [--part=speed|separations]
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import cv2
import numpy as np
from tests.video.clips import KINDS, _scene, clip, write

from agentunit import check
from agentunit.video import decode
from agentunit.video.decode import FramePlan, decode_video


def long_pan(size: tuple[int, int], seconds: float = 60.0, fps: float = 25.0) -> bytes:
    scene = cv2.resize(_scene("coffee"), (size[0] * 2, size[1] * 2), interpolation=cv2.INTER_CUBIC)
    span = scene.shape[1] - size[0]
    frames = []
    for t in range(int(seconds * fps)):
        x = int(span / 2 + span / 2 * np.sin(t / (seconds * fps) * 2 * np.pi))
        frames.append(scene[size[1] // 2:size[1] // 2 + size[1], x:x + size[0]])
    return write(frames, fps, codec="mp4v")


def speed() -> None:
    print("| video | step | s per minute of video |\n|---|---|---|")
    for size in ((640, 360), (1280, 720)):
        data = long_pan(size)
        label = f"60 s {size[0]}×{size[1]} MPEG-4"
        steps = {
            "decode: 16 frames, seeking": lambda d=data: decode_video(d, "video/x-msvideo", "video",
                                                                      FramePlan("even", count=16)),
            "decode: 96 consecutive frames in 4 windows, 256 px": lambda d=data: decode_video(
                d, "video/x-msvideo", "video", FramePlan("windows", max_frames=96, windows=4, max_side=256)),
            "video-visual-quality": lambda d=data: check("", "video-visual-quality", video=d),
            "video-temporal-consistency": lambda d=data: check("", "video-temporal-consistency", video=d),
        }
        for name, run in steps.items():
            times = []
            for _ in range(2):
                decode._CACHE.clear()
                start = time.perf_counter()
                result = run()
                times.append(time.perf_counter() - start)
                if hasattr(result, "error") and result.error:
                    raise SystemExit(result.error)
            print(f"| {label} | {name} | {min(times):.2f} |")


def separations() -> None:
    photos = ("coffee", "astronaut", "chelsea")
    print("| kind | visual quality (coffee / astronaut / chelsea) | weakest | temporal consistency | weakest |")
    print("|---|---|---|---|---|")
    for kind in KINDS:
        quality, temporal, q_weak, t_weak = [], [], set(), set()
        for photo in photos:
            data = clip(kind, photo=photo)
            q = check("", "video-visual-quality", video=data)
            t = check("", "video-temporal-consistency", video=data)
            quality.append(q.value)
            temporal.append(t.value)
            for result, named in ((q, q_weak), (t, t_weak)):
                aspects = result.detail["aspects"]
                weakest = min(aspects, key=aspects.get)
                named.add(weakest if aspects[weakest] < 0.95 else "—")
        print(f"| {kind} | {' / '.join(f'{v:.2f}' for v in quality)} (mean {statistics.mean(quality):.2f}) | "
              f"{', '.join(sorted(q_weak))} | {' / '.join(f'{v:.2f}' for v in temporal)} "
              f"(mean {statistics.mean(temporal):.2f}) | {', '.join(sorted(t_weak))} |")


if __name__ == "__main__":
    part = next((a.split("=", 1)[1] for a in sys.argv[1:] if a.startswith("--part=")), None)
    if part in (None, "speed"):
        speed()
    if part in (None, "separations"):
        separations()
