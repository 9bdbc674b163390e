"""promptfoo chat prompts (a JSON list of ``{role, content}``) sent to an OpenAI-compatible model."""

from __future__ import annotations

import json
from typing import Any

from agentunit.datasets.base import DatasetCase
from agentunit.targets.openai import OpenAITarget


def chat_messages(prompt: str) -> list[dict[str, Any]] | None:
    """The messages of a rendered chat prompt (a JSON array of ``{role, content}``), else None."""
    text = prompt.strip()
    if not text.startswith("["):
        return None
    try:
        messages = json.loads(text)
    except ValueError:
        return None
    if isinstance(messages, list) and messages and all(
            isinstance(m, dict) and isinstance(m.get("role"), str) and "content" in m for m in messages):
        return messages
    return None


class ChatOpenAITarget(OpenAITarget):
    """The openai target, sending a chat prompt's messages as they are (promptfoo's behaviour) and any
    other prompt as one user message."""

    def request(self, case: DatasetCase) -> dict[str, Any]:
        request = super().request(case)
        messages = chat_messages(case.query or "")
        if messages is not None and "media" not in request:
            request["body"] = {**request["body"], "messages": messages}
        return request
