"""Static code metrics: ``code-language``, ``contains-code-language`` and ``code-readability``."""

from __future__ import annotations

import re
from typing import Any

from agentunit.code.extract import CodeBlock, check_block_config, select_code
from agentunit.code.language import LANGUAGES, LanguageGuess, canonical_language, classify_language
from agentunit.code.readability import readability
from agentunit.core.sync import run_blocking
from agentunit.errors import MetricConfigError
from agentunit.judges.base import JudgeRequest
from agentunit.metrics._values import switch
from agentunit.metrics.base import Metric, MetricResult, keyword_config
from agentunit.metrics.registry import register

__all__ = ["CodeLanguage", "CodeReadability", "ContainsCodeLanguage", "looks_like_prose", "readability_request"]

_CODE_SYMBOLS = re.compile(r"[{}\[\]();=<>$|&*/\\:#@]")


def looks_like_prose(text: str) -> bool:
    """True for unfenced text that is natural language rather than code: fewer than 3 % of its
    non-blank characters are code punctuation and its lines average at least 5 words."""
    nonblank = sum(1 for ch in text if not ch.isspace())
    lines = [line for line in text.split("\n") if line.strip()]
    if not nonblank or not lines:
        return True
    words_per_line = sum(len(line.split()) for line in lines) / len(lines)
    return len(_CODE_SYMBOLS.findall(text)) / nonblank < 0.03 and words_per_line >= 5


def _code_in(text: str, block: Any) -> tuple[list[CodeBlock], str | None]:
    """The selected blocks, treating an unfenced output that reads as prose as no code at all (the
    extractor falls back to the whole output, and prose would otherwise be classified as some language)."""
    blocks, why = select_code(text, block)
    if blocks and not blocks[0].fenced and looks_like_prose(blocks[0].code):
        return [], "the output holds no code (no fenced block, and the text reads as prose)"
    return blocks, why


def _language_value(value: Any) -> str:
    name = canonical_language(value) if isinstance(value, str) and value.strip() else None
    if name is None:
        raise MetricConfigError(f"unknown language {value!r}; known: {', '.join(LANGUAGES)} "
                                "(aliases: c++, c#, js, ts, golang, py, sh, shell, rb, rs, kt, hs, …)")
    return name


def _block_detail(block: CodeBlock, guess: LanguageGuess, expected: str) -> dict[str, Any]:
    return {**block.describe(), "language": guess.language, "top": guess.top(3),
            f"p({expected})": round(guess.probability_of(expected), 4)}


def readability_request(code: str, language: str) -> JudgeRequest:
    """The judge's 1–5 readability rating of ``code``, answered with one digit."""
    user = (f"Code ({language}):\n```{language}\n{code}\n```\n\n"
            "Rate how readable this code is for a maintainer: names, structure, comments and formatting. "
            "1 = unreadable (minified or obfuscated), 2 = hard to read, 3 = acceptable, 4 = clear, "
            "5 = clean and idiomatic. Answer with one digit.")
    return JudgeRequest((("system", "You review code for readability. Answer with one digit."), ("user", user)),
                        options=("1", "2", "3", "4", "5"))


class _LanguageMetric(Metric):
    default_block: Any = "first"

    def __init__(self, value: Any = None, *, block: Any = None, **base: Any):
        super().__init__(value, config=keyword_config({"block": block or self.default_block}, base), **base)

    def setup(self) -> None:
        check_block_config(self.config.get("block", self.default_block))
        self.language = _language_value(self.value) if self.value is not None else None

    def check_expected(self, expected: Any) -> None:
        _language_value(expected)

    def _classified(self, case, outcome) -> tuple[str, list[tuple[CodeBlock, LanguageGuess]], str | None]:
        expected = self.language or _language_value(self.expected(case))
        blocks, why = _code_in(outcome.output or "", self.config.get("block", self.default_block))
        return expected, [(b, classify_language(b.code, b.tag)) for b in blocks], why


@register("code-language", family="code", value="required", kind="binary", aliases=("code_language",),
          example="{metric: code-language, value: python}")
class CodeLanguage(_LanguageMetric):
    """Pass when the code in the output is written in the language ``value``.

    ``value`` is one of 22 languages, lowercase, with common aliases: python, javascript (js),
    typescript (ts), java, c, cpp (c++), csharp (c#), go (golang), rust, ruby, php, swift, kotlin,
    scala, bash (sh, shell), sql, html, css, r, lua, perl, haskell; an unknown name is a suite error
    listing them. The classifier (``agentunit.code.language``) combines tree-sitter parse errors and
    structure under each grammar, pygments lexer evidence, a token naive-Bayes model and the fence
    tag as one piece of evidence (a ```` ```python ```` fence around JavaScript is still JavaScript;
    the tag decides near ties such as C vs C++). ``config.block`` (``first``, ``last``, ``all`` or an
    index; default ``first``) picks the block; with ``all`` every block must be in the language. An
    output with no code (no fence and the text reads as prose) fails with value 0. The detail lists,
    per block, the top 3 candidates with probabilities. Accuracy on the labelled test split: see
    docs/code-and-moderation.md.
    """

    def evaluate(self, case, trace, outcome) -> MetricResult:
        expected, guesses, why = self._classified(case, outcome)
        if not guesses:
            return self.result(0.0, passed=False, reason=why, detail={"blocks": []})
        ok = all(g.language == expected for _, g in guesses)
        found = sorted({g.language for _, g in guesses})
        reason = (f"code is {expected}" if ok else f"expected {expected}, the code reads as {', '.join(found)}")
        return self.result(float(ok), passed=ok, reason=reason,
                           detail={"blocks": [_block_detail(b, g, expected) for b, g in guesses]})


@register("contains-code-language", family="code", value="required", kind="binary",
          aliases=("contains_code_language",), example="{metric: contains-code-language, value: sql}")
class ContainsCodeLanguage(_LanguageMetric):
    """Pass when at least one code block of the output is written in the language ``value``.

    Same languages, aliases and classifier as ``code-language``; every block is classified
    (``config.block`` defaults to ``all``). An output with no code fails with value 0. The detail
    lists each block's top 3 candidates with probabilities and which blocks matched.
    """

    default_block = "all"

    def evaluate(self, case, trace, outcome) -> MetricResult:
        expected, guesses, why = self._classified(case, outcome)
        if not guesses:
            return self.result(0.0, passed=False, reason=why, detail={"blocks": []})
        matched = [b.index for b, g in guesses if g.language == expected]
        reason = (f"block(s) {matched} in {expected}" if matched else
                  f"no block in {expected}; found {', '.join(sorted({g.language for _, g in guesses}))}")
        return self.result(float(bool(matched)), passed=bool(matched), reason=reason,
                           detail={"blocks": [_block_detail(b, g, expected) for b, g in guesses],
                                   "matched": matched})


@register("code-readability", family="code", threshold=0.6, aliases=("code_readability",),
          example="{metric: code-readability, threshold: 0.7}")
class CodeReadability(Metric):
    """Readability of the code in the output, 0–1: the weighted mean of established measures.

    Measures (``agentunit.code.readability``; raw → score linear between the thresholds, clamped):
    radon's maintainability index for Python (10 → 0, 50 → 1; weight 0.15); mean cyclomatic
    complexity per function, radon for Python and lizard for C, C++, Java, C#, JavaScript,
    TypeScript, Go, Rust, Ruby, PHP, Swift, Kotlin, Scala, Lua, Perl and R (15 → 0, 5 → 1; 0.15);
    line length, the mean per-line score (160 chars → 0, 80 → 1; 0.2); identifiers, the share of
    distinct names whose snake/camel parts are ≥ 3 letters or conventional short names (0.5 → 0,
    0.9 → 1; 0.3); comments, the share of non-blank lines with a comment or docstring (0 → 0,
    0.1 → 1; 0.2). Measures that don't apply drop out and the weights renormalise. The language is
    ``config.language``, else the fence tag, else the classifier's answer. ``config.block`` picks
    the block (default ``first``; ``all`` averages the blocks weighted by lines). No code: not
    measured. Default threshold 0.6. The detail lists every measure raw and mapped. Clean Python
    programs score above their python-minifier versions in 20 of 20 pairs (bench/code_language.py).

    ``config.judge: true`` adds the judge's rating: one decision on a 1–5 readability scale
    (naming, structure, comments, formatting), scored Σ P(k)·(k − 1)/4 from the digits'
    probabilities; the value is then the mean of the static score and the judge's, both in the detail.
    """

    def __init__(self, value: Any = None, *, block: Any = "first", language: str | None = None, **base: Any):
        super().__init__(value, config=keyword_config({"block": block, "language": language}, base), **base)

    def setup(self) -> None:
        check_block_config(self.config.get("block", "first"))
        self.use_judge = switch(self.config, "judge", False, "code-readability")
        language = self.config.get("language")
        self.language = _language_value(language) if language is not None else None

    def evaluate(self, case, trace, outcome) -> MetricResult:
        return run_blocking(self.evaluate_async(case, trace, outcome))

    async def evaluate_async(self, case, trace, outcome) -> MetricResult:
        result, blocks = self._static(outcome)
        if not self.use_judge or result.value is None:
            return result
        from agentunit.judges.service import current_judge

        code = "\n\n".join(block.code for block in blocks)
        language = result.detail["blocks"][0]["language"]
        decision = await current_judge().decide(readability_request(code, language))
        rating = sum(p * (int(k) - 1) / 4 for k, p in decision.probabilities.items())
        static = result.value
        value = (static + rating) / 2
        detail = {**result.detail, "static": round(static, 4), "judge_rating": round(rating, 4),
                  "judge": decision.to_detail()}
        return self.result(value, detail=detail,
                           reason=f"readability {value:.2f} (static {static:.2f}, judge {rating:.2f})")

    def _static(self, outcome) -> tuple[MetricResult, list[CodeBlock]]:
        blocks, why = _code_in(outcome.output or "", self.config.get("block", "first"))
        if not blocks:
            return self.not_measured(why or "the output holds no code"), blocks
        results, detail = [], []
        for block in blocks:
            language, source = self.language, "config"
            if language is None and block.tag and canonical_language(block.tag):
                language, source = canonical_language(block.tag), "fence tag"
            if language is None:
                language, source = classify_language(block.code).language, "classifier"
            scored = readability(block.code, language)
            lines = block.code.count("\n") + 1
            results.append((scored.value, lines))
            detail.append({**block.describe(), "language": language, "language_from": source,
                           "value": round(scored.value, 4), "measures": scored.detail()})
        value = sum(v * n for v, n in results) / sum(n for _, n in results)
        weakest = min(detail[0]["measures"].items(), key=lambda kv: kv[1]["score"], default=None)
        reason = f"readability {value:.2f}" + (f"; weakest measure: {weakest[0]}" if weakest else "")
        return self.result(value, reason=reason, detail={"blocks": detail}), blocks

