"""The fixed segment layout of the local judge's prompts: where prompts are cut, and what is
evaluated, saved and restored (a recording stand-in for llama.cpp's server)."""

import itertools
import os

from agentunit.judges.prefill import MAX_PREFIX_TOKENS, MIN_SEGMENT, Prefill, segment_cuts


def _paragraphs(*sizes, header=20, tail=5):
    """Token texts: a template header, paragraphs of the given sizes each ending in a blank line, the
    last one (the closing instruction) without, then the template's tail; and the content's edges."""
    pieces = ["h"] * (header - 1) + ["\n"]
    for size in sizes[:-1]:
        pieces += ["w"] * (size - 1) + ["\n\n"]
    pieces += ["w"] * sizes[-1]
    content = (header, len(pieces))
    return pieces + ["<end>"] + ["t"] * (tail - 1), content


def test_cuts_at_the_content_start_and_its_paragraph_ends_but_the_last():
    pieces, content = _paragraphs(30, 40, 10, 15)  # rubric-like text, steps, the case's text, the instruction
    assert segment_cuts(pieces, content) == [20, 50, 90]  # not 100: what follows the case's text is never shared
    assert segment_cuts(pieces, None) == [] and segment_cuts(pieces, (0, content[1])) == []
    one_paragraph, content = _paragraphs(40, 15)  # llm-rubric: its only blank line comes after the response
    assert segment_cuts(one_paragraph, content) == [20]


def test_segments_grow_with_the_prefix():
    pieces, content = _paragraphs(*[10] * 30, 5)
    cuts = segment_cuts(pieces, content)
    assert cuts == [20, 40, 60, 90, 140, 210]
    assert all(b - a >= max(MIN_SEGMENT, a // 2) for a, b in itertools.pairwise(cuts))
    long, content = _paragraphs(*[100] * 60, 5)
    assert max(segment_cuts(long, content)) <= MAX_PREFIX_TOKENS


def test_blank_lines_in_two_tokens_or_bytes_count_and_nothing_outside_the_content():
    pieces = ["h"] * 19 + ["\n"] + ["w"] * 29 + ["\n", "\n"] + ["w"] * 30 + [[0x0A, 0x0A]] + ["w"] * 10
    assert segment_cuts(pieces, (20, len(pieces))) == [20, 51]
    assert segment_cuts(pieces, (20, 40)) == [20]  # a paragraph end past the content's end is not a cut


def test_a_cut_depends_on_the_shared_prefix():
    one, content_one = _paragraphs(30, 40, 20, 15)
    two, content_two = _paragraphs(30, 40, 25, 60, 15)
    assert segment_cuts(one, content_one)[:3] == segment_cuts(two, content_two)[:3] == [20, 50, 90]


class Server:
    """Records completions and slot calls like llama.cpp's server would receive them."""

    def __init__(self):
        self.calls = []

    def complete(self, body):
        self.calls.append(("complete", len(body["prompt"]), body["cache_prompt"]))
        return {"choices": [{"text": ""}]}

    def post(self, path, body):
        action = path.rsplit("=", 1)[1]
        self.calls.append((action, body["filename"]))
        return {"n_written": 1000} if action == "save" else {}


def test_prefixes_are_evaluated_in_segments_saved_and_restored():
    server = Server()
    prefill = Prefill(server.complete, server.post)
    tokens, cuts = list(range(200)), [20, 90]
    prefill.run(tokens, cuts)  # every segment from an empty context, each state kept
    assert server.calls[0] == ("complete", 20, False) and server.calls[2] == ("complete", 90, True)
    assert [c[0] for c in server.calls] == ["complete", "save", "complete", "save"]
    server.calls.clear()
    prefill.run(tokens, cuts)  # again: the deepest state is restored, nothing evaluated
    assert [c[0] for c in server.calls] == ["restore"] and server.calls[0][1] == prefill.saved_names()[-1]
    server.calls.clear()
    other = [*tokens[:90], 7, 7, 7, *range(300, 400)]
    at_90 = prefill.saved_names()[-1]
    prefill.run(other, [20, 90, 160])  # a prompt sharing 90 tokens: restore at 90, evaluate the rest
    assert server.calls == [("restore", at_90), ("complete", 160, True), ("save", prefill.saved_names()[-1])]
    assert prefill.restored == 2 and prefill.saved == 3 and prefill.evaluated == 3


def test_saved_states_stay_under_the_budget_oldest_out():
    server = Server()
    prefill = Prefill(server.complete, server.post, budget_bytes=2500)
    for start in range(4):
        prefill.run([start] * 50, [10])
        open(os.path.join(prefill.folder, prefill.saved_names()[-1]), "wb").close()  # what llama.cpp writes
    assert len(prefill.saved_names()) == 2  # 1000 bytes each, 2500 allowed
    assert sorted(os.listdir(prefill.folder)) == sorted(prefill.saved_names())
    folder = prefill.folder
    del prefill
    assert not os.path.exists(folder)  # removed with its owner
