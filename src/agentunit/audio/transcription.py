"""Transcript text of a reply and its word and character error rates against a reference (jiwer)."""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from agentunit.audio.decode import AudioInputError

__all__ = ["error_rates", "normalise", "transcript_text"]

_PUNCT = re.compile(r"[^\w\s']|(?<!\w)'|'(?!\w)")


def normalise(text: str) -> str:
    """NFKC, case-folded, punctuation removed (apostrophes inside words kept), whitespace collapsed."""
    text = unicodedata.normalize("NFKC", text).casefold()
    return " ".join(_PUNCT.sub(" ", text).split())


def transcript_text(outcome: Any, source: str = "auto") -> tuple[str | None, str]:
    """(text, where it came from): the segments of ``trusys.transcript`` joined in start order (a string
    there is used as is), else the output; ``source`` ``transcript`` or ``output`` forces one. Text is
    None when there is none. Raises AudioInputError naming the field for malformed segments."""
    transcript = (getattr(outcome, "metadata", None) or {}).get("transcript")
    if source in ("auto", "transcript") and transcript is not None:
        if isinstance(transcript, str):
            return (transcript if transcript.strip() else None), "trusys.transcript"
        if not isinstance(transcript, list):
            raise AudioInputError("trusys.transcript must be text or a list of segments, "
                                  f"got {type(transcript).__name__}")
        parts = []
        for i, seg in enumerate(transcript):
            if not isinstance(seg, dict) or not isinstance(seg.get("text"), str):
                raise AudioInputError(f"trusys.transcript[{i}] must be an object with a text string")
            start = seg.get("start")
            parts.append((start if isinstance(start, int | float) and not isinstance(start, bool) else float(i), i,
                          seg["text"]))
        text = " ".join(t for _, _, t in sorted(parts)).strip()
        return (text or None), "trusys.transcript"
    if source == "transcript":
        return None, "trusys.transcript"
    output = getattr(outcome, "output", None)
    return (str(output) if output is not None and str(output).strip() else None), "output"


def error_rates(reference: str, hypothesis: str) -> dict[str, float]:
    """Word error rate (substitutions + deletions + insertions over reference words) and character error
    rate of the normalised texts, with jiwer; also the counts of each word edit."""
    try:
        import jiwer
    except ImportError:
        raise RuntimeError("word error rates need jiwer: pip install 'agentunit[audio]'") from None

    ref, hyp = normalise(reference), normalise(hypothesis)
    if not ref:
        raise AudioInputError("expected_output (the reference transcript) has no words after normalising")
    words = jiwer.process_words(ref, hyp if hyp else "")
    cer = jiwer.cer(ref, hyp) if hyp else 1.0
    return {"wer": float(words.wer), "cer": float(cer), "substitutions": words.substitutions,
            "deletions": words.deletions, "insertions": words.insertions, "reference_words": len(ref.split())}
