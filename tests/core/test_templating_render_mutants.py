"""Rendering templates: what counts as a template, the direct path for plain ``{{ name }}`` placeholders
and the sandbox for the rest, compile errors, values kept whole in JSON bodies, and ``${ENV}`` references
(mutation testing found these unpinned; the sandbox limits are in test_templating_limits_mutants.py)."""

import pytest

from agentunit.core.templating import TemplateError, check_template, interpolate_env, is_template, render, render_value
from agentunit.errors import AgentUnitError


def _error(text, variables=None):
    with pytest.raises(TemplateError) as raised:
        render(text, variables or {})
    return str(raised.value)


def test_only_expressions_and_statements_make_a_template():
    assert (is_template("a {{ b"), is_template("{% x"), is_template("a {# c #} {b}"), is_template("}} %}")) == \
        (True, True, False, False)
    assert render("a {# c #} {b} }}", {}) == "a {# c #} {b} }}"  # not a template: unchanged, not compiled


def test_plain_placeholders_are_substituted_as_text():
    variables = {"n": 3, "none": None, "items": [1, "a"], "s": "x"}
    assert render("{{ n }}|{{none}}|{{  items }}|{{ s }}!", variables) == "3|None|[1, 'a']|x!"
    assert render("{{ s }}", variables) == "x"


def test_statements_comments_and_filters_go_to_the_sandbox():
    assert render("{% if n %}yes{% endif %}{# note #}", {"n": 1}) == "yes"
    assert render("{{ s | upper }} {{ s ~ '}' }}", {"s": "ab"}) == "AB ab}"
    assert render("{% for i in range(3) %}{{ i }}{% endfor %}", {}) == "012"


def test_a_template_that_does_not_compile_says_why_and_where():
    message = "template syntax error: unexpected end of template, expected 'end of print statement'. in '{{ a '"
    assert _error("{{ a ", {"a": 1}) == message
    with pytest.raises(TemplateError) as raised:
        check_template("{{ a ")
    assert str(raised.value) == message
    with pytest.raises(TemplateError) as raised:
        check_template("{% if %}")
    assert str(raised.value).startswith("template syntax error: ") and str(raised.value).endswith(" in '{% if %}'")
    assert check_template("{{ a }} and {{ b }}") is None and check_template("plain") is None
    assert check_template("a {# b") is None  # not a template (no `{{` nor `{%`): never compiled
    assert check_template("{{ a | upper }}") is None


def test_sandbox_errors_name_what_went_wrong():
    assert _error("{{ s.__class__ }}", {"s": "x"}).startswith("template not allowed: ")
    assert _error("{{ s.__class__ }}", {"s": "x"}).endswith(" in '{{ s.__class__ }}'")
    assert _error("{{ a.b }}{% if 1 %}{% endif %}", {"c": 1}) == "'a' is undefined (available: c)"
    assert _error("{{ x | int + 'a' }}", {"x": 1}) == \
        "template error: TypeError: unsupported operand type(s) for +: 'int' and 'str' in \"{{ x | int + 'a' }}\""


def test_render_value_keeps_structure_and_whole_placeholders_keep_their_value():
    variables = {"history": [{"role": "user"}], "n": 2, "p": "hi"}
    value = {"a": "{{ history }}", "b": [" {{n}} ", "x{{ n }}", 7, None], "c": {"d": "{{ p }}!"}, "e": True}
    assert render_value(value, variables) == {"a": [{"role": "user"}], "b": [2, "x2", 7, None],
                                              "c": {"d": "hi!"}, "e": True}
    with pytest.raises(TemplateError) as raised:
        render_value("{{ missing }}", variables)
    assert str(raised.value) == "'missing' is undefined (available: history, n, p)"
    assert render_value("{{ images }} of {{ p }}", {"images": ["a"], "p": "x"}) == "['a'] of x"


def test_env_references_are_replaced_and_recorded_as_secrets(monkeypatch):
    monkeypatch.setenv("AU_MUT_ONE", "first-value")
    monkeypatch.setenv("AU_MUT_EMPTY", "")
    secrets = set()
    text = "${AU_MUT_ONE}/${AU_MUT_EMPTY}/$AU_MUT_ONE/${1X}/${AU_MUT_ONE}"
    assert interpolate_env(text, secrets) == "first-value//$AU_MUT_ONE/${1X}/first-value"
    assert secrets == {"first-value"}  # an empty value is no secret
    assert interpolate_env("${AU_MUT_ONE}") == "first-value"
    monkeypatch.delenv("AU_MUT_MISSING", raising=False)
    with pytest.raises(AgentUnitError) as raised:
        interpolate_env("x ${AU_MUT_MISSING}", secrets)
    assert str(raised.value) == "environment variable AU_MUT_MISSING is not set (used as ${AU_MUT_MISSING})"
