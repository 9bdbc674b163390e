"""Write the small clips examples/video.yaml reads (committed; rerun to regenerate):
``python -m examples.make_video``. A 256×192 window pans over scikit-image's coffee photo (smooth; the
same with brightness flicker; the same blurred), and a title card reading SUMMER SALE on red. MPEG-4
Part 2 (``mp4v``) in MP4, 10 fps, 3 s each — about 400 KB together."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

FOLDER = Path(__file__).resolve().parent / "video"
SIZE, FPS, COUNT = (256, 192), 10.0, 30


def _pan(kind: str) -> list[np.ndarray]:
    from skimage import data

    scene = cv2.cvtColor(data.coffee(), cv2.COLOR_RGB2BGR)
    out = []
    for t in range(COUNT):
        frame = scene[100:100 + SIZE[1], 40 + 4 * t:40 + 4 * t + SIZE[0]].astype(np.float32)
        if kind == "flicker":
            frame += 20 if t % 2 else -20
        elif kind == "blurred":
            frame = cv2.GaussianBlur(frame, (0, 0), 2.5)
        out.append(np.clip(frame, 0, 255).astype(np.uint8))
    return out


def _title() -> list[np.ndarray]:
    out = []
    for t in range(COUNT):
        image = np.full((SIZE[1], SIZE[0], 3), (40, 40, 220), np.uint8)
        cv2.putText(image, "SUMMER", (30 + t, 85), cv2.FONT_HERSHEY_SIMPLEX, 1.4, (255, 255, 255), 3, cv2.LINE_AA)
        cv2.putText(image, "SALE", (60 + t, 140), cv2.FONT_HERSHEY_SIMPLEX, 1.4, (255, 255, 255), 3, cv2.LINE_AA)
        out.append(image)
    return out


def write(path: Path, frames: list[np.ndarray]) -> None:
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"mp4v"), FPS, SIZE)
    for frame in frames:
        writer.write(frame)
    writer.release()


def main() -> None:
    FOLDER.mkdir(exist_ok=True)
    for kind in ("smooth", "flicker", "blurred"):
        write(FOLDER / f"{kind}.mp4", _pan(kind))
    write(FOLDER / "title.mp4", _title())
    for path in sorted(FOLDER.glob("*.mp4")):
        print(path.name, path.stat().st_size, "bytes")


if __name__ == "__main__":
    main()
