"""LLM judges: providers (local embedded model, OpenAI-compatible, Anthropic) behind a cached service."""

from agentunit._lazy import lazy_exports

_EXPORTS = {
    "Decision": "base",
    "JudgeOutputError": "base",
    "JudgeReply": "base",
    "JudgeRequest": "base",
    "JudgeService": "service",
    "current_judge": "service",
    "pass_fail": "service",
    "service_for": "service",
    "use_judge": "service",
}

__all__ = sorted(_EXPORTS)
__getattr__, __dir__ = lazy_exports(globals(), _EXPORTS)
