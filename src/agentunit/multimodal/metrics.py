"""Image / multimodal metrics: caption accuracy, cross-modal grounding, image helpfulness, multimodal
contextual relevancy and recall, multimodal coherence.

Evidence, in order: a CLIP model in ONNX form when ``config.clip_model`` names one; the suite's judge
when it is marked a vision model (``judge: {provider: openai, vision: true, …}``: the images travel as
``image_url`` parts); else what ships offline — OCR text and visual facts (agentunit.multimodal.evidence)
for the claims they can settle. A question of scene semantics with none of them is not measured, with
the fix named. Each result's ``detail.evidence`` says which evidence decided.
"""

from __future__ import annotations

import asyncio
import base64
import difflib
import re
import unicodedata
from typing import Any

from agentunit._lazy import lazy_exports
from agentunit.errors import MetricConfigError
from agentunit.judges.base import JudgeRequest
from agentunit.media import media_of, output_media
from agentunit.metrics.base import MetricResult
from agentunit.metrics.judged import JudgedMetric
from agentunit.metrics.registry import register
from agentunit.multimodal import evidence as ev
from agentunit.multimodal.evidence import ClipModel, clip_model_at

# The AgentUnit catalog documents these under this module; they live with their medium and are imported
# only when first asked for, so importing this module does not load OpenCV or the audio stack.
_CATALOG_ELSEWHERE = {"VideoResponseRelevanceMetric": "agentunit.video.metrics",
                      "AudioTranscriptionMetric": "agentunit.audio.metrics"}

__all__ = [
    *_CATALOG_ELSEWHERE,
    "NO_SCENE_EVIDENCE",
    "VISION_JUDGE",
    "ClipModel",
    "CrossModalGroundingMetric",
    "ImageCaptionAccuracyMetric",
    "ImageHelpfulnessMetric",
    "ImageMetric",
    "MultimodalCoherenceMetric",
    "MultimodalContextualRecallMetric",
    "MultimodalContextualRelevancyMetric",
    "check_claims",
    "clip_model_at",
    "content_words",
    "covered_words",
    "data_uri",
    "described_text",
    "extract_claims",
    "keyword_f1",
    "scene_fix",
    "vision_judge",
    "vision_pass",
]
__getattr__, __dir__ = lazy_exports(globals(), _CATALOG_ELSEWHERE)

VISION_JUDGE = "a judge with vision (judge: {provider: openai, vision: true, model: …, base_url: …})"


def scene_fix(clip: bool) -> str:
    """What would measure a question of scene semantics, for a not-measured reason: no vision model ships
    in any package agentunit installs, so the user has to give one — a CLIP export (only to the metrics
    that use one, ``clip``) or a vision judge."""
    if clip:
        return (f"give config.clip_model a CLIP exported to ONNX ({ev.CLIP_LAYOUTS}), or give the suite "
                f"{VISION_JUDGE} — no vision model ships with agentunit")
    return (f"give the suite {VISION_JUDGE} — no vision model ships with agentunit, and this metric has no "
            "CLIP path (config.clip_model does not apply)")


NO_SCENE_EVIDENCE = scene_fix(clip=True)
STOPWORDS = frozenset("""a an the and or but if then else of on in at to from by for with without about into onto over
under above below between among is are was were be been being am do does did has have had having this that these
those there here it its it's he she they them his her their we us our you your i me my mine what which who whom whose
when where why how as than so such very can could would should will shall may might must not no nor only also just
some any each every all both either neither more most other another same own out up down off again further once
image picture photo shows showing shown depicts depicting""".split())
_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")


def _norm(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).casefold()
    return re.sub(r"[^0-9a-z]+", " ", text).strip()


def content_words(text: str) -> list[str]:
    return [w for w in _WORD.findall(unicodedata.normalize("NFKC", str(text)).casefold()) if w not in STOPWORDS]


def keyword_f1(output: str, expected: str) -> tuple[float, float, float]:
    """(precision, recall, F1) of the content words (lowercased, stopwords removed) as sets."""
    got, want = set(content_words(output)), set(content_words(expected))
    if not got or not want:
        return 0.0, 0.0, 0.0
    common = len(got & want)
    precision, recall = common / len(got), common / len(want)
    return precision, recall, (2 * precision * recall / (precision + recall) if common else 0.0)


def covered_words(wanted: set[str], text: str) -> set[str]:
    """The words of ``wanted`` (an image's OCR content words) that ``text`` mentions. OCR often glues
    words together ("insufficientfunds"), so a wanted word of 4+ characters also counts when it
    appears in the text with the spaces removed."""
    said = set(content_words(text))
    compact = "".join(_WORD.findall(unicodedata.normalize("NFKC", str(text)).casefold()))
    return {w for w in wanted if w in said or (len(w) >= 4 and w in compact)}


def _images(case, outcome, wheres: tuple[str, ...] = ("input", "reply")) -> list[Any]:
    found, seen = [], set()
    for where in wheres:
        for medium in media_of(case, outcome, "image", where):
            if medium.sha256 not in seen:
                seen.add(medium.sha256)
                found.append(medium)
    return found


def described_text(case: Any, outcome: Any) -> tuple[str, str]:
    """The text held against the images, and where it came from: the output; or, when the output is
    itself an image (a text-to-image generator), the prompt it was made from."""
    medium = output_media(outcome, case)
    if medium is not None and medium.kind == "image":
        return str(getattr(outcome, "query", None) or getattr(case, "query", None) or ""), "prompt"
    return str(outcome.output), "output"


def data_uri(medium: Any) -> str:
    return f"data:{medium.mime};base64,{base64.b64encode(medium.data).decode('ascii')}"


def vision_judge() -> Any:
    """The suite's judge service when it is a vision model (``provider: openai`` with ``vision: true``), else None."""
    from agentunit.judges.service import current_judge

    service = current_judge()
    config = service.config or {}
    return service if config.get("provider") == "openai" and config.get("vision") is True else None


async def vision_pass(service: Any, system: str, user: str, images: list[Any]) -> float:
    """P(PASS) of one PASS/FAIL decision of the vision judge, the images sent as ``image_url`` parts."""
    request = JudgeRequest((("system", system), ("user", user)), options=("PASS", "FAIL"),
                           images=tuple(data_uri(m) for m in images))
    decision = await service.decide(request)
    return float(decision.probabilities["PASS"])


# -- claims the offline evidence can settle -------------------------------------------------------

_QUOTED = re.compile(r"[\"“”«»]([^\"“”«»]{1,80})[\"“”«»]|(?<![A-Za-z])'([^']{2,80})'(?![A-Za-z])")
_CAPS = re.compile(r"\b[A-Z][A-Z0-9]{1,}(?:[ \-][A-Z0-9]{2,})*\b")
_SIZE = re.compile(r"\b(\d{1,5})\s*(?:x|×|by)\s*(\d{1,5})(?:\s*(?:px|pixels))?\b", re.I)
# A figure a text-bearing image would print: two or more digits, a decimal, a time, a price or a
# percentage ("1450", "4.20", "08:42", "$19", "12%", "9am"). A lone small count ("3 dogs") is scene
# semantics, not text, so it is not a claim.
_NUMBER = re.compile(r"(?<![\w.,:])([$€£]?)(\d+(?:[.:]\d+)*)(\s?%|\s?(?:am|pm)\b|(?:k|m|bn)\b)?(?![\w]|[.:]\d)",
                     re.I)
_ANY_NUMBER = re.compile(r"\d+(?:[.:]\d+)*")
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")
COLOUR_FAMILY = {"black": "black", "white": "white", "gray": "gray", "silver": "gray", "red": "red",
                 "maroon": "red", "orange": "orange", "yellow": "yellow", "olive": "green", "green": "green",
                 "lime": "green", "teal": "cyan", "cyan": "cyan", "blue": "blue", "navy": "blue",
                 "purple": "purple", "magenta": "purple", "pink": "pink", "brown": "brown", "beige": "white"}
_COLOUR_WORD = re.compile(r"\b(" + "|".join(sorted({*ev.CSS_COLOURS, *ev.COLOUR_SYNONYMS}, key=len, reverse=True))
                          + r")\b", re.I)


def extract_claims(text: str) -> list[dict[str, Any]]:
    """Claims of a text that OCR or visual facts can settle: ``{kind: text|number|colour|size, value}``.

    text: quoted spans and ALL-CAPS words; number: figures of two or more digits, decimals, times, prices
    and percentages outside those (a lone small count is scene semantics and is skipped); colour: colour
    words outside quoted or ALL-CAPS text; size: ``640x480``."""
    claims: list[dict[str, Any]] = []
    seen: set[tuple[str, str]] = set()

    def add(kind: str, value: Any) -> None:
        key = (kind, str(value).casefold())
        if key not in seen:
            seen.add(key)
            claims.append({"kind": kind, "value": value})

    quoted_spans = []
    for match in _QUOTED.finditer(text):
        value = (match.group(1) or match.group(2) or "").strip()
        if _norm(value):
            add("text", value)
            quoted_spans.append(match.span())
    text_spans = list(quoted_spans)
    for match in _CAPS.finditer(text):
        if not any(a <= match.start() < b for a, b in quoted_spans) and len(_norm(match.group())) >= 2 \
                and not match.group().isdigit():
            add("text", match.group())
            if len(match.group().split()) > 1 or "-" in match.group():
                text_spans.append(match.span())
    size_spans = []
    for match in _SIZE.finditer(text):
        add("size", (int(match.group(1)), int(match.group(2))))
        size_spans.append(match.span())
    plain = _THOUSANDS.sub("", text)  # "1,200" is one figure; the removed commas keep spans aligned below
    for match in _NUMBER.finditer(plain):
        currency, core, unit = match.group(1), match.group(2), match.group(3)
        start = _original_offset(text, match.start(2))
        if any(a <= start < b for a, b in text_spans + size_spans):
            continue
        if len(core.replace(".", "").replace(":", "")) >= 2 or currency or unit or "." in core or ":" in core:
            add("number", core)
    for match in _COLOUR_WORD.finditer(text):
        if any(a <= match.start() < b for a, b in text_spans):
            continue  # a word of quoted or ALL-CAPS text ("Green Leaf Cafe"), not a colour claim
        word = match.group(1).casefold()
        add("colour", ev.COLOUR_SYNONYMS.get(word, word))
    return claims


def _original_offset(text: str, offset: int) -> int:
    """The offset in ``text`` of ``offset`` in ``text`` with its thousands commas removed."""
    removed = 0
    for match in _THOUSANDS.finditer(text):
        if match.start() - removed >= offset:
            break
        removed += 1
    return offset + removed


def canonical_number(core: str) -> str:
    """A figure as compared: leading zeros dropped per part ("08:05" = "8:5"), trailing decimal zeros
    dropped ("2.50" = "2.5")."""
    if ":" in core:
        return ":".join(str(int(part)) for part in core.split(":"))
    whole, _, fraction = core.partition(".")
    fraction = fraction.rstrip("0")
    return str(int(whole)) + (f".{fraction}" if fraction else "")


def _numbers_in(lines: list[str]) -> set[str]:
    return {canonical_number(n) for n in _ANY_NUMBER.findall(_THOUSANDS.sub("", " ".join(lines)))}


def _text_found(claim: str, ocr_lines: list[str]) -> tuple[bool, float]:
    """Is the quoted or ALL-CAPS text ``claim`` in the OCR text? Found as written (spacing ignored) or
    within a few misread letters (the best fuzzy match ≥ 0.85) — but the figures in it must be read
    exactly: "$250.00" is not found in "$25.00", however alike the two look."""
    want = _norm(claim)
    seen = _norm(" ".join(ocr_lines))
    if not want:
        return False, 0.0
    if not _numbers_in([claim]) <= _numbers_in(ocr_lines):
        return False, 0.0
    # OCR often drops the space between words ("SALES2024"), so spacing does not count.
    if want in seen or want.replace(" ", "") in seen.replace(" ", ""):
        return True, 1.0
    # OCR misreads a letter now and then: the best fuzzy match over windows of about the claim's length.
    words, size = seen.split(), len(want.split())
    best = max((difflib.SequenceMatcher(None, want, " ".join(words[i:i + n])).ratio()
                for n in {max(1, size - 1), size, size + 1} for i in range(max(1, len(words) - n + 1))),
               default=0.0)
    return best >= 0.85, round(best, 3)


def check_claims(claims: list[dict[str, Any]], images: list[Any]) -> tuple[list[dict[str, Any]], list[str]]:
    """Settle each claim against the images' OCR text and facts: ``(checked, notes)``. A claim that
    needs OCR when OCR cannot run is left out and named in the notes."""
    checked, notes = [], []
    facts = [ev.image_facts(m) for m in images]
    ocr: list[str] | None = None
    ocr_missing: str | None = None
    for claim in claims:
        kind, value = claim["kind"], claim["value"]
        if kind in ("text", "number"):
            if ocr is None:
                ocr_missing = ev.ocr_status()
                ocr = [] if ocr_missing else [line["text"] for m in images for line in ev.ocr_text(m)]
                if ocr_missing:
                    notes.append(f"text claims not checked: {ocr_missing}")
            if ocr_missing:
                continue
            if kind == "number":
                if not ocr:  # no text in the image: a figure there is not something OCR can settle
                    notes.append("figures not checked: the image has no text OCR can read")
                    continue
                checked.append({**claim, "supported": canonical_number(value) in _numbers_in(ocr), "source": "ocr"})
                continue
            found, match = _text_found(value, ocr)
            checked.append({**claim, "supported": found, "match": match, "source": "ocr"})
        elif kind == "colour":
            family = COLOUR_FAMILY.get(value, value)
            present = sorted({c for f in facts for c in f.colour_names(0.05)})
            found = family in {COLOUR_FAMILY.get(c, c) for c in present}
            checked.append({**claim, "supported": found, "present": present, "source": "facts"})
        else:
            sizes = [(f.width, f.height) for f in facts]
            checked.append({"kind": kind, "value": list(value), "supported": tuple(value) in sizes,
                            "present": [list(s) for s in sizes], "source": "facts"})
    return checked, list(dict.fromkeys(notes))


class ImageMetric(JudgedMetric):
    """Shared config: ``clip_model`` (a CLIP exported to ONNX — one file, or a folder with ``visual.onnx``
    and ``textual.onnx``; ``evidence.clip_files``), ``clip_threshold`` (cosine counted as a match, 0.25).
    ``uses_clip``: whether the metric has a CLIP path, so its not-measured reasons name CLIP as a fix
    only when it is one."""

    uses_clip = False

    @property
    def scene_fix(self) -> str:
        return scene_fix(self.uses_clip)

    def setup(self) -> None:
        super().setup()
        clip = self.config.get("clip_model")
        if clip is not None:
            if not isinstance(clip, str) or not clip.strip():
                raise MetricConfigError(f"{self.name} config.clip_model must be a path to a CLIP exported to ONNX: "
                                        f"{ev.CLIP_LAYOUTS}")
            try:
                ev.clip_files(clip)
            except ev.ClipLayoutError as exc:
                raise MetricConfigError(f"{self.name} config.clip_model: {exc}") from None
        threshold = self.config.get("clip_threshold", 0.25)
        if isinstance(threshold, bool) or not isinstance(threshold, int | float) or not -1 <= threshold <= 1:
            raise MetricConfigError(f"{self.name} config.clip_threshold must be a number in [-1, 1], got {threshold!r}")
        self.clip_threshold = float(threshold)

    def _no_pillow(self) -> MetricResult | None:
        why = ev.pillow_status()
        return self.not_measured(why) if why else None


class _TextAgainstImages(ImageMetric):
    """A metric that holds a text against the images of the case or reply: the output, or the prompt
    when the output is itself a generated image (``described_text``). Subclasses give ``_score``."""

    async def evaluate_async(self, case, trace, outcome) -> MetricResult:
        images = _images(case, outcome)
        if not images:
            return self.not_measured("no image in the case or the reply")
        text, source = described_text(case, outcome)
        if source == "prompt" and not text.strip():
            return self.not_measured("the output is a generated image and the case has no prompt to hold it against")
        result = await self._score(text, images)
        if source == "prompt" and result.value is not None:
            result.detail["text_from"] = "prompt"
            result.reason = f"the prompt against the generated image: {result.reason}"
        return result

    async def _score(self, text: str, images: list[Any]) -> MetricResult:
        raise NotImplementedError


# -- image_caption_accuracy -------------------------------------------------------------------------

CAPTION_SEMANTIC_WEIGHT = 0.7


@register("image_caption_accuracy", family="multimodal", aliases=("image-caption-accuracy",),
          needs=("output", "expected_output"), value="optional", threshold=0.5, model="embeddings",
          example="{metric: image_caption_accuracy, value: \"A red double-decker bus on a city street.\"}")
class ImageCaptionAccuracyMetric(JudgedMetric):
    """A generated caption (the output) against the expected caption: 0.7 × cosine similarity of their
    MiniLM embeddings (clipped at 0) + 0.3 × keyword F1 over content words (lowercased, stopwords
    removed). The detail shows both parts and the matched and missing keywords. No image is read: the
    expected caption carries what the image shows. Default threshold 0.5."""

    async def evaluate_async(self, case, trace, outcome) -> MetricResult:
        from agentunit.models.embeddings import embed_texts

        output, expected = str(outcome.output), str(self.expected(case))
        vectors = await embed_texts([output, expected])
        semantic = max(0.0, float((vectors[0] * vectors[1]).sum()))
        precision, recall, f1 = keyword_f1(output, expected)
        score = CAPTION_SEMANTIC_WEIGHT * semantic + (1 - CAPTION_SEMANTIC_WEIGHT) * f1
        got, want = set(content_words(output)), set(content_words(expected))
        return self.result(score, reason=f"semantic {semantic:.3f} (×0.7) + keyword F1 {f1:.3f} (×0.3)",
                           detail={"semantic_similarity": round(semantic, 4), "keyword_f1": round(f1, 4),
                                   "keyword_precision": round(precision, 4), "keyword_recall": round(recall, 4),
                                   "matched_keywords": sorted(got & want), "missing_keywords": sorted(want - got),
                                   "extra_keywords": sorted(got - want), "evidence": "embeddings+keywords",
                                   "model": "all-MiniLM-L6-v2 int8"})


# -- cross_modal_grounding --------------------------------------------------------------------------

GROUNDING_SYSTEM = "You check whether a text is faithful to an image. Reply PASS or FAIL."
GROUNDING_USER = ("Text: {text}\n\nLook at the image. If everything the text states about the image is shown "
                  "in it, reply PASS. If the text states something the image does not show or contradicts, reply FAIL.")


@register("cross_modal_grounding", family="multimodal", aliases=("cross-modal-grounding",), threshold=0.5,
          model="judge", example="{metric: cross_modal_grounding}")
class CrossModalGroundingMetric(_TextAgainstImages):
    """Is the text output grounded in the case's (or the reply's) image?

    Evidence, first available: CLIP (``config.clip_model``): cosine of text and image embeddings, the
    best over the images, scored 1 at or above ``clip_threshold`` (0.25) and ``cosine / threshold``
    below; the vision judge (the suite's judge with ``vision: true``, ``provider: openai``): P(PASS)
    over all images at once; else the output's checkable claims — quoted or ALL-CAPS text (must
    appear in the OCR text), colour words (among the dominant colours), sizes like ``640x480`` —
    scored as the share supported. With none of these (a claim about what a photo shows and no vision
    judge or CLIP) the result is not measured, naming the fix. No image → not measured. When the output
    is itself an image (a text-to-image generator), the prompt is held against it instead.
    """

    uses_clip = True

    async def _score(self, text: str, images: list[Any]) -> MetricResult:
        clip = self.config.get("clip_model")
        if clip:
            model = await asyncio.to_thread(clip_model_at, clip)
            cosines = [await asyncio.to_thread(model.similarity, text, m) for m in images]
            best = max(cosines)
            return self.result(min(1.0, max(0.0, best / self.clip_threshold)),
                               reason=f"CLIP cosine {best:.3f} (match at ≥ {self.clip_threshold})",
                               detail={"evidence": "clip", "cosines": cosines, "clip_threshold": self.clip_threshold})
        service = vision_judge()
        if service is not None:
            p = await vision_pass(service, GROUNDING_SYSTEM, GROUNDING_USER.format(text=text), images)
            return self.result(p, reason=f"vision judge P(grounded) {p:.3f}",
                               detail={"evidence": "vision_judge", "images": len(images)})
        missing = self._no_pillow()
        if missing:
            return missing
        claims = extract_claims(text)
        checked, notes = await asyncio.to_thread(check_claims, claims, images)
        if not checked:
            why = "; ".join(notes) + "; or " if notes else ""
            return self.not_measured(f"the output makes no claim that OCR or visual facts can settle and grounding "
                                     f"it needs scene semantics — {why}{self.scene_fix}")
        supported = sum(c["supported"] for c in checked)
        sources = sorted({c["source"] for c in checked})
        unsupported = [str(c["value"]) for c in checked if not c["supported"]]
        reason = f"{supported}/{len(checked)} checkable claims found in the image"
        if unsupported:
            reason += f"; not found: {', '.join(unsupported)}"
        detail: dict[str, Any] = {"evidence": "+".join(sources), "claims": checked,
                                  "scope": "only the claims OCR and visual facts can settle were checked"}
        if notes:
            detail["notes"] = notes
        return self.result(supported / len(checked), reason=reason, detail=detail)


# -- shared: an image as the judge can see it ---------------------------------------------------------

async def _ocr_passage(medium: Any) -> str | None:
    """The text read from an image as a passage for the text judge; None when OCR finds none or cannot run."""
    if ev.pillow_status() or ev.ocr_status():
        return None
    lines = await asyncio.to_thread(ev.ocr_text, medium)
    text = " ".join(line["text"] for line in lines).strip()
    return f"[text read from an image] {text}" if text else None


def _unreadable(images: list[Any], what: str, fix: str) -> str:
    why = ev.pillow_status() or ev.ocr_status()
    extra = f" ({why})" if why else ""
    return (f"{len(images)} image(s) {what} hold no text OCR can read{extra}, and what they show needs scene "
            f"semantics — {fix}")


# -- multimodal-contextual-relevancy / -recall ----------------------------------------------------------

IMAGE_USEFUL = ("Question: {question}\n\nLook at the image. If it contains information needed to answer the "
                "question, reply PASS. Otherwise reply FAIL.")


@register("multimodal-contextual-relevancy", family="multimodal", aliases=("multimodal_contextual_relevancy",),
          needs=("output", "query"), threshold=0.5, model="judge",
          example="{metric: multimodal-contextual-relevancy}")
class MultimodalContextualRelevancyMetric(ImageMetric):
    """Share of the retrieved context — text passages and images (``trusys.context`` items ``{image: …}``,
    or the case's images when there is no retrieved image) — that holds information needed to answer the
    query. A text passage and an image's OCR text go to the judge ("does it help answer the question?");
    an image goes to the vision judge when there is one (``judge: {…, vision: true}``). Score = mean
    P(relevant) over the items. An image with no readable text and no vision judge makes the result not
    measured, with the fix named — its relevance cannot be read offline."""

    async def evaluate_async(self, case, trace, outcome) -> MetricResult:
        from agentunit.metrics.rag import _useful, context_of

        question = str(outcome.query or case.query)
        passages = context_of(case, outcome) or []
        images = _images(case, outcome, ("context",)) or _images(case, outcome, ("input",))
        if not passages and not images:
            return self.not_measured("no context (text in trusys.context, images as {image: …} items)")
        service = vision_judge()
        items: list[dict[str, Any]] = []
        unreadable = []
        for medium in images:
            if service is not None:
                p = await vision_pass(service, "You judge whether an image helps answer a question. "
                                       "Reply PASS or FAIL.", IMAGE_USEFUL.format(question=question), [medium])
                items.append({"image": medium.sha256[:12], "relevant": round(p, 4), "evidence": "vision_judge"})
                continue
            passage = await _ocr_passage(medium)
            if passage is None:
                unreadable.append(medium)
                continue
            p = await _useful(passage, question, None)
            items.append({"image": medium.sha256[:12], "ocr_text": passage, "relevant": round(p, 4),
                          "evidence": "ocr+judge"})
        if unreadable:
            return self.not_measured(_unreadable(unreadable, "in the context", self.scene_fix))
        for passage in passages:
            items.append({"text": passage, "relevant": round(await _useful(passage, question, None), 4),
                          "evidence": "judge"})
        score = sum(i["relevant"] for i in items) / len(items)
        return self.result(score, reason=f"{score:.2f} of {len(items)} context items relevant",
                           detail={"items": items, "evidence": "+".join(sorted({i["evidence"] for i in items}))})


RECALL_IMAGE = ("Statement: {claim}\n\nLook at the image(s) and the text context below. If they state or clearly "
                "show the statement, reply PASS. Otherwise reply FAIL.\n\nText context:\n{context}")


@register("multimodal-contextual-recall", family="multimodal", aliases=("multimodal_contextual_recall",),
          needs=("output", "expected_output"), value="optional", threshold=0.5, model="judge",
          example="{metric: multimodal-contextual-recall, value: \"Revenue grew 12% in 2024.\"}")
class MultimodalContextualRecallMetric(ImageMetric):
    """Share of the expected answer's sentences that the retrieved context — text and images — supports.
    With a vision judge each sentence is asked against the images and the text together; otherwise the
    images' OCR text joins the text passages and each sentence is checked as the ``context-recall``
    metric does (judge + lexical evidence). An image with no readable text and no vision judge makes the
    result not measured, with the fix named."""

    async def evaluate_async(self, case, trace, outcome) -> MetricResult:
        from agentunit.metrics._sentences import split_sentences
        from agentunit.metrics.rag import claim_support, context_of

        expected = str(self.expected(case))
        claims = split_sentences(expected) or [expected]
        passages = context_of(case, outcome) or []
        images = _images(case, outcome, ("context",)) or _images(case, outcome, ("input",))
        if not passages and not images:
            return self.not_measured("no context (text in trusys.context, images as {image: …} items)")
        service = vision_judge()
        if service is not None and images:
            parts = []
            for claim in claims:
                p = await vision_pass(service, "You check statements against retrieved context. Reply PASS or FAIL.",
                                       RECALL_IMAGE.format(claim=claim, context="\n".join(passages) or "(none)"),
                                       images)
                parts.append({"claim": claim, "support": round(p, 4)})
            evidence_name = "vision_judge"
        else:
            unreadable = []
            for medium in images:
                passage = await _ocr_passage(medium)
                if passage is None:
                    unreadable.append(medium)
                else:
                    passages.append(passage)
            if unreadable:
                return self.not_measured(_unreadable(unreadable, "in the context", self.scene_fix))
            parts = [await claim_support(claim, passages) for claim in claims]
            evidence_name = "ocr+judge" if images else "judge"
        score = sum(p["support"] for p in parts) / len(parts)
        return self.result(score, reason=f"{score:.2f} of the expected answer found in the context",
                           detail={"claims": parts, "evidence": evidence_name})


# -- image-helpfulness --------------------------------------------------------------------------------

HELPFUL_USER = ("{goal}\n\nLook at the image(s) given with this answer. If they help a user understand the answer or "
                "get what they asked for, reply PASS. If they are unrelated, misleading or add nothing, reply FAIL.")


@register("image-helpfulness", family="multimodal", aliases=("image_helpfulness",), threshold=0.5, model="judge",
          example="{metric: image-helpfulness}")
class ImageHelpfulnessMetric(ImageMetric):
    """Do the images of the reply (``trusys.image(s)``; the case's images when the reply has none) help the
    user with the answer? CLIP (``config.clip_model``): cosine of the query + answer with the best image,
    scored as ``cross_modal_grounding`` does; the vision judge: P(PASS); else the images' OCR text goes to
    the text judge ("does this help answer the question?") — a chart's or a screenshot's words. An image
    with no readable text and neither CLIP nor a vision judge: not measured, with the fix named."""

    uses_clip = True

    async def evaluate_async(self, case, trace, outcome) -> MetricResult:
        from agentunit.metrics.rag import _useful

        images = _images(case, outcome, ("reply",)) or _images(case, outcome, ("input",))
        if not images:
            return self.not_measured("no image in the reply or the case")
        question = outcome.query or case.query
        goal = (f"Question: {question}\n" if question else "") + f"Answer: {outcome.output}"
        clip = self.config.get("clip_model")
        if clip:
            model = await asyncio.to_thread(clip_model_at, clip)
            text = f"{question or ''} {outcome.output}".strip()
            cosines = [await asyncio.to_thread(model.similarity, text, m) for m in images]
            best = max(cosines)
            return self.result(min(1.0, max(0.0, best / self.clip_threshold)),
                               reason=f"CLIP cosine {best:.3f} (match at ≥ {self.clip_threshold})",
                               detail={"evidence": "clip", "cosines": cosines})
        service = vision_judge()
        if service is not None:
            p = await vision_pass(service, "You judge whether images help a user. Reply PASS or FAIL.",
                                   HELPFUL_USER.format(goal=goal), images)
            return self.result(p, reason=f"vision judge P(helpful) {p:.3f}",
                               detail={"evidence": "vision_judge", "images": len(images)})
        scores, unreadable, shown = [], [], []
        for medium in images:
            passage = await _ocr_passage(medium)
            if passage is None:
                unreadable.append(medium)
                continue
            shown.append(passage)
            scores.append(await _useful(passage, str(question or outcome.output), str(outcome.output)))
        if unreadable:
            return self.not_measured(_unreadable(unreadable, "of the reply", self.scene_fix))
        score = sum(scores) / len(scores)
        return self.result(score, reason=f"the images' text helps with P {score:.3f}",
                           detail={"evidence": "ocr+judge", "ocr_text": shown, "scores": scores})


# -- multimodal_coherence -------------------------------------------------------------------------------

COVERAGE_WEIGHT = 0.6
COVERAGE_USER = ("Text: {text}\n\nLook at the image(s). If the text covers what the image shows that matters "
                 "(its main subject, and any text or figures in it), reply PASS. If it leaves the main content out, "
                 "reply FAIL.")


@register("multimodal_coherence", family="multimodal", aliases=("multimodal-coherence",), threshold=0.5,
          model="judge", example="{metric: multimodal_coherence}")
class MultimodalCoherenceMetric(_TextAgainstImages):
    """How well the text output and the image(s) of the case or reply fit together:
    0.6 × coverage + 0.4 × coherence. With a vision judge: coverage = P(the text covers what the image
    shows), coherence = P(nothing the text says contradicts the image) — two decisions. Offline:
    coverage = the share of the image's OCR content words the output mentions; coherence = the share of
    the output's checkable claims (quoted or ALL-CAPS text, colours, sizes) found in the image. An image
    without readable text, or an output without checkable claims, leaves a part without evidence: not
    measured, with the fix named. A generated image (the output is an image) is held against the prompt."""

    async def _score(self, text: str, images: list[Any]) -> MetricResult:
        service = vision_judge()
        if service is not None:
            coverage = await vision_pass(service, GROUNDING_SYSTEM, COVERAGE_USER.format(text=text), images)
            coherence = await vision_pass(service, GROUNDING_SYSTEM, GROUNDING_USER.format(text=text), images)
            detail: dict[str, Any] = {"evidence": "vision_judge"}
        else:
            missing = self._no_pillow() or (self.not_measured(_unreadable(images, "of the case", self.scene_fix))
                                             if ev.ocr_status() else None)
            if missing:
                return missing
            lines = [line["text"] for m in images for line in await asyncio.to_thread(ev.ocr_text, m)]
            wanted = set(content_words(" ".join(lines)))
            checked, notes = await asyncio.to_thread(check_claims, extract_claims(text), images)
            if not wanted:
                return self.not_measured(_unreadable(images, "of the case", self.scene_fix))
            if not checked:
                return self.not_measured("the output makes no claim that OCR or visual facts can settle "
                                         f"(quoted or ALL-CAPS text, colours, sizes) — {self.scene_fix}")
            covered = covered_words(wanted, text)
            coverage = len(covered) / len(wanted)
            coherence = sum(c["supported"] for c in checked) / len(checked)
            detail = {"evidence": "+".join(sorted({"ocr", *(c["source"] for c in checked)})),
                      "image_words": sorted(wanted), "missing_words": sorted(wanted - covered), "claims": checked}
            if notes:
                detail["notes"] = notes
        score = COVERAGE_WEIGHT * coverage + (1 - COVERAGE_WEIGHT) * coherence
        detail.update(coverage=round(coverage, 4), coherence=round(coherence, 4))
        return self.result(score, reason=f"coverage {coverage:.3f} (×0.6) + coherence {coherence:.3f} (×0.4)",
                           detail=detail)
