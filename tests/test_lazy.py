"""Package facades import a name's module on first use (agentunit._lazy), and behave as eager ones."""

import subprocess
import sys

import pytest

from agentunit._lazy import lazy_exports


def _fresh(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_a_name_is_imported_when_first_asked_for_and_then_kept():
    out = _fresh("import sys\nimport agentunit.stats as stats\n"
                 "before = 'agentunit.stats.paired' in sys.modules\n"
                 "f = stats.mcnemar_exact\n"
                 "print(before, 'agentunit.stats.paired' in sys.modules, stats.__dict__['mcnemar_exact'] is f)")
    assert out == "False True True"


def test_facades_give_what_their_modules_define():
    import agentunit.media as media
    import agentunit.stats as stats
    from agentunit.media.access import media_records
    from agentunit.stats.paired import wilcoxon_p

    assert stats.wilcoxon_p is wilcoxon_p and media.media_records is media_records
    assert set(stats.__all__) <= set(dir(stats)) and "media_records" in dir(media)
    from agentunit.stats import intervals  # a submodule, not an export: still importable from the package

    assert intervals.wilson_interval is stats.wilson_interval


def test_an_unknown_name_is_an_attribute_error():
    namespace = {"__name__": "agentunit.stats"}
    exports = {"wilson_interval": "intervals", "UnknownRunError": "agentunit.store.sqlite"}
    getattr_, dir_ = lazy_exports(namespace, exports)
    with pytest.raises(AttributeError, match="has no attribute 'nope'"):
        getattr_("nope")
    from agentunit.store.sqlite import UnknownRunError

    assert getattr_("UnknownRunError") is UnknownRunError and namespace["UnknownRunError"] is UnknownRunError
    assert dir_() == ["UnknownRunError", "__name__", "wilson_interval"]
