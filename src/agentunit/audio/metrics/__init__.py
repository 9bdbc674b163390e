"""Audio metrics of voice-agent calls, one module per idea:

- ``timing``: response time, talk-to-listen ratio, interruption handling, drop-outs (from voice activity per
  channel or transcript segments);
- ``transcription``: transcription quality (WER);
- ``language``: spoken language and language switches (Whisper's language ID);
- ``statements``: required disclaimers, consent and the call's category (matched by meaning in the
  speaker-labelled transcript: the app's, or speech recognition's);
- ``conversation``: the judge-backed conversation metrics: coherence, false intent identification, sentiment;
- ``base``: what they share: the config read and validated, and the call's turns and recording.

The timing metrics read the call's turns (agentunit.audio.call): a stereo recording with one speaker
per channel (``config.channels``, default agent = left), separate per-speaker tracks (``trusys.audio_tracks`` or
the case's ``metadata.audio_tracks``, merged by agentunit.audio.recording) or ``trusys.transcript`` segments
``{speaker, start, end, text}``. A mono recording without speaker labels leaves them not measured
(no diarization model ships), except the dead-air and truncation checks of ``audio-drop-out-rates``.
Each name below is imported from its module on first use (the registry's index names the module of every
metric). See docs/audio.md.
"""

from __future__ import annotations

from agentunit._lazy import lazy_exports

_EXPORTS = {
    **dict.fromkeys(("call_options",), "base"),
    **dict.fromkeys((
        "DEFAULT_BAND", "AgentResponseTimeMetric", "TalkToListenRatioMetric", "InterruptionHandlingMetric",
        "DropOutRatesMetric",
    ), "timing"),
    **dict.fromkeys(("AudioTranscriptionMetric",), "transcription"),
    **dict.fromkeys((
        "MIN_LANGUAGE_CONFIDENCE", "MIN_SWITCH_CONFIDENCE", "LanguageMetric", "LanguageSwitchMetric",
    ), "language"),
    **dict.fromkeys((
        "MIN_SIMILARITY", "MIN_COVERAGE", "DisclaimerCheckMetric", "ConsentCheckMetric", "CallCategoryMetric",
    ), "statements"),
    **dict.fromkeys((
        "INTENT_METHOD", "MIN_INTENT_SIMILARITY", "SENTIMENT_METHOD", "SENTIMENT_DESCRIPTIONS", "STATEMENT_SYSTEM",
        "COHERENCE_STATEMENT", "INTENT_STATEMENT", "coherence_request", "intent_request", "sentiment_request",
        "COHERENCE_METHOD", "COHERENCE_THRESHOLD", "reply_request", "ConversationCoherenceMetric", "FalseIntentMetric",
        "SentimentMetric",
    ), "conversation"),
}

__all__ = ["AgentResponseTimeMetric", "AudioTranscriptionMetric", "CallCategoryMetric", "ConsentCheckMetric",
           "ConversationCoherenceMetric", "DisclaimerCheckMetric", "DropOutRatesMetric", "FalseIntentMetric",
           "InterruptionHandlingMetric", "LanguageMetric", "LanguageSwitchMetric", "SentimentMetric",
           "TalkToListenRatioMetric"]
__getattr__, __dir__ = lazy_exports(globals(), _EXPORTS)
