"""promptfoo's comparative assertions, ``select-best`` and ``max-score``: one decision over the outputs
of every cell (prompt × provider) of a test, shared by those cells.

The engine scores each case on its own, and a comparison needs the outputs of the test's other
cells. A config with comparative assertions therefore runs through a ``ComparingTarget``: the cells
of a compared test are sent once each through a shared memo of replies (a ``ComparisonBoard``), so a
cell's comparison can ask for a sibling's reply before the engine reaches that sibling, and the
engine's own send of the sibling then gets that same reply. Nothing waits on another worker, so any
concurrency (``-j 1`` included) works, and each target call is made once.

Attempt n of a cell (its n-th send, its n-th evaluation) is compared with attempt n of the others
(with ``repeat``). The compared cells are not read from or written to the reply cache: the outputs a
comparison saw must be the outputs the cells' rows show. A comparison's decision is computed once per
test, attempt and assertion, and each cell reads its own verdict from it.
"""

from __future__ import annotations

import asyncio
import itertools
import time
import weakref
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from agentunit.core.envelope import EnvelopeError, build_trace, parse_reply
from agentunit.core.outcome import Outcome
from agentunit.datasets.base import DatasetCase
from agentunit.errors import AgentUnitError
from agentunit.judges.base import JudgeRequest
from agentunit.judges.service import current_judge
from agentunit.targets.base import Reply, Target

COMPARATIVE = ("select-best", "max-score")
GROUP_KEY = "group"  # the metric config key naming the compared test (``TOKEN/N``)
_BOARDS: weakref.WeakValueDictionary[str, ComparisonBoard] = weakref.WeakValueDictionary()
_TOKENS = itertools.count(1)

# promptfoo's SELECT_BEST_PROMPT (src/prompts/index.ts, MIT), split into system and user turns.
SELECT_BEST_SYSTEM = ("You are comparing multiple pieces of text to see which best fits the following criteria: "
                      "{criteria}\n\nOutput the index of the text that best fits the criteria. You must output a "
                      "single integer.")


@dataclass
class Cell:
    """One compared cell's attempt: the case, its outcome (None when its target call failed) and why not."""

    case: DatasetCase
    outcome: Outcome | None
    error: str | None = None


class ComparisonBoard:
    """The compared tests of one promptfoo suite: their cells, and the replies and decisions shared
    between the cells during a run."""

    def __init__(self) -> None:
        self.token = f"c{next(_TOKENS)}"
        _BOARDS[self.token] = self
        self.groups: dict[str, list[DatasetCase]] = {}
        self.cells: set[str] = set()
        self.target: Target | None = None  # the wrapped target (set by ComparingTarget)
        self.reset()

    def reset(self) -> None:
        """Forget the replies and decisions of a run (futures belong to its event loop)."""
        self._replies: dict[tuple[str, int], asyncio.Future[Reply]] = {}
        self._sends: Counter[str] = Counter()
        self._evaluations: Counter[tuple[str, str]] = Counter()
        self._decisions: dict[tuple[Any, ...], asyncio.Future[Any]] = {}

    def key(self, number: int) -> str:
        """The group key of the test numbered ``number`` in the matrix (``TOKEN/N``)."""
        return f"{self.token}/{number}"

    def register(self, group: str, cases: list[DatasetCase]) -> None:
        """The cells of one compared test, in matrix order (prompt, then provider)."""
        self.groups[group] = list(cases)
        self.cells.update(c.id for c in cases)

    def next_send(self, case_id: str) -> int:
        """The attempt number of the engine's next send of ``case_id``."""
        attempt = self._sends[case_id]
        self._sends[case_id] += 1
        return attempt

    def next_evaluation(self, case_id: str, what: str) -> int:
        """The attempt number of ``case_id``'s next evaluation of the comparison ``what``."""
        key = (case_id, what)
        attempt = self._evaluations[key]
        self._evaluations[key] += 1
        return attempt

    def reply(self, case: DatasetCase, attempt: int) -> asyncio.Future[Reply]:
        """The reply of ``case``'s attempt, sent now if nobody asked for it yet."""
        key = (case.id, attempt)
        future = self._replies.get(key)
        if future is None:
            if self.target is None:
                raise AgentUnitError("select-best and max-score need the promptfoo config's own providers "
                                     "(the run was given another target)")
            future = self._replies[key] = asyncio.ensure_future(_send(self.target, case))
        return future

    async def cells_of(self, group: str, attempt: int) -> list[Cell]:
        """Every cell of ``group`` at ``attempt``, with its outcome."""
        cases = self.groups.get(group)
        if not cases:
            raise AgentUnitError("this comparison's test is not part of the run")
        return list(await asyncio.gather(*(self._cell(c, attempt) for c in cases)))

    async def _cell(self, case: DatasetCase, attempt: int) -> Cell:
        if case.output is not None:  # providerOutput: no call
            return _cell_of(case, lambda: parse_reply(case.output))
        future = self.reply(case, attempt)
        try:
            reply = await asyncio.shield(future)
        except Exception as exc:  # the sibling's target failed: it is not a candidate
            return Cell(case, None, f"{type(exc).__name__}: {exc}")
        return _cell_of(case, lambda: _outcome(reply))

    async def decided(self, key: tuple[Any, ...], compute: Callable[[], Awaitable[Any]]) -> Any:
        """``compute()``'s result, computed once for ``key`` in this run and shared."""
        future = self._decisions.get(key)
        if future is None:
            future = self._decisions[key] = asyncio.ensure_future(compute())
        return await asyncio.shield(future)


def board_of(metric: Any) -> tuple[ComparisonBoard, str]:
    """The board and group of a comparative metric (its ``config.group``); raises AgentUnitError."""
    group = metric.config.get(GROUP_KEY)
    board = _BOARDS.get(group.split("/", 1)[0]) if isinstance(group, str) else None
    if board is None:
        raise AgentUnitError(f"{metric.name} compares the outputs of one test across the prompts and providers "
                             "of a promptfoo config, and runs only there (`agentunit run promptfooconfig.yaml`)")
    return board, group


def _cell_of(case: DatasetCase, read: Callable[[], Outcome]) -> Cell:
    try:
        outcome = read()
    except EnvelopeError as exc:
        return Cell(case, None, str(exc))
    if outcome.success is False or outcome.output is None:
        return Cell(case, None, outcome.error or "no output")
    return Cell(case, outcome)


async def _send(target: Target, case: DatasetCase) -> Reply:
    start = time.perf_counter()
    reply = await target.send(case, target.request(case))
    if reply.latency_ms is None:
        reply.latency_ms = (time.perf_counter() - start) * 1000.0
    return reply


def _outcome(reply: Reply) -> Outcome:
    """The outcome the engine makes of ``reply`` (output, usage, cost, latency, finish reason)."""
    outcome = parse_reply(reply.body)
    outcome.latency_ms = reply.latency_ms
    for key in ("usage", "logprobs", "finish_reason", "cost"):
        if getattr(reply, key) is not None:
            setattr(outcome, key, getattr(reply, key))
    return outcome


class ComparingTarget(Target):
    """A promptfoo config's target, with the cells of compared tests sent once each through the board."""

    def __init__(self, inner: Target, board: ComparisonBoard):
        super().__init__({"type": "compared"})
        self.inner = inner
        self.board = board
        self.kind = inner.kind
        self.cache_enabled = inner.cache_enabled
        board.target = inner

    @property
    def secrets(self) -> set[str]:  # type: ignore[override]
        return self.inner.secrets

    @secrets.setter
    def secrets(self, value: set[str]) -> None:
        """The wrapper holds no secrets of its own (Target.__init__ assigns an empty set)."""

    def request(self, case: DatasetCase) -> dict[str, Any]:
        """The inner request; a compared cell's is marked, so that it is not cached."""
        request = self.inner.request(case)
        return {"compared": case.id, "request": request} if case.id in self.board.cells else request

    def cache_key(self, request: dict[str, Any], repeat: int) -> str:
        """"" (no caching) for a compared cell, else the inner target's key."""
        if "compared" in request:
            return ""
        return self.inner.cache_key(request, repeat)

    async def send(self, case: DatasetCase, request: dict[str, Any]) -> Reply:
        """A compared cell's reply from the board (sent once, shared), else the inner target's."""
        if "compared" not in request:
            return await self.inner.send(case, request)
        return await asyncio.shield(self.board.reply(case, self.board.next_send(case.id)))

    def describe(self) -> dict[str, Any]:
        return self.inner.describe()

    def redact(self, text: str) -> str:
        return self.inner.redact(text)

    async def aclose(self) -> None:
        self.board.reset()
        await self.inner.aclose()


# -- the decisions ------------------------------------------------------------------------------------


async def select_best(metric: Any, case: DatasetCase) -> tuple[float, bool, str, dict[str, Any]]:
    """promptfoo's select-best for ``case``: the output that best fits the criteria (the metric's value)
    among the test's outputs (cells whose call failed are left out) is chosen; the chosen cell passes
    with 1, the others fail with 0. Returns (value, passed, reason, detail).

    ``config.method: rubric`` (default): each output is scored alone, as ``llm-rubric`` scores an
    output against the criteria (criteria split, form and refusal by code, the statement "The text
    <criterion>." for the judge, the lowest criterion), and the highest score is chosen (a tie: the
    first). No output is shown beside another, so the pick cannot follow the position, and each score
    is cached per output.

    ``config.method: compare``: promptfoo's question — the judge is shown every output, numbered, and
    picks an index. Unlike promptfoo it is asked twice, with the outputs in the given order and
    reversed (``config.orders: 2``, default; ``1`` asks once, as promptfoo does): each output's share
    is the mean of its probability in the two orders, and the highest share is chosen (a tie: the
    first order's pick). The embedded judge picks the text shown last in three tests of four whatever
    it says.

    On the select-best labelled set's test groups, top-1 accuracy is 0.49 for promptfoo's one
    question, 0.66 for the two orders and higher scored alone (docs/promptfoo.md).
    """
    board, group = board_of(metric)
    criteria = str(metric.expected(case) or "")
    method, orders = select_best_method(metric), _orders(metric)
    attempt = board.next_evaluation(case.id, f"select-best:{criteria}")

    async def decide() -> tuple[list[Cell], list[Any]]:
        cells = [c for c in await board.cells_of(group, attempt) if c.outcome is not None]
        if len(cells) < 2:
            return cells, []
        if method == "rubric":
            return cells, [await _rubric_result(criteria, cell.case, cell.outcome) for cell in cells]
        shown = [cells, cells[::-1]][:orders]
        return cells, [await current_judge().decide(_select_best_request(criteria, order)) for order in shown]

    key = ("select-best", group, attempt, criteria, method, orders if method == "compare" else None)
    cells, decisions = await board.decided(key, decide)
    ids = [c.case.id for c in cells]
    if not decisions:
        raise AgentUnitError(f"select-best needs at least two outputs to compare, and this test has {len(ids)}")
    n = len(ids)
    mine = ids.index(case.id) if case.id in ids else None
    detail: dict[str, Any] = {"criteria": criteria, "method": method, "index": mine, "compared": ids}
    if method == "rubric":
        shares = [float(result.value or 0.0) for result in decisions]
        chosen = max(range(n), key=lambda i: (shares[i], -i))
        detail["reasons"] = {ids[i]: decisions[i].reason for i in range(n)}
    else:
        shares = [decisions[0].probabilities.get(str(i), 0.0) for i in range(n)]
        if len(decisions) == 2:
            shares = [(p + decisions[1].probabilities.get(str(n - 1 - i), 0.0)) / 2 for i, p in enumerate(shares)]
        first_pick = int(decisions[0].option)
        chosen = max(range(n), key=lambda i: (shares[i], i == first_pick))
        detail["judge"] = decisions[0].to_detail()
        if len(decisions) == 2:
            detail["judge_reversed"] = decisions[1].to_detail()
    detail.update(chosen=ids[chosen], shares={ids[i]: round(shares[i], 4) for i in range(n)})
    if mine == chosen:
        return 1.0, True, f"output selected as the best of {n}: {criteria}", detail
    return 0.0, False, f"output not selected ({ids[chosen]!r} was): {criteria}", detail


def select_best_method(metric: Any) -> str:
    """``config.method`` (checked when the metric is built: rubric or compare), rubric when not given."""
    return (getattr(metric, "config", None) or {}).get("method", "rubric")


async def _rubric_result(criteria: str, case: DatasetCase, outcome: Any) -> Any:
    """A cell's output scored alone against the criteria, as llm-rubric scores it (a judge error
    raises, and becomes the select-best result's error)."""
    from agentunit.metrics.judged import LlmRubric

    return await LlmRubric(criteria).evaluate_async(case, build_trace(outcome, outcome.query or case.query), outcome)


def _orders(metric: Any) -> int:
    """``config.orders`` (checked when the metric is built: 1 or 2), 2 when not given."""
    return (getattr(metric, "config", None) or {}).get("orders", 2)


def _select_best_request(criteria: str, cells: list[Cell]) -> JudgeRequest:
    texts = "\n\n".join(f'<Text index="{i}">\n{c.outcome.output}\n</Text>' for i, c in enumerate(cells))
    return JudgeRequest((("system", SELECT_BEST_SYSTEM.format(criteria=criteria)),
                         ("user", f"Here are the pieces of text:\n\n{texts}\n\nOutput the index of the text "
                                  "that best fits the criteria.")),
                        options=tuple(str(i) for i in range(len(cells))))


@dataclass
class MaxScoreOptions:
    """max-score's value: ``{method: average|sum, weights: {type: w}, threshold}``."""

    method: str = "average"
    weights: dict[str, float] | None = None
    threshold: float | None = None

    @classmethod
    def of(cls, value: Any) -> MaxScoreOptions:
        """Read the value as promptfoo does (anything but an object: the defaults)."""
        if not isinstance(value, dict):
            return cls()
        method = value.get("method", "average")
        weights = value.get("weights") or {}
        threshold = value.get("threshold")
        if method not in ("average", "sum"):
            raise ValueError(f"max-score method must be average or sum, got {method!r}")
        if not isinstance(weights, dict) or not all(
                isinstance(w, (int, float)) and not isinstance(w, bool) for w in weights.values()):
            raise ValueError("max-score weights must map assertion types to numbers")
        if threshold is not None and (isinstance(threshold, bool) or not isinstance(threshold, (int, float))):
            raise ValueError(f"max-score threshold must be a number, got {threshold!r}")
        return cls(method, {str(k): float(v) for k, v in weights.items()}, threshold)


async def max_score(metric: Any, case: DatasetCase) -> tuple[float, bool, str, dict[str, Any]]:
    """promptfoo's max-score for ``case``: each cell's aggregate is the average (or ``sum``) of its other
    assertions' scores (each weighted by ``weights[type]``, default 1; a score metric's 0..1 value,
    else 1 for a pass and 0 for a failure, a result without a verdict 0); the first cell with the
    highest aggregate passes with 1 (when it reaches ``threshold``), the others fail with 0."""
    board, group = board_of(metric)
    options = MaxScoreOptions.of(metric.value)
    attempt = board.next_evaluation(case.id, "max-score")

    async def decide() -> list[tuple[str, float, int]]:
        cells = [c for c in await board.cells_of(group, attempt) if c.outcome is not None]
        return [(c.case.id, *await _aggregate(c, options)) for c in cells]

    scores = await board.decided(("max-score", group, attempt, repr(metric.value)), decide)
    if len(scores) < 2:
        raise AgentUnitError(f"max-score needs at least two outputs to compare, and this test has {len(scores)}")
    best = max(s for _, s, _ in scores)
    winner = next(i for i, s, _ in scores if s == best)
    meets = options.threshold is None or best >= options.threshold
    mine = next(((s, n) for i, s, n in scores if i == case.id), None)
    if mine is None:
        raise AgentUnitError("this output could not be compared")
    score, count = mine
    detail = {"score": score, "max": best, "assertions": count, "method": options.method,
              "compared": {i: s for i, s, _ in scores}, "chosen": winner if meets else None}
    if case.id == winner and meets:
        return 1.0, True, f"selected as the highest scoring output (score {score:.3f})", detail
    if score == best and not meets:
        return 0.0, False, f"not selected: score {score:.3f} below threshold {options.threshold:g}", detail
    return 0.0, False, f"not selected (score {score:.3f}, max {best:.3f})", detail


async def _aggregate(cell: Cell, options: MaxScoreOptions) -> tuple[float, int]:
    """A cell's aggregate score over its non-comparative assertions, and how many there were."""
    from agentunit.metrics import metric_from_spec
    from agentunit.metrics.base import score_async
    from agentunit.promptfoo.assertions import RENAMED

    original = {v: k for k, v in RENAMED.items()}
    metrics = [m if callable(getattr(m, "evaluate", None)) else metric_from_spec(m) for m in cell.case.metrics]
    metrics = [m for m in metrics if _name(m) not in COMPARATIVE]
    if not metrics:
        raise AgentUnitError("max-score needs at least one other assertion (besides max-score and select-best) "
                             "to aggregate scores from")
    assert cell.outcome is not None
    trace = build_trace(cell.outcome, cell.case.query)
    weights = options.weights or {}
    total = weight_sum = 0.0
    for metric in metrics:
        result = await score_async(metric, cell.case, trace, cell.outcome)
        name = result.name
        weight = weights.get(name, weights.get(original.get(name, name), 1.0))
        total += weight * _component_score(metric, result)
        weight_sum += weight
    if options.method == "sum":
        return total, len(metrics)
    return (total / weight_sum if weight_sum > 0 else 0.0), len(metrics)


def _name(metric: Any) -> str | None:
    info = getattr(metric, "info", None)
    return getattr(info, "name", None) or getattr(metric, "name", None)


def _component_score(metric: Any, result: Any) -> float:
    """promptfoo's component score: a score metric's value (0..1), else 1/0 by the verdict; none: 0."""
    if result.passed is None or result.error is not None:
        return 0.0
    info = getattr(metric, "info", None)
    if info is not None and info.kind == "score" and result.value is not None and not getattr(metric, "negate", False):
        return min(max(float(result.value), 0.0), 1.0)
    return 1.0 if result.passed else 0.0


__all__ = ["COMPARATIVE", "ComparingTarget", "ComparisonBoard", "MaxScoreOptions", "board_of", "max_score",
           "select_best"]
