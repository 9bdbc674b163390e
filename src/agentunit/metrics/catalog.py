"""The built-in metric families: every module that declares metrics, by name.

The registry imports them (``agentunit.metrics.registry``): one on first use of a name it declares
(through the generated name → module table, ``_index.py``), all of them when the whole catalog is
asked for. Nothing here imports a family, so families may import the registry without a circle.
A new family module goes in this list; then regenerate the table (``write_index``).
"""

FAMILY_MODULES: tuple[str, ...] = (
    "agentunit.audio.metrics.conversation",
    "agentunit.audio.metrics.language",
    "agentunit.audio.metrics.statements",
    "agentunit.audio.metrics.timing",
    "agentunit.audio.metrics.transcription",
    "agentunit.code.analysis",
    "agentunit.code.execution",
    "agentunit.metrics.agentic.arguments",
    "agentunit.metrics.agentic.judgements",
    "agentunit.metrics.agentic.planned_calls",
    "agentunit.metrics.agentic.plans",
    "agentunit.metrics.agentic.rules",
    "agentunit.metrics.agentic.tool_use",
    "agentunit.metrics.conversation",
    "agentunit.metrics.groups",
    "agentunit.metrics.html_checks",
    "agentunit.metrics.json_checks",
    "agentunit.metrics.judged",
    "agentunit.metrics.numeric",
    "agentunit.metrics.overlap",
    "agentunit.metrics.performance",
    "agentunit.metrics.promptfoo_compat.classifier",
    "agentunit.metrics.promptfoo_compat.comparison",
    "agentunit.metrics.promptfoo_compat.function_call",
    "agentunit.metrics.promptfoo_compat.text_checks",
    "agentunit.metrics.promptfoo_compat.trajectory_checks",
    "agentunit.metrics.promptfoo_compat.trajectory_goal",
    "agentunit.metrics.rag",
    "agentunit.metrics.reference",
    "agentunit.metrics.script",
    "agentunit.metrics.semantic",
    "agentunit.metrics.sql_checks",
    "agentunit.metrics.text",
    "agentunit.metrics.tool_calls",
    "agentunit.metrics.xml_checks",
    "agentunit.moderation.metrics",
    "agentunit.multiagent.metrics",
    "agentunit.multimodal.metrics",
    "agentunit.privacy.metrics",
    "agentunit.sustainability.metrics",
    "agentunit.video.metrics",
)
