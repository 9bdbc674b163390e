"""The one registry of metrics: names, aliases, family, inputs, defaults, direction, model.

Every metric is declared once with ``@register``. Suite validation, ``agentunit metrics``,
``resolve_metrics`` and the generated reference in ``docs/metrics.md`` all read from here.
Names are matched after normalisation (lower case, ``_`` → ``-``), so the AgentUnit snake_case
names and the kebab-case names of the declarative format both resolve; any name takes ``not-``.
"""

from __future__ import annotations

import contextlib
import importlib
import inspect
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from agentunit.errors import AgentUnitError

NOT_PREFIX = "not-"


@dataclass(frozen=True, slots=True)
class MetricInfo:
    """What the registry knows about a metric.

    Args:
        name: canonical name.
        cls: the metric class.
        family: catalog family (``text``, ``numeric``, ``performance``, ``agentic``, ``custom``, …).
        aliases: other accepted names.
        needs: inputs that must be present, else the result is "not measured".
        value: ``required`` (falls back to the case's expected_output), ``optional`` or ``none``.
        threshold: default pass mark (None: the metric decides, or gives no verdict).
        direction: ``higher`` or ``lower`` is better.
        kind: ``score`` (0..1), ``binary`` (0 or 1) or ``raw`` (a measure in units).
        model: the embedded model it needs, if any (``judge``, ``embeddings``, …).
        summary: one-line description (first docstring line).
        doc: full docstring (the algorithm).
        example: a suite entry showing typical use.
        catalog_name: the AgentUnit catalog's name for the class when it differs from the canonical
            name (one of the aliases); results are named by it when the metric is built directly
            or asked for by that name.
    """

    name: str
    cls: type
    family: str
    aliases: tuple[str, ...] = ()
    needs: tuple[str, ...] = ("output",)
    value: str = "none"
    threshold: float | None = None
    direction: str = "higher"
    kind: str = "score"
    model: str | None = None
    summary: str = ""
    doc: str = ""
    example: str = ""
    catalog_name: str | None = None


class UnknownMetricError(AgentUnitError):
    """No metric has this name; ``suggestions`` holds the closest names."""

    def __init__(self, name: str, suggestions: list[str]):
        self.name = name
        self.suggestions = suggestions
        hint = f" — did you mean {', '.join(repr(s) for s in suggestions)}?" if suggestions else ""
        super().__init__(f"unknown metric {name!r}{hint}")


_BY_NAME: dict[str, MetricInfo] = {}
_CANONICAL: dict[str, MetricInfo] = {}
_GENERATION = [0]  # bumped on every change: caches of built metrics compare it to know they are current


def generation() -> int:
    """A number that changes whenever a name is registered, replaced or restored."""
    return _GENERATION[0]


def normalize(name: str) -> str:
    """Lower-case, trim, ``_`` and spaces → ``-``."""
    return name.strip().lower().replace("_", "-").replace(" ", "-")


def register(
    name: str,
    *,
    family: str,
    aliases: tuple[str, ...] = (),
    needs: tuple[str, ...] = ("output",),
    value: str = "none",
    threshold: float | None = None,
    direction: str = "higher",
    kind: str = "score",
    model: str | None = None,
    example: str = "",
    catalog_name: str | None = None,
) -> Callable[[type], type]:
    """Class decorator that declares a metric in the registry (see MetricInfo for the arguments).

    A class from outside agentunit (a user's metric) is registered after the built-in catalog is
    loaded, so the catalog never replaces it; it replaces a built-in of the same name or alias.
    """
    if value not in ("required", "optional", "none"):
        raise ValueError(f"value must be required|optional|none, got {value!r}")
    if direction not in ("higher", "lower"):
        raise ValueError(f"direction must be higher|lower, got {direction!r}")
    if catalog_name is not None and catalog_name not in aliases:
        raise ValueError(f"catalog_name {catalog_name!r} must be one of the aliases")

    def decorate(cls: type) -> type:
        builtin = _is_builtin(cls)
        if not builtin:
            _load_catalog()
        doc = inspect.cleandoc(cls.__doc__ or "")
        info = MetricInfo(
            name=name, cls=cls, family=family, aliases=tuple(aliases), needs=tuple(needs), value=value,
            threshold=threshold, direction=direction, kind=kind, model=model,
            summary=doc.split("\n", 1)[0], doc=doc, example=example, catalog_name=catalog_name,
        )
        cls.name = name
        cls.info = info
        _add(info, replace=not builtin)
        return cls

    return decorate


def register_metric(name: str, cls: type, *, family: str = "custom", **kwargs: Any) -> type:
    """Register a user metric class under ``name`` (AgentUnit API).

    The class needs ``evaluate(case, trace, outcome) -> MetricResult``; it may subclass ``Metric``
    or not. Registering again under the same name replaces the earlier class; registering a
    built-in's name or alias replaces the built-in under that name, whether or not the built-in
    catalog was loaded yet.
    """
    if not callable(getattr(cls, "evaluate", None)):
        raise TypeError(f"{cls!r} has no evaluate(case, trace, outcome) method")
    return register(name, family=family, **kwargs)(cls)


def _is_builtin(cls: type) -> bool:
    return cls.__module__ == "agentunit" or cls.__module__.startswith("agentunit.")


def _add(info: MetricInfo, *, replace: bool = False) -> None:
    """Enter ``info`` under its names. Re-registering a canonical name replaces that entry and its
    aliases; with ``replace`` (a user's metric) a name held by another entry is taken from it — the
    whole entry when it is that entry's canonical name — while two built-ins sharing a name is a bug."""
    old = _CANONICAL.get(normalize(info.name))
    if old is not None:
        _evict(old)
    for key in (info.name, *info.aliases):
        norm = normalize(key)
        clash = _BY_NAME.get(norm)
        if clash is not None and clash.name != info.name:
            if not replace:
                raise ValueError(f"metric name {key!r} already used by {clash.name!r}")
            if normalize(clash.name) == norm:
                _evict(clash)
            else:
                del _BY_NAME[norm]
        _BY_NAME[norm] = info
    _CANONICAL[normalize(info.name)] = info
    _GENERATION[0] += 1


def _evict(info: MetricInfo) -> None:
    for key in [k for k, v in _BY_NAME.items() if v is info]:
        del _BY_NAME[key]
    if _CANONICAL.get(normalize(info.name)) is info:
        del _CANONICAL[normalize(info.name)]


@contextlib.contextmanager
def restored() -> Iterator[None]:
    """Undo, when the block ends, every registration made in it (tests that register metrics)."""
    _load_catalog()
    by_name, canonical = dict(_BY_NAME), dict(_CANONICAL)
    try:
        yield
    finally:
        _BY_NAME.clear()
        _BY_NAME.update(by_name)
        _CANONICAL.clear()
        _CANONICAL.update(canonical)
        _GENERATION[0] += 1


def lookup(name: str) -> tuple[MetricInfo, bool]:
    """Find a metric by any of its names; returns (info, negated). Raises UnknownMetricError.

    Only the module that declares the metric is imported (``_index.MODULES``), so a run that uses
    three text checks does not import numpy, OpenCV or the audio stack; an unknown name (or a
    stale index) loads the whole catalog before giving up.
    """
    found = _find(name)
    if found is None and not _catalog_loaded:
        _load_module_of(normalize(name))
        found = _find(name)
        if found is None:
            _load_catalog()
            found = _find(name)
    if found is None:
        raise UnknownMetricError(name, suggest(name))
    return found


def _find(name: str) -> tuple[MetricInfo, bool] | None:
    info = _BY_NAME.get(name)  # fast path: the name is already canonical
    if info is not None:
        return info, False
    norm = normalize(name)
    info = _BY_NAME.get(norm)
    if info is not None:
        return info, False
    if norm.startswith(NOT_PREFIX) and norm[len(NOT_PREFIX):] in _BY_NAME:
        return _BY_NAME[norm[len(NOT_PREFIX):]], True
    return None


def _load_module_of(norm: str) -> None:
    from agentunit.metrics._index import MODULES

    module = MODULES.get(norm)
    if module is None and norm.startswith(NOT_PREFIX):
        module = MODULES.get(norm[len(NOT_PREFIX):])
    if module is not None:
        importlib.import_module(module)


def catalog_index() -> dict[str, str]:
    """Every built-in name and alias (normalised) → the module that declares it; ``_index.py`` holds it."""
    _load_catalog()
    return {key: info.cls.__module__ for key, info in sorted(_BY_NAME.items())
            if _is_builtin(info.cls)}


def write_index(path: str | None = None) -> None:
    """Write ``catalog_index()`` as the module ``_index.py`` next to this file, or to ``path``.

    Regenerate after adding a metric: ``python -c "from agentunit.metrics.registry import write_index; write_index()"``
    (tests/metrics/test_registry_index.py fails until then).
    """
    if path is None:
        path = os.path.join(os.path.dirname(__file__), "_index.py")
    lines = ['"""Generated by ``agentunit.metrics.registry.write_index()``: metric name → declaring module."""', "",
             "MODULES: dict[str, str] = {"]
    lines += [f"    {key!r}: {module!r}," for key, module in catalog_index().items()]
    lines += ["}", ""]
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines))


def suggest(name: str, n: int = 3) -> list[str]:
    """Closest registered names (canonical and aliases), for did-you-mean messages."""
    import difflib  # only for an unknown name

    _load_catalog()
    norm = normalize(name)
    negated = norm.startswith(NOT_PREFIX)
    base = norm[len(NOT_PREFIX):] if negated else norm
    matches = difflib.get_close_matches(base, list(_BY_NAME), n=n, cutoff=0.6)
    if matches:  # keep only the near-best: "contians" → contains, not also icontains and contains-xml
        best = difflib.SequenceMatcher(None, base, matches[0]).ratio()
        matches = [m for m in matches if difflib.SequenceMatcher(None, base, m).ratio() >= best - 0.03]
    return [NOT_PREFIX + m if negated else m for m in matches]


def all_metrics(family: str | None = None) -> list[MetricInfo]:
    """Every registered metric (canonical entries), sorted by family then name."""
    _load_catalog()
    infos = [i for i in _CANONICAL.values() if family is None or i.family == family]
    return sorted(infos, key=lambda i: (i.family, i.name))


def families() -> list[str]:
    return sorted({i.family for i in all_metrics()})


_catalog_loaded = False


def _load_catalog() -> None:
    global _catalog_loaded
    if not _catalog_loaded:
        _catalog_loaded = True
        from agentunit.metrics.catalog import FAMILY_MODULES

        for module in FAMILY_MODULES:  # each registers its metrics as it is imported
            importlib.import_module(module)

