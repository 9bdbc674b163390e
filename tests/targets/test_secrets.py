"""``${ENV}`` only from the suite's own template text, and redaction of resolved values."""

import pytest

from agentunit.core.templating import interpolate_env
from agentunit.errors import AgentUnitError
from agentunit.targets._secrets import clip, redact_text, render_with_env_refs, resolve_env_refs


def test_suite_references_stay_placeholders_and_case_text_stays_literal(monkeypatch):
    monkeypatch.setenv("AU_T_KEY", "k3y")
    monkeypatch.setenv("AU_T_OTHER", "leak")
    template = "https://h/{{ q }}?key=${AU_T_KEY}&price=$5"
    form = render_with_env_refs(template, {"q": "${AU_T_OTHER}$$"})
    assert form == "https://h/$${AU_T_OTHER}$$$$?key=${AU_T_KEY}&price=$$5"  # secret-free request form
    secrets: set[str] = set()
    assert resolve_env_refs(form, secrets) == "https://h/${AU_T_OTHER}$$?key=k3y&price=$5"
    assert secrets == {"k3y"}


def test_no_two_sends_share_a_request_form(monkeypatch):
    monkeypatch.setenv("AU_T_KEY", "k3y")
    template = "{{ a }}${AU_T_KEY}{{ b }}"
    first = render_with_env_refs(template, {"a": "${AU_T_KEY}", "b": ""})
    second = render_with_env_refs(template, {"a": "", "b": "${AU_T_KEY}"})
    assert first != second
    assert resolve_env_refs(first) == "${AU_T_KEY}k3y" and resolve_env_refs(second) == "k3y${AU_T_KEY}"


def test_a_dollar_before_a_reference_and_repeated_references(monkeypatch):
    monkeypatch.setenv("AU_T_KEY", "k3y")
    assert resolve_env_refs(render_with_env_refs("$5 ${AU_T_KEY}", {})) == "$5 k3y"
    # "$${NAME}" is the text "${NAME}" (as in Docker Compose), in the request form and in interpolate_env
    form = render_with_env_refs("{{ a }}$${AU_T_KEY}=${AU_T_KEY}", {"a": "$"})
    secrets: set[str] = set()
    assert resolve_env_refs(form, secrets) == "$${AU_T_KEY}=k3y" and secrets == {"k3y"}
    assert interpolate_env("$${AU_T_KEY}=${AU_T_KEY}") == "${AU_T_KEY}=k3y"
    looped = render_with_env_refs("{% for i in range(2) %}${AU_T_KEY}{% endfor %}", {})
    assert resolve_env_refs(looped) == "k3yk3y"


def test_reference_errors_are_clear(monkeypatch):
    monkeypatch.delenv("AU_T_MISSING", raising=False)
    with pytest.raises(AgentUnitError, match=r"AU_T_MISSING is not set \(used as \$\{AU_T_MISSING\}\)"):
        resolve_env_refs(render_with_env_refs("Bearer ${AU_T_MISSING}", {}))
    with pytest.raises(AgentUnitError, match=r"not inside a \{\{ \}\} expression"):
        render_with_env_refs('{{ "${AU_T_KEY}" | upper }}', {})


def test_redact_text_removes_longest_secrets_first_then_clip():
    assert redact_text("token abc and abcdef", {"abc", "abcdef", ""}) == "token *** and ***"
    assert redact_text("nothing here", set()) == "nothing here"
    assert clip("abcdef", 3) == "abc…" and clip("abc", 3) == "abc"
