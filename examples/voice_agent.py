"""An offline voice-agent stand-in for examples/voice_agent.yaml: it "takes" a support call and returns the
call recording, as a voice platform's API would.

Each prompt names a scenario; the call is composed at 16 kHz stereo (agent left, customer right) from the
espeak-ng speech clips committed under tests/data/audio/clips (rebuild them with `make audio-clips`), with
the pauses a real agent would leave, and returned in ``trusys.audio``. No transcript is returned, so the
transcript-backed metrics run speech recognition (`agentunit models install asr`).

Use it as a Python target: ``{type: python, function: examples.voice_agent:answer}``;
``python -m examples.voice_agent SCENARIO OUT.wav`` writes a call to a file.
"""

from __future__ import annotations

import base64
import io
import sys
import wave
from pathlib import Path
from typing import Any

import numpy as np

CLIPS = Path(__file__).resolve().parent.parent / "tests" / "data" / "audio" / "clips"
RATE = 16_000
# (speaker, clip, pause before it in seconds)
SCENARIOS = {
    "compliant": [("agent", "agent_greeting", 0.5), ("agent", "agent_disclaimer", 0.6), ("agent", "agent_consent", 0.6),
                  ("customer", "customer_consent_yes", 0.7), ("customer", "customer_problem", 0.8),
                  ("agent", "agent_confirm", 0.9), ("agent", "agent_refund", 0.6), ("customer", "customer_thanks", 0.8),
                  ("agent", "agent_goodbye", 0.7)],
    "no-disclaimer": [("agent", "agent_greeting", 0.5), ("customer", "customer_problem", 0.8),
                      ("agent", "agent_confirm", 1.1), ("agent", "agent_refund", 0.6),
                      ("customer", "customer_thanks", 0.8), ("agent", "agent_goodbye", 0.7)],
    "german": [("agent", "agent_de_greeting", 0.5), ("customer", "customer_de_problem", 0.8),
               ("agent", "agent_de_reply", 1.0)],
}


def _clip(name: str) -> np.ndarray:
    with wave.open(str(CLIPS / f"{name}.wav"), "rb") as reader:
        rate = reader.getframerate()
        samples = np.frombuffer(reader.readframes(reader.getnframes()), dtype="<i2").astype(np.float32) / 32768
    if rate != RATE:  # the 8 kHz telephone clips, interpolated up
        samples = np.interp(np.arange(0, len(samples), rate / RATE), np.arange(len(samples)), samples)
    return samples.astype(np.float32)


def compose(scenario: str) -> bytes:
    """The scenario's call as 16-bit stereo WAV."""
    placed, clock = [], 0.0
    for speaker, name, pause in SCENARIOS[scenario]:
        samples = _clip(name)
        clock += pause
        placed.append((0 if speaker == "agent" else 1, int(clock * RATE), samples))
        clock += len(samples) / RATE
    audio = np.random.default_rng(7).normal(0, 10 ** (-50 / 20), (int((clock + 0.8) * RATE), 2))
    for channel, first, samples in placed:
        audio[first:first + len(samples), channel] += samples
    out = io.BytesIO()
    with wave.open(out, "wb") as writer:
        writer.setnchannels(2)
        writer.setsampwidth(2)
        writer.setframerate(RATE)
        writer.writeframes((np.clip(audio, -1, 1) * 32767).astype("<i2").tobytes())
    return out.getvalue()


def answer(prompt: str) -> dict[str, Any]:
    """The call for the scenario named in ``prompt`` (``{output, trusys: {audio}}``)."""
    scenario = next((name for name in SCENARIOS if name in prompt.lower()), "compliant")
    wav = compose(scenario)
    return {"output": f"call finished ({scenario})",
            "trusys": {"audio": {"base64": base64.b64encode(wav).decode(), "mime": "audio/wav"}}}


if __name__ == "__main__":
    Path(sys.argv[2]).write_bytes(compose(sys.argv[1]))
