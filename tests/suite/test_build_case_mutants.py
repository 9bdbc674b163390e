"""What mutation testing found unpinned in ``build_case`` and its helpers (docs/testing.md, "Mutation testing").

Each test builds one case the way the loader does and compares the whole result: the case's fields, or
each problem exactly (message, file, key path, line, suggestion). ``Problems()`` is made without a file,
so a problem that lost its file shows it. Metric entries carry labels no other test uses (entries are
memoised per process, see ``_ENTRY_MEMO``).
"""

from __future__ import annotations

import base64

from agentunit.errors import MetricConfigError
from agentunit.media import MediaLimits
from agentunit.metrics.registry import register_metric, restored
from agentunit.suite import cases
from agentunit.suite.cases import Where, build_case
from agentunit.suite.problems import Problems

# A 1×1 PNG (70 bytes).
PNG = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9"
                       "awAAAABJRU5ErkJggg==")
NOT_FOUND_HINT = "check the path; a relative path is relative to the suite file's folder or the working directory"


def _where(**kw):
    return Where(kw.pop("file", "cases.jsonl"), kw.pop("key_path", ("cases", 0)), line=kw.pop("line", 7), **kw)


def _build(raw, *, where=None, **kw):
    """(the case or None, its errors, its warnings), each problem as (message, file, key path, line, suggestion)."""
    problems = Problems()
    args = {"index": 0, "where": where or _where(), "defaults": {}, "inherited_metrics": [],
            "prompt_template": None, "problems": problems, **kw}
    case = build_case(raw, **args)
    rows = [[(p.message, p.file, p.key_path, p.line, p.suggestion) for p in pending]
            for pending in (problems.errors, problems.warnings)]
    return case, rows[0], rows[1]


# -- where a case's own problems are reported ---------------------------------------------------------------


def test_a_case_that_is_not_an_object_is_reported_at_its_file_line_and_path():
    """A JSONL line holding a string names the line and what it holds."""
    assert _build("hi") == (None, [("a case must be an object, got 'hi'", "cases.jsonl", ("cases", 0), 7, None)], [])


def test_a_case_without_a_prompt_is_reported_at_its_line_with_how_to_add_one():
    """build_case requires a prompt unless told the suite's ``prompts:`` make it."""
    assert _build({"id": "a"}) == (None, [("case has no prompt", "cases.jsonl", ("cases", 0), 7,
                                           "add `prompt:`, or a suite-level `prompt:` template with `vars:`")], [])


def test_an_unknown_case_field_is_reported_at_its_file_and_line():
    case, errors, _ = _build({"prompt": "p", "bogus": 1})
    assert case is None
    assert [e[:4] for e in errors] == [("unknown case field 'bogus'", "cases.jsonl", ("cases", 0, "bogus"), 7)]


def test_an_expected_cell_key_in_a_suite_file_case_is_an_unknown_field():
    """``__expected`` columns are read only from a cases file (CSV); written in the suite file it is a typo."""
    _, errors, _ = _build({"prompt": "p", "__expected": "x"}, where=_where(file="s.yaml", line=3))
    assert errors == [("unknown case field '__expected'", "s.yaml", ("cases", 0, "__expected"), 3,
                       "did you mean 'expected_pass'?")]


def test_a_javascript_expected_cell_is_reported_once_and_builds_no_metric():
    """The cell gives no entry: nothing more is parsed (a None entry would add 'a metric must be a name')."""
    case, errors, _ = _build({"prompt": "p", "__expected": {"__expected": "javascript: 1"}},
                             where=_where(file="c.csv", line=3, from_data=True))
    assert case is None
    assert errors == [("a JavaScript assertion cannot run here", "c.csv", ("cases", 0, "__expected"), 3,
                       "write it as a python metric in the suite file, or use `contains:`, `equals:`, `regex:`, "
                       "`llm-rubric:` …")]


def test_the_misspelled_expected_output_warns_at_its_file_and_line():
    case, errors, warnings = _build({"prompt": "p", "expcted_output": "bcm-typo"})
    assert errors == []
    assert warnings == [("'expcted_output' read as 'expected_output'", "cases.jsonl", ("cases", 0, "expcted_output"),
                         7, "spell it 'expected_output'")]
    assert case.expected_output == "bcm-typo"


def test_a_case_with_a_bad_field_is_not_also_told_it_has_no_prompt():
    """The prompt is made only when the fields are valid: one mistake, one problem."""
    assert _build({"vars": 5}) == (None, [("vars must be an object, got 5", "cases.jsonl", ("cases", 0, "vars"), 7,
                                           None)], [])


# -- the prompt ---------------------------------------------------------------------------------------------


def test_a_prompt_that_is_not_text_is_written_as_python_writes_it():
    """Only objects and lists are JSON; a YAML ``prompt: true`` is the text 'True'."""
    case, errors, _ = _build({"prompt": True})
    assert (case.query, errors) == ("True", [])
    case, _, _ = _build({"prompt": {"q": "é"}})
    assert case.query == '{"q": "é"}'


def test_a_template_error_in_the_suite_prompt_is_reported_at_the_case_vars():
    """The suite's ``prompt:`` template failed on this case's vars: the case's vars are what to fix."""
    assert _build({}, prompt_template="{{ missing }}") == (
        None, [("'missing' is undefined (available: id)", "cases.jsonl", ("cases", 0, "vars"), 7, None)], [])


# -- a metric's value taken from the expected output --------------------------------------------------------


def test_every_metric_without_a_value_is_told_it_needs_one():
    """A metric that has its value, or takes none optionally, does not stop the check of the next ones."""
    metrics = [{"metric": "contains", "value": "x", "label": "bcm-has-value"},
               {"metric": "is-json", "label": "bcm-optional"}, {"metric": "regex", "label": "bcm-needs-value"}]
    assert _build({"prompt": "p", "metrics": metrics}) == (
        None, [("metric 'regex' needs a value", "cases.jsonl", ("cases", 0, "metrics"), 7,
                "give it `value:` or give the case `expected_output:`")], [])


def test_an_expected_output_a_metric_cannot_use_is_reported_at_the_expected_output():
    case, errors, _ = _build({"prompt": "p", "expected_output": "(",
                              "metrics": [{"metric": "regex", "label": "bcm-bad-pattern"}]})
    assert case is None
    assert errors == [("invalid regular expression '(': missing ) at position 1 (used by 'regex' as its value)",
                       "cases.jsonl", ("cases", 0, "expected_output"), 7, None)]
    case, errors, _ = _build({"prompt": "p", "expected_output": "a+",
                              "metrics": [{"metric": "regex", "label": "bcm-good-pattern"}]})
    assert (errors, case.expected_output) == ([], "a+")


def test_user_metrics_without_value_or_check_expected_accept_the_expected_output():
    """A protocol metric need not keep ``value`` nor define ``check_expected``; one that takes no value never has
    the expected output checked."""

    class KeepsNothing:
        def __init__(self, **spec):
            pass

        def evaluate(self, case, trace, outcome):
            raise NotImplementedError

    class TakesNoValue(KeepsNothing):
        def check_expected(self, expected):
            raise MetricConfigError("bcm: checked although it takes no value")

    with restored():
        register_metric("bcm-keeps-nothing", KeepsNothing, value="optional")
        register_metric("bcm-takes-no-value", TakesNoValue, value="none")
        case, errors, _ = _build({"prompt": "p", "expected_output": "bcm-answer",
                                  "metrics": ["bcm-keeps-nothing", "bcm-takes-no-value"]})
    assert errors == []
    assert [type(m).__name__ for m in case.metrics] == ["KeepsNothing", "TakesNoValue"]


# -- the built case -----------------------------------------------------------------------------------------


def test_every_field_of_a_case_reaches_the_built_case(tmp_path):
    raw = {"id": "bcm-all", "prompt": "p", "tools": [{"name": "t"}], "plan": ["a", "b"], "role": "agent",
           "rules": ["be brief"], "metadata": {"k": 1}, "conversation": [{"role": "user", "content": "c"}],
           "context": "ctx", "threshold": 0.5, "description": "d", "image": "https://example.com/i.png",
           "images": ["https://example.com/a.png", "https://example.com/b.png"],
           "audio": "https://example.com/a.wav", "video": "https://example.com/v.mp4", "output": {"k": "é"}}
    case, errors, _ = _build(raw, media_dir=tmp_path)
    assert errors == []
    assert (case.id, case.query, case.tools, case.plan, case.role, case.rules, case.metadata, case.conversation,
            case.context, case.threshold, case.description, case.image, case.images, case.audio, case.video,
            case.output, case.media_dir) == (
        "bcm-all", "p", [{"name": "t"}], ["a", "b"], "agent", ["be brief"], {"k": 1},
        [{"role": "user", "content": "c"}], ["ctx"], 0.5, "d", "https://example.com/i.png",
        ["https://example.com/a.png", "https://example.com/b.png"], "https://example.com/a.wav",
        "https://example.com/v.mp4", '{"k": "é"}', str(tmp_path))


def test_one_image_reference_is_a_list_of_one_and_no_media_dir_stays_none():
    case, errors, _ = _build({"prompt": "p", "images": "https://example.com/a.png"})
    assert errors == []
    assert (case.images, case.media_dir, case.audio, case.video) == (["https://example.com/a.png"], None, None, None)


def test_a_case_without_a_transform_puts_nothing_in_the_transforms():
    transforms = {}
    _, errors, _ = _build({"id": "bcm-no-transform", "prompt": "p"}, transforms=transforms)
    assert (errors, transforms) == ([], {})
    _, errors, _ = _build({"id": "bcm-transform", "prompt": "p", "transform": "output.strip()"},
                          transforms=transforms)
    assert errors == [] and list(transforms) == ["bcm-transform"]


# -- media references ---------------------------------------------------------------------------------------


def test_media_are_read_relative_to_the_media_dir_within_the_limits(tmp_path):
    (tmp_path / "pic.png").write_bytes(PNG)
    case, errors, _ = _build({"prompt": "p", "image": "pic.png"}, media_dir=tmp_path)
    assert (errors, case.image) == ([], "pic.png")
    _, errors, _ = _build({"prompt": "p", "image": "pic.png"}, media_dir=tmp_path,
                          media_limits=MediaLimits(max_bytes=10))
    assert errors == [("pic.png: is 70 bytes, over the 10-byte limit", "cases.jsonl", ("cases", 0, "image"), 7,
                       "raise the suite option media_max_bytes, or use a smaller file")]


def test_a_medium_of_another_kind_is_reported_at_its_field(tmp_path):
    (tmp_path / "pic.png").write_bytes(PNG)
    _, errors, _ = _build({"prompt": "p", "audio": "pic.png"}, media_dir=tmp_path)
    assert errors == [("pic.png: holds PNG image (image/png), not audio", "cases.jsonl", ("cases", 0, "audio"), 7,
                       "give audio (WAV, MP3, AAC, FLAC, OGG or M4A), or put this file in the `image` field")]


def test_every_missing_image_is_reported_at_its_item(tmp_path):
    _, errors, _ = _build({"prompt": "p", "image": "one.png", "images": ["two.png", "three.png"]},
                          media_dir=tmp_path)
    assert errors == [(f"{name}: file not found (looked for {tmp_path / name})", "cases.jsonl", ("cases", 0, *keys),
                       7, NOT_FOUND_HINT)
                      for name, keys in (("one.png", ("image",)), ("two.png", ("images", 0)),
                                         ("three.png", ("images", 1)))]


def test_a_missing_metadata_medium_is_reported_at_its_metadata_key(tmp_path):
    _, errors, _ = _build({"prompt": "p", "metadata": {"audio_path": "nope.wav"}}, media_dir=tmp_path)
    assert errors == [(f"nope.wav: file not found (looked for {tmp_path / 'nope.wav'})", "cases.jsonl",
                       ("cases", 0, "metadata", "audio_path"), 7, NOT_FOUND_HINT)]


def test_a_metadata_medium_of_the_wrong_shape_is_reported_at_its_metadata_key():
    _, errors, _ = _build({"prompt": "p", "metadata": {"image_path": 5, "video_path": "https://example.com/v.mp4"}})
    assert errors == [("image_path must be a media reference (a path, URL, data: URI or {base64, mime}), got int",
                       "cases.jsonl", ("cases", 0, "metadata", "image_path"), 7, None)]


# -- transforms ---------------------------------------------------------------------------------------------


def test_a_case_transform_error_names_the_case_line_and_a_defaults_one_the_suite():
    """The case's own transform is located in its file; the defaults' is in the suite file (found by its path)."""
    hint = "put longer code in a function: file://transform.py:function"
    assert _build({"prompt": "p", "transform": "output +"}) == (
        None, [("transform is not one Python expression: invalid syntax", "cases.jsonl", ("cases", 0, "transform"),
                7, hint)], [])
    assert _build({"prompt": "p"}, defaults={"transform": "output -"}) == (
        None, [("transform is not one Python expression: invalid syntax", None, ("defaults", "transform"), None,
                hint)], [])


def test_the_compiled_transforms_kept_are_at_most_the_limit():
    """The cache of compiled transforms is emptied when it holds ``_TRANSFORM_CACHE_LIMIT`` of them."""
    cases._TRANSFORMS.clear()
    limit = cases._TRANSFORM_CACHE_LIMIT
    for i in range(limit):
        _build({"prompt": "p", "transform": f"output + 'bcm{i}'"})
    assert len(cases._TRANSFORMS) == limit
    _build({"prompt": "p", "transform": "output + 'bcm-one-more'"})
    assert len(cases._TRANSFORMS) == 1
