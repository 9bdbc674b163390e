"""The test case type and lazy case sources (AgentUnit-compatible)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any


@dataclass(slots=True)
class DatasetCase:
    """One test case.

    AgentUnit fields: ``id``, ``query`` (the input sent to the target), ``expected_output``,
    ``tools``, ``context``, ``metadata``. Suite-format fields: ``vars`` (template variables),
    ``metrics`` (metric specs for this case), ``output`` (a recorded answer: evaluated without calling
    a target), ``expected_tools``, ``plan``, ``conversation``, ``role``, ``rules``, ``threshold``
    (weighted-score pass mark), ``description``. Media the target receives (docs/media.md): ``image``,
    ``images`` (a list), ``audio``, ``video`` — each a media reference (path, ``file://``, ``data:`` URI,
    ``{base64, mime}``, http(s) URL); AgentUnit's ``metadata["image_path"]`` (``audio_path``,
    ``video_path``) works too. ``media_dir`` is the folder relative paths start from (the suite file's;
    the working directory when None). ``from_data``: read from a cases file, so its media paths may
    reach only the suite's folder and ``allow_paths`` (docs/security.md).
    """

    id: str
    query: str = ""
    expected_output: Any = None
    tools: list[Any] | None = None
    context: list[str] | None = None
    metadata: dict[str, Any] = field(default_factory=dict)
    vars: dict[str, Any] = field(default_factory=dict)
    metrics: list[Any] = field(default_factory=list)
    output: Any = None
    expected_tools: list[Any] | None = None
    plan: list[Any] | None = None
    conversation: list[dict[str, Any]] | None = None
    role: str | None = None
    rules: list[str] | None = None
    threshold: float | None = None
    description: str | None = None
    image: Any = None
    images: list[Any] | None = None
    audio: Any = None
    video: Any = None
    media_dir: str | None = None
    from_data: bool = False

    @property
    def prompt(self) -> str:
        """The input sent to the target (same as ``query``)."""
        return self.query


class DatasetSource:
    """A named, lazily evaluated collection of cases.

    Args:
        name: dataset name.
        loader: a callable returning an iterable of ``DatasetCase`` (called on each iteration, so a
            generator loader streams large datasets).
        cases: alternatively, the cases themselves.
    """

    def __init__(
        self,
        name: str = "dataset",
        loader: Callable[[], Iterable[DatasetCase]] | None = None,
        cases: Iterable[DatasetCase] | None = None,
    ):
        if loader is None and cases is None:
            raise ValueError("DatasetSource needs a loader or cases")
        self.name = name
        self._loader = loader
        self._cases = list(cases) if cases is not None else None

    def __iter__(self) -> Iterator[DatasetCase]:
        if self._cases is not None:
            return iter(self._cases)
        assert self._loader is not None
        return iter(self._loader())

    @classmethod
    def from_list(cls, cases: Iterable[DatasetCase | dict[str, Any]], name: str = "dataset") -> DatasetSource:
        """Build a source from cases or dicts with DatasetCase fields (``input`` is read as ``query``)."""
        built = []
        for i, item in enumerate(cases, 1):
            if isinstance(item, DatasetCase):
                built.append(item)
                continue
            data = dict(item)
            if "input" in data and "query" not in data:
                data["query"] = data.pop("input")
            data.setdefault("id", f"case-{i}")
            built.append(DatasetCase(**data))
        return cls(name=name, cases=built)
