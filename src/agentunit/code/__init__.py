"""Code metrics: code in a model's output, extracted (``extract``), run in a sandbox, and analysed."""

from agentunit.code.extract import CodeBlock, code_blocks, normalise_language, select_code
from agentunit.code.languages import Language, UnknownLanguage, get_language, languages, register_language
from agentunit.code.sandbox import Limits, RunResult, Sandbox, SandboxUnavailable

__all__ = ["CodeBlock", "Language", "Limits", "RunResult", "Sandbox", "SandboxUnavailable", "UnknownLanguage",
           "code_blocks", "get_language", "languages", "normalise_language", "register_language", "select_code"]
