"""``check_fields``' shortcut for a few good fields of a long schema checks the values given, not nothing
(a JSON body is the one check that accepts null); mutation testing found this unpinned."""

from agentunit.suite.fields import check_fields, json_template, text
from agentunit.suite.problems import Problems


def test_a_bad_value_that_a_check_would_accept_as_null_is_still_refused():
    problems = Problems()
    schema = {"body": json_template(), "url": text(), "method": text()}
    assert check_fields({"body": {"q": "{{ x"}}, schema, ("target",), problems) is False
    assert [(p.message, p.key_path) for p in problems.errors] == [
        ("body is not a valid template: template syntax error: unexpected end of template, expected 'end of print "
         "statement'. in '{{ x'", ("target", "body"))]
    assert check_fields({"body": None, "url": "u"}, schema, ("target",), Problems()) is True
