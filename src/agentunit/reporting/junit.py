"""JUnit XML report: one ``testcase`` per case (and repeat), for CI systems.

Every text that enters the XML (attributes and bodies) first has the characters XML 1.0 forbids
(C0 controls but tab/LF/CR, lone surrogates, U+FFFE, U+FFFF) replaced by visible escapes, then is
XML-escaped, so the file is well-formed whatever the outputs, ids, reasons and errors hold.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from agentunit.reporting.console import agreement_lines, judge_line, metric_lines, unmeasured_allowed
from agentunit.reporting.text import xml_chars

MESSAGE_LIMIT = 500


def _clean(text: Any) -> str:
    return escape(xml_chars(text))


def _attr(text: Any) -> str:
    return quoteattr(xml_chars(text))


def _reasons(case: dict[str, Any]) -> list[str]:
    return [f"{metric}: {why}" for metric, why in metric_lines(case)]


def _judge_properties(summary: dict[str, Any]) -> str:
    """The judge line and each judge metric's known agreement with people as testsuite properties
    (CI systems show them beside the verdicts); "" for a run without a judge."""
    judge, agreement = judge_line(summary), agreement_lines(summary)
    if not judge and not agreement:
        return ""
    rows = [("judge", judge)] if judge else []
    rows += [("judge agreement", line.strip()) for line in agreement[1:]]
    body = "".join(f"      <property name={_attr(name)} value={_attr(value)}/>\n" for name, value in rows)
    return f"    <properties>\n{body}    </properties>\n"


def write_junit(result: Any, path: str | Path) -> None:
    """Failed cases get ``<failure>`` with the failing metrics' reasons, errored ones ``<error>``;
    unmeasured ones ``<failure type="unmeasured">`` with each metric's not-measured reason, or
    ``<skipped>`` when the run allows unmeasured cases. A run that used a judge carries the judge and
    its agreement figures as the testsuite's ``<properties>``."""
    s = result.summary
    unmeasured = s.get("unmeasured", 0)
    allowed = unmeasured_allowed(s)
    failures = s["failed"] + (0 if allowed else unmeasured)
    counts = (f'tests="{s["cases"]}" failures="{failures}" errors="{s["errored"]}" '
              f'skipped="{unmeasured if allowed else 0}"')
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    with target.open("w", encoding="utf-8") as out:
        out.write('<?xml version="1.0" encoding="UTF-8"?>\n')
        out.write(f'<testsuites name={_attr("agentunit")} {counts}>\n')
        out.write(f'  <testsuite name={_attr(result.suite)} {counts} timestamp={_attr(result.started_at)}>\n')
        out.write(_judge_properties(s))
        for case in result.iter_cases():
            name = case["id"] if not case["repeat"] else f'{case["id"]}#{case["repeat"]}'
            seconds = (case["latency_ms"] or 0.0) / 1000.0
            out.write(f'    <testcase classname={_attr(result.suite)} name={_attr(name)} time="{seconds:.3f}">\n')
            if case["status"] == "errored":
                message = _attr((case["error"] or "")[:MESSAGE_LIMIT])
                out.write(f'      <error message={message}>{_clean(case["error"])}</error>\n')
            elif case["status"] == "failed":
                lines = _reasons(case)
                message = "; ".join(lines) or "weighted score below the case threshold"
                out.write(f'      <failure message={_attr(message[:MESSAGE_LIMIT])}>'
                          f'{_clean(chr(10).join(lines))}</failure>\n')
            elif case["status"] == "unmeasured":
                lines = _reasons(case)
                message = "unmeasured: no metric gave a verdict" + (" — " + "; ".join(lines) if lines else "")
                if allowed:
                    out.write(f'      <skipped message={_attr(message[:MESSAGE_LIMIT])}/>\n')
                else:
                    out.write(f'      <failure type="unmeasured" message={_attr(message[:MESSAGE_LIMIT])}>'
                              f'{_clean(chr(10).join(lines))}</failure>\n')
            out.write(f'      <system-out>{_clean(case["output"])}</system-out>\n')
            out.write("    </testcase>\n")
        out.write("  </testsuite>\n</testsuites>\n")
