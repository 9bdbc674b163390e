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


def test_formatting_up_to_the_limit_is_allowed_and_one_more_is_refused():
    assert len(render("{{ '%-1000000s' % 'a' }}", {})) == 1_000_000  # the conversion's own text is not output
    assert len(render("{{ 'ab{:>999998}'.format('a') }}", {})) == 1_000_000
    for template in ("{{ '%-1000001s' % 'a' }}", "{{ 'a%%b%-999998s' % 'a' }}", "{{ '%*d' % (1000001, 1) }}",
                     "{{ '%(a)1000001s' % {'a': 1} }}", "{{ '%1000001d' | format(1) }}",
                     "{{ '{:>1000001}'.format('a') }}", "{{ '{:{}}'.format('a', 1000001) }}"):
        with pytest.raises(TemplateError, match="would make about 1,000,001 characters"):
            render(template, {})
    # A precision cuts a long value: the field is what is kept.
    assert render("{{ '%.3s|%s' % (big, 1) }}{{ '{:.2}'.format(big) }}", {"big": "x" * 2_000_000}) == "xxx|1xx"


TEXT = "A long-ish line of words, some hyphen-ated, to wrap.\n\nAnd   a second\tparagraph: averyveryverylongword.\n"


@pytest.mark.parametrize("template", [
    "{{ x | wordwrap(12) }}", "{{ x | wordwrap(5, false) }}", "{{ x | wordwrap(7, true, '|', false) }}",
    "{{ x | indent(3, true) }}", "{{ x | indent('> ', blank=true) }}", "{{ x | replace('a', 'AA', 2) }}",
    "{{ x | replace('', '.') | truncate(30) }}", "{{ x.split() | join(', ') }}",
    "{{ [{'n': 'a'}, {'n': 2}] | join('-', attribute='n') }}", "{{ x.split() | map('upper') | join }}",
    "{{ [[1], [2, 3]] | sum(start=[]) }}{{ [(1,), (2,)] | sum(start=()) }}{{ [1.5, 2] | sum(start=1) }}",
    "{{ [{'v': 2}, {'v': 3}] | sum(attribute='v') }}", "{{ {'a': [1, x]} | tojson(2) }}", "{{ [x] | dump }}",
    "{{ x ~ 1 ~ [2] }}{% autoescape true %}{{ x ~ '<b>' }}{{ '<i>' | safe ~ x }}{% endautoescape %}",
    "{{ '%s|%-6d|%(x)s' % (x[:4], 7, {'x': 1}) if false else '%s|%-6d|%.2f' % (x[:4], 7, 2.345) }}",
    "{{ '%(a)s %(b)5s' % {'a': 1, 'b': 'z'} }}{{ '%d%%' | format(5) }}{{ '%(a)s' | format(a=2) }}",
    "{{ '{0}|{1:>{2}}|{k!r}'.format(x[:3], 'y', 4, k='z') }}{{ '{a}'.format_map({'a': 1}) }}",
    "{{ x[2:9] }}{{ x[::-7] }}{{ x.expandtabs(3) }}{{ x.strip('A.\\n') }}{{ x.rfind('a') }}",
    "{% set y %}{{ x | upper }}{% endset %}{{ y }}{% macro m(a) %}[{{ a }}|{{ caller() }}]{% endmacro %}"
    "{% call m(1) %}{{ x | length }}{% endcall %}",
    "{% for c in x.split() recursive %}{{ loop.index }}{% endfor %}{{ x | pprint }}{{ x.split() | string }}",
])
def test_the_budgeted_filters_and_formatting_give_jinja2s_own_results(template):
    from jinja2.sandbox import ImmutableSandboxedEnvironment

    stock = ImmutableSandboxedEnvironment(keep_trailing_newline=True)
    stock.filters["dump"] = lambda value, *_: __import__("json").dumps(value, ensure_ascii=False)
    assert render(template, {"x": TEXT}) == stock.from_string(template).render(x=TEXT)


def test_the_time_and_built_text_budgets_are_the_module_constants(monkeypatch):
    import agentunit.core.templating as templating

    monkeypatch.setattr(templating, "MAX_BUILT_CHARS", 10)
    variables = {"q": "abcde"}
    assert render("{{ q | upper }}{{ q | lower }}{{ q | default('') }}", variables) == "ABCDEabcdeabcde"  # 10 built
    with pytest.raises(TemplateError, match="above the template limit of 10 characters in all"):
        render("{{ q | upper }}{{ q | lower }}{{ q | title }}", variables)
    monkeypatch.setattr(templating, "MAX_RENDER_SECONDS", 0)
    with pytest.raises(TemplateError, match=re.escape(
            "template took longer than the template budget of 0 s of CPU time "
            "(agentunit.core.templating.MAX_RENDER_SECONDS) in '{% for i in range(3) %}")):
        render("{% for i in range(3) %}{{ i }}{% endfor %}", {})
    assert render("{{ q }}", variables) == "abcde"  # plain placeholders do no work to bound
