"""Tell a promptfoo config from a native suite by its keys."""

from __future__ import annotations

from pathlib import Path
from typing import Any

# Keys only a promptfoo config has (a native suite has none of them).
PROMPTFOO_ONLY_KEYS = frozenset({"prompts", "providers", "defaultTest", "scenarios", "assertionTemplates",
                                 "derivedMetrics", "outputPath", "evaluateOptions", "redteam", "sharing",
                                 "writeLatestResults", "nunjucksFilters", "extensions", "commandLineOptions",
                                 "env", "tracing"})
# Keys only a native suite has.
NATIVE_ONLY_KEYS = frozenset({"cases", "cases_file", "target", "judge", "defaults", "metrics", "prompt",
                              "calibration", "name"})


def is_promptfoo_config(data: Any, path: Path | None = None) -> bool:
    """True when ``data`` (a decoded YAML/JSON document) is a promptfoo config, not a native suite.

    A promptfoo config has ``prompts``, ``providers`` (or promptfoo's ``targets`` list) or another
    key only promptfoo uses, and none of the keys only a native suite has.
    """
    if not isinstance(data, dict) or NATIVE_ONLY_KEYS & data.keys():
        return False
    if PROMPTFOO_ONLY_KEYS & data.keys():
        return True
    targets = data.get("targets")
    if isinstance(targets, list) and "tests" in data:
        return True
    return path is not None and path.name.startswith("promptfooconfig") and "tests" in data
