"""Temporal consistency of consecutive frames, and its mapping to 0–1.

For each transition between two consecutive frames (gray, downscaled so the longer side is 256 px):

- ``ssim``: SSIM of the two frames (Wang et al. 2004, Gaussian window σ 1.5, scikit-image) — motion
  lowers it, so it is reported, not scored;
- ``warped_ssim`` and ``warped_error``: dense optical flow (Farnebäck, OpenCV) from the first frame to
  the second; the second frame warped back along it should reproduce the first. SSIM of the warped
  frame with the first, and their mean absolute difference in gray levels over the pixels the flow
  keeps inside the frame. Smooth motion warps back well; a cut, a jump or morphing content does not.
  Both are means over the whole frame, so a small object that jumps barely moves them;
- ``unexplained``: the same test restricted to what changed, so that the size of the moving content
  does not matter. Both frames are smoothed (Gaussian σ 1 px, so sensor and compression noise is not
  change) and the change of mean luminance is taken out (that is ``flicker``'s). The changed pixels
  differ by more than 12 gray levels; a changed pixel is explained when the warped second frame matches
  the first there within 12 gray levels, allowing a 1-px misalignment (flow is imprecise at edges) —
  the first frame's value lies within the 3×3 range of the warped frame ± 12; content the flow carries
  out of the frame (a pan's leading edge) is left out. The measure is the
  unexplained share of the changed pixels, weighted by how much of the frame changed up to 0.5 %
  (``min(1, changed share / 0.5 %)``), so a mouse pointer or a blinking caret does not count as a jump
  while a 24-px object in a 320-px frame does. Motion the flow follows — a pan, an object gliding a
  few pixels a frame — is explained (≤ 0.05 on the test clips); an object that jumps further than the
  flow reaches, a cut or new content is not (0.6–0.8 for a square jumping about);
- ``flicker``: luminance flicker in gray levels — when the mean luminance changes direction from one
  transition to the next (up then down), the smaller of the two changes; a steady fade or a single
  cut gives 0, brightness pumping frame to frame gives its amplitude;
- ``jerk``: how much the motion changes from the previous transition to this one — the mean length of
  the change of the flow field, over the moving pixels only (flow above 0.5 px in either transition, or
  changed as above), in % of the frame width per frame². Steady motion, a pan or a glide, gives 0.3–0.7;
  stutter, shake and jumps the flow follows give large, erratic displacements, 2–8. Averaging over the
  moving pixels rather than the whole frame makes a small object's jerk count as much as a pan's;
- ``motion``: the mean flow length over the frame in % of its width per frame (reported).

Each maps to 0–1 linearly between a good and a bad bound (``BOUNDS``); the transition's score is the
lowest (its weakest aspect is named). A transition whose warped SSIM is below 0.3 is counted as a cut.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from agentunit.video.quality import linear

__all__ = ["BOUNDS", "CUT_WARPED_SSIM", "transition_scores", "transitions"]

# measure: (good, bad), chosen on the generated clips of tests/video/clips.py (bench/video.py) and the
# moving squares of tests/video/test_temporal.py.
BOUNDS: dict[str, tuple[float, float]] = {
    "warped_ssim": (0.75, 0.35),
    "warped_error": (8.0, 30.0),
    "unexplained": (0.35, 0.65),
    "flicker": (3.0, 15.0),
    "jerk": (1.0, 6.0),
}
CUT_WARPED_SSIM = 0.3
CHANGE_LEVEL = 12.0        # gray levels: a pixel changed, or is still wrong after warping back
CHANGE_SMOOTHING = 1.0     # σ in px: sensor and compression noise is not change
FULL_CHANGE_SHARE = 0.005  # a change of 0.5 % of the frame counts fully; less is weighted down
MOVING_FLOW = 0.5          # px per frame: a pixel moves


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


def _smooth(gray: np.ndarray) -> np.ndarray:
    import cv2

    return cv2.GaussianBlur(gray.astype(np.float32), (0, 0), CHANGE_SMOOTHING)


def _changed(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Pixels of the smoothed frames ``a`` → ``b`` that changed by more than ``CHANGE_LEVEL`` once the
    change of mean luminance is taken out (a brightness change is flicker, not motion)."""
    return np.abs(b - a - (float(b.mean()) - float(a.mean()))) > CHANGE_LEVEL


def _unexplained(a: np.ndarray, b: np.ndarray, warped: np.ndarray, inside: np.ndarray,
                 changed: np.ndarray) -> float:
    """The share of the changed pixels that the flow does not explain, weighted by the changed share of
    the frame up to ``FULL_CHANGE_SHARE`` (smoothed frames; see the module doc)."""
    import cv2

    # content the flow carries out of the frame (a pan's leading edge) has nothing to be compared with
    considered = changed & inside
    if not considered.any():
        return 0.0
    offset = float(b.mean()) - float(a.mean())
    kernel = np.ones((3, 3), np.uint8)
    # the first frame is matched when it lies within the 3×3 range of the warped one: the flow may be a
    # pixel off at an edge, which is not a jump
    low, high = cv2.erode(warped, kernel) - offset, cv2.dilate(warped, kernel) - offset
    wrong = ((a < low - CHANGE_LEVEL) | (a > high + CHANGE_LEVEL)) & considered
    ratio = float(wrong.sum()) / float(considered.sum())
    return ratio * min(1.0, float(changed.mean()) / FULL_CHANGE_SHARE)


def _jerk(flow: np.ndarray, previous: np.ndarray, changed: np.ndarray) -> float:
    """Mean length of the change of the flow field over the pixels that move in either transition (or
    changed), in % of the frame width per frame²."""
    moving = (np.linalg.norm(flow, axis=2) > MOVING_FLOW) | (np.linalg.norm(previous, axis=2) > MOVING_FLOW)
    moving |= changed
    if not moving.any():
        return 0.0
    return float(np.linalg.norm(flow - previous, axis=2)[moving].mean()) / flow.shape[1] * 100


def transitions(frames: list[Any], max_gap: int = 1) -> list[dict[str, Any]]:
    """Measures of each transition between frames (``agentunit.video.decode.Frame``, analysis size) whose
    indices differ by at most ``max_gap``: ``{from_index, to_index, from_s, to_s, ssim, warped_ssim,
    warped_error, unexplained, changed, flicker, jerk, motion}`` (``changed``: the changed share of the
    frame, %). ``jerk`` and ``flicker`` are None for the first transition of a run (no previous one to
    compare with)."""
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
        sa, sb = _smooth(ga), _smooth(gb)
        changed = _changed(sa, sb)
        delta = float(gb.mean()) - float(ga.mean())
        flicker = None
        if previous_delta is not None:
            flicker = min(abs(delta), abs(previous_delta)) if delta * previous_delta < 0 else 0.0
        jerk = None if previous_flow is None else _jerk(flow, previous_flow, changed)
        out.append({"from_index": a.index, "to_index": b.index, "from_s": round(a.time_s, 3),
                    "to_s": round(b.time_s, 3), "ssim": round(_ssim(ga, gb), 4),
                    "warped_ssim": round(_ssim(ga, warped), 4),
                    "warped_error": round(float(error[inside].mean()) if inside.any() else 255.0, 3),
                    "unexplained": round(_unexplained(sa, sb, _smooth(warped), inside, changed), 4),
                    "changed": round(float(changed.mean()) * 100, 3),
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
