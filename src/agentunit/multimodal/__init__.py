"""Images: what they show offline (visual facts, OCR) and the image / multimodal metrics.

    from agentunit.multimodal import image_facts, ocr_text
    from agentunit.multimodal.metrics import CrossModalGroundingMetric, ImageCaptionAccuracyMetric

See docs/multimodal.md.
"""

from agentunit.multimodal.evidence import (
    CSS_COLOURS,
    ImageFacts,
    OcrUnavailable,
    colour_name,
    image_facts,
    ocr_status,
    ocr_text,
)

__all__ = ["CSS_COLOURS", "ImageFacts", "OcrUnavailable", "colour_name", "image_facts", "ocr_status", "ocr_text"]
