"""The JSON report's case lines and the per-metric tallies, made as each case is stored.

Reading a finished run back from the database costs more than running it (a join over every metric
result, a dict per row, JSON parsed and written again). While a run executes in this process, the
store hands each case's rows to a ``ReportSpool`` as it buffers them: the spool turns them into the
very values the database would return (integers in REAL columns become floats, NaN becomes NULL,
JSON text reads back as parsed), writes the case's report line to a temporary file and counts
the metric tallies. The JSON report then copies those lines in suite order instead of querying.

The spool steps aside (``usable`` False, the report reads the database) whenever its lines could
differ from what the database holds: a value SQLite would convert in a way not mirrored here, a
case stored twice under one key, rows the store had to rewrite, or a case count that does not match
the run's. Statistics come from the tallies only when cases were stored in suite order (first-seen
metric order and the order of values, which seeds the bootstrap, are then the database's).
"""

from __future__ import annotations

import json
import json.encoder
import math
import os
from array import array
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from agentunit._scratch import copy_file, scratch_file
from agentunit.reporting.json_report import add_envelope_fields
from agentunit.stats.summary import MetricTallies
from agentunit.store.text import encodable, to_json

_MISSING = -1
_READ_BLOCK = 1 << 20  # bytes of spooled lines read at once for the report
_PLACES_BLOCK = 1 << 16  # places of an adopted range read at once
_LINES, _PLACES = "report-lines.bin", "report-places.bin"  # what export() writes for adopt()
_INFINITY = float("inf")
_encode_string = json.encoder.encode_basestring  # what json.dumps uses with ensure_ascii=False
# Positions of the columns in the store's row tuples (agentunit.store.base CASE_COLUMNS / METRIC_COLUMNS).
_C_SEQ, _C_ID, _C_REPEAT, _C_STATUS, _C_PASSED, _C_PROMPT, _C_ERROR, _C_LATENCY, _C_ENVELOPE = \
    1, 2, 3, 4, 5, 7, 9, 10, 12
_M_NAME, _M_STATUS, _M_VALUE, _M_PASSED, _M_THRESHOLD, _M_WEIGHT, _M_REASON, _M_DETAIL, _M_ERROR, _M_LABEL = \
    4, 5, 6, 7, 8, 9, 10, 11, 12, 13


class StatusCounts:
    """The stored results counted by status as the run's summary counts them in the database
    (``Store.status_counts``, ``metric_counts``, ``label_counts``), as they are stored: one scan fewer of
    every metric result once the run is over (0.24 s at 100,000 cases)."""

    __slots__ = ("cases", "labels", "metrics")

    def __init__(self) -> None:
        self.cases: dict[str, int] = {}
        self.metrics: dict[str, dict[str, int]] = {}
        self.labels: dict[str, dict[str, int]] = {}

    def add(self, status: Any, metric_rows: list[tuple[Any, ...]]) -> None:
        cases = self.cases
        cases[status] = cases.get(status, 0) + 1
        for row in metric_rows:
            name, label = row[_M_NAME], row[_M_LABEL]
            if name is not None:
                _count(self.metrics, name, row[_M_STATUS])
            if label is not None:
                _count(self.labels, label, row[_M_STATUS])

    def extend(self, other: StatusCounts) -> None:
        for status, count in other.cases.items():
            self.cases[status] = self.cases.get(status, 0) + count
        for mine, theirs in ((self.metrics, other.metrics), (self.labels, other.labels)):
            for key, statuses in theirs.items():
                for status, count in statuses.items():
                    _count(mine, key, status, count)

    def summary_counts(self) -> tuple[dict[str, int], dict[str, dict[str, int]], dict[str, dict[str, int]]] | None:
        """(case statuses, per metric, per label) as the database's counts give them, in their order (by
        name, then status); None when a name is not text (the database keeps a number as text). Statuses are
        agentunit's own words."""
        if any(type(key) is not str for key in (*self.cases, *self.metrics, *self.labels)):
            return None
        return (dict(sorted(self.cases.items())), _ordered(self.metrics), _ordered(self.labels))


def _count(table: dict[str, dict[str, int]], key: str, status: str, count: int = 1) -> None:
    statuses = table.get(key)
    if statuses is None:
        statuses = table[key] = {}
    statuses[status] = statuses.get(status, 0) + count


def _ordered(table: dict[str, dict[str, int]]) -> dict[str, dict[str, int]]:
    return {key: dict(sorted(table[key].items())) for key in sorted(table)}


class _Diverges(Exception):
    """A value the database would store differently from what this module mirrors."""


class ReportSpool:
    """Report lines and metric tallies of the cases stored during one run (see the module docstring).

    Args:
        repeats: attempts per case (``--repeat``): a case's place in the report is seq × repeats + repeat.
        with_repeat: whether report lines carry ``repeat`` (the run's summary has repeat statistics).
        first_place: the place of this spool's first line (a spool of a later range of the run's cases,
            ``for_range``, made in another process and adopted by the run's own spool).
        lines: make the report lines (False: no JSON report is to be written — the CLI without ``--output`` —
            so only the tallies are counted; a report written anyway reads the database).
    """

    def __init__(self, repeats: int = 1, *, with_repeat: bool = False, first_place: int = 0, lines: bool = True):
        self.repeats = max(1, repeats)
        self.with_repeat = with_repeat
        self.first_place = first_place
        self.with_lines = lines
        self.usable = True
        self.in_order = True
        self.count = 0
        self._last = -1
        self._offsets = array("q")
        self._lengths = array("q")
        self._file = scratch_file(prefix="agentunit-report-")  # lives with the spool
        self._size = 0
        # The file is the lines in place order, each followed by a newline and holding none (the usual case):
        # the report's cases array is then the file with its newlines made separators (``write_lines``).
        self._verbatim = True
        self.tallies = MetricTallies()
        self.counts = StatusCounts()

    def add(self, case_row: tuple[Any, ...], metric_rows: list[tuple[Any, ...]], output: str | None,
            details: list[Any] | None = None) -> None:
        """One case as the store buffered it (``output``: the full text, even when the row holds its hash;
        ``details``: the metrics' detail objects, whose stored JSON text is copied when it would read back
        as written)."""
        if not self.usable:
            return
        try:
            data = (self._line(case_row, metric_rows, output, details) + "\n").encode("utf-8") \
                if self.with_lines else b""
        except _Diverges:
            self.discard()
            return
        position = case_row[_C_SEQ] * self.repeats + case_row[_C_REPEAT] - self.first_place
        if position < 0:
            self.discard()  # a case before this spool's range
            return
        if position < len(self._offsets) and self._offsets[position] != _MISSING:
            self.discard()  # stored twice under one place: the database keeps the last, the lines both
            return
        if position <= self._last:
            self.in_order = False
        self._last = max(self._last, position)
        offsets, size = self._offsets, len(data) - 1 if data else 0  # the line without its newline
        if position == len(offsets):  # the next place, the usual case
            offsets.append(self._size)
            self._lengths.append(size)
            if data and data.find(b"\n") < size:  # JSON text holds none, but a copied detail text might
                self._verbatim = False
        else:
            self._verbatim = False
            if position > len(offsets):  # replies finishing out of order: places before this one wait
                grow = position + 1 - len(offsets)
                offsets.extend([_MISSING] * grow)
                self._lengths.extend([0] * grow)
            offsets[position], self._lengths[position] = self._size, size
        if data:
            self._file.write(data)
            self._size += len(data)
        self.count += 1
        self.counts.add(case_row[_C_STATUS], metric_rows)
        if self.in_order:
            add = self.tallies.add
            try:
                for m in metric_rows:
                    passed, value = m[_M_PASSED], m[_M_VALUE]
                    add(m[_M_NAME], m[_M_STATUS], value if type(value) is float and value - value == 0.0
                        else _finite(_real(value)), None if passed is None else bool(passed))
            except _Diverges:  # a value the database would keep as text (the lines, when made, found it first)
                self.discard()

    def _line(self, row: tuple[Any, ...], metric_rows: list[tuple[Any, ...]], output: str | None,
              details: list[Any] | None = None) -> str:
        """The report line ``case_line`` makes of the case ``Store.iter_cases`` would read back for these rows.

        Written piece by piece as ``json.dumps(case_dict(…), ensure_ascii=False)`` writes it (same key
        order, separators, string escapes and float text), four times faster than building the dicts;
        a case whose envelope adds labels or media goes through the dicts.
        """
        envelope = _text(row[_C_ENVELOPE])
        # Only the labels and media of the envelope reach the report: other envelopes need not be parsed
        # (json.dumps writes keys as they are, so a key "matrix" or "media" shows in the text).
        if envelope and ('"matrix"' in envelope or '"media"' in envelope):
            case = {"id": _text(row[_C_ID]), "prompt": _text(row[_C_PROMPT]), "output": _text(output),
                    "passed": bool(row[_C_PASSED]), "status": _text(row[_C_STATUS]),
                    "error": _text(row[_C_ERROR]), "latency_ms": _real(row[_C_LATENCY]),
                    "metrics": [_metric(m) for m in metric_rows]}
            if self.with_repeat:
                case["repeat"] = row[_C_REPEAT]
            add_envelope_fields(case, json.loads(envelope))
            return encodable(to_json(case))
        json_text = _json_text
        passed = row[_C_PASSED]
        if details is None:
            metrics = ", ".join([_metric_json(m) for m in metric_rows])
        else:
            count = len(details)
            metrics = ", ".join([_metric_json(m, i < count and _plain(details[i])) for i, m in enumerate(metric_rows)])
        line = (f'{{"id": {json_text(row[_C_ID])}, "prompt": {json_text(row[_C_PROMPT])}, '
                f'"output": {json_text(output)}, "passed": {"true" if passed else "false"}, '
                f'"status": {json_text(row[_C_STATUS])}, "error": {json_text(row[_C_ERROR])}, '
                f'"latency_ms": {_json_real(row[_C_LATENCY])}, "metrics": [{metrics}]')
        if self.with_repeat:
            line += f', "repeat": {int.__repr__(row[_C_REPEAT])}'
        line += "}"
        return line if line.isascii() else encodable(line)

    def for_range(self, first_case: int) -> ReportSpool:
        """An empty spool, like this one, for the run's cases from index ``first_case`` on."""
        return ReportSpool(**self.range_settings(first_case))

    def range_settings(self, first_case: int) -> dict[str, Any]:
        """The arguments of ``for_range(first_case)``'s spool, for a process that makes it itself (a resident
        helper, ``agentunit.core.shards.run_resident``)."""
        return {"repeats": self.repeats, "with_repeat": self.with_repeat, "first_place": first_case * self.repeats,
                "lines": self.with_lines}

    def export(self, place: Path) -> dict[str, Any]:
        """Write the lines to files in ``place``; return the rest of what ``adopt`` needs (picklable)."""
        if not self.usable:
            return {"usable": False}
        self._file.flush()
        self._file.seek(0)
        with open(place / _LINES, "wb") as lines:
            copy_file(self._file, lines)
        with open(place / _PLACES, "wb") as places:
            self._offsets.tofile(places)
            self._lengths.tofile(places)
        return {"usable": True, "in_order": self.in_order, "verbatim": self._verbatim, "count": self.count,
                "last": self._last,
                "first_place": self.first_place, "places": len(self._offsets), "tallies": self.tallies,
                "counts": self.counts}

    def adopt(self, place: Path, state: dict[str, Any] | None) -> None:
        """Take in what a spool of a later range of the run's cases exported (``export``): its lines at their
        places after this spool's, its tallies after these (the statistics stay those of the suite order)."""
        if not self.usable:
            return
        first, offsets = (state or {}).get("first_place", 0), self._offsets
        if not state or not state["usable"] or first < len(offsets) or self._last >= first:
            self.discard()  # that range could not be spooled, or it overlaps this one: read the database
            return
        count, base = state["places"], self._size
        verbatim = self._verbatim and state["verbatim"] and first == len(offsets)  # no place left between
        kept = len(offsets), len(self._lengths)
        offsets.extend([_MISSING] * (first - len(offsets)))
        self._lengths.extend([0] * (first - len(self._lengths)))
        try:  # read a block of places at a time: a range's 500,000 would take 8 MB more at once
            with open(place / _PLACES, "rb") as places:
                for done in range(0, count, _PLACES_BLOCK):
                    theirs = array("q")
                    theirs.fromfile(places, min(_PLACES_BLOCK, count - done))
                    if _MISSING in theirs:  # places that range left empty stay empty
                        offsets.extend([_MISSING if at == _MISSING else base + at for at in theirs])
                    else:
                        offsets.extend(map(base.__add__, theirs))
                self._lengths.fromfile(places, count)
        except BaseException:  # what that range wrote cannot be read back: as it was
            del offsets[kept[0]:], self._lengths[kept[1]:]
            raise
        self._verbatim = verbatim
        with open(place / _LINES, "rb") as lines:
            copy_file(lines, self._file)
        self._size = self._file.tell()
        self.count += state["count"]
        self.counts.extend(state["counts"])
        if state["count"]:
            self._last = first + state["last"]
        if not state["in_order"]:
            self.in_order = False
        if self.in_order:
            self.tallies.extend(state["tallies"])

    def discard(self) -> None:
        """Give up: the report and statistics read the database."""
        self.usable = False
        self.close()

    def lines(self) -> Iterator[bytes]:
        """Every stored case's report line (UTF-8), in suite order."""
        for block in self._line_blocks():
            yield from block

    def write_lines(self, handle: IO[bytes]) -> None:
        """Write every stored case's line in suite order as the report's ``cases`` array holds them: each
        after a newline, with a comma between them — a block of lines per write."""
        if self._verbatim:  # a block of the file per write, each newline but the last made ",\n"
            self._file.flush()
            fd, end = self._file.fileno(), self._size - 1
            if end > 0:
                handle.write(b"\n")
            for at in range(0, end, _READ_BLOCK):
                handle.write(os.pread(fd, min(_READ_BLOCK, end - at), at).replace(b"\n", b",\n"))
            return
        separator = b"\n"
        for block in self._line_blocks():
            handle.write(separator + b",\n".join(block))
            separator = b",\n"

    def _line_blocks(self) -> Iterator[list[bytes]]:
        """The lines in suite order, in lists of those read at once: lines stored one after another (the
        usual case) are read a block of the file at a time and cut apart here (one read and two writes per
        line cost ~2 µs a case)."""
        self._file.flush()
        fd = self._file.fileno()
        block, start, end = b"", 0, 0
        found: list[bytes] = []
        for offset, length in zip(self._offsets, self._lengths, strict=True):
            if offset == _MISSING:
                continue
            if not start <= offset <= offset + length <= end:
                if found:
                    yield found
                    found = []
                block, start = os.pread(fd, max(length, _READ_BLOCK), offset), offset
                end = start + len(block)
            found.append(block[offset - start:offset - start + length])
        if found:
            yield found

    def statistics(self) -> dict[str, Any] | None:
        """``run_statistics``'s ``{"metrics": …}`` from the tallies; None when they cannot stand in for it
        (cases stored out of suite order, or repeats, whose statistics read the database)."""
        if not self.usable or not self.in_order or self.with_repeat:
            return None
        return {"metrics": self.tallies.summary()}

    def summary_counts(self) -> tuple[dict[str, int], dict[str, dict[str, int]], dict[str, dict[str, int]]] | None:
        """``StatusCounts.summary_counts`` of every case added (None: the spool was given up, or a key is
        not text)."""
        return self.counts.summary_counts() if self.usable else None

    def close(self) -> None:
        self._file.close()
        self._offsets, self._lengths = array("q"), array("q")
        self.tallies = MetricTallies()
        self.counts = StatusCounts()


def _metric(row: tuple[Any, ...]) -> dict[str, Any]:
    """A metric result of a report line, from its row as the database would return it."""
    detail = _text(row[_M_DETAIL])
    passed = row[_M_PASSED]
    _real(row[_M_WEIGHT])  # not in the report, but a value the database would not take as it is
    return {"metric": _text(row[_M_NAME]), "value": _real(row[_M_VALUE]),
            "passed": None if passed is None else bool(passed), "threshold": _real(row[_M_THRESHOLD]),
            "reason": _text(row[_M_REASON]), "detail": json.loads(detail) if detail else {},
            "error": _text(row[_M_ERROR])}


def _metric_json(row: tuple[Any, ...], verbatim: bool = False) -> str:
    """``_metric(row)`` as ``json.dumps`` writes it; ``verbatim``: the stored detail text is what reading it
    back and writing it again would give (``_plain``), so it is copied."""
    detail = row[_M_DETAIL]
    if detail is not None and type(detail) is not str:
        raise _Diverges
    name, value, passed, threshold = row[_M_NAME], row[_M_VALUE], row[_M_PASSED], row[_M_THRESHOLD]
    reason, weight = row[_M_REASON], row[_M_WEIGHT]
    if type(weight) is not float:
        _real(weight)  # not in the report, but a value the database would not take as it is
    # Text and finite floats written at once; anything else as _json_text/_json_real write it.
    head = (f'{{"metric": {_encode_string(name) if type(name) is str else _json_text(name)}, '
            f'"value": {float.__repr__(value) if type(value) is float and value - value == 0.0 else _json_real(value)}'
            f', "passed": {"null" if passed is None else "true" if passed else "false"}, '
            f'"threshold": {"null" if threshold is None else _json_real(threshold)}, '
            f'"reason": {_encode_string(reason) if type(reason) is str else _json_text(reason)}, "detail": ')
    if not detail:
        detail = "{}"
    elif not verbatim:
        detail = to_json(json.loads(detail))
    error = row[_M_ERROR]
    return f'{head}{detail}, "error": {"null" if error is None else _json_text(error)}}}'


def _verbatim(details: list[Any] | None, index: int) -> bool:
    return details is not None and index < len(details) and _plain(details[index])


_SCALARS = frozenset((str, int, float, bool, type(None)))


def _plain(value: Any, depth: int = 0) -> bool:
    """Whether ``value``'s JSON text reads back and writes again unchanged: every object key is text that
    stays itself when made encodable (a number key and the same number as text would become one key, the
    database's reading keeping the last). Deep values are not looked into: they take the long way."""
    kind = type(value)
    if kind in _SCALARS:
        return True
    if kind is dict:
        if depth >= 8:
            return False
        scalars = _SCALARS
        for k, v in value.items():
            if type(k) is not str or not (k.isascii() or encodable(k) == k):
                return False
            if type(v) not in scalars and not _plain(v, depth + 1):
                return False
        return True
    if kind is list or kind is tuple:
        if depth >= 8:
            return False
        scalars = _SCALARS
        return all(type(v) in scalars or _plain(v, depth + 1) for v in value)
    return _plain_any(value, depth)


def _plain_any(value: Any, depth: int) -> bool:
    """``_plain`` for values of other types (subclasses of dict, list or tuple are read as those)."""
    if isinstance(value, dict):
        return depth < 8 and all(type(k) is str and (k.isascii() or encodable(k) == k) and _plain(v, depth + 1)
                                 for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return depth < 8 and all(_plain(v, depth + 1) for v in value)
    return True


def _json_text(value: Any) -> str:
    """A TEXT column's value as JSON (``null`` or a string, escaped as ``json.dumps`` escapes it)."""
    if type(value) is str:
        return _encode_string(value)
    if value is None:
        return "null"
    raise _Diverges  # a number would come back as text


def _json_real(value: Any) -> str:
    """A REAL column's value, as the database returns it, as JSON (``json.dumps``'s float text)."""
    if type(value) is float and value - value == 0.0:  # finite: neither NaN nor ±infinity
        return float.__repr__(value)
    number = _real(value)
    if number is None:
        return "null"
    if number == _INFINITY:
        return "Infinity"
    if number == -_INFINITY:
        return "-Infinity"
    return float.__repr__(number)


def _text(value: Any) -> str | None:
    """A TEXT column: text comes back as it went in; a number would come back as text."""
    if value is None or type(value) is str:
        return value
    raise _Diverges


def _real(value: Any) -> float | None:
    """A REAL column: integers come back as floats and NaN as NULL; text would be converted or kept."""
    if value is None:
        return None
    kind = type(value)
    if kind is float:
        return None if value != value else value
    if (kind is int or kind is bool) and -(1 << 63) <= value < (1 << 63):
        return float(value)
    raise _Diverges


def _finite(value: float | None) -> float | None:
    return value if value is not None and math.isfinite(value) else None
