"""Order-independent prompt evaluation for the in-process llama.cpp judge.

llama.cpp's prompt cache keeps the KV state of the last prompt and, for the next one, computes only
what follows the longest shared prefix. The numbers then depend on history: CPU (and GPU) kernels
give slightly different results for a token evaluated in a batch of 60 than in a batch of 40 or
alone, so a judge's P(PASS) moved with whatever ran before (measured: 0.8005 alone, 0.7841 after
other requests; docs/judges.md). Turning the cache off fixes that but recomputes every prompt whole.

Here every prompt is evaluated in a layout that depends on the prompt alone:

1. The prompt's tokens are cut into segments (``segment_cuts``): once where the last message's
   content starts (the system prompt and the chat template's headers before it are the same for
   every question a metric asks), then at paragraph ends inside that content — where a metric's
   own text (a rubric, criteria and steps, a context) gives way to a case's — except the last
   one (what follows it is the closing instruction, after the case's own text, never shared),
   and only where the segment since the previous cut has at least max(MIN_SEGMENT, previous cut / 2)
   tokens: each segment is one more pass over the model's weights (~0.1 s on 2 cores), so cuts
   are few and far between in long texts.
2. Segments are evaluated one after another, the first from an empty context, each later one on
   top of exactly the previous segments (the slot holds nothing else), the last one generating.
3. The KV state at each cut is saved (llama.cpp's slot save, a file of ~29 KB per token for the
   embedded judge, written in milliseconds); a later prompt with the same prefix restores the
   deepest saved cut — the bytes the computation would produce — and evaluates only the segments
   after it.

The result is bit-identical whatever ran before, and shared prefixes (system prompts, a long
context, g-eval's steps) are still computed once. Saved states are kept under a byte budget,
least recently used first out, in a temporary folder removed when the process ends.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
import weakref
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any

MIN_SEGMENT = 16
MAX_PREFIX_TOKENS = 4096
BUDGET_BYTES = 512 * 1024 * 1024


def segment_cuts(pieces: Sequence[Any], content: tuple[int, int] | None) -> list[int]:
    """Token positions where the prompt is cut (see the module docstring). ``pieces`` are the tokens'
    texts as llama.cpp's ``/tokenize`` gives them (a string, or a list of byte values for a partial
    character); ``content`` is (start, end) of the last message's content in tokens, None when its
    edges do not fall between tokens (the prompt is then evaluated whole)."""
    if content is None:
        return []
    start, end = content
    if not 0 < start < len(pieces):
        return []
    ends = [p for p in range(start + 1, min(end, len(pieces) - 1, MAX_PREFIX_TOKENS) + 1)
            if _ends_paragraph(pieces, p - 1)][:-1]
    cuts = [start]
    for position in ends:
        if position - cuts[-1] >= max(MIN_SEGMENT, cuts[-1] // 2):
            cuts.append(position)
    return cuts


def _ends_paragraph(pieces: Sequence[Any], index: int) -> bool:
    """Whether token ``index`` ends a blank line ("\n\n" in one token, or a line end after a line end)."""
    text = _text(pieces[index])
    return text.endswith("\n\n") or (text == "\n" and index > 0 and _text(pieces[index - 1]).endswith("\n"))


def _text(piece: Any) -> str:
    if isinstance(piece, list):
        return bytes(piece).decode("utf-8", "replace")
    return piece if isinstance(piece, str) else ""


class Prefill:
    """Evaluates a prompt's prefix segments on one llama.cpp slot (see the module docstring).

    Args:
        complete: the server's in-process completion call (a request body → the reply; raises on errors).
        post: POST a JSON body to a path of the same server's HTTP API, returning the decoded reply.
        budget_bytes: the most bytes of saved states kept on disk.
    """

    def __init__(self, complete: Callable[[dict[str, Any]], Any], post: Callable[[str, dict[str, Any]], Any],
                 budget_bytes: int = BUDGET_BYTES):
        self.folder = tempfile.mkdtemp(prefix="agentunit-judge-kv-")
        self._finalizer = weakref.finalize(self, shutil.rmtree, self.folder, ignore_errors=True)
        self._complete = complete
        self._post = post
        self.budget_bytes = budget_bytes
        self._saved: OrderedDict[str, int] = OrderedDict()  # file name → bytes, least recently used first
        self.restored = self.evaluated = self.saved = 0  # counts, for tests and measurements

    @property
    def save_path(self) -> str:
        """For llama.cpp's ``slot_save_path``, which joins it to a file name without a separator."""
        return self.folder + os.sep

    def saved_names(self) -> list[str]:
        """The saved states' file names, least recently used first."""
        return list(self._saved)

    def run(self, tokens: list[int], cuts: list[int]) -> None:
        """Leave the slot holding exactly ``tokens[:cuts[-1]]``, computed in the fixed layout."""
        names = [_state_name(tokens[:cut]) for cut in cuts]
        start = next((i for i in range(len(names) - 1, -1, -1) if names[i] in self._saved), -1)
        if start >= 0:
            self._post("/slots/0?action=restore", {"filename": names[start]})
            self._saved.move_to_end(names[start])
            self.restored += 1
        for i in range(start + 1, len(cuts)):
            self._complete({"prompt": tokens[:cuts[i]], "n_predict": 0, "temperature": 0, "cache_prompt": i > 0,
                            "id_slot": 0})
            self.evaluated += 1
            self._save(names[i])

    def _save(self, name: str) -> None:
        reply = self._post("/slots/0?action=save", {"filename": name})
        size = int(reply.get("n_written", 0)) if isinstance(reply, dict) else 0
        self._saved[name] = size
        self.saved += 1
        while sum(self._saved.values()) > self.budget_bytes and len(self._saved) > 1:
            old, _ = self._saved.popitem(last=False)
            try:
                os.unlink(os.path.join(self.folder, old))
            except OSError:
                pass


def _state_name(tokens: list[int]) -> str:
    return hashlib.sha256(json.dumps(tokens).encode()).hexdigest()[:32] + ".bin"
