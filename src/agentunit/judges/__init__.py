"""LLM judges: providers (local embedded model, OpenAI-compatible, Anthropic) behind a cached service."""

from agentunit.judges.base import Decision, JudgeOutputError, JudgeReply, JudgeRequest
from agentunit.judges.service import JudgeService, current_judge, pass_fail, service_for, use_judge

__all__ = ["Decision", "JudgeOutputError", "JudgeReply", "JudgeRequest", "JudgeService", "current_judge",
           "pass_fail", "service_for", "use_judge"]
