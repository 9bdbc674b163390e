"""Shared config readers of metrics/_values.py."""

import pytest

from agentunit.errors import MetricConfigError
from agentunit.metrics._values import switch


def test_a_switch_is_a_real_boolean_with_its_default():
    assert switch({}, "judge", True) is True and switch({}, "judge", False) is False
    assert switch({"judge": False}, "judge", True) is False
    with pytest.raises(MetricConfigError, match=r"^code-readability config\.judge must be true or false, got 'false'$"):
        switch({"judge": "false"}, "judge", True, "code-readability")
    with pytest.raises(MetricConfigError, match=r"^config\.brisque must be true or false, got 1$"):
        switch({"brisque": 1}, "brisque", False)
