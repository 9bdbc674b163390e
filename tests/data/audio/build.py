"""Build the speech clips the audio tests and bench compose calls from: tests/data/audio/clips/*.wav.

Each clip is one espeak-ng utterance (agent: en-us male voice, customer: en-gb female variant),
resampled to 8 kHz (telephone band) mono 16-bit by sox and trimmed here to its voiced extent (10 ms frames within
45 dB of the clip's loudest frame), so a clip's first and last sample are where speech starts and
ends: the truth of every timing test is then the placement the test chose (see calls.py).
Needs espeak-ng and sox (`make audio-tools`, or apt-get install espeak-ng sox).
Run: python tests/data/audio/build.py [--missing]
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import wave
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
CLIPS = HERE / "clips"
RATE = 8_000  # telephone band; keeps the committed clips small
VOICES = {"agent": "en-us", "customer": "en-gb+f3"}
LINES = {
    "agent_greeting": ("agent", "Thank you for calling Acme support, how can I help you today?"),
    "agent_ask_account": ("agent", "Sure, could you tell me your account number please?"),
    "agent_confirm": ("agent", "Thanks, I can see the double charge on your last bill."),
    "agent_refund": ("agent", "I have issued a refund, it will arrive within five working days."),
    "agent_long": ("agent", "Let me explain our refund policy in detail, refunds are processed every "
                            "weekday and usually take three to five working days to appear."),
    "agent_bye": ("agent", "Is there anything else I can help you with?"),
    "agent_goodbye": ("agent", "Thank you for calling, goodbye."),
    "customer_problem": ("customer", "Hi, I was charged twice for my subscription this month."),
    "customer_account": ("customer", "Yes, it is four seven two nine one."),
    "customer_interrupt": ("customer", "Sorry, I just want the money back."),
    "customer_thanks": ("customer", "Great, thank you very much."),
    "customer_bye": ("customer", "No, that is all, goodbye."),
    "customer_hello": ("customer", "Hello? Is anyone there?"),
    # disclaimers, consent and other languages (audio-disclaimer-check, audio-consent-check, audio-language*);
    # the German and Spanish clips are 16 kHz with espeak's plain voices: Whisper's language ID on 8 kHz
    # espeak speech, or on the +f3 variants (read as English), is too unsure to test with
    "agent_disclaimer": ("agent", "Please note that this call is recorded for quality and training purposes."),
    "agent_consent": ("agent", "Do you agree to this call being recorded?"),
    "customer_consent_yes": ("customer", "Yes, that is fine."),
    "agent_de_greeting": ("agent", "Guten Tag, hier ist der Kundendienst von Acme. Wie kann ich Ihnen helfen?", "de", 16_000),
    "customer_de_problem": ("customer", "Ich wurde diesen Monat zweimal für mein Abonnement belastet.", "de", 16_000),
    "agent_de_reply": ("agent", "Das tut mir leid, ich prüfe sofort Ihr Konto und erstatte den Betrag.", "de", 16_000),
    "customer_es_problem": ("customer", "Hola, me cobraron dos veces la suscripción este mes.", "es", 16_000),
    "agent_es_reply": ("agent", "Lo siento mucho, voy a revisar su cuenta ahora mismo.", "es", 16_000),
}
TRIM_DB = 45.0


def _synth(text: str, voice: str, out: Path, rate: int = RATE) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        raw = Path(tmp) / "raw.wav"
        subprocess.run(["espeak-ng", "-v", voice, "-s", "165", "-w", str(raw), text], check=True)
        subprocess.run(["sox", "-D", str(raw), "-r", str(rate), "-c", "1", "-b", "16", str(out)], check=True)


def _trim(samples: np.ndarray, rate: int = RATE) -> np.ndarray:
    """Cut leading and trailing frames more than TRIM_DB below the loudest 10 ms frame."""
    hop = rate // 100
    frames = samples[: len(samples) // hop * hop].astype(np.float64).reshape(-1, hop)
    rms = np.sqrt((frames ** 2).mean(axis=1)) + 1e-9
    loud = np.flatnonzero(20 * np.log10(rms / rms.max()) > -TRIM_DB)
    return samples[loud[0] * hop:(loud[-1] + 1) * hop]


def main() -> None:
    CLIPS.mkdir(exist_ok=True)
    missing_only = "--missing" in sys.argv  # build only clips not committed yet
    for name, (speaker, text, *extra) in LINES.items():
        path = CLIPS / f"{name}.wav"
        if missing_only and path.exists():
            continue
        rate = extra[1] if len(extra) > 1 else RATE
        _synth(text, extra[0] if extra else VOICES[speaker], path, rate)
        with wave.open(str(path), "rb") as w:
            samples = np.frombuffer(w.readframes(w.getnframes()), dtype="<i2")
        trimmed = _trim(samples, rate)
        with wave.open(str(path), "wb") as w:
            w.setnchannels(1)
            w.setsampwidth(2)
            w.setframerate(rate)
            w.writeframes(trimmed.astype("<i2").tobytes())
        print(f"{name}: {len(trimmed) / rate:.2f} s")


if __name__ == "__main__":
    main()
