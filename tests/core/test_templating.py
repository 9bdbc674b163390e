import pytest

from agentunit.core.templating import TemplateError, interpolate_env, render, render_value
from agentunit.errors import AgentUnitError


def test_plain_placeholders_and_jinja_features():
    assert render("Q: {{ q }} ({{id}})", {"q": "hi", "id": 7}) == "Q: hi (7)"
    assert render("{{ q | upper }}", {"q": "hi"}) == "HI"
    assert render("{% for x in xs %}{{ x }},{% endfor %}", {"xs": [1, 2]}) == "1,2,"
    assert render("no template", {}) == "no template"


def test_undefined_variable_names_what_is_available():
    with pytest.raises(TemplateError, match=r"'missing' is undefined.*available: q"):
        render("{{ missing }}", {"q": 1})
    with pytest.raises(TemplateError, match="undefined"):
        render("{{ missing | upper }}", {"q": 1})
    with pytest.raises(TemplateError, match="syntax"):
        render("{{ q ", {"q": 1})


def test_render_value_keeps_structure():
    body = {"messages": [{"content": "{{ prompt }}"}], "n": 1}
    assert render_value(body, {"prompt": "x"}) == {"messages": [{"content": "x"}], "n": 1}


def test_env_interpolation_records_secrets(monkeypatch):
    monkeypatch.setenv("AU_KEY", "abc123")
    secrets: set[str] = set()
    assert interpolate_env("Bearer ${AU_KEY}", secrets) == "Bearer abc123"
    assert secrets == {"abc123"}
    monkeypatch.delenv("AU_KEY")
    with pytest.raises(AgentUnitError, match="AU_KEY is not set"):
        interpolate_env("${AU_KEY}")
