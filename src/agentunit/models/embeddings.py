"""Sentence embeddings with all-MiniLM-L6-v2 (int8 ONNX): tokenise, run, mean-pool, L2-normalise.

``Embedder.embed`` is synchronous and batches what it is given; ``embed_texts`` (async) gathers
the requests of concurrently running cases into shared batches, runs them in a worker thread, and
memoises vectors by text, so each distinct text is embedded once per process.
"""

from __future__ import annotations

import asyncio
import os
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any

MAX_TOKENS = 256  # all-MiniLM-L6-v2 was trained with 256 word pieces
BATCH = 32
CACHE_SIZE = 20_000
BATCH_WINDOW_S = 0.002


class Embedder:
    """all-MiniLM-L6-v2 on onnxruntime.

    Args:
        folder: the installed model folder (``model.onnx`` and ``tokenizer.json``).
        threads: onnxruntime intra-op threads (default: all cores).
    """

    def __init__(self, folder: Path, threads: int | None = None):
        import onnxruntime
        from tokenizers import Tokenizer

        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = threads or os.cpu_count() or 1
        options.log_severity_level = 3
        self._session = onnxruntime.InferenceSession(str(folder / "model.onnx"), options,
                                                     providers=["CPUExecutionProvider"])
        self._tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        self._tokenizer.enable_truncation(max_length=MAX_TOKENS)
        self._tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
        self._lock = threading.Lock()

    def embed(self, texts: list[str]) -> Any:
        """Unit vectors (``numpy`` array, one row per text). Similar lengths are batched together."""
        import numpy as np

        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        out = np.zeros((len(texts), 384), dtype=np.float32)
        for start in range(0, len(order), BATCH):
            chunk = order[start:start + BATCH]
            out[chunk] = self._embed_batch([texts[i] for i in chunk])
        return out

    def _embed_batch(self, texts: list[str]) -> Any:
        import numpy as np

        encodings = self._tokenizer.encode_batch(texts)
        ids = np.array([e.ids for e in encodings], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
        types = np.zeros_like(ids)
        with self._lock:  # one inference at a time; onnxruntime already uses every core
            hidden = self._session.run(None, {"input_ids": ids, "attention_mask": mask, "token_type_ids": types})[0]
        weights = mask[:, :, None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        return pooled / np.clip(norms, 1e-12, None)


_embedder: Embedder | None = None
_embedder_lock = threading.Lock()
_cache: OrderedDict[str, Any] = OrderedDict()
_cache_lock = threading.Lock()


def embedder() -> Embedder:
    """The process-wide embedder, loaded on first use (ModelNotInstalled if the model is missing)."""
    global _embedder
    with _embedder_lock:
        if _embedder is None:
            from agentunit.models.store import require

            _embedder = Embedder(require("embeddings"))
        return _embedder


def embed_sync(texts: list[str]) -> list[Any]:
    """Vectors for texts, from the memo where possible; computes the rest in one batch."""
    with _cache_lock:
        found = {t: _cache[t] for t in texts if t in _cache}
    missing = list(dict.fromkeys(t for t in texts if t not in found))
    if missing:
        vectors = embedder().embed(missing)
        with _cache_lock:
            for text, vector in zip(missing, vectors, strict=True):
                _cache[text] = vector
                found[text] = vector
            while len(_cache) > CACHE_SIZE:
                _cache.popitem(last=False)
    return [found[t] for t in texts]


class _Batcher:
    """Collects texts from concurrent callers for BATCH_WINDOW_S, then embeds them in one thread call."""

    def __init__(self) -> None:
        self.pending: list[tuple[list[str], asyncio.Future[list[Any]]]] = []
        self.flush_scheduled = False

    async def embed(self, texts: list[str]) -> list[Any]:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[list[Any]] = loop.create_future()
        self.pending.append((texts, future))
        if not self.flush_scheduled:
            self.flush_scheduled = True
            loop.call_later(BATCH_WINDOW_S, lambda: asyncio.ensure_future(self._flush()))
        return await future

    async def _flush(self) -> None:
        batch, self.pending, self.flush_scheduled = self.pending, [], False
        texts = [t for request, _ in batch for t in request]
        try:
            vectors = await asyncio.to_thread(embed_sync, texts)
        except Exception as exc:  # every waiting metric records the error
            for _, future in batch:
                if not future.done():
                    future.set_exception(exc)
            return
        position = 0
        for request, future in batch:
            if not future.done():
                future.set_result(vectors[position:position + len(request)])
            position += len(request)


_batchers: dict[int, _Batcher] = {}


async def embed_texts(texts: list[str]) -> list[Any]:
    """Unit vectors for texts, batched with the requests of other cases running at the same time."""
    loop_id = id(asyncio.get_running_loop())
    batcher = _batchers.get(loop_id)
    if batcher is None:
        _batchers.clear()  # batchers belong to one event loop
        batcher = _batchers[loop_id] = _Batcher()
    return await batcher.embed(texts)
