"""Test videos generated here (nothing stored): a 320×240 window panning over scikit-image's natural
photos, written with OpenCV's Motion JPEG writer at quality 95 so that what each kind adds survives.

Kinds: ``smooth`` (a steady pan), ``flicker`` (the same, brightness ±18 gray levels every other
frame), ``jumps`` (the pan jumps 60–140 px every 6th frame), ``blur`` (Gaussian blur, sigma 2.5),
``noise`` (Gaussian noise, sigma 16), ``compressed`` (each frame through JPEG at quality 5),
``dark`` (brightness × 0.2), ``bright`` (+140, clipped).

``square_clip``: one small square over a still background — ``static``, ``smooth`` (gliding a few
pixels a frame along a gentle curve) or ``jumpy`` (somewhere random in every frame).
"""

from __future__ import annotations

import os
import tempfile

import numpy as np

KINDS = ("smooth", "flicker", "jumps", "blur", "noise", "compressed", "dark", "bright")
SIZE = (320, 240)


def _scene(photo: str = "coffee") -> np.ndarray:
    import cv2
    from skimage import data

    rgb = getattr(data, photo)()
    if rgb.ndim == 2:
        rgb = np.stack([rgb] * 3, axis=-1)
    return cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR)


def frames(kind: str = "smooth", count: int = 48, photo: str = "coffee", seed: int = 0) -> list[np.ndarray]:
    """The BGR frames of one kind of clip."""
    import cv2

    if kind not in KINDS:
        raise ValueError(kind)
    scene = _scene(photo)
    height, width = scene.shape[:2]
    w, h = SIZE
    span_x, span_y = width - w, height - h
    rng = np.random.default_rng(seed)
    out, x = [], 0.0
    for t in range(count):
        x = (2.0 * t) % span_x
        if kind == "jumps":
            x = (2.0 * t + 100 * ((t // 6) % 2) + 40 * ((t // 6) % 3)) % span_x
        y = span_y / 2 + (span_y / 3) * np.sin(t / count * np.pi)
        frame = scene[int(y):int(y) + h, int(x):int(x) + w].astype(np.float32)
        if kind == "flicker":
            frame = frame + (18 if t % 2 else -18)
        elif kind == "blur":
            frame = cv2.GaussianBlur(frame, (0, 0), 2.5)
        elif kind == "noise":
            frame = frame + rng.normal(0, 16, frame.shape)
        elif kind == "dark":
            frame = frame * 0.2
        elif kind == "bright":
            frame = frame + 140
        frame = np.clip(frame, 0, 255).astype(np.uint8)
        if kind == "compressed":
            _ok, jpeg = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 5])
            frame = cv2.imdecode(jpeg, cv2.IMREAD_COLOR)
        out.append(frame)
    return out


def write(images: list[np.ndarray], fps: float = 25.0, codec: str = "MJPG") -> bytes:
    """Encode frames as a video (MJPG in AVI at quality 95, or ``mp4v`` in MP4) and return its bytes."""
    import cv2

    suffix = ".avi" if codec == "MJPG" else ".mp4"
    handle, path = tempfile.mkstemp(suffix=suffix)
    os.close(handle)
    try:
        height, width = images[0].shape[:2]
        writer = cv2.VideoWriter(path, cv2.VideoWriter_fourcc(*codec), fps, (width, height))
        if codec == "MJPG":
            writer.set(cv2.VIDEOWRITER_PROP_QUALITY, 95)
        for image in images:
            writer.write(image)
        writer.release()
        with open(path, "rb") as f:
            return f.read()
    finally:
        os.unlink(path)


def clip(kind: str = "smooth", count: int = 48, fps: float = 25.0, codec: str = "MJPG", photo: str = "coffee",
         seed: int = 0) -> bytes:
    return write(frames(kind, count, photo, seed), fps, codec)


def text_clip(text: str = "SUMMER SALE", count: int = 20, background: tuple[int, int, int] = (40, 40, 220),
              fps: float = 10.0) -> bytes:
    """A title card: ``text`` in white on a flat ``background`` (BGR), drifting right 2 px a frame."""
    import cv2

    images = []
    for t in range(count):
        image = np.full((240, 480, 3), background, np.uint8)
        cv2.putText(image, text, (30 + 2 * t, 135), cv2.FONT_HERSHEY_SIMPLEX, 1.6, (255, 255, 255), 4, cv2.LINE_AA)
        images.append(image)
    return write(images, fps)


def solid_clip(bgr: tuple[int, int, int], count: int = 6, size: tuple[int, int] = (320, 240)) -> bytes:
    return write([np.full((size[1], size[0], 3), bgr, np.uint8) for _ in range(count)], 10.0)


SQUARE_MOTIONS = ("static", "smooth", "jumpy")


def square_frames(motion: str = "smooth", count: int = 40, side: int = 24, speed: float = 4.0,
                  background: str = "flat", seed: int = 0) -> list[np.ndarray]:
    """BGR frames of a ``side``-px yellow square over a still 320×240 background (``flat`` dark gray, or
    ``photo``: a crop of scikit-image's coffee). ``smooth``: ``speed`` px a frame to the right while
    drifting along a sine; ``jumpy``: a random place in every frame; ``static``: the middle."""
    if motion not in SQUARE_MOTIONS:
        raise ValueError(motion)
    width, height = SIZE
    base = np.full((height, width, 3), 40, np.uint8) if background == "flat" else \
        _scene("coffee")[100:100 + height, 100:100 + width].copy()
    rng = np.random.default_rng(seed)
    out = []
    for t in range(count):
        if motion == "smooth":
            x, y = 20 + speed * t, (height - side) / 2 + 30 * np.sin(t / 8)
        elif motion == "jumpy":
            x, y = rng.integers(0, width - side), rng.integers(0, height - side)
        else:
            x, y = (width - side) / 2, (height - side) / 2
        x, y = int(min(max(x, 0), width - side)), int(min(max(y, 0), height - side))
        image = base.copy()
        image[y:y + side, x:x + side] = (60, 200, 240)
        out.append(image)
    return out


def square_clip(motion: str = "smooth", **options) -> bytes:
    return write(square_frames(motion, **options))
