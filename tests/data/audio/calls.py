"""Compose stereo test calls from the committed speech clips, with the truth known from the placement.

A ``Script`` places clips (tests/data/audio/clips, trimmed to their voiced extent by build.py) on the
agent's channel (left, 0) or the customer's (right, 1) at times the test chooses, optionally cut short
(a speaker who yields, a call that ends mid-word), adds low white noise, and writes 16-bit PCM WAV.
``truth()`` gives what was placed; the scenarios below are the calls the tests and bench/audio.py use,
each with the expected response gaps, barge-ins, dead air and endings written out by hand.
"""

from __future__ import annotations

import io
import wave
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import numpy as np

CLIPS = Path(__file__).resolve().parent / "clips"
RATE = 8_000
CHANNEL = {"agent": 0, "customer": 1}


@cache
def clip(name: str) -> np.ndarray:
    """A clip's samples (float32, 8 kHz mono)."""
    with wave.open(str(CLIPS / f"{name}.wav"), "rb") as reader:
        return np.frombuffer(reader.readframes(reader.getnframes()), dtype="<i2").astype(np.float32) / 32768.0


def clip_s(name: str) -> float:
    return len(clip(name)) / RATE


@dataclass
class Placed:
    speaker: str
    name: str
    start: float
    end: float


@dataclass
class Script:
    """Clips placed on a call's timeline; ``say`` returns the placement so later lines can refer to it."""

    lines: list[Placed] = field(default_factory=list)

    def say(self, speaker: str, name: str, at: float | None = None, *, after: float | None = None,
            into: float | None = None, cut_after: float | None = None) -> Placed:
        """Place clip ``name``: at ``at`` s, or ``after`` s after the previous line ends, or ``into`` s after
        the previous line starts (a barge-in); ``cut_after`` s stops it early."""
        prev = self.lines[-1] if self.lines else None
        start = at if at is not None else prev.end + after if after is not None else prev.start + into
        length = clip_s(name) if cut_after is None else min(cut_after, clip_s(name))
        line = Placed(speaker, name, round(start, 4), round(start + length, 4))
        self.lines.append(line)
        return line

    def cut(self, line: Placed, end: float) -> None:
        """Stop ``line`` at ``end`` s (the speaker yields)."""
        line.end = round(min(line.end, end), 4)

    def talk_s(self, speaker: str) -> float:
        return sum(line.end - line.start for line in self.lines if line.speaker == speaker)

    def wav(self, duration: float | None = None, *, noise_db: float = -50.0, rate: int = RATE,
            channels: int = 2, seed: int = 0) -> bytes:
        """The call as 16-bit PCM WAV (``channels`` 1 mixes both speakers into one)."""
        length = duration if duration is not None else max(line.end for line in self.lines) + 1.0
        total = round(length * RATE)
        audio = np.zeros((total, 2), dtype=np.float32)
        for line in self.lines:
            samples = clip(line.name)[: round((line.end - line.start) * RATE)].copy()
            fade = min(len(samples), RATE // 50)  # 20 ms fade-out where a clip is cut
            samples[len(samples) - fade:] *= np.linspace(1.0, 0.0, fade, dtype=np.float32)
            first = round(line.start * RATE)
            samples = samples[: max(0, total - first)]
            audio[first:first + len(samples), CHANNEL[line.speaker]] += samples
        rng = np.random.default_rng(seed)
        audio += rng.normal(0.0, 10 ** (noise_db / 20), audio.shape).astype(np.float32)
        if channels == 1:
            audio = audio.mean(axis=1, keepdims=True)
        if rate != RATE:
            count = int(total * rate / RATE)
            grid = np.arange(count) * (RATE / rate)
            audio = np.stack([np.interp(grid, np.arange(total), audio[:, c]) for c in range(audio.shape[1])], axis=1)
        ints = (np.clip(audio, -1, 1) * 32767).astype("<i2")
        buffer = io.BytesIO()
        with wave.open(buffer, "wb") as writer:
            writer.setnchannels(ints.shape[1])
            writer.setsampwidth(2)
            writer.setframerate(rate)
            writer.writeframes(ints.tobytes())
        return buffer.getvalue()

    def transcript(self) -> list[dict]:
        """``trusys.transcript`` segments of the placed lines (speaker, start, end, clip name as text)."""
        return [{"speaker": line.speaker, "start": line.start, "end": line.end, "text": line.name}
                for line in sorted(self.lines, key=lambda x: x.start)]


@dataclass
class Scenario:
    """A call and its truth: response gaps (s), barge-ins ``(interrupter, at, overlap_s, yielded)``,
    dead air stretches (s), whether the call ends unanswered and how many turns run into its end."""

    name: str
    script: Script
    duration: float
    gaps: list[float]
    barge_ins: list[tuple[str, float, float, bool]] = field(default_factory=list)
    dead_air: list[float] = field(default_factory=list)
    unanswered: bool = False
    truncated: int = 0

    def wav(self, **kwargs) -> bytes:
        return self.script.wav(self.duration, **kwargs)

    @property
    def talk_ratio(self) -> float:
        return self.script.talk_s("agent") / self.script.talk_s("customer")


def scenarios() -> list[Scenario]:
    """The test calls (times in seconds)."""
    out = []

    s = Script()  # a calm call: four replies with chosen gaps
    s.say("agent", "agent_greeting", at=0.5)
    s.say("customer", "customer_problem", after=0.7)
    s.say("agent", "agent_ask_account", after=0.9)
    s.say("customer", "customer_account", after=0.6)
    s.say("agent", "agent_confirm", after=1.6)
    s.say("customer", "customer_thanks", after=0.5)
    s.say("agent", "agent_bye", after=0.4)
    s.say("customer", "customer_bye", after=0.8)
    s.say("agent", "agent_goodbye", after=0.5)
    out.append(Scenario("calm", s, s.lines[-1].end + 1.5, gaps=[0.9, 1.6, 0.4, 0.5]))

    s = Script()  # the customer barges in; the agent yields 0.5 s later, then answers
    s.say("agent", "agent_greeting", at=0.3)
    s.say("customer", "customer_problem", after=0.8)
    long = s.say("agent", "agent_long", after=1.2)
    barge = s.say("customer", "customer_interrupt", into=2.5)
    s.cut(long, barge.start + 0.5)
    s.say("agent", "agent_refund", at=barge.end + 0.7)
    s.say("customer", "customer_thanks", after=0.6)
    s.say("agent", "agent_goodbye", after=0.3)
    out.append(Scenario("yielding", s, s.lines[-1].end + 1.0, gaps=[1.2, 0.7, 0.3],
                        barge_ins=[("customer", barge.start, 0.5, True)]))

    s = Script()  # the customer barges in and the agent talks over them; later the agent barges in
    s.say("agent", "agent_greeting", at=0.4)
    s.say("customer", "customer_problem", after=0.6)
    long = s.say("agent", "agent_long", after=1.0)
    barge = s.say("customer", "customer_interrupt", into=2.0)
    s.say("customer", "customer_account", at=long.end + 0.8)
    agent_barge = s.say("agent", "agent_confirm", into=1.0)
    out.append(Scenario("talk-over", s, agent_barge.end + 1.0, gaps=[1.0],
                        barge_ins=[("customer", barge.start, clip_s("customer_interrupt"), False),
                                   ("agent", agent_barge.start, s.lines[-2].end - agent_barge.start, False)]))

    s = Script()  # dead air: the agent goes silent for 5 s, the customer asks if anyone is there
    s.say("agent", "agent_greeting", at=0.5)
    s.say("customer", "customer_problem", after=0.8)
    s.say("customer", "customer_hello", after=5.0)
    s.say("agent", "agent_ask_account", after=1.1)
    s.say("customer", "customer_account", after=0.7)
    s.say("agent", "agent_confirm", after=0.5)
    out.append(Scenario("dead-air", s, s.lines[-1].end + 1.2, gaps=[1.1, 0.5], dead_air=[5.0]))

    s = Script()  # dropped: the customer's last words get no reply; earlier a 4 s gap (dead air too)
    s.say("agent", "agent_greeting", at=0.4)
    s.say("customer", "customer_problem", after=4.0)
    s.say("agent", "agent_ask_account", after=0.8)
    s.say("customer", "customer_bye", after=1.3)
    out.append(Scenario("unanswered", s, s.lines[-1].end + 2.0, gaps=[0.8], dead_air=[4.0], unanswered=True))

    s = Script()  # truncated: the recording stops 1.5 s into the agent's answer
    s.say("agent", "agent_greeting", at=0.6)
    s.say("customer", "customer_problem", after=0.5)
    last = s.say("agent", "agent_refund", after=1.4, cut_after=1.5)
    out.append(Scenario("truncated", s, last.end, gaps=[1.4], truncated=1))
    return out


def language_call(row: dict) -> tuple[bytes, list[float]]:
    """A row of language.jsonl / language_switch.jsonl as a stereo WAV (agent left, customer right) and each
    turn's start (s). Turns follow one another with 0.5–1.0 s gaps (seeded by the row id), −50 dBFS noise;
    clips come from build.language_clip (espeak-ng, 16 kHz). An 8 kHz row is telephone band: the 16 kHz call
    band-passed to 300–3400 Hz (FFT mask) and decimated by 2."""
    import zlib

    build = _build()
    LANGUAGE_RATE, language_clip = build.LANGUAGE_RATE, _language_clip
    rng = np.random.default_rng(zlib.crc32(row["id"].encode()))
    clock, starts, parts = 0.4, [], []
    for speaker, language, line in row["turns"]:
        samples = language_clip(language, line)
        starts.append(round(clock, 3))
        parts.append((CHANNEL[speaker], int(clock * LANGUAGE_RATE), samples))
        clock += len(samples) / LANGUAGE_RATE + float(rng.uniform(0.5, 1.0))
    total = int((clock + 0.4) * LANGUAGE_RATE)
    audio = rng.normal(0.0, 10 ** (-50 / 20), (total, 2))
    for channel, first, samples in parts:
        audio[first:first + len(samples), channel] += samples
    rate = row.get("rate", LANGUAGE_RATE)
    if rate == 8_000:
        spectrum = np.fft.rfft(audio, axis=0)
        hz = np.fft.rfftfreq(total, 1 / LANGUAGE_RATE)
        spectrum[(hz < 300) | (hz > 3400)] = 0
        audio = np.fft.irfft(spectrum, n=total, axis=0)[::2]
    ints = (np.clip(audio, -1, 1) * 32767).astype("<i2")
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as writer:
        writer.setnchannels(2)
        writer.setsampwidth(2)
        writer.setframerate(rate)
        writer.writeframes(ints.tobytes())
    return buffer.getvalue(), starts


@cache
def _build():
    import importlib.util

    spec = importlib.util.spec_from_file_location("audio_build", CLIPS.parent / "build.py")
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    return build


@cache
def _language_clip(language: str, line: int) -> np.ndarray:
    return _build().language_clip(language, line)
