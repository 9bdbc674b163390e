"""The name → module index that lets a run import only the metric families it uses."""

import subprocess
import sys

from agentunit.metrics import registry
from agentunit.metrics._index import MODULES


def test_the_index_names_every_builtin_metric_and_alias():
    assert registry.catalog_index() == MODULES, (
        "src/agentunit/metrics/_index.py is stale: run "
        '`.venv/bin/python -c "from agentunit.metrics.registry import write_index; write_index()"`')


def _fresh(code: str) -> str:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()


def test_looking_up_a_text_metric_imports_neither_numpy_nor_the_media_families():
    out = _fresh("import sys\nfrom agentunit.metrics import create_metric\n"
                 "create_metric('contains', value='a'); create_metric('not-regex', value='b')\n"
                 "print(sorted(m for m in ('numpy', 'cv2', 'agentunit.audio', 'agentunit.video', "
                 "'agentunit.multimodal', 'agentunit.metrics.catalog') if m in sys.modules))")
    assert out == "[]"


def test_an_unknown_name_still_gets_suggestions_from_the_whole_catalog():
    out = _fresh("from agentunit.metrics.registry import lookup, UnknownMetricError\n"
                 "try:\n    lookup('audio-talk-to-listen-ratoi')\n"
                 "except UnknownMetricError as e:\n    print(e.suggestions)")
    assert "audio-talk-to-listen-ratio" in out


def test_a_stale_index_falls_back_to_the_whole_catalog():
    out = _fresh("from agentunit.metrics import _index\n_index.MODULES.clear()\n"
                 "from agentunit.metrics.registry import lookup\nprint(lookup('video-temporal-consistency')[0].name)")
    assert out == "video-temporal-consistency"
