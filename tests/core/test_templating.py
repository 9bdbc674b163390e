import re

import pytest

from agentunit.core.templating import TemplateError, check_template, interpolate_env, render, render_value
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


def test_templates_render_in_a_sandbox():
    with pytest.raises(TemplateError, match="not allowed: access to attribute '__init__'"):
        render("{{ cycler.__init__.__globals__.os.popen('id').read() }}", {})
    with pytest.raises(TemplateError, match="not allowed: access to attribute 'append'"):
        render("{{ xs.append(1) }}", {"xs": []})
    with pytest.raises(TemplateError, match="'lipsum' is undefined"):
        render("{{ lipsum(3) }}", {})


@pytest.mark.parametrize(("template", "message"), [
    ("{% for a in range(1001) %}{% for b in range(1000) %}{% endfor %}{% endfor %}",
     "loops ran more than 1,000,000 iterations"),
    ("{% for a in xs %}{% for b in xs %}{% endfor %}{% endfor %}", "loops ran more than"),
    ("{{ 'x' * 1000001 }}", "repetition would make 1,000,001 items"),
    ("{{ [0] * 10**7 }}", "repetition would make 10,000,000 items"),
    ("{{ 2 ** 100001 }}", "a power of about 200,002 bits"),
    ("{{ 'x'.ljust(1000001) }}", "number argument 1000001 is above the template limit"),
    ("{{ 'x' | center(10**12) }}", "number argument 1000000000000 is above"),
    ("{{ range(10**9) | length }}", "Range too big"),
    ("{{ 'ab' | indent(10**7) }}", "number argument 10000000 is above"),
    ("{% for i in range(1001) %}{{ 'x' * 1000 }}{% endfor %}", "longer than 1,000,000 characters"),
    ("{% macro f() %}{{ f() }}{% endmacro %}{{ f() }}", "recursion too deep"),
    ("{{ 1 / 0 }}", "template error: ZeroDivisionError"),
    ("{{ [1, 'a'] | sum }}", "template error: TypeError"),
    ("{{ " + "(" * 3000 + "1" + ")" * 3000 + " }}", "too deeply nested to compile"),
])
def test_every_failure_and_limit_is_a_template_error(template, message):
    with pytest.raises(TemplateError, match=re.escape(message)):
        render(template, {"xs": list(range(1001))})


def test_the_limits_are_the_module_constants(monkeypatch):
    import agentunit.core.templating as templating

    # 1,000 outer + 1,000 × 999 inner iterations: exactly the budget
    assert render("{% for a in range(1000) %}{% for b in range(999) %}{% endfor %}{% endfor %}ok", {}) == "ok"
    monkeypatch.setattr(templating, "MAX_LOOP_ITERATIONS", 10)
    with pytest.raises(TemplateError, match="loops ran more than 10 iterations"):
        render("{% for a in range(11) %}{% endfor %}", {})
    monkeypatch.setattr(templating, "MAX_RENDER_CHARS", 5)
    with pytest.raises(TemplateError, match="longer than 5 characters"):
        render("{{ q }}!", {"q": "hello"})  # the plain-placeholder fast path is bounded too
    assert render("{{ q }}", {"q": "hello"}) == "hello"


def test_large_numbers_are_fine_where_they_are_not_widths():
    assert render("{{ '{:,}'.format(n) }} {{ '%d' | format(n) }} {{ n * 2 }}", {"n": 12_000_000}) == \
        "12,000,000 12000000 24000000"


def test_check_template_compiles_without_rendering():
    check_template("{{ not_defined_yet | upper }}")
    check_template("plain text")
    with pytest.raises(TemplateError, match="syntax"):
        check_template("{% if %}")
