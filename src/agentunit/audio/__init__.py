"""Audio analysis of voice-agent calls: decoding, voice activity, speaker turns, timing metrics, WER,
speech recognition and language ID (agentunit.audio.asr, faster-whisper), required statements and consent
(agentunit.audio.statements).

    from agentunit.audio import decode_audio, call_of, CallOptions, response_gaps
    from agentunit.audio.metrics import AgentResponseTimeMetric, AudioTranscriptionMetric

The metrics register themselves from ``agentunit.audio.metrics`` (loaded by the catalog). See docs/audio.md.
"""

from agentunit.audio.call import Call, CallOptions, call_of, clear_cache, turns_from_recording
from agentunit.audio.decode import AudioInputError, Pcm, decode_audio
from agentunit.audio.timing import barge_ins, drop_outs, response_gaps, summary_ms, talk_time
from agentunit.audio.transcription import error_rates, normalise, transcript_text
from agentunit.audio.turns import AGENT, CUSTOMER, UNKNOWN, Turn, join_turns, speech_union, turns_from_transcript
from agentunit.audio.vad import VadSettings, resample, smooth_frames, speech_segments, voice_frames

__all__ = [
    "AGENT", "CUSTOMER", "UNKNOWN", "AudioInputError", "Call", "CallOptions", "Pcm", "Turn", "VadSettings",
    "barge_ins", "call_of", "clear_cache", "decode_audio", "drop_outs", "error_rates", "join_turns", "normalise",
    "resample", "response_gaps", "smooth_frames", "speech_segments", "speech_union", "summary_ms", "talk_time",
    "transcript_text", "turns_from_recording", "turns_from_transcript", "voice_frames",
]
