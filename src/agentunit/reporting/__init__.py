"""Reports: console summary, JSON (contract), JUnit, Markdown, HTML.

Writers are imported on first use, so a run that writes only JSON loads only that writer.
"""

from __future__ import annotations

import importlib
from typing import Any

_WRITERS = {
    "print_summary": "console", "report_dict": "json_report", "write_json": "json_report",
    "write_junit": "junit", "write_markdown": "markdown", "write_html": "html",
}

__all__ = sorted(_WRITERS)


def __getattr__(name: str) -> Any:
    if name not in _WRITERS:
        raise AttributeError(f"module 'agentunit.reporting' has no attribute {name!r}")
    return getattr(importlib.import_module(f"agentunit.reporting.{_WRITERS[name]}"), name)
