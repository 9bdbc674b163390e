import pytest

from agentunit import check
from agentunit.errors import MetricConfigError


@pytest.mark.parametrize(("spec", "passed", "value"), [
    ({"metric": "python", "value": "'Paris' in output"}, True, 1.0),
    ({"metric": "python", "value": "len(output) > 100"}, False, 0.0),
    ({"metric": "python", "value": "len(output.split()) / 10"}, True, 0.4),
    ({"metric": "python", "value": "len(output.split()) / 10", "threshold": 0.5}, False, 0.4),
    ({"metric": "python", "value": "0"}, False, 0.0),
    ({"metric": "python", "value": "words = output.split()\nreturn {'pass': len(words) == 4, 'score': 0.9, "
                                   "'reason': 'four words'}"}, True, 0.9),
    ({"metric": "python", "value": "return {'pass': True, 'score': 0.2}", "threshold": 0.5}, False, 0.2),
    ({"metric": "python", "value": "'true' if context['vars']['city'] in output else 'false'"}, True, 1.0),
    ({"metric": "python", "value": "json.loads('{\"a\": 1}')['a'] == 1 and bool(re.search('Par', output))"},
     True, 1.0),
])
def test_python_check_results(spec, passed, value):
    result = check("I love Paris too", spec, vars={"city": "Paris"})
    assert result.passed is passed and result.value == pytest.approx(value)


def test_python_check_sees_context_and_file_functions(tmp_path):
    module = tmp_path / "checks.py"
    module.write_text("def get_assert(output, context):\n    return context['expected_output'] in output\n"
                      "def shout(output, context):\n    return output.isupper()\n")
    assert check("The answer is 42", {"metric": "python", "value": f"file://{module}"},
                 expected_output="42").passed is True
    assert check("HEY", {"metric": "python", "value": f"file://{module}:shout"}).passed is True
    with pytest.raises(MetricConfigError, match="has no function"):
        check("x", {"metric": "python", "value": f"file://{module}:nope"})


def test_python_check_errors():
    with pytest.raises(MetricConfigError, match="does not compile"):
        check("x", {"metric": "python", "value": "output ==="})
    crashed = check("x", {"metric": "python", "value": "1 / 0"})
    assert crashed.error and "ZeroDivisionError" in crashed.error
    assert "must return" in check("x", {"metric": "python", "value": "[1]"}).error
    assert check("x", {"metric": "not-python", "value": "True"}).passed is False
