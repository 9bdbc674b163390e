"""Temporal consistency of consecutive frames, and its mapping to 0–1.

For each transition between two consecutive frames (gray, downscaled so the longer side is 256 px):

- ``ssim``: SSIM of the two frames (Wang et al. 2004, Gaussian window σ 1.5, scikit-image) — motion
  lowers it, so it is reported, not scored;
- ``warped_ssim`` and ``warped_error``: dense optical flow (Farnebäck, OpenCV) from the first frame to
  the second; the second frame warped back along it should reproduce the first. SSIM of the warped
  frame with the first, and their mean absolute difference in gray levels over the pixels the flow
  keeps inside the frame. Smooth motion warps back well; a cut, a jump or morphing content does not;
- ``flicker``: luminance flicker in gray levels — when the mean luminance changes direction from one
  transition to the next (up then down), the smaller of the two changes; a steady fade or a single
  cut gives 0, brightness pumping frame to frame gives its amplitude;
- ``jerk``: the mean length of the change of the flow field from the previous transition to this one,
  in % of the frame width per frame² — steady motion gives ~0, stutter and jumps give large values.

Each maps to 0–1 linearly between a good and a bad bound (``BOUNDS``); the transition's score is the
lowest (its weakest aspect is named). A transition whose warped SSIM is below 0.3 is counted as a cut.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from agentunit.video.quality import linear

__all__ = ["BOUNDS", "CUT_WARPED_SSIM", "transition_scores", "transitions"]

# measure: (good, bad), chosen on the generated clips of tests/video/clips.py (bench/video.py).
BOUNDS: dict[str, tuple[float, float]] = {
    "warped_ssim": (0.75, 0.35),
    "warped_error": (8.0, 30.0),
    "flicker": (3.0, 15.0),
    "jerk": (1.0, 6.0),
}
CUT_WARPED_SSIM = 0.3


def _ssim(a: np.ndarray, b: np.ndarray) -> float:
    from skimage.metrics import structural_similarity

    return float(structural_similarity(a, b, data_range=255.0, gaussian_weights=True, sigma=1.5,
                                       use_sample_covariance=False))


def _flow(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    import cv2

    return cv2.calcOpticalFlowFarneback(a, b, None, pyr_scale=0.5, levels=3, winsize=15, iterations=3,
                                        poly_n=5, poly_sigma=1.2, flags=0)


def _warp_back(b: np.ndarray, flow: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``b`` sampled where the flow says each pixel of the first frame went, and the mask of samples
    that fall inside the frame."""
    import cv2

    height, width = b.shape
    grid_x, grid_y = np.meshgrid(np.arange(width, dtype=np.float32), np.arange(height, dtype=np.float32))
    map_x, map_y = grid_x + flow[..., 0], grid_y + flow[..., 1]
    warped = cv2.remap(b, map_x, map_y, interpolation=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    inside = (map_x >= 0) & (map_x <= width - 1) & (map_y >= 0) & (map_y <= height - 1)
    return warped, inside


def transitions(frames: list[Any], max_gap: int = 1) -> list[dict[str, Any]]:
    """Measures of each transition between frames (``agentunit.video.decode.Frame``, analysis size) whose
    indices differ by at most ``max_gap``: ``{from_index, to_index, from_s, to_s, ssim, warped_ssim,
    warped_error, flicker, jerk, motion}``. ``jerk`` and ``flicker`` are None for the first transition of
    a run (no previous one to compare with)."""
    grays = [f.gray for f in frames]
    out: list[dict[str, Any]] = []
    previous_flow, previous_delta = None, None
    for i in range(len(frames) - 1):
        a, b = frames[i], frames[i + 1]
        if b.index - a.index > max_gap or b.index <= a.index:
            previous_flow, previous_delta = None, None  # a new window starts
            continue
        ga, gb = grays[i], grays[i + 1]
        flow = _flow(ga, gb)
        warped, inside = _warp_back(gb, flow)
        error = np.abs(warped.astype(np.float32) - ga.astype(np.float32))
        width = ga.shape[1]
        delta = float(gb.mean()) - float(ga.mean())
        flicker = None
        if previous_delta is not None:
            flicker = min(abs(delta), abs(previous_delta)) if delta * previous_delta < 0 else 0.0
        jerk = None
        if previous_flow is not None:
            jerk = float(np.linalg.norm(flow - previous_flow, axis=2).mean()) / width * 100
        out.append({"from_index": a.index, "to_index": b.index, "from_s": round(a.time_s, 3),
                    "to_s": round(b.time_s, 3), "ssim": round(_ssim(ga, gb), 4),
                    "warped_ssim": round(_ssim(ga, warped), 4),
                    "warped_error": round(float(error[inside].mean()) if inside.any() else 255.0, 3),
                    "flicker": None if flicker is None else round(flicker, 3),
                    "jerk": None if jerk is None else round(jerk, 4),
                    "motion": round(float(np.linalg.norm(flow, axis=2).mean()) / width * 100, 4)})
        previous_flow, previous_delta = flow, delta
    return out


def transition_scores(measures: dict[str, Any], bounds: dict[str, tuple[float, float]] | None = None
                      ) -> dict[str, float]:
    """0–1 scores of one transition's measures (those present)."""
    b = {**BOUNDS, **(bounds or {})}
    return {name: round(linear(measures[name], *b[name]), 4) for name in b if measures.get(name) is not None}
