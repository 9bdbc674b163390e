"""The ``--output`` JSON report (contract; see docs/results.md), written as a stream."""

from __future__ import annotations

from pathlib import Path
from typing import IO, Any

from agentunit.store.text import encodable, to_json

METRIC_KEYS = ("metric", "value", "passed", "threshold", "reason", "detail", "error")


def case_dict(case: dict[str, Any], with_repeat: bool) -> dict[str, Any]:
    """One case in contract form: id, prompt, output, passed, status, error, latency_ms, metrics; in a
    prompts × targets run, ``prompt_label`` and ``target_label``; and
    ``media`` (``{field, source, sha256, mime, size}`` per medium) when the case or its reply had any
    (an image's ``thumbnail`` is the HTML report's: left out here)."""
    out = {"id": case["id"], "prompt": case["prompt"], "output": case["output"], "passed": case["passed"],
           "status": case["status"], "error": case["error"], "latency_ms": case["latency_ms"],
           "metrics": [{k: m[k] for k in METRIC_KEYS} for m in case["metrics"]]}
    if with_repeat:
        out["repeat"] = case["repeat"]
    add_envelope_fields(out, case.get("envelope"))
    return out


def add_envelope_fields(out: dict[str, Any], envelope: Any) -> None:
    """Put what the report shows of a case's stored envelope into ``out``: the prompts × targets labels
    and the media records (without the HTML report's thumbnails)."""
    if not isinstance(envelope, dict):
        return
    if isinstance(envelope.get("matrix"), dict):  # a prompts × targets run
        out["prompt_label"], out["target_label"] = envelope["matrix"].get("prompt"), envelope["matrix"].get("target")
    media = envelope.get("media")
    if isinstance(media, list) and media:
        out["media"] = [{k: v for k, v in r.items() if k != "thumbnail"} if isinstance(r, dict) else r
                        for r in media]


def media_of_case(case: dict[str, Any]) -> list[dict[str, Any]]:
    """The stored media records of a case read from the database (an empty list when none)."""
    envelope = case.get("envelope")
    media = envelope.get("media") if isinstance(envelope, dict) else None
    return media if isinstance(media, list) else []


def case_line(case: dict[str, Any], with_repeat: bool) -> str:
    """One case of the report as its line of JSON, made encodable (a lone surrogate → U+FFFD)."""
    return encodable(to_json(case_dict(case, with_repeat)))


def _header(result: Any) -> dict[str, Any]:
    header = {"run_id": result.run_id, "suite": result.suite, "started_at": result.started_at,
              "summary": result.summary}
    from agentunit.reporting.console import run_statistics

    statistics = run_statistics(result)
    if statistics:  # per-metric intervals; with --repeat, flakiness and agreement (docs/results.md)
        header["statistics"] = statistics
    return header


def report_dict(result: Any) -> dict[str, Any]:
    """The whole report as one dict (for the Python API; the CLI streams it instead)."""
    with_repeat = "repeat" in result.summary
    return {**_header(result), "cases": [case_dict(c, with_repeat) for c in result.iter_cases()]}


def write_json(result: Any, path: str | Path) -> None:
    """Write the report case by case, so a 100,000-case run never sits in memory."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    with target.open("wb") as handle:
        _stream(result, handle)


def _stream(result: Any, handle: IO[bytes]) -> None:
    """Header, then one case per line; each piece made encodable (a lone surrogate → U+FFFD).

    The cases are the run's spooled lines when it ran in this process (``agentunit.reporting.spool``),
    else read back from the database.
    """
    header = encodable(to_json(_header(result)))
    handle.write((header[:-1] + ', "cases": [').encode("utf-8"))
    spool = _usable_spool(result)
    if spool is not None:
        spool.write_lines(handle)
    else:
        with_repeat = "repeat" in result.summary
        for index, case in enumerate(result.iter_cases()):
            handle.write(b",\n" if index else b"\n")
            handle.write(case_line(case, with_repeat).encode("utf-8"))
    handle.write(b"\n]}\n")


def _usable_spool(result: Any) -> Any:
    """The run's report spool when it made lines and they are the database's (see ReportSpool), else None."""
    spool = getattr(result, "spool", None)
    return spool if spool is not None and spool.usable and spool.with_lines else None
