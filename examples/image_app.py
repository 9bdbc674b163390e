"""An offline image-answering app for examples/multimodal.yaml: it reads the images it is given.

It answers questions about signs, charts and pictures the way a small OCR-backed assistant would:
the text in the image (rapidocr, from the `multimodal` extra) and its dominant colour (Pillow). Asked
for a chart, it returns the chart image in ``trusys.images``, as an app that shows pictures would.

Use it as a Python target: ``{type: python, function: examples.image_app:answer}``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from agentunit.media import media_of
from agentunit.multimodal import image_facts, ocr_text

CHART = Path(__file__).resolve().parent / "multimodal" / "chart.png"


def answer(prompt: str, case: Any) -> dict[str, Any]:
    """Answer ``prompt`` about the case's image(s); ``{output, trusys}``."""
    question = prompt.lower()
    if "show" in question and "chart" in question:
        return {"output": "Here is the sales chart for 2024: sales peaked in the third quarter.",
                "trusys": {"images": [str(CHART)]}}
    images = media_of(case, None, "image")
    if not images:
        return {"output": "I need an image to answer that."}
    image = images[0]
    # OCR drops the space between a word and a number ("SALES2024"); put it back.
    lines = [re.sub(r"(?<=[A-Za-z])(?=\d{2})", " ", line["text"]) for line in ocr_text(image)]
    colour = next(iter(image_facts(image).colour_names()), "unknown")
    if "colour" in question or "color" in question:
        return {"output": f"It is mostly {colour}."}
    if "chart" in question and lines:
        bars = [c for c in image_facts(image).colour_names() if c not in ("white", "black", "gray", "silver")]
        return {"output": f"A bar chart titled {lines[0].upper()} with {bars[0] if bars else colour} bars."}
    if lines:
        return {"output": f'The sign says "{" ".join(lines)}".'}
    return {"output": "I cannot read any text in this image."}
