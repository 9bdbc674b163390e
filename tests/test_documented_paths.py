"""Every class the design's metric catalog lists imports from the module path the AgentUnit catalog
documents it under (issue 52: ``VideoResponseRelevanceMetric`` and ``AudioTranscriptionMetric`` are
documented under ``agentunit.multimodal.metrics``).

``METRICS.md`` (the shared design folder) names the AgentUnit metrics family by family: the
"AgentUnit:" line of *Multimodal, audio, video*, the privacy / sustainability / multi-agent lines and
``CompositeMetric``, and the table rows marked "(AgentUnit …)". ``ARCHITECTURE.md`` names the module
path of each family. A metric name is turned into its class through the registry (the class a user's
``from … import`` gets); a class name is taken as written.

``CATALOG`` is what the two documents give, kept here so that the check runs where the design folder
is absent; where it is present, ``test_the_catalog_is_what_the_design_documents`` parses them again and
requires the same.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

from agentunit.metrics import registry

DESIGN = next((d for d in (Path(__file__).resolve().parents[1] / "shared" / "design",
                           Path(__file__).resolve().parents[2] / "shared" / "design") if d.is_dir()), None)

CATALOG: dict[str, tuple[str, ...]] = {
    "agentunit.metrics.builtin": ("CostMetric", "TokenUsageMetric", "tool_success", "answer_correctness",
                                  "faithfulness", "hallucination_rate", "retrieval_quality"),
    "agentunit.multimodal.metrics": ("cross_modal_grounding", "image_caption_accuracy", "video_response_relevance",
                                     "audio_transcription_quality", "multimodal_coherence"),
    "agentunit.privacy.metrics": ("pii_leakage", "privacy_budget", "data_minimization", "consent_compliance"),
    "agentunit.sustainability.metrics": ("energy_consumption", "carbon_emissions", "resource_utilization"),
    "agentunit.multiagent": ("coordination_efficiency", "swarm_intelligence", "network_fault_tolerance",
                             "MultiAgentMetricsCalculator", "InteractionAnalyzer", "NetworkAnalyzer",
                             "EmergentBehaviorDetector"),
    "agentunit.metrics.base": ("CompositeMetric",),
}
# METRICS.md's lines → the module ARCHITECTURE.md names for them
_LINE_MODULES = {"AgentUnit": "agentunit.multimodal.metrics", "privacy": "agentunit.privacy.metrics",
                 "sustainability": "agentunit.sustainability.metrics", "multi-agent": "agentunit.multiagent",
                 "CompositeMetric": "agentunit.metrics.base"}
_TABLE_MODULE = "agentunit.metrics.builtin"
_CLASS = re.compile(r"^[A-Z][A-Za-z]+$")


def _without_parentheses(text: str) -> str:
    """``text`` with every parenthesised part (nested ones too) removed."""
    out, depth = [], 0
    for char in text:
        depth += char == "("
        if depth == 0:
            out.append(char)
        depth -= char == ")" and depth > 0
    return "".join(out)


def _names(items: str) -> list[str]:
    """The metric and class names of a catalog line: the comma-separated items, parentheses dropped."""
    found = []
    for item in _without_parentheses(items).split(","):
        word = item.strip().strip("`.").strip()
        if re.fullmatch(r"[a-z][a-z_]+|[A-Z][A-Za-z]+", word):
            found.append(word)
    return found


def parse_metrics_md(text: str) -> dict[str, list[str]]:
    """Module path → the names METRICS.md documents there (see the module doc)."""
    catalog: dict[str, list[str]] = {}
    # "- AgentUnit: a (…), b (…)." and "- privacy: …" — a bullet runs on over its indented lines
    for bullet in re.findall(r"^- ([^\n]*(?:\n  [^\n]*)*)", text, re.M):
        label, _, items = bullet.partition(":")
        if label in _LINE_MODULES:
            names = [label] if label == "CompositeMetric" else _names(items.replace("\n", " "))
            catalog.setdefault(_LINE_MODULES[label], []).extend(names)
    # "| cost, token_usage (AgentUnit CostMetric, TokenUsageMetric) |", "| tool_success (AgentUnit) |"
    for cell in re.findall(r"^\| ([^|]*\(AgentUnit[^)]*\)) \|", text, re.M):
        names, _, marked = cell.partition("(AgentUnit")
        classes = [c.strip() for c in marked.rstrip(")").split(",") if _CLASS.match(c.strip())]
        catalog.setdefault(_TABLE_MODULE, []).extend(classes or _names(names)[-1:])
    return catalog


def documented_modules(text: str) -> set[str]:
    """The module paths ARCHITECTURE.md says the AgentUnit catalog names."""
    sentence = re.search(r"Every module path named in the AgentUnit metric catalog[^()]*\(([^)]*)\)", text)
    assert sentence, "ARCHITECTURE.md no longer lists the catalog's module paths"
    return set(re.findall(r"`(agentunit[\w.]*)`", sentence.group(1)))


def _class_of(name: str) -> type | None:
    if _CLASS.match(name):
        return None  # a class name: whatever the module gives under it
    return registry.lookup(name)[0].cls


@pytest.mark.skipif(DESIGN is None, reason="the shared design folder (METRICS.md) is not beside the repository")
def test_the_catalog_is_what_the_design_documents():
    parsed = parse_metrics_md((DESIGN / "METRICS.md").read_text(encoding="utf-8"))
    assert {module: tuple(names) for module, names in parsed.items()} == CATALOG
    modules = documented_modules((DESIGN / "ARCHITECTURE.md").read_text(encoding="utf-8"))
    assert modules <= set(CATALOG), modules - set(CATALOG)


@pytest.mark.parametrize(("module", "name"), [(m, n) for m, names in CATALOG.items() for n in names],
                         ids=[f"{m}:{n}" for m, names in CATALOG.items() for n in names])
def test_every_documented_name_imports_from_its_documented_path(module, name):
    cls = _class_of(name)
    exported = importlib.import_module(module)
    class_name = name if cls is None else cls.__name__
    assert hasattr(exported, class_name), f"from {module} import {class_name} fails"
    value = getattr(exported, class_name)
    assert isinstance(value, type) and (cls is None or value is cls), (module, class_name, value)
    namespace: dict = {}
    exec(f"from {module} import {class_name}", namespace)  # the statement a user writes
    assert namespace[class_name] is value


def test_the_multimodal_package_gives_the_catalogs_multimodal_metrics_too():
    """The AgentUnit catalog's ``from agentunit.multimodal import …`` (its package re-exports them)."""
    import agentunit.multimodal as package

    for name in CATALOG["agentunit.multimodal.metrics"]:
        cls = _class_of(name)
        assert getattr(package, cls.__name__) is cls, name


def test_re_exports_do_not_load_video_or_audio_until_asked_for():
    import subprocess
    import sys

    code = ("import sys, agentunit.multimodal, agentunit.multimodal.metrics\n"
            "heavy = ('cv2', 'agentunit.video.metrics', 'agentunit.audio.metrics')\n"
            "print(sorted(m for m in heavy if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
