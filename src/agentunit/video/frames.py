"""Where a metric finds its video, and sampled frames as image ``Media`` for the vision judge, CLIP and OCR."""

from __future__ import annotations

import hashlib
from typing import Any

from agentunit.media import Media
from agentunit.video.decode import Frame

__all__ = ["ORDERS", "frame_media", "frame_times", "videos_of"]

# config.video → the roles searched, in order: the reply's video (trusys.video, or the output itself when
# it is a video) before the case's.
ORDERS = {"auto": ("reply", "input"), "reply": ("reply",), "input": ("input",)}


def videos_of(case: Any, outcome: Any, which: str = "auto") -> list[tuple[str, Media]]:
    """``(field, Media)`` of every video of the roles ``which`` names, in order; ``field`` as errors name
    it (``trusys.video``, ``output``, ``video``, ``metadata.video_path``). Raises MediaError naming the
    field for a reference that cannot be used."""
    from agentunit.media import load_ref, media_refs

    found: list[tuple[str, Media]] = []
    for where in ORDERS[which]:
        for ref in media_refs(case, outcome, where):
            if ref.kind not in (None, "video"):
                continue
            medium = load_ref(case, outcome, ref)
            if medium.kind == "video":
                found.append((ref.field, medium))
    return found


def frame_media(frame: Frame, field: str, max_side: int | None = None, quality: int = 90) -> Media:
    """One frame as a JPEG image ``Media`` (source ``video@1.50s``), downscaled to ``max_side`` if given."""
    import cv2

    image = frame.image
    if max_side and max(image.shape[:2]) > max_side:
        scale = max_side / max(image.shape[:2])
        image = cv2.resize(image, (max(1, round(image.shape[1] * scale)), max(1, round(image.shape[0] * scale))),
                           interpolation=cv2.INTER_AREA)
    ok, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise ValueError(f"{field}: frame {frame.index} could not be encoded as JPEG")
    data = encoded.tobytes()
    return Media("image", "image/jpeg", data, hashlib.sha256(data).hexdigest(), f"{field}@{frame.time_s:.2f}s",
                 len(data))


def frame_times(frames: list[Frame]) -> str:
    return ", ".join(f"{f.time_s:.1f} s" for f in frames)
