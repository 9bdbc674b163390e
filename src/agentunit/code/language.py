"""Which programming language a piece of code is written in.

The classifier is a conditional-logit model over evidence gathered for every candidate language L:

* **parse evidence** (tree-sitter, the grammars of ``tree-sitter-language-pack``): the share of the
  code's bytes the L grammar could not attach (tokens left directly under ERROR nodes), the number of
  ERROR/MISSING nodes per line, and the density of named nodes (a permissive grammar that reads
  foreign code as one big ``text`` or ``word`` node finds little structure);
* **lexer evidence** (pygments' L lexer): the share of tokens it lexes as keywords or builtins, the
  share of characters it leaves as plain text or errors, and its ``analyse_text`` score;
* **token model**: a multinomial naive Bayes over code tokens (identifiers, numbers, punctuation
  runs; string bodies blanked), the classic of GitHub linguist, trained on the tune split of
  ``tests/data/code_languages``; the feature is the per-token log-likelihood minus the best one;
* **fence tag**: 1 when the block's fence tag names L — evidence, not the truth: its weight lets a
  tag settle a near tie (C vs C++) but not outvote code that parses cleanly only as another language.

``score(L) = Σ weight·feature + bias(L)``; probabilities are the softmax over the languages. Weights,
biases and token counts live in ``_language_model`` and are fitted by ``bench/code_language.py
--tune`` on the tune split only.
"""

from __future__ import annotations

import math
import re
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from agentunit.code.extract import normalise_language
from agentunit.errors import AgentUnitError

__all__ = ["LANGUAGES", "CodeAnalysisUnavailable", "LanguageGuess", "canonical_language", "classify_language",
           "code_tokens", "language_features"]

# Canonical name → (tree-sitter grammar, pygments lexer alias).
_BACKENDS: dict[str, tuple[str, str]] = {
    "python": ("python", "python"), "javascript": ("javascript", "javascript"),
    "typescript": ("typescript", "typescript"), "java": ("java", "java"), "c": ("c", "c"), "cpp": ("cpp", "cpp"),
    "csharp": ("csharp", "csharp"), "go": ("go", "go"), "rust": ("rust", "rust"), "ruby": ("ruby", "ruby"),
    "php": ("php", "php"), "swift": ("swift", "swift"), "kotlin": ("kotlin", "kotlin"), "scala": ("scala", "scala"),
    "bash": ("bash", "bash"), "sql": ("sql", "sql"), "html": ("html", "html"), "css": ("css", "css"),
    "r": ("r", "splus"), "lua": ("lua", "lua"), "perl": ("perl", "perl"), "haskell": ("haskell", "haskell"),
}
LANGUAGES: tuple[str, ...] = tuple(sorted(_BACKENDS))
FEATURES: tuple[str, ...] = ("parse_unattached", "parse_errors_per_line", "parse_density", "lex_keywords",
                             "lex_plain_text", "lex_analyse", "token_model")
# Aliases beyond those extract.normalise_language folds (c++ → cpp, c# → csharp, js, ts, golang, sh, …).
_EXTRA_ALIASES = {"python2": "python", "ecmascript": "javascript", "mjs": "javascript", "cjs": "javascript",
                  "c-sharp": "csharp", "dotnet": "csharp", "h": "c", "cplusplus": "cpp", "hs": "haskell",
                  "pl": "perl", "perl5": "perl", "rlang": "r", "splus": "r", "html5": "html",
                  "kotlinscript": "kotlin", "sc": "scala", "bash-session": "bash",
                  "shellscript": "bash", "ksh": "bash", "swiftui": "swift", "lua5": "lua", "ruby-on-rails": "ruby",
                  "plsql": "sql", "tsql": "sql", "t-sql": "sql", "mssql": "sql", "sqlite3": "sql"}

_TOKEN = re.compile(r"[A-Za-z_$@%][\w$]*|\d+|[^\w\s]{1,3}")
_STRING = re.compile(r"\"(?:[^\"\\\n]|\\.)*\"|'(?:[^'\\\n]|\\.)*'")


class CodeAnalysisUnavailable(AgentUnitError):
    """The grammars or lexers the code-analysis metrics need are not installed; names the install command."""


@dataclass(frozen=True)
class LanguageGuess:
    """The classifier's answer: candidates best first with probabilities, and the tag it was given."""

    ranked: list[tuple[str, float]]
    tag: str | None

    @property
    def language(self) -> str:
        return self.ranked[0][0]

    @property
    def probability(self) -> float:
        return self.ranked[0][1]

    def probability_of(self, language: str) -> float:
        return dict(self.ranked).get(language, 0.0)

    def top(self, n: int = 3) -> list[dict[str, Any]]:
        return [{"language": name, "probability": round(p, 4)} for name, p in self.ranked[:n]]


def canonical_language(name: str) -> str | None:
    """The classifier's name for ``name`` (lowercase, aliases folded: ``c++`` → ``cpp``, ``golang`` → ``go``),
    or None when it is not a language the classifier knows."""
    folded = normalise_language(str(name))
    folded = _EXTRA_ALIASES.get(folded, folded)
    return folded if folded in _BACKENDS else None


def code_tokens(code: str) -> list[str]:
    """The token model's tokens: identifiers (with a leading ``$``/``@``/``%`` sigil), digit runs and runs of
    up to three punctuation characters; string literals' bodies become ``S`` so that their words don't count."""
    code = _STRING.sub(lambda m: m.group(0)[0] + "S" + m.group(0)[0], code)
    return _TOKEN.findall(code)


_local = threading.local()  # tree-sitter parsers are not thread-safe: one set per thread


def _parser(language: str):
    parsers = getattr(_local, "parsers", None)
    if parsers is None:
        parsers = _local.parsers = {}
    if language not in parsers:
        try:
            from tree_sitter_language_pack import get_parser
        except ImportError as exc:
            raise CodeAnalysisUnavailable(
                "code-language needs tree-sitter grammars: pip install 'agentunit[code]' "
                "(tree-sitter-language-pack==0.13.0, the last release that ships its grammars)") from exc
        parsers[language] = get_parser(_BACKENDS[language][0])
    return parsers[language]


def _lexer(language: str):
    lexers = getattr(_local, "lexers", None)
    if lexers is None:
        lexers = _local.lexers = {}
    if language not in lexers:
        from pygments.lexers import get_lexer_by_name

        # PHP snippets usually come without "<?php"; startinline lexes them as code all the same.
        options = {"startinline": True} if language == "php" else {}
        lexers[language] = get_lexer_by_name(_BACKENDS[language][1], **options)
    return lexers[language]


def _parse_features(language: str, code: str, nonblank: int, lines: int) -> list[float]:
    source = code.encode()
    if language == "php" and not code.lstrip().startswith("<?"):
        source = b"<?php\n" + source  # the grammar reads anything before "<?php" as inline HTML text
    root = _parser(language).parse(source).root_node
    unattached = errors = named = 0
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type == "ERROR":
            errors += 1
            # Only tokens the grammar could not place count: an ERROR node often wraps well-formed
            # subtrees (a window of code that starts inside a block), which are not evidence against L.
            unattached += sum(c.end_byte - c.start_byte for c in node.children
                              if c.child_count == 0 or c.type == "ERROR")
        elif node.is_missing:
            errors += 1
            unattached += 2
            continue
        elif node.is_named:
            named += 1
        stack.extend(node.children)
    return [min(1.0, unattached / nonblank), errors / lines, math.log1p(10 * named / nonblank)]


def _lex_features(language: str, code: str, nonblank: int) -> list[float]:
    from pygments.token import Error, Keyword, Name, Text

    lexer = _lexer(language)
    tokens = keywords = plain = 0
    for kind, value in lexer.get_tokens(code):
        text = value.strip()
        if not text:
            continue
        tokens += 1
        if kind in Keyword or kind in Name.Builtin:
            keywords += 1
        if kind is Text or kind in Error:
            plain += len(text)
    analyse = lexer.analyse_text(code) or 0.0
    return [keywords / max(1, tokens), plain / nonblank, min(1.0, float(analyse))]


def _token_model_features(code: str, counts: Mapping[str, Mapping[str, int]]) -> dict[str, float]:
    tokens = code_tokens(code)
    if not tokens or not counts:
        return dict.fromkeys(LANGUAGES, 0.0)
    vocabulary = len(set().union(*(c.keys() for c in counts.values()))) + 1
    loglik = {}
    for language in LANGUAGES:
        table = counts.get(language, {})
        denominator = math.log(sum(table.values()) + 0.5 * vocabulary)
        loglik[language] = sum(math.log(table.get(t, 0) + 0.5) for t in tokens) - len(tokens) * denominator
    best = max(loglik.values())
    return {language: (value - best) / len(tokens) for language, value in loglik.items()}


def language_features(code: str, token_counts: Mapping[str, Mapping[str, int]] | None = None
                      ) -> dict[str, list[float]]:
    """The evidence vector (in ``FEATURES`` order) for every language in ``LANGUAGES``.

    ``token_counts`` is the token model's table (defaults to the shipped one; the tuning script passes
    tables that leave the scored program out)."""
    if token_counts is None:
        from agentunit.code._language_model import TOKEN_COUNTS as token_counts
    nonblank = max(1, sum(1 for ch in code if not ch.isspace()))
    lines = code.count("\n") + 1
    model = _token_model_features(code, token_counts)
    return {language: [*_parse_features(language, code, nonblank, lines), *_lex_features(language, code, nonblank),
                       model[language]] for language in LANGUAGES}


def _softmax(scores: dict[str, float]) -> list[tuple[str, float]]:
    top = max(scores.values())
    exp = {k: math.exp(v - top) for k, v in scores.items()}
    total = sum(exp.values())
    return sorted(((k, v / total) for k, v in exp.items()), key=lambda kv: -kv[1])


def classify_language(code: str, tag: str | None = None) -> LanguageGuess:
    """Rank the known languages for ``code``: ``score(L) = Σ weight·feature(L) + bias(L) + tag_weight·[tag = L]``,
    softmax to probabilities. ``tag`` is a fence tag (any alias); unknown tags are ignored."""
    from agentunit.code._language_model import BIAS, TAG_WEIGHT, WEIGHTS

    tag = canonical_language(tag) if tag else None
    features = language_features(code)
    weights = [WEIGHTS[name] for name in FEATURES]
    scores = {language: sum(w * f for w, f in zip(weights, values, strict=True)) + BIAS.get(language, 0.0)
              + (TAG_WEIGHT if language == tag else 0.0) for language, values in features.items()}
    return LanguageGuess(_softmax(scores), tag)
