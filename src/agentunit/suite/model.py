"""The Suite: validated settings plus a re-iterable stream of validated cases."""

from __future__ import annotations

import heapq
import itertools
from array import array
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agentunit.datasets.base import DatasetCase
from agentunit.errors import AgentUnitError, SuiteError
from agentunit.media.limits import MediaLimits
from agentunit.suite.cases import HumanVerdicts, Where, build_case, has_prompt
from agentunit.suite.problems import Problems
from agentunit.suite.sources import RawCase, read_case_file

if TYPE_CHECKING:
    from agentunit.calibration.fit import Calibration
    from agentunit.suite.calibrated import Calibrator
    from agentunit.suite.matrix import SuiteMatrix
    from agentunit.suite.replay import CaseSpool
    from agentunit.suite.transform import Transform
    from agentunit.targets.base import Target

KEEP_VALIDATED_CASES = 20_000
# Estimated cases from which helper processes share the validating (agentunit.suite.split): below it a helper
# (a fork, a spool, a replay) costs more than half the validating saves (measured on 2 CPUs: 1,000 cases ~3 ms
# faster validated here alone, 3,000 cases ~4 ms faster shared).
SPLIT_FROM = 2_000
# From this many estimated cases, ``agentunit run`` shares the validating with resident helpers (validate's
# ``resident``): each runs the range it validated, without a fork or a replay, so sharing pays from where the
# run itself is split (agentunit.core.engine.SHARDED_FROM; measured on 2 CPUs: 1,000 cases ~8 ms sooner).
RESIDENT_FROM = 1_000


@dataclass
class Suite:
    """A test suite: name, target, judge, options, and where its cases come from.

    Cases stream from their sources on every ``iter_cases()`` (so a 100,000-line JSONL file is never
    held in memory); ``validate()`` reads them once and raises SuiteError listing every problem.
    Human verdicts (``expected_pass``) met while reading cases are kept in ``verdicts`` by case id; a
    calibration (``use_calibration``) sets the thresholds of judge-backed entries as cases are built.
    """

    name: str
    path: Path | None = None
    description: str | None = None
    target: dict[str, Any] | None = None
    target_declared: bool = False  # the suite names a target (None above when it was invalid)
    judge: dict[str, Any] = field(default_factory=lambda: {"provider": "local"})
    options: dict[str, Any] = field(default_factory=dict)
    defaults: dict[str, Any] = field(default_factory=dict)
    prompt: str | None = None
    inline_cases: list[Any] = field(default_factory=list)
    case_files: list[Path] = field(default_factory=list)
    prebuilt_cases: list[DatasetCase] | None = None
    suite_metrics: list[Any] = field(default_factory=list)
    default_metrics: list[Any] = field(default_factory=list)
    problems: Problems = field(default_factory=Problems)
    case_count: int | None = None
    verdicts: dict[str, HumanVerdicts] = field(default_factory=dict, repr=False)
    calibration: Calibration | None = None
    calibration_source: str | None = None
    judge_description: dict[str, Any] | None = None  # the run's judge when it is not ``judge`` (a service)
    variants: SuiteMatrix | None = None  # `prompts:` × `targets:` (docs/suite-format.md)
    target_transform: Transform | None = None  # the single `target:`'s transform
    case_transforms: dict[str, Transform] = field(default_factory=dict, repr=False)  # by case id, as built
    # Set by validate(): no case's metric can suspend (none has ``evaluate_async``, none is a spec built
    # only at run time), so a run with a target that does no I/O needs no event loop (Engine.execute).
    awaits_nothing: bool = field(default=False, repr=False)
    # Also set by validate(): every metric is one of agentunit's own that keeps no state across cases (no user
    # or script code that might), so a run may be split across processes (agentunit.core.shards).
    splittable: bool = field(default=False, repr=False)
    _validated: list[DatasetCase] | None = field(default=None, repr=False)
    _spooled: CaseSpool | None = field(default=None, repr=False)  # the validated cases of a large suite
    # The validated cases after the first range, when helper processes validated them (agentunit.suite.split).
    _tails: list[CaseSpool] = field(default_factory=list, repr=False)
    # Aligned with ``_tails``: the helper still holding that range in memory, ready to run it (``Resident``), or None.
    _residents: list[Any] = field(default_factory=list, repr=False)
    _calibrator: Calibrator | None = field(default=None, repr=False)

    def __getstate__(self) -> dict[str, Any]:
        """Pickled (to Ray workers) without the spool of validated cases, an open temporary file: a copy
        reads its cases from the suite's files, as a large suite did before it had a spool."""
        state = dict(self.__dict__)
        state["_spooled"], state["_tails"], state["_residents"] = None, [], []
        if self._tails:  # the cases kept in memory are only the first range's
            state["_validated"] = None
        return state

    @property
    def file(self) -> str | None:
        return str(self.path) if self.path else None

    @property
    def media_dir(self) -> Path | None:
        """The folder media paths in cases are relative to: the suite file's (None: the working directory)."""
        return self.path.parent.absolute() if self.path else None

    def _raw_cases(self) -> Iterator[RawCase]:
        for index, item in enumerate(self.inline_cases):
            yield RawCase(item, self.file, ("cases", index), None, from_data=False)
        for path in self.case_files:
            yield from read_case_file(path, self.problems)
        if not self.inline_cases and not self.case_files and (self.target or {}).get("type") == "traces":
            from agentunit.traces import raw_trace_cases  # one case per recorded trace

            yield from raw_trace_cases(self.target or {}, self.path.parent if self.path else None, self.problems,
                                       self.file)

    def iter_cases(self, first: int = 0) -> Iterator[DatasetCase]:
        """Yield every valid case in order, from index ``first`` on; problems are collected in ``self.problems``."""
        if self.prebuilt_cases is not None:
            yield from itertools.islice(self.prebuilt_cases, first, None)
            return
        if self._tails:
            yield from self._kept_cases(first)
            return
        if self._validated is not None:
            yield from itertools.islice(self._validated, first, None)
            return
        if self._spooled is not None:
            yield from self._spooled.cases(first)
            return
        for case, _ in itertools.islice(self._located_cases(), first, None):
            yield case

    def _kept_cases(self, first: int) -> Iterator[DatasetCase]:
        """The validated cases from index ``first`` on: the first range's (kept here), then each helper's."""
        head: Any = self._validated if self._validated is not None else self._spooled
        for source in (head, *self._tails):
            size = len(source) if isinstance(source, list) else source.count
            if first >= size:
                first -= size
                continue
            yield from itertools.islice(source, first, None) if isinstance(source, list) else source.cases(first)
            first = 0

    def _located_cases(self, raws: Iterator[tuple[int, RawCase]] | None = None
                       ) -> Iterator[tuple[DatasetCase, Where | None]]:
        """Build and locate the cases of ``raws`` ((1-based index, raw record); None: every record)."""
        if self.prebuilt_cases is not None:
            for case in self.prebuilt_cases:
                yield case, None
            return
        inherited = self.suite_metrics + self.default_metrics
        calibrator = self._active_calibrator()
        media_dir = self.media_dir
        limits = MediaLimits.for_suite(self.options, media_dir)
        matrix = self.variants
        templated = matrix is not None and bool(matrix.prompts)
        transforms = self.case_transforms
        for index, raw in raws if raws is not None else enumerate(self._raw_cases(), 1):
            where = Where(raw.file, raw.key_path, raw.line, from_data=raw.from_data)
            case = build_case(raw.data, index=index, where=where, defaults=self.defaults,
                              inherited_metrics=inherited, prompt_template=self.prompt, problems=self.problems,
                              verdicts=self.verdicts, media_dir=media_dir, media_limits=limits,
                              prompt_optional=templated, transforms=transforms)
            if case is None:
                continue
            if calibrator is not None:
                case.metrics = calibrator.apply(case.metrics)
            if matrix is None:
                yield case, where
                continue
            transform, verdict = transforms.get(case.id), self.verdicts.get(case.id)
            for expanded in matrix.expand(case, has_prompt(raw.data, self.defaults), where, self.problems):
                if transform is not None:
                    transforms[expanded.id] = transform
                if verdict is not None:
                    self.verdicts[expanded.id] = verdict
                yield expanded, where

    @property
    def range_starts(self) -> list[int]:
        """The index of the first case of each range helper processes validated (``agentunit.suite.split``),
        in order ([]: this process validated every case); a run split across processes follows them."""
        starts, at = [], (self.case_count or 0) - sum(tail.count for tail in self._tails)
        for tail in self._tails:
            starts.append(at)
            at += tail.count
        return starts

    @property
    def first_range_in_memory(self) -> bool:
        """Whether the first validated cases are kept in memory, not replayed from a spool as a large suite's
        (or, with ``range_starts``, whether this process kept the range it validated)."""
        return self._validated is not None

    @property
    def matrix_keys(self) -> tuple[str, str] | None:
        """The metadata keys of an expanded case's prompt and target labels (None: the suite has no matrix)."""
        if self.variants is None:
            return None
        from agentunit.suite.matrix import PROMPT_LABEL, TARGET_LABEL

        return PROMPT_LABEL, TARGET_LABEL

    @property
    def has_transforms(self) -> bool:
        """Whether any output is transformed (the engine skips the lookup otherwise)."""
        return bool(self.case_transforms) or self.target_transform is not None or (
            self.variants is not None and any(t.transform is not None for t in self.variants.targets))

    def transforms_for(self, case: DatasetCase, *, called: bool) -> tuple[Transform, ...]:
        """The transforms of ``case``'s output, in order: its target's (when the target was ``called``),
        then the case's own (or the defaults')."""
        found: list[Transform] = []
        if called:
            if self.variants is not None and self.variants.targets:
                from agentunit.suite.matrix import TARGET_LABEL

                label = case.metadata.get(TARGET_LABEL)
                target = next((t for t in self.variants.targets if t.label == label), None)
                if target is not None and target.transform is not None:
                    found.append(target.transform)
            elif self.target_transform is not None:
                found.append(self.target_transform)
        own = self.case_transforms.get(case.id)
        if own is not None:
            found.append(own)
        return tuple(found)

    def use_calibration(self, calibration: Calibration | None, source: str | None = None) -> None:
        """Use ``calibration`` (read from ``source``) for the cases built from now on; None: none."""
        self.calibration, self.calibration_source = calibration, source
        self._calibrator, self._validated = None, None
        self.awaits_nothing = self.splittable = False  # the cases built from now on were not looked at
        self._drop_spool()

    def calibration_note(self) -> str | None:
        """Why the calibration was not applied to the cases built so far (None: applied, or none)."""
        calibrator = self._calibrator
        return calibrator.not_applied_reason() if calibrator is not None else None

    def _active_calibrator(self) -> Calibrator | None:
        """The calibrator for the current judge, made (and its not-applied warning given) once."""
        if self.calibration is None:
            return None
        judge = self.judge_description or _describe(self.judge)
        if self._calibrator is None or self._calibrator.judge != judge:
            from agentunit.suite.calibrated import Calibrator

            self._calibrator = Calibrator(self.calibration, self.calibration_source or "calibration", judge)
            reason = self._calibrator.not_applied_reason()
            if reason:
                self.problems.warn(reason, ("calibration",) if self.file else (),
                                   suggestion="run `agentunit calibrate` with this judge to fit its thresholds")
        return self._calibrator

    def _check_metric_objects(self) -> None:
        """A suite-wide metric given as a Python object needs a ``name`` (its results are stored and reported
        under it, and a case's own entry of that name replaces it): refused here, before any case is built."""
        nameless = [(index, metric) for index, metric in enumerate(self.suite_metrics)
                    if getattr(metric, "info", None) is None and not isinstance(getattr(metric, "name", None), str)]
        for index, metric in nameless:
            self.problems.error(f"the metric object {type(metric).__name__} has no `name`", ("metrics", index),
                                suggestion="give it a `name` attribute (text): its results are stored and reported "
                                           "under that name")
        if nameless:
            self.problems.raise_if_any()

    def reads_in_ranges(self) -> bool:
        """Whether this suite's cases are built one per raw record, as ``Suite`` reads them (not a subclass's
        way), so that helper processes may each read a range of the records (``agentunit.suite.split``)."""
        cls = type(self)
        return (cls._located_cases is Suite._located_cases and cls._raw_cases is Suite._raw_cases
                and self.prebuilt_cases is None and self.variants is None and self.calibration is None)

    def validate(self, *, require_target: bool = False, processes: int | None = 1, resident: bool = False,
                 meanwhile: Callable[[], None] | None = None) -> int:
        """Read every case once; raise SuiteError with all problems, else return the case count.

        With ``require_target`` (the run will use the suite's own target), a suite without a target
        whose cases lack a recorded ``output`` is a problem, reported at the first such case.
        ``processes``: how many processes may share the reading (None: one per usable CPU, up to 4, for a
        suite of 2,000 cases or more; ``agentunit.suite.split``); the cases and problems are the same.
        ``resident``: the helpers may keep their ranges to run them (from 1,000 cases on; the run that follows
        at once sends them their orders or dismisses them: ``resident_ranges``, ``dismiss_residents``).
        ``meanwhile``: the caller's own work (``agentunit run`` opens its database), done while the helpers read
        their ranges and before this process reads its own; first, where no helper reads.
        """
        self._check_metric_objects()
        self._drop_spool()
        self.awaits_nothing = self.splittable = False
        found = _Found(self, require_target)
        tails: list[CaseSpool] = []
        helpers: list[Any] = []
        # A small inline suite is read here without importing the machinery (its cases are counted already).
        residents: list[Any] = []
        split_from = RESIDENT_FROM if resident else SPLIT_FROM
        if processes != 1 and (processes is not None or self.case_files or len(self.inline_cases) >= split_from):
            from agentunit.suite.split import start_helpers

            helpers = start_helpers(self, processes, require_target, split_from=split_from,
                                    keep_up_to=KEEP_VALIDATED_CASES, resident=resident)
        if not helpers:
            if meanwhile is not None:
                meanwhile()
            found.take(self._located_cases())
        else:
            from agentunit.suite.split import stop_helpers, take_in

            raws = enumerate(self._raw_cases(), 1)
            try:
                if meanwhile is not None:
                    meanwhile()
                found.take(self._located_cases(itertools.islice(raws, helpers[0].first)))
                taken = take_in(helpers, found.ids)
                if taken is None:  # a range the helpers could not hand back: read here, as in one process
                    found.take(self._located_cases(raws))
                else:
                    found.ids, count, awaits, splittable, tails, residents = taken
                    found.count, found.awaits = found.count + count, found.awaits or awaits
                    found.splittable = found.splittable and splittable
            finally:
                stop_helpers(helpers)
        if found.unanswerable:
            self.problems.error(f"{found.unanswerable} case(s) have no recorded `output` and the suite has no "
                                "`target` to call", **_at(found.first_unanswerable, "output"),
                                suggestion="add a `target:` to the suite, or give every case `output:`")
        ids = found.ids
        if ids.may_repeat():
            self._report_repeated_ids(ids.repeated_hashes(), ids.reported)
        if found.count == 0 and not self.problems.errors:
            self.problems.error("the suite has no cases", ("cases",),
                                suggestion="add `cases:` or `cases_file:`")
        spool = found.spool
        if self.problems.errors and spool is not None:
            spool.close()
            spool = None
        if self.problems.errors or (found.kept is None and spool is None):  # no run, or one that reads the suite
            for tail in tails:
                tail.close()
            tails = []
            _dismiss(residents)
            residents = []
        self.problems.raise_if_any()
        if spool is not None:
            spool.seal()
        self.case_count = found.count
        self._validated, self._spooled, self._tails, self._residents = found.kept, spool, tails, residents
        self.awaits_nothing, self.splittable = not found.awaits, found.splittable
        return found.count

    def _validate_range(self, first: int, stop: int | None, spool: CaseSpool, require_target: bool,
                        emit_ids: Callable[[list[str]], None], chunk: int,
                        keep: list[DatasetCase] | None = None, keep_up_to: int = 0) -> tuple[int, bool, bool] | None:
        """Validate the raw records ``first`` ≤ index < ``stop`` into ``spool`` (a helper process's part,
        ``agentunit.suite.split``), giving their ids to ``emit_ids`` ``chunk`` at a time: (cases, whether
        one may await, whether all are splittable); None when the range cannot be handed back as it is — a
        problem, a human verdict or transform, a case without output or target, a case the spool cannot keep.
        The cases are also appended to ``keep`` when it is given (a resident helper's range), up to ``keep_up_to``
        of them: past that, ``keep`` is emptied and no more are kept (a range too large to hold)."""
        problems = self.problems
        before = (problems.error_count, problems.warning_count, len(self.verdicts), len(self.case_transforms))
        answerless = require_target and not self.target_declared and self.target is None
        count, awaits, splittable, ids = 0, False, True, []
        for case, _ in self._located_cases(itertools.islice(enumerate(self._raw_cases(), 1), first, stop)):
            if (answerless and case.output is None) or not spool.add(case):
                return None
            if keep is not None:
                if len(keep) < keep_up_to:
                    keep.append(case)
                else:
                    keep.clear()
                    keep = None
            count += 1
            if not awaits:
                awaits = _may_await(case.metrics)
            if splittable:
                splittable = _stateless(case.metrics)
            ids.append(case.id)
            if len(ids) >= chunk:
                emit_ids(ids)
                ids = []
        if (problems.error_count, problems.warning_count, len(self.verdicts), len(self.case_transforms)) != before:
            return None
        if ids:
            emit_ids(ids)
        return count, awaits, splittable

    def _spool(self, cases: list[DatasetCase]) -> CaseSpool | None:
        """A spool holding ``cases`` (None when one of them cannot be kept in it)."""
        from agentunit.suite.replay import CaseSpool

        spool = CaseSpool(self.suite_metrics + self.default_metrics)
        if all(spool.add(case) for case in cases):
            return spool
        spool.close()
        return None

    def resident_ranges(self) -> dict[int, Any]:
        """The helpers that keep a range of the validated cases in memory, by the index of its first case
        (``agentunit.suite.split.Resident``; taken: the caller now sends each its order or dismisses it)."""
        if not self._residents:
            return {}
        ranges = {start: resident for start, resident in zip(self.range_starts, self._residents, strict=True)
                  if resident is not None}
        self._residents = []
        return ranges

    def dismiss_residents(self) -> None:
        """Let the helpers still keeping ranges go (a run that is not split replays their spools)."""
        _dismiss(self._residents)
        self._residents = []

    def _drop_spool(self) -> None:
        self.dismiss_residents()
        if self._spooled is not None:
            self._spooled.close()
            self._spooled = None
        for tail in self._tails:
            tail.close()
        self._tails = []

    def _report_repeated_ids(self, hashes: set[int], reported: dict[str, int]) -> None:
        """Read the cases again to name the ids behind repeated hashes (only a suite past
        ``_CaseIds.EXACT`` cases with a repeated id, or a 64-bit hash collision, comes here); the first
        ``reported[id]`` repeats of an id were reported while reading, in the same order."""
        if not hashes:
            return
        found, self.problems = self.problems, Problems(file=self.file)  # the cases' own problems are known
        try:
            first: set[str] = set()
            duplicates = []
            for case, where in self._located_cases():
                if _id_hash(case.id) in hashes:
                    if case.id not in first:
                        first.add(case.id)
                    elif reported.get(case.id):
                        reported[case.id] -= 1
                    else:
                        duplicates.append((case.id, where))
        finally:
            self.problems = found
        for case_id, where in duplicates:
            self.problems.error(f"duplicate case id {case_id!r}", **_at(where, "id"),
                                suggestion="give each case a unique id")

    def build_target(self) -> Target | None:
        """The suite's target, built (a python target imports its module here); a target that cannot be
        built raises SuiteError located at the suite's ``target``."""
        base_dir = self.path.parent if self.path else None
        if self.variants is not None and self.variants.targets:
            built = {t.label: self._built(t.spec, base_dir, ("targets", t.index)) for t in self.variants.targets}
            if len(built) == 1:
                return next(iter(built.values()))
            from agentunit.suite.matrix import TARGET_LABEL
            from agentunit.targets.matrix import MatrixTarget

            return MatrixTarget(built, key=TARGET_LABEL, what="target")
        return self._built(self.target, base_dir, ("target",))

    def _built(self, spec: dict[str, Any] | None, base_dir: Path | None, at: tuple[Any, ...]) -> Target | None:
        from agentunit.targets import make_target

        try:
            return make_target(spec, base_dir)
        except Exception as exc:  # importing a python target runs the user's module: anything can happen
            message = str(exc) if isinstance(exc, AgentUnitError) else f"{type(exc).__name__}: {exc}"
            key = "function" if isinstance(spec, dict) and "function" in spec else "type"
            problems = Problems(file=self.file)
            problems.error(f"cannot build the target: {message}", (*at, key))
            raise SuiteError(problems.resolve(problems.errors)) from None


class _Found:
    """What ``Suite.validate`` gathers while it reads the cases."""

    def __init__(self, suite: Suite, require_target: bool) -> None:
        self.suite = suite
        self.ids = _CaseIds()
        self.count = 0
        self.kept: list[DatasetCase] | None = []
        self.spool: CaseSpool | None = None
        self.awaits, self.splittable = False, True
        self.unanswerable, self.first_unanswerable = 0, None
        self.answerless = require_target and not suite.target_declared and suite.target is None

    def take(self, located: Iterator[tuple[DatasetCase, Where | None]]) -> None:
        suite, problems, ids = self.suite, self.suite.problems, self.ids
        count, kept, spool, awaits, splittable = self.count, self.kept, self.spool, self.awaits, self.splittable
        for case, where in located:
            count += 1
            if not awaits:
                awaits = _may_await(case.metrics)
            if splittable:
                splittable = _stateless(case.metrics)
            if kept is not None:
                kept.append(case)
                if len(kept) > KEEP_VALIDATED_CASES:  # a large suite: its cases go to a spool the run replays
                    spool = suite._spool(kept)
                    kept = None
            elif spool is not None and (problems.errors or not spool.add(case)):
                spool.close()  # the suite will not run, or a case cannot be kept: the run reads the suite again
                spool = None
            if ids.seen_before(case.id):
                problems.error(f"duplicate case id {case.id!r}", **_at(where, "id"),
                               suggestion="give each case a unique id")
            if self.answerless and case.output is None:
                self.unanswerable += 1
                self.first_unanswerable = self.first_unanswerable or where
        self.count, self.kept, self.spool, self.awaits, self.splittable = count, kept, spool, awaits, splittable


class _CaseIds:
    """Which case ids were seen, in flat memory: the first ``EXACT`` ids in a set, then 8-byte hashes.

    A repeat among the first ids is known at once; past them, repeated hashes are found once every
    case was read (sorted in chunks, merged), and the suite is read again to name the ids.
    """

    EXACT = 50_000
    _CHUNK = 65_536

    def __init__(self) -> None:
        self._exact: set[str] | None = set()
        self._hashes = array("Q")
        self.reported: dict[str, int] = {}  # repeats found among the exact ids: said already, not again

    def seen_before(self, case_id: str) -> bool:
        """Whether ``case_id`` was seen before (among the exact ids; later repeats: ``repeated_hashes``)."""
        exact = self._exact
        if exact is None:
            self._hashes.append(_id_hash(case_id))
            return False
        if case_id in exact:
            self.reported[case_id] = self.reported.get(case_id, 0) + 1
            return True
        exact.add(case_id)
        if len(exact) > self.EXACT:
            self._hashes.extend(_id_hash(i) for i in exact)
            self._exact = None
        return False

    def may_repeat(self) -> bool:
        return self._exact is None

    def copy(self) -> _CaseIds:
        other = _CaseIds()
        other._exact = set(self._exact) if self._exact is not None else None
        other._hashes = array("Q", self._hashes)
        other.reported = dict(self.reported)
        return other

    def repeated_hashes(self) -> set[int]:
        """Hashes that occur more than once (their ids were already reported when both were exact)."""
        hashes = self._hashes
        runs = [array("Q", sorted(hashes[i:i + self._CHUNK])) for i in range(0, len(hashes), self._CHUNK)]
        repeated, previous = set(), None
        for value in heapq.merge(*runs):
            if value == previous:
                repeated.add(value)
            previous = value
        return repeated


def _may_await(metrics: list[Any]) -> bool:
    """Whether scoring ``metrics`` may suspend: one has ``evaluate_async`` or is a spec built at run time."""
    for metric in metrics:
        if getattr(metric, "evaluate_async", None) is not None or not callable(getattr(metric, "evaluate", None)):
            return True
    return False


def _stateless(metrics: list[Any]) -> bool:
    """Whether every metric is one of agentunit's own deterministic ones that neither runs the suite's code
    nor keeps state across cases (a user's metric class, or a ``python`` check, might keep anything; a
    model-backed one would load its model in every process)."""
    for metric in metrics:
        kind = type(metric)
        known = _STATELESS.get(kind)
        if known is None:
            info = getattr(kind, "info", None)
            known = _STATELESS[kind] = (kind.__module__.startswith("agentunit.") and info is not None
                                        and info.family != "script" and info.model is None
                                        and not getattr(kind, "keeps_run_state", False))
        if not known:
            return False
        if kind.info.family == "group" and not _stateless(metric.value):  # an assert-set is its children
            return False
    return True


_STATELESS: dict[type, bool] = {}  # by metric class: what _stateless found


def _dismiss(residents: list[Any]) -> None:
    """Let resident helpers go: every pipe closed first, so none waits on another that holds its end."""
    kept = [r for r in residents if r is not None]
    for resident in kept:
        resident.close()
    for resident in kept:
        resident.dismiss()


def _id_hash(case_id: str) -> int:
    return hash(case_id) & 0xFFFF_FFFF_FFFF_FFFF  # stable within the process, which is all it must be


def _describe(judge: dict[str, Any]) -> dict[str, Any] | None:
    """The judge's ``describe()`` (provider, model) without starting it; None when it cannot be built."""
    from agentunit.judges.service import service_for

    try:
        return service_for(judge).provider.describe()
    except Exception:  # a judge config the loader reported, or a provider that cannot start here
        return None


def _at(where: Where | None, key: str) -> dict[str, Any]:
    """Problems.error's location arguments for a case's field (``where`` None: a prebuilt case)."""
    if where is None:
        return {}
    return {"key_path": where.at(key), "file": where.file, "line": where.line}
