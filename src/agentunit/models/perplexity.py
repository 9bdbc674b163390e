"""Perplexity of any text under the embedded SmolLM2-135M (GGUF on llama.cpp via xllamacpp).

llama.cpp's server returns log-probabilities of generated tokens only, so each position is scored
as a one-token generation: the prompt is the text's own tokens before position i and a logit bias
forces token i; the log-probability llama.cpp reports for it is computed from the raw logits, i.e.
log P(token_i | tokens_<i). With the prompt cache each step evaluates one new token. The first
token is the context for the rest (no BOS is assumed), so a text of n tokens gives n − 1 scores.
"""

from __future__ import annotations

import json
import math
import os
import threading
import urllib.request
from typing import Any

FORCE_BIAS = 100.0
MAX_TOKENS = 512


class PerplexityScorer:
    """Scores texts with the installed ``perplexity`` model (see the module docstring)."""

    def __init__(self) -> None:
        import xllamacpp

        from agentunit.models.store import require

        params = xllamacpp.CommonParams()
        params.model.path = str(require("perplexity") / "smollm2-135m.gguf")
        params.n_ctx = 2048
        params.n_parallel = 1
        threads = os.cpu_count() or 2
        params.cpuparams.n_threads = threads
        params.cpuparams_batch.n_threads = threads
        params.warmup = False
        params.verbosity = -1
        params.hostnames = ["127.0.0.1"]
        self._server = xllamacpp.Server(params)
        self._lock = threading.Lock()

    def _tokenize(self, text: str) -> list[int]:
        request = urllib.request.Request(f"{self._server.listening_address}/tokenize",
                                         data=json.dumps({"content": text}).encode(),
                                         headers={"content-type": "application/json"})
        with urllib.request.urlopen(request, timeout=30) as reply:  # the model's own local server
            return list(json.loads(reply.read())["tokens"])

    def token_logprobs(self, text: str) -> list[float]:
        """log P(token_i | tokens_<i) for i = 2..n (at most MAX_TOKENS tokens of the text)."""
        with self._lock:
            ids = self._tokenize(text)[:MAX_TOKENS]
            out = []
            for i in range(1, len(ids)):
                reply: Any = self._server.handle_completions({
                    "prompt": ids[:i], "n_predict": 1, "n_probs": 1, "temperature": 0, "cache_prompt": True,
                    "logit_bias": [[ids[i], FORCE_BIAS]]})
                if isinstance(reply, str):
                    reply = json.loads(reply)
                token = reply["choices"][0]["logprobs"]["content"][0]
                if token["id"] != ids[i]:
                    raise RuntimeError(f"could not force token {ids[i]} at position {i}")
                out.append(float(token["logprob"]))
            return out

    def perplexity(self, text: str) -> tuple[float, int]:
        """(exp(−mean log-probability), number of scored tokens); raises ValueError under two tokens."""
        logprobs = self.token_logprobs(text)
        if not logprobs:
            raise ValueError("the text has fewer than two tokens")
        return math.exp(-sum(logprobs) / len(logprobs)), len(logprobs)


_scorer: PerplexityScorer | None = None
_scorer_lock = threading.Lock()


def scorer() -> PerplexityScorer:
    """The process-wide scorer, loaded on first use (ModelNotInstalled if the model is missing)."""
    global _scorer
    with _scorer_lock:
        if _scorer is None:
            _scorer = PerplexityScorer()
        return _scorer
