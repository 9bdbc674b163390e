"""Images: what they show offline (visual facts, OCR) and the image / multimodal metrics.

    from agentunit.multimodal import image_facts, ocr_text
    from agentunit.multimodal.metrics import CrossModalGroundingMetric, ImageCaptionAccuracyMetric

The AgentUnit catalog's five multimodal metrics (cross-modal grounding, image caption accuracy, video
response relevance, audio transcription, multimodal coherence) import from here and from
``agentunit.multimodal.metrics`` too; each is imported when first asked for. See docs/multimodal.md.
"""

from agentunit._lazy import lazy_exports
from agentunit.multimodal.evidence import (
    CSS_COLOURS,
    ImageFacts,
    OcrUnavailable,
    colour_name,
    image_facts,
    ocr_status,
    ocr_text,
)

# imported on first use: the metrics pull in the judge stack, video's OpenCV and the audio stack
_METRICS = {"AudioTranscriptionMetric": "agentunit.audio.metrics",
            "CrossModalGroundingMetric": "metrics",
            "ImageCaptionAccuracyMetric": "metrics",
            "MultimodalCoherenceMetric": "metrics",
            "VideoResponseRelevanceMetric": "agentunit.video.metrics"}
__getattr__, __dir__ = lazy_exports(globals(), _METRICS)

__all__ = ["CSS_COLOURS", "AudioTranscriptionMetric", "CrossModalGroundingMetric", "ImageCaptionAccuracyMetric",
           "ImageFacts", "MultimodalCoherenceMetric", "OcrUnavailable", "VideoResponseRelevanceMetric",
           "colour_name", "image_facts", "ocr_status", "ocr_text"]
