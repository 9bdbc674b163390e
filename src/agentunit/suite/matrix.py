"""The prompts × targets matrix of a native suite (``prompts:`` and ``targets:``).

Each case runs once per prompt template and per target. An expanded case's id is the case id with
``[prompt label]`` and ``[target label]`` appended for each dimension that has more than one entry;
its metadata records ``prompt_label`` and ``target_label`` (which reports group by, and which the
matrix target routes by). A template is filled from the case's ``vars``, its own prompt (as
``{{ prompt }}``) and ``id``; a case's own prompt is never compiled here, only inserted.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from agentunit.core.templating import TemplateError, check_template, render
from agentunit.datasets.base import DatasetCase
from agentunit.suite.fields import shown
from agentunit.suite.problems import Problems
from agentunit.suite.transform import Transform

PROMPT_LABEL = "prompt_label"
TARGET_LABEL = "target_label"
PROMPT_KEYS = ("label", "id", "template")


@dataclass(frozen=True)
class PromptVariant:
    """One entry of ``prompts:``: its label and its template."""

    label: str
    template: str


@dataclass
class TargetVariant:
    """One entry of ``targets:``: its label, its target spec (without ``label`` and ``transform``), and
    its compiled ``transform``."""

    label: str
    spec: dict[str, Any]
    transform: Transform | None = None
    index: int = 0


@dataclass
class SuiteMatrix:
    """What a suite's cases are expanded over; an empty list is that dimension's single default (the
    case's own prompt, the suite's ``target``)."""

    prompts: list[PromptVariant] = field(default_factory=list)
    targets: list[TargetVariant] = field(default_factory=list)

    def expand(self, case: DatasetCase, own_prompt: bool, where: Any, problems: Problems) -> Iterator[DatasetCase]:
        """The case once per prompt × target; a template that cannot be filled is a problem at the case."""
        prompts: list[PromptVariant | None] = list(self.prompts) or [None]
        targets: list[TargetVariant | None] = list(self.targets) or [None]
        for index, prompt in enumerate(prompts):
            query = case.query
            if prompt is not None:
                variables = {**case.vars, "id": case.id}
                if own_prompt:
                    variables["prompt"] = case.query  # inserted as a value, never compiled
                try:
                    query = render(prompt.template, variables)
                except TemplateError as exc:
                    problems.error(f"cannot fill prompts[{index}] ({prompt.label!r}) for case {case.id!r}: {exc}",
                                   where.key_path, file=where.file, line=where.line,
                                   suggestion="give the case `vars:` for every variable of the template, or a "
                                              "`prompt:` the template uses as {{ prompt }}")
                    continue
            for target in targets:
                case_id = case.id
                metadata = dict(case.metadata)
                if prompt is not None:
                    metadata[PROMPT_LABEL] = prompt.label
                    if len(prompts) > 1:
                        case_id += f" [{prompt.label}]"
                if target is not None:
                    metadata[TARGET_LABEL] = target.label
                    if len(targets) > 1:
                        case_id += f" [{target.label}]"
                yield dataclasses.replace(case, id=case_id, query=query, metadata=metadata)


def read_prompts(value: Any, problems: Problems) -> list[PromptVariant]:
    """The suite's ``prompts:``: templates (labelled ``prompt-1``, …) or ``{label (or id), template}``."""
    if not isinstance(value, list) or not value:
        problems.error(f"prompts must be a non-empty list of templates or {{label, template}}, got {shown(value)}",
                       ("prompts",), suggestion="prompts: [\"Answer: {{ question }}\", {label: expert, "
                                                "template: \"As an expert: {{ question }}\"}]")
        return []
    variants: list[PromptVariant] = []
    seen: dict[str, int] = {}
    for index, item in enumerate(value):
        at: tuple[Any, ...] = ("prompts", index)
        label: Any = f"prompt-{index + 1}"
        if isinstance(item, dict):
            problems.unknown_keys(item, PROMPT_KEYS, at, "prompt")
            template = item.get("template")
            label = item.get("label", item.get("id", label))
            if not isinstance(label, (str, int)) or isinstance(label, bool) or not str(label).strip():
                problems.error(f"label must be text, got {shown(label)}", (*at, "label" if "label" in item else "id"))
                continue
            label = str(label).strip()
            at = (*at, "template")
        else:
            template = item
        if not isinstance(template, str) or not template.strip():
            problems.error(f"a prompt must be a template (text), got {shown(template)}", at,
                           suggestion="write the template as text, or {label: NAME, template: TEXT}")
            continue
        try:
            check_template(template)
        except TemplateError as exc:
            problems.error(str(exc), at)
            continue
        if label in seen:
            problems.error(f"prompt label {label!r} is used twice (also prompts[{seen[label]}])",
                           ("prompts", index), suggestion="give each prompt a unique `label:`")
            continue
        seen[label] = index
        variants.append(PromptVariant(label, template))
    return variants


def default_target_label(spec: dict[str, Any]) -> str:
    """A target's label when it has none: what tells it apart (a python target's function, an openai
    target's model, an http target's URL, a command's program), else its type."""
    kind = str(spec.get("type", "target"))
    detail: Any = {"python": spec.get("function"), "openai": spec.get("model"), "http": spec.get("url"),
                   "traces": None}.get(kind)
    if kind == "command":
        argv = spec.get("argv")
        detail = argv.split()[0] if isinstance(argv, str) and argv.split() else \
            argv[0] if isinstance(argv, list) and argv else None
    if detail is None or callable(detail):
        return kind
    return str(detail)[:60]


__all__ = ["PROMPT_LABEL", "TARGET_LABEL", "PromptVariant", "SuiteMatrix", "TargetVariant", "default_target_label",
           "read_prompts"]
