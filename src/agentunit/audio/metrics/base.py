"""What every audio metric of a call shares: its config read and validated (the call options — which
audio, channels, speakers, voice activity — numbers, the ASR model), the ``_CallMetric`` base that
finds the call's speaker turns, and the call's recording."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from agentunit.audio.asr import ASR_MODELS
from agentunit.audio.call import Call, CallOptions, call_of
from agentunit.audio.turns import AGENT, CUSTOMER
from agentunit.audio.vad import FRAME_MS, VadSettings
from agentunit.errors import MetricConfigError
from agentunit.metrics.base import Metric, keyword_config


def _number(config: Mapping[str, Any], key: str, default: float, low: float = 0.0,
            high: float = math.inf) -> float:
    value = config.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
        bound = f"between {low:g} and {high:g}" if high != math.inf else f"≥ {low:g}"
        raise MetricConfigError(f"config.{key} must be a number {bound}, got {value!r}")
    return float(value)


def _speaker_map(config: Mapping[str, Any], key: str, kind: type) -> dict[str, Any] | None:
    value = config.get(key)
    if value is None:
        return None
    if not isinstance(value, Mapping) or set(value) != {AGENT, CUSTOMER}:
        raise MetricConfigError(f"config.{key} must be {{agent: …, customer: …}}, got {value!r}")
    for speaker, item in value.items():
        if kind is int and (isinstance(item, bool) or not isinstance(item, int) or item < 0):
            raise MetricConfigError(f"config.{key}.{speaker} must be a channel index ≥ 0, got {item!r}")
        if kind is str and not isinstance(item, str):
            raise MetricConfigError(f"config.{key}.{speaker} must be a speaker label, got {item!r}")
    if len(set(value.values())) != 2:
        raise MetricConfigError(f"config.{key}: agent and customer must differ, got {dict(value)!r}")
    return dict(value)


def call_options(config: Mapping[str, Any]) -> CallOptions:
    """CallOptions from a metric's config, validated; MetricConfigError names the bad key."""
    audio = config.get("audio", "auto")
    if audio not in ("auto", "reply", "input"):
        raise MetricConfigError(f"config.audio must be auto, reply or input, got {audio!r}")
    frame_ms = config.get("frame_ms", 30)
    if frame_ms not in FRAME_MS:
        raise MetricConfigError(f"config.frame_ms must be one of 10, 20, 30, got {frame_ms!r}")
    aggressiveness = config.get("aggressiveness", 2)
    if aggressiveness not in (0, 1, 2, 3) or isinstance(aggressiveness, bool):
        raise MetricConfigError(f"config.aggressiveness must be 0, 1, 2 or 3, got {aggressiveness!r}")
    vad = VadSettings(int(aggressiveness), int(frame_ms), _number(config, "hangover_ms", 300.0),
                      _number(config, "min_speech_ms", 120.0))
    return CallOptions(audio=audio, channels=_speaker_map(config, "channels", int) or {AGENT: 0, CUSTOMER: 1},
                       speakers=_speaker_map(config, "speakers", str), vad=vad,
                       join_gap_s=_number(config, "join_gap_s", 1.0))


class _CallMetric(Metric):
    """A metric of a call's turns: parses the shared config once; ``call`` finds the turns."""

    def __init__(self, value: Any = None, **base: Any):
        super().__init__(value, config=keyword_config({}, base), **base)

    def setup(self) -> None:
        self.options = call_options(self.config)
        self.min_overlap_s = _number(self.config, "min_overlap_s", 0.25)

    def call(self, case, outcome) -> Call | str:
        return call_of(case, outcome, self.options)


def _asr_model(config: Mapping[str, Any]) -> str:
    model = config.get("asr_model", "asr")
    if model not in ASR_MODELS:
        raise MetricConfigError(f"config.asr_model must be one of {', '.join(ASR_MODELS)}, got {model!r}")
    return model


def _recording(case, outcome, options: CallOptions):
    """(field, Media) of the call's recording (separate tracks merged: agentunit.audio.recording), the reason
    it cannot be used, or None."""
    from agentunit.audio.recording import call_recording

    return call_recording(case, outcome, options)
