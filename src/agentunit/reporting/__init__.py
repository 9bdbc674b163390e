"""Reports: console summary, JSON (contract), JUnit, Markdown, HTML.

Writers are imported on first use, so a run that writes only JSON loads only that writer.
"""

from __future__ import annotations

from agentunit._lazy import lazy_exports

_WRITERS = {
    "print_summary": "console", "report_dict": "json_report", "write_json": "json_report",
    "write_junit": "junit", "write_markdown": "markdown", "write_html": "html",
}

__all__ = sorted(_WRITERS)
__getattr__, __dir__ = lazy_exports(globals(), _WRITERS)
