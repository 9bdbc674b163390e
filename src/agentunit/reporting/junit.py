"""JUnit XML report: one ``testcase`` per case (and repeat), for CI systems."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape, quoteattr

_INVALID_XML = dict.fromkeys([c for c in range(32) if c not in (9, 10, 13)], None)


def _clean(text: Any) -> str:
    return escape(str(text if text is not None else "").translate(_INVALID_XML))


def _attr(text: Any) -> str:
    return quoteattr(str(text if text is not None else "").translate(_INVALID_XML))


def write_junit(result: Any, path: str | Path) -> None:
    """Failed cases get ``<failure>`` with the failing metrics' reasons, errored ones ``<error>``."""
    s = result.summary
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    with target.open("w", encoding="utf-8") as out:
        out.write('<?xml version="1.0" encoding="UTF-8"?>\n')
        out.write(f'<testsuites name={_attr("agentunit")} tests="{s["cases"]}" failures="{s["failed"]}" '
                  f'errors="{s["errored"]}">\n')
        out.write(f'  <testsuite name={_attr(result.suite)} tests="{s["cases"]}" failures="{s["failed"]}" '
                  f'errors="{s["errored"]}" timestamp={_attr(result.started_at)}>\n')
        for case in result.iter_cases():
            name = case["id"] if not case["repeat"] else f'{case["id"]}#{case["repeat"]}'
            seconds = (case["latency_ms"] or 0.0) / 1000.0
            out.write(f'    <testcase classname={_attr(result.suite)} name={_attr(name)} time="{seconds:.3f}">\n')
            if case["status"] == "errored":
                message = _attr((case["error"] or "")[:500])
                out.write(f'      <error message={message}>{_clean(case["error"])}</error>\n')
            elif case["status"] == "failed":
                lines = [f'{m["metric"]}: {m["reason"]}' for m in case["metrics"] if m["passed"] is False]
                message = "; ".join(lines) or "weighted score below the case threshold"
                out.write(f'      <failure message={_attr(message[:500])}>{_clean(chr(10).join(lines))}</failure>\n')
            out.write(f'      <system-out>{_clean(case["output"])}</system-out>\n')
            out.write("    </testcase>\n")
        out.write("  </testsuite>\n</testsuites>\n")
