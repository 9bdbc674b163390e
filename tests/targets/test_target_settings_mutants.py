"""Target settings: which class each ``type`` builds, what caches by default, the http target's defaults and
the messages naming it, ``output_is_media``, the template variables, and the redacted config that is
stored and hashed (``redact_headers``); mutation testing found these unpinned."""

import pytest

from agentunit.datasets.base import DatasetCase
from agentunit.errors import AgentUnitError
from agentunit.targets import make_target
from agentunit.targets.base import Target, output_is_media, redact_headers, template_variables


def test_each_type_builds_its_target_and_an_unknown_one_is_refused(tmp_path):
    kinds = {"echo": {}, "python": {"function": str.upper}, "http": {"url": "http://h"},
             "command": {"argv": ["prog"]}, "openai": {"model": "m"}, "traces": {"path": "t.json"}}
    for kind, spec in kinds.items():
        target = make_target({"type": kind, **spec}, tmp_path)
        assert target.kind == kind and target.spec == {"type": kind, **spec}
    (tmp_path / "agentunit_mut_target_module.py").write_text("def shout(prompt):\n    return prompt.upper()\n")
    loaded = make_target({"type": "python", "function": "agentunit_mut_target_module:shout"}, tmp_path)
    assert loaded.function("hi") == "HI"  # found in the suite's folder
    assert make_target({"type": "traces", "path": "t.json"}, tmp_path).base_dir == tmp_path
    assert make_target(None) is None
    with pytest.raises(ValueError) as raised:
        make_target({"type": "ftp"})
    assert str(raised.value) == "unknown target type 'ftp'"
    with pytest.raises(ValueError) as raised:
        make_target({})
    assert str(raised.value) == "unknown target type None"


def test_network_targets_cache_by_default_local_code_does_not_and_cache_overrides_both():
    assert make_target({"type": "http", "url": "http://h"}).cache_enabled is True
    assert make_target({"type": "openai", "model": "m"}).cache_enabled is True
    assert make_target({"type": "echo"}).cache_enabled is False
    assert make_target({"type": "http", "url": "http://h", "cache": False}).cache_enabled is False
    assert make_target({"type": "echo", "cache": 1}).cache_enabled is True
    base = Target({"type": "x"})
    assert (base.spec, base.secrets, base.cache_enabled) == ({"type": "x"}, set(), False)


def test_the_http_targets_defaults():
    target = make_target({"type": "http", "url": "http://h", "method": "put"})
    assert (target.method, target.timeout, target.retries, target.backoff, target.output_path) == \
        ("PUT", 30.0, 3, 0.5, None)
    assert (target.retry_on_timeout, target.max_response_bytes, target.output_is_media) == (False, 10485760, False)
    assert make_target({"type": "http", "url": "http://h"}).method == "POST"
    given = make_target({"type": "http", "url": "http://h", "timeout": "2", "retries": "1", "backoff": "0.25",
                         "output_path": "a.b", "retry_on_timeout": True, "max_response_bytes": 5,
                         "output_is_media": True})
    assert (given.timeout, given.retries, given.backoff, given.output_path) == (2.0, 1, 0.25, "a.b")
    assert (given.retry_on_timeout, given.max_response_bytes, given.output_is_media) == (True, 5, True)


@pytest.mark.parametrize(("field", "value", "message"), [
    ("retry_on_timeout", "no", "http target: retry_on_timeout must be true or false, got 'no'"),
    ("max_response_bytes", 0, "http target: max_response_bytes must be a whole number of bytes ≥ 1, got 0"),
    ("output_is_media", 1, "http target: output_is_media must be true or false, got 1"),
])
def test_the_http_targets_bad_settings_name_it(field, value, message):
    with pytest.raises(AgentUnitError) as raised:
        make_target({"type": "http", "url": "http://h", field: value})
    assert str(raised.value) == message


def test_output_is_media_is_a_boolean_defaulting_to_false():
    assert output_is_media({}, "x") is False and output_is_media({"output_is_media": True}, "x") is True
    with pytest.raises(AgentUnitError) as raised:
        output_is_media({"output_is_media": None}, "the y")
    assert str(raised.value) == "the y: output_is_media must be true or false, got None"


def test_template_variables_are_the_case_vars_then_prompt_and_id():
    case = DatasetCase(id="c1", query="q", vars={"lang": "en", "prompt": "shadowed", "id": "also"})
    assert template_variables(case) == {"lang": "en", "prompt": "q", "id": "c1"}


def test_redact_headers_hides_auth_like_headers_and_keys_at_any_depth():
    data = {"url": "http://h", "headers": {"Authorization": "Bearer x", "X-Session-Id": "s", "Accept": "json",
                                           "X-Api-Key": 12345, "api_key_env": "E"},
            "api_key": "k", "api_key_env": "MY_KEY", "token_count": 3, "nested": [{"password": "p", "n": 1}],
            "other": {"headers": ["not", "a", "dict"], "Cookie": "c", "token_count": 3, "api_key_env": "E",
                      "deeper": {"password": "p"}}}
    assert redact_headers(data) == {
        "url": "http://h", "headers": {"Authorization": "***", "X-Session-Id": "***", "Accept": "json",
                                       "X-Api-Key": "***", "api_key_env": "***"},  # every value of a secret header
        "api_key": "***", "api_key_env": "MY_KEY", "token_count": 3, "nested": [{"password": "***", "n": 1}],
        "other": {"headers": ["not", "a", "dict"], "Cookie": "***", "token_count": 3, "api_key_env": "E",
                  "deeper": {"password": "***"}}}
    assert redact_headers({1: "x", "SECRET": "y"}) == {1: "x", "SECRET": "***"}
    assert redact_headers("text") == "text"


def test_describe_is_the_redacted_config_without_callables():
    target = Target({"type": "custom", "hook": len, "headers": {"X-Token": "t"}, "n": 2})
    assert target.describe() == {"type": "custom", "headers": {"X-Token": "***"}, "n": 2}
