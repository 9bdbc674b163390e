"""The error for a ``${NAME}`` inside a ``{{ }}`` expression quotes the template's first 80 characters
(mutation testing found the cut unpinned): enough to find it, never a whole request body."""

import pytest

from agentunit.errors import AgentUnitError
from agentunit.targets._secrets import render_with_env_refs


def test_a_reference_inside_an_expression_is_refused_quoting_the_templates_start():
    template = '{{ "${AU_T_KEY}" | upper }}' + "x" * 53 + "-cut-here-and-never-shown"
    assert len(template[:80]) == 80 and template[80] == "-"
    with pytest.raises(AgentUnitError) as raised:
        render_with_env_refs(template, {})
    assert str(raised.value) == ("a ${NAME} reference can only be used in the text of a template, not inside a "
                                 f"{{{{ }}}} expression: {template[:80]!r}")
