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

# The language-ID set (labelled.py: language.jsonl, language_switch.jsonl): one help-desk exchange said in seven
# languages — lines 0 and 2 by the agent, 1 and 3 by the customer, all in espeak's plain voice of the language
# (the +f3 variants are read as English by Whisper; a first run with the customer at pitch 70 had Whisper read
# a third of the customer turns as ja/vi/fi). Synthesised at 16 kHz when first asked for (``language_clip``)
# into a cache folder, not committed: the 28 clips would be 1.4 MB even as FLAC.
LANGUAGE_VOICES = {"en": "en-us", "de": "de", "nl": "nl", "es": "es", "pt": "pt", "fr": "fr-fr", "it": "it"}
LANGUAGE_LINES = {
    "en": ("Good morning, this is the help desk, how can I help?", "Hello, my package has not arrived yet.",
           "I will check your order and call you back today.", "Thank you, that would be very kind."),
    "de": ("Guten Morgen, hier ist der Kundendienst, wie kann ich helfen?",
           "Hallo, mein Paket ist noch nicht angekommen.", "Ich prüfe Ihre Bestellung und rufe Sie heute zurück.",
           "Vielen Dank, das wäre sehr nett."),
    "nl": ("Goedemorgen, u spreekt met de klantenservice, hoe kan ik helpen?",
           "Hallo, mijn pakket is nog niet aangekomen.", "Ik controleer uw bestelling en bel u vandaag terug.",
           "Dank u wel, dat zou heel vriendelijk zijn."),
    "es": ("Buenos días, habla con atención al cliente, ¿en qué puedo ayudarle?",
           "Hola, mi paquete todavía no ha llegado.", "Voy a revisar su pedido y le llamo hoy mismo.",
           "Muchas gracias, sería muy amable."),
    "pt": ("Bom dia, fala com o apoio ao cliente, como posso ajudar?", "Olá, a minha encomenda ainda não chegou.",
           "Vou verificar a sua encomenda e ligo-lhe ainda hoje.", "Muito obrigado, seria muito simpático."),
    "fr": ("Bonjour, vous êtes au service client, comment puis-je vous aider?",
           "Bonjour, mon colis n'est toujours pas arrivé.",
           "Je vérifie votre commande et je vous rappelle aujourd'hui.", "Merci beaucoup, ce serait très gentil."),
    "it": ("Buongiorno, parla con il servizio clienti, come posso aiutarla?",
           "Salve, il mio pacco non è ancora arrivato.", "Controllo il suo ordine e la richiamo oggi stesso.",
           "Grazie mille, sarebbe molto gentile."),
}
LANGUAGE_RATE = 16_000


def espeak_version() -> str:
    found = subprocess.run(["espeak-ng", "--version"], capture_output=True, text=True, check=True).stdout
    return found.split("Data at")[0].replace("eSpeak NG text-to-speech:", "").strip()


def language_clip(language: str, index: int, cache: Path | None = None) -> np.ndarray:
    """Line ``index`` (0–3) of ``language`` as 16 kHz float32 samples trimmed to the voiced extent, synthesised
    by espeak-ng + sox on first use and cached (``$TMPDIR/agentunit-language-clips/plain-<espeak version>/``).
    Raises FileNotFoundError when espeak-ng or sox is missing (make audio-tools)."""
    folder = cache or (Path(tempfile.gettempdir()) / "agentunit-language-clips"
                       / f"plain-{espeak_version().replace(' ', '_')}")
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{language}{index}.wav"
    if not path.exists():
        with tempfile.TemporaryDirectory() as tmp:
            raw, out = Path(tmp) / "raw.wav", Path(tmp) / "out.wav"
            subprocess.run(["espeak-ng", "-v", LANGUAGE_VOICES[language], "-s", "165", "-w", str(raw),
                            LANGUAGE_LINES[language][index]], check=True)
            subprocess.run(["sox", "-D", str(raw), "-r", str(LANGUAGE_RATE), "-c", "1", "-b", "16", str(out)],
                           check=True)
            with wave.open(str(out), "rb") as w:
                samples = _trim(np.frombuffer(w.readframes(w.getnframes()), dtype="<i2"), LANGUAGE_RATE)
            with wave.open(str(out), "wb") as w:
                w.setnchannels(1)
                w.setsampwidth(2)
                w.setframerate(LANGUAGE_RATE)
                w.writeframes(samples.astype("<i2").tobytes())
            out.replace(path)
    with wave.open(str(path), "rb") as w:
        return np.frombuffer(w.readframes(w.getnframes()), dtype="<i2").astype(np.float32) / 32768.0


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
