"""The local judge: the embedded GGUF, or any GGUF file (``model_path``), on llama.cpp via xllamacpp,
loaded once per process and asked one request at a time.

Decisions use llama.cpp's grammar to force one of the options, while the probabilities come from
the unconstrained first-token distribution (llama.cpp reports logprobs before the grammar). Each
prompt is rendered with the model's chat template, tokenised, and evaluated in a fixed segment
layout (agentunit.judges.prefill), so the same request gets the same probabilities whatever ran
before. Layers are offloaded to a GPU when llama.cpp reports one (``n_gpu_layers``).
"""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import threading
import urllib.error
import urllib.request
from typing import Any

from agentunit.errors import AgentUnitError
from agentunit.judges.base import JudgeReply, JudgeRequest, options_grammar
from agentunit.judges.model_file import check_local_config, fingerprint
from agentunit.judges.prefill import Prefill, segment_cuts

TOP_LOGPROBS = 20
ALL_LAYERS = 999  # llama.cpp offloads min(n_gpu_layers, the model's layers)
PREFILL = "segmented-1"  # in describe(): verdicts computed another way are not served from the cache
_GPU_TYPES = ("GGML_BACKEND_DEVICE_TYPE_GPU", "GGML_BACKEND_DEVICE_TYPE_IGPU")
_MARK = "\u27e6agentunit:content\u27e7"  # stands in for the last message's content, to find where it starts


def gpu_layers(config: dict[str, Any]) -> int:
    """``n_gpu_layers`` from the config, else every layer when llama.cpp reports a GPU and 0 otherwise."""
    value = config.get("n_gpu_layers")
    if value is not None:
        return value
    return ALL_LAYERS if has_gpu() else 0


def has_gpu() -> bool:
    """Whether llama.cpp (this xllamacpp build) sees a GPU backend device."""
    import xllamacpp

    return any(getattr(device.get("type"), "name", "") in _GPU_TYPES for device in xllamacpp.get_device_info())


def llama_params(config: dict[str, Any], path: str, slot_save_path: str | None = None, api_key: str | None = None
                 ) -> Any:
    """The xllamacpp parameters for a local judge: one slot, every core, its GPU layers. In-process
    (``slot_save_path`` given): no host-memory prompt cache (it would restore states behind the fixed
    layout's back), and an API key on llama.cpp's HTTP side, so no other local process can change
    the slot between two of our calls."""
    import xllamacpp

    params = xllamacpp.CommonParams()
    params.model.path = path
    params.n_ctx = int(config.get("n_ctx", 8192))
    params.n_parallel = 1
    threads = int(config.get("threads", os.cpu_count() or 2))
    params.cpuparams.n_threads = threads
    params.cpuparams_batch.n_threads = threads
    params.n_gpu_layers = gpu_layers(config)
    params.warmup = False
    params.verbosity = -1
    params.hostnames = ["127.0.0.1"]
    params.port = int(config.get("port", 0))  # llama.cpp's own HTTP server; 0 = any free port
    if slot_save_path is not None:
        params.cache_ram_mib = 0
        params.endpoint_slots = True
        params.slot_save_path = slot_save_path
    if api_key is not None:
        params.api_keys = [api_key]
    return params


class LocalProvider:
    """A GGUF judge in this process (see the module docstring)."""

    name = "local"
    capacity = 1  # one slot (n_parallel), one request at a time: the judge service queues the rest

    def __init__(self, config: dict[str, Any]):
        self.config = config
        self.file = check_local_config(config)
        self.model = self.file.name
        self._described: dict[str, Any] | None = None
        self._server: Any = None
        self._prefill: Prefill | None = None
        self._key = secrets.token_hex(16)  # for our own calls to the in-process server's HTTP side
        self._lock = threading.Lock()

    def describe(self) -> dict[str, Any]:
        """Provider and model; a ``model_path`` model adds its path and content sha256, so two models never
        share cached verdicts (and ``model`` carries the digest's start, for calibration files)."""
        if self._described is None:
            described: dict[str, Any] = {"provider": "local", "model": self.model}
            if self.file.path is not None:
                digest = fingerprint(self.file.path)
                described.update(model=f"{self.model}@{digest[:12]}", path=str(self.file.path), sha256=digest)
            self._described = {**described, "prefill": PREFILL}
        return self._described

    def _load(self, serving: bool = False) -> Any:
        with self._lock:
            if self._server is None:
                import xllamacpp

                path = str(self.file.resolve())
                if serving:
                    self._server = xllamacpp.Server(llama_params(self.config, path))
                else:
                    prefill = Prefill(self._complete, self._post)
                    self._server = xllamacpp.Server(llama_params(self.config, path, prefill.save_path, self._key))
                    self._prefill = prefill
            return self._server

    @property
    def server(self) -> Any:
        """The loaded llama.cpp server (``agentunit models serve`` serves it as it is)."""
        return self._load(serving=True)

    def _complete(self, body: dict[str, Any]) -> dict[str, Any]:
        out = self._server.handle_completions(body)
        out = json.loads(out) if isinstance(out, str) else out
        if "error" in out:
            raise AgentUnitError(f"local judge error: {out['error']}")
        return out

    def _post(self, path: str, body: dict[str, Any]) -> Any:
        """A call to the server's own HTTP API on 127.0.0.1 (templating, tokenising, slot states)."""
        request = urllib.request.Request(f"{self._server.listening_address}{path}", data=json.dumps(body).encode(),
                                         headers={"content-type": "application/json",
                                                  "authorization": f"Bearer {self._key}"})
        try:
            with urllib.request.urlopen(request, timeout=300) as reply:  # the model's own local server
                return json.loads(reply.read())
        except urllib.error.HTTPError as exc:
            raise AgentUnitError(f"local judge error: {path} answered HTTP {exc.code}: "
                                 f"{exc.read()[:200].decode('utf-8', 'replace')}") from None

    def _call(self, request: JudgeRequest) -> JudgeReply:
        self._load()
        if self._prefill is None:
            raise AgentUnitError("this local judge is being served over HTTP; ask it through the openai provider")
        with self._lock:
            tokens, pieces, content = self._tokens(request)
            cuts = segment_cuts(pieces, content)
            self._prefill.run(tokens, cuts)
            body: dict[str, Any] = {"prompt": tokens, "n_predict": request.max_tokens, "temperature": 0,
                                    "cache_prompt": bool(cuts), "id_slot": 0}
            if request.options:
                body.update(n_probs=TOP_LOGPROBS, grammar=options_grammar(request.options))
            elif request.json_schema is not None:
                body["json_schema"] = request.json_schema
            out = self._complete(body)
        from agentunit.judges.providers import _first_token_logprobs

        choice = out["choices"][0]
        completion_tokens = int((out.get("usage") or {}).get("completion_tokens", 0))
        return JudgeReply(text=choice.get("text") or "", top_logprobs=_first_token_logprobs(choice),
                          usage={"prompt_tokens": len(tokens), "completion_tokens": completion_tokens})

    def _tokens(self, request: JudgeRequest) -> tuple[list[int], list[Any], tuple[int, int] | None]:
        """The prompt's tokens and their texts, rendered with the model's chat template as llama.cpp's chat
        API would, and where the last message's content starts and ends in tokens (None when its
        edges do not fall between tokens)."""
        messages = request.as_messages()
        prompt = self._post("/apply-template", {"messages": messages})["prompt"]
        pieces = self._post("/tokenize", {"content": prompt, "add_special": True, "parse_special": True,
                                          "with_pieces": True})["tokens"]
        tokens = [piece["id"] for piece in pieces]
        marked = self._post("/apply-template", {"messages": [*messages[:-1], {**messages[-1], "content": _MARK}]})
        head, found, tail = marked["prompt"].partition(_MARK)
        edges = [len(head), len(prompt) - len(tail)]
        if not (found and prompt.startswith(head) and prompt.endswith(tail) and edges[0] < edges[1]):
            return tokens, [piece["piece"] for piece in pieces], None
        for i, at in enumerate(edges):
            counted = self._post("/tokenize", {"content": prompt[:at], "add_special": True, "parse_special": True})
            edges[i] = len(counted["tokens"]) if tokens[:len(counted["tokens"])] == counted["tokens"] else -1
        content = (edges[0], edges[1]) if min(edges) >= 0 else None
        return tokens, [piece["piece"] for piece in pieces], content

    async def ready(self) -> None:
        """Load the model (seconds, the first time): the judge service awaits this before a call's turn begins,
        so loading is waited for in the judge's queue, not on the time of the case that happens to be first."""
        if self._server is None:
            await _in_thread(self._load)

    async def call(self, request: JudgeRequest) -> JudgeReply:
        return await _in_thread(self._call, request)

    async def aclose(self) -> None:
        """The model stays loaded for the life of the process (loading takes seconds)."""


async def _in_thread(function: Any, *args: Any) -> Any:
    """``function(*args)`` in a worker thread. A caller that gives up (its case ran out of time) cannot stop the
    thread: this returns only once the thread is done and the model free again, so the judge service's queue
    holds the next call until then, instead of letting it wait on the model's lock with its case's clock running."""
    work = asyncio.ensure_future(asyncio.to_thread(function, *args))
    try:
        return await asyncio.shield(work)
    except asyncio.CancelledError:
        await asyncio.wait((work,))
        if not work.cancelled():
            work.exception()  # seen: nobody is left to use the answer
        raise
