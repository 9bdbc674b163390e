"""The Markdown report escapes only what Markdown would read there (issue 58): a reply's commas, colons,
dots, hyphens and parentheses stay bare, and still no value adds a heading, a row, a cell, a link, an
image, HTML, emphasis, strikethrough or a code span (docs/security.md, Reports)."""

from __future__ import annotations

import re

import pytest
from markdown_it import MarkdownIt

from agentunit import evaluate
from agentunit.reporting.markdown import inert, write_markdown

PLAIN = "Paris, France: 18°C (sunny). See section 3-b; it's \"fine\" — 100% sure? yes! {a: 1} / x = y + z"
HOSTILE = [
    "# H1", "  ## H2 ##", "> quote", "- item", "+ item", "* item", "1. item", "12) item", "===", "---", "foo #",
    "| a | b |", "a | b", "[x](http://e.example)", "![i](http://e.example/p.png)", "[x]: http://e.example",
    "[^1]", "<img src=x onerror=alert(1)>", "<https://e.example>", "https://e.example/a", "www.e.example",
    "WWW.E.EXAMPLE", "me@e.example", "*em* **strong** _em_ __strong__", "a*b*c", "~~gone~~ ~x~ latest~1",
    "`code` ``more``", "\\# \\| \\[x\\](y)", "&lt;b&gt; &#124; &#91;x&#93;(y)", "trailing \\", "snake_case_name",
]


def _md() -> MarkdownIt:
    return MarkdownIt("commonmark").enable(["table", "strikethrough"])


def _tokens(text: str) -> list:
    flat = []
    for token in _md().parse(text):
        flat.append(token)
        flat.extend(token.children or [])
    return flat


def _structure(text: str) -> list[tuple[str, int]]:
    """The token types of a parse and their nesting, text and escapes left out."""
    return [(t.type, t.level) for t in _tokens(text) if t.type not in ("text", "text_special", "inline")]


def test_punctuation_that_is_not_markdown_there_stays_bare():
    assert inert(PLAIN) == PLAIN
    assert inert("snake_case_name 2 * 3 a ~ b") == "snake_case_name 2 * 3 a ~ b"
    assert inert("tool_success: not measured: no tool calls") == "tool_success: not measured: no tool calls"


def test_what_markdown_would_read_is_escaped():
    assert inert("# H") == "\\# H" and inert("1. x") == "1\\. x" and inert("- x") == "\\- x"
    assert inert("a | b") == "a \\| b" and inert("[x](y)") == "\\[x\\](y)" and inert("<b>") == "\\<b>"
    assert inert("*em* _em_ latest~1") == "\\*em\\* \\_em\\_ latest\\~1"
    assert inert("https://e.example www.e.example me@e.example") == \
        "https\\://e.example www\\.e.example me\\@e.example"


@pytest.mark.parametrize("value", HOSTILE)
def test_no_value_makes_markdown_structure_wherever_it_stands(value):
    contexts = ["| metric | value |\n|---|---|\n| x | {} |\n", "- **{}** (failed)\n  - error: {}\n", "{}\n\nnext\n",
                "# agentunit run `id` — {}\n", "Started. **1/2 passed**, {}.\n"]
    for context in contexts:
        text = context.format(inert(value), inert(value))
        assert _structure(text) == _structure(context.format("x", "x")), (value, text)  # as if the value were "x"
        rendered = _md().render(text)
        assert "<a " not in rendered and "<img" not in rendered and "<script" not in rendered
    assert not re.search(r"(?<!\\)://|(?i:www\.)", inert(value))  # GFM would autolink those


def test_a_report_reads_as_the_reply_was_written(tmp_path):
    result = evaluate(cases=[{"id": "weather-1", "prompt": PLAIN,
                              "metrics": [{"metric": "contains", "value": "rain, later"}]}], target=lambda p: p)
    write_markdown(result, tmp_path / "r.md")
    text = (tmp_path / "r.md").read_text(encoding="utf-8")
    assert "- **weather-1** (failed): output “Paris, France: 18°C (sunny). See section 3-b;" in text
    assert "  - contains: 'rain, later' not found in output" in text
