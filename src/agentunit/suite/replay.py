"""Validated cases kept on disk, so a large suite is read and built once, not again for the run.

A suite's cases are all validated before anything runs (a bad case is reported, with its file and line,
before any target call), and a large suite cannot stay in memory. Instead of reading and building every
case a second time as the run streams it, ``Suite.validate`` writes each built case here in a compact
form, and the run replays them: each case's fields as ``marshal`` data, each metric as the index of a
metric instance kept here (the suite-wide ones, and the first ``INTERN_MAX`` distinct ones met), or as
the arguments it was built from (``agentunit.suite.cases.metric_recipe``), built again on replay as
reading the suite again would build it (once for arguments repeated from case to case).

A case the spool cannot keep exactly — a value ``marshal`` refuses (a subclass of a built-in type, an
object, a date from YAML), a metric that is neither kept nor rebuildable — makes it give up
(``add`` returns False); the run then reads the suite again, as it did before the spool existed.
"""

from __future__ import annotations

import dataclasses
import marshal
import operator
import os
from collections.abc import Iterable, Iterator
from typing import Any

from agentunit._scratch import scratch_file
from agentunit.datasets.base import DatasetCase
from agentunit.suite.cases import metric_from_recipe, metric_recipe

_FIELDS = tuple(f.name for f in dataclasses.fields(DatasetCase) if f.name != "metrics")
_fields_of = operator.attrgetter(*_FIELDS)  # a case's fields but its metrics, as a tuple
_METRICS_AT = [f.name for f in dataclasses.fields(DatasetCase)].index("metrics")
# Cases are rebuilt from their fields in order: every field must be an ordinary positional one.
_POSITIONAL = all(f.init and not f.kw_only for f in dataclasses.fields(DatasetCase))
_SIZE = 4  # bytes of a record's length
_READ = 1 << 20


class CaseSpool:
    """Built cases written to a temporary file and read back in order (see the module docstring)."""

    INTERN_MAX = 1024

    def __init__(self, shared_metrics: Iterable[Any] = (), *, intern: bool = True):
        """``shared_metrics`` are kept (the suite's own); ``intern``: also keep the first ``INTERN_MAX``
        distinct metrics met (False: write every other metric as its recipe — what a spool filled by
        another process must do, since the metrics it kept would stay in that process)."""
        self._file = scratch_file(prefix="agentunit-cases-")  # lives with the spool
        self._size = 0
        self.count = 0
        self._metrics: list[Any] = []
        self._index: dict[int, int] = {}  # id(metric) → position in _metrics (which keeps the metric alive)
        self._recipes: dict[int, tuple[Any, bytes]] = {}  # id(metric) → (metric, recipe) of the latest met
        for metric in shared_metrics:
            self._intern(metric)
        self._shared_only = None if intern else len(self._metrics)  # how many are kept when only those

    def _intern(self, metric: Any) -> int:
        index = self._index.get(id(metric))
        if index is None:
            index = self._index[id(metric)] = len(self._metrics)
            self._metrics.append(metric)
        return index

    def add(self, case: DatasetCase) -> bool:
        """Keep one case; False when it cannot be kept exactly (the spool is then of no use)."""
        if type(case) is not DatasetCase or type(case.metrics) is not list or not _POSITIONAL:
            return False
        refs: list[Any] = []
        index_of = self._index
        for metric in case.metrics:
            index = index_of.get(id(metric))
            if index is not None:
                refs.append(index)
            elif len(self._metrics) < (self.INTERN_MAX if self._shared_only is None else self._shared_only):
                refs.append(self._intern(metric))
            else:
                recipe = self._recipe(metric)
                if recipe is None:
                    return False
                refs.append(recipe)
        try:
            data = marshal.dumps((_fields_of(case), refs))
        except ValueError:  # unmarshallable: an object, a subclass of a built-in type
            return False
        if len(data) >= 1 << (8 * _SIZE):
            return False
        self._file.write(len(data).to_bytes(_SIZE, "little") + data)
        self._size += _SIZE + len(data)
        self.count += 1
        return True

    def _recipe(self, metric: Any) -> bytes | None:
        """The metric's recipe as ``marshal`` bytes (the exact form is the replay's memo key); None: none."""
        known = self._recipes.get(id(metric))
        if known is not None and known[0] is metric:
            return known[1]
        recipe = metric_recipe(metric)
        if recipe is None:
            return None
        try:
            data = marshal.dumps(recipe)
        except ValueError:
            return None
        if len(self._recipes) >= self.INTERN_MAX:
            self._recipes.clear()
        self._recipes[id(metric)] = (metric, data)  # the metric is kept: its id is not reused meanwhile
        return data

    def filled_elsewhere(self, size: int, count: int) -> None:
        """Take the state a forked process left after adding cases through this spool's file (made with
        ``intern=False`` before the fork, so the kept metrics are the same here), and seal it."""
        self._size, self.count = size, count
        self.seal()

    def seal(self) -> None:
        """No more cases: forget what only ``add`` needs (the metrics' recipes met lately)."""
        self._file.flush()
        self._index, self._recipes = {}, {}

    def __iter__(self) -> Iterator[DatasetCase]:
        """The kept cases in order (each iteration reads the file from its start)."""
        return self.cases()

    def cases(self, first: int = 0) -> Iterator[DatasetCase]:
        """The kept cases in order from index ``first`` on (those before it are passed over unread)."""
        self._file.flush()
        fd, size, metrics = self._file.fileno(), self._size, self._metrics
        loads, from_bytes, at = marshal.loads, int.from_bytes, _METRICS_AT
        offset, buffer, pos, index = 0, b"", 0, 0
        rebuilt: dict[bytes, Any] = {}  # recipe → the metric built from it (a suite repeats its entries)

        def from_recipe(recipe: bytes) -> Any:
            metric = rebuilt.get(recipe)
            if metric is None:
                if len(rebuilt) >= self.INTERN_MAX:
                    rebuilt.clear()
                metric = rebuilt[recipe] = metric_from_recipe(loads(recipe))
            return metric

        while True:
            end = pos + _SIZE
            if end <= len(buffer):
                end += from_bytes(buffer[pos:end], "little")
                if end <= len(buffer):
                    if index < first:
                        index, pos = index + 1, end
                        continue
                    fields, refs = loads(buffer[pos + _SIZE:end])
                    pos = end
                    built = [metrics[r] if type(r) is int else from_recipe(r) for r in refs]
                    yield DatasetCase(*fields[:at], built, *fields[at:])
                    continue
            if offset >= size:
                return
            chunk = os.pread(fd, max(_READ, end - len(buffer)), offset)
            if not chunk:
                return
            offset += len(chunk)
            buffer, pos = buffer[pos:] + chunk, 0

    def close(self) -> None:
        self._file.close()
        self._metrics, self._index, self._recipes = [], {}, {}
