"""Imports every built-in metric family so that each registers itself once."""

from agentunit.audio import metrics as _audio  # noqa: F401
from agentunit.code import analysis as _code_analysis  # noqa: F401
from agentunit.code import execution as _code_execution  # noqa: F401
from agentunit.metrics import (  # noqa: F401
    agentic,
    conversation,
    groups,
    html_checks,
    json_checks,
    judged,
    numeric,
    overlap,
    performance,
    promptfoo_compat,
    rag,
    reference,
    script,
    semantic,
    sql_checks,
    text,
    tool_calls,
    xml_checks,
)
from agentunit.moderation import metrics as _moderation  # noqa: F401
from agentunit.multiagent import metrics as _multiagent  # noqa: F401
from agentunit.multimodal import metrics as _multimodal  # noqa: F401
from agentunit.privacy import metrics as _privacy  # noqa: F401
from agentunit.sustainability import metrics as _sustainability  # noqa: F401
from agentunit.video import metrics as _video  # noqa: F401
