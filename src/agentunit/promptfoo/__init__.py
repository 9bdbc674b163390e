"""Run promptfoo configs unchanged, and turn them into native agentunit suites (docs/promptfoo.md)."""

from __future__ import annotations

from agentunit.promptfoo.detect import is_promptfoo_config

__all__ = ["is_promptfoo_config"]
