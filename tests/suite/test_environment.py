"""An unset ${ENV} a target reads is one suite problem before any call, for the CLI and the Python API alike."""

import pytest

from agentunit import evaluate
from agentunit.errors import SuiteError


def _suite(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text("target:\n  type: command\n  argv: [echo, hi]\n  env: {TOKEN: \"${AU_ENV_CHECK_TOKEN}\"}\n"
                    "cases:\n  - {prompt: p, metrics: [{metric: contains, value: hi}]}\n")
    return path


def test_evaluate_stops_before_any_call_naming_the_variable_and_where_it_is_read(tmp_path, monkeypatch):
    monkeypatch.delenv("AU_ENV_CHECK_TOKEN", raising=False)
    with pytest.raises(SuiteError) as raised:
        evaluate(_suite(tmp_path))
    assert str(raised.value) == (f"{tmp_path / 's.yaml'}:4: target.env.TOKEN: environment variable AU_ENV_CHECK_TOKEN "
                                 "is not set — export AU_ENV_CHECK_TOKEN=… before the run (nothing was sent)")


def test_set_it_runs_and_a_target_given_to_evaluate_is_not_checked(tmp_path, monkeypatch):
    monkeypatch.setenv("AU_ENV_CHECK_TOKEN", "t0ken")
    assert evaluate(_suite(tmp_path)).passed
    monkeypatch.delenv("AU_ENV_CHECK_TOKEN")
    assert evaluate(_suite(tmp_path), target=lambda prompt: "hi").passed


def test_an_escaped_reference_is_text_and_needs_no_variable(tmp_path, monkeypatch):
    monkeypatch.delenv("AU_ENV_CHECK_TOKEN", raising=False)
    path = tmp_path / "s.yaml"
    path.write_text("target:\n  type: command\n  argv: [sh, -c, 'printf %s \"$TOKEN\"']\n"
                    "  env: {TOKEN: \"$${AU_ENV_CHECK_TOKEN}\"}\n"
                    "cases:\n  - {prompt: p, metrics: [{metric: equals, value: \"${AU_ENV_CHECK_TOKEN}\"}]}\n")
    assert evaluate(path).passed  # the command got the text ${AU_ENV_CHECK_TOKEN}
