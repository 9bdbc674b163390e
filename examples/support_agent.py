"""An offline example agent for the quickstart: retrieval, two tools and the `trusys` envelope.

It answers questions about a fictional product from a small knowledge base (keyword retrieval),
uses a `weather` tool and a `calculator` tool, and returns its evaluation metadata the way a real
app would: ``{"output": ..., "trusys": {query, context, tool_calls, plan, usage}}``.

Use it as a Python target (``examples.support_agent:answer``) or serve it over HTTP:
``python -m examples.support_agent --port 8765`` (POST {"prompt": ...}).
"""

from __future__ import annotations

import argparse
import re
from typing import Any

from examples._serve import serve

KNOWLEDGE_BASE = [
    "Acme Cloud offers three plans: Free, Team and Enterprise.",
    "The Team plan costs 12 dollars per user per month.",
    "Enterprise customers get a 99.95% uptime SLA and single sign-on.",
    "Support is available by email at support@acme.example around the clock.",
    "Data is stored in the EU region by default; US storage is available on request.",
    "You can export all of your data as JSON from the Settings page.",
]
_WEATHER = {"paris": "18°C and sunny", "london": "12°C and raining", "tokyo": "22°C and cloudy"}
_WORD = re.compile(r"[a-z0-9]+")
_STOP = frozenset({
    "a", "an", "the", "is", "are", "of", "to", "in", "on", "for", "by", "and", "or", "what", "how", "do",
    "does", "can", "i", "you", "my", "your", "with", "as", "at"})
_MATH = re.compile(r"(-?\d+(?:\.\d+)?)\s*([-+*/x])\s*(-?\d+(?:\.\d+)?)")


def _terms(text: str) -> set[str]:
    return {w for w in _WORD.findall(text.lower()) if w not in _STOP}


def _retrieve(query: str, k: int = 2) -> list[str]:
    scored = sorted(((len(_terms(query) & _terms(doc)), i) for i, doc in enumerate(KNOWLEDGE_BASE)), reverse=True)
    return [KNOWLEDGE_BASE[i] for score, i in scored[:k] if score > 0]


def answer(prompt: str) -> dict[str, Any]:
    """Answer one user message; returns the answer and its trusys metadata."""
    tool_calls: list[dict[str, Any]] = []
    plan: list[str]
    match = _MATH.search(prompt)
    city = next((c for c in _WEATHER if c in prompt.lower()), None)
    if match:
        a, op, b = match.groups()
        value = {"+": float(a) + float(b), "-": float(a) - float(b), "*": float(a) * float(b),
                 "x": float(a) * float(b), "/": float(a) / float(b) if float(b) else float("nan")}[op]
        tool_calls.append({"name": "calculator", "arguments": {"expression": match.group(0)}, "output": f"{value:g}"})
        plan, context, output = ["parse the expression", "call calculator", "answer"], [], f"The result is {value:g}."
    elif "weather" in prompt.lower() and city:
        report = _WEATHER[city]
        tool_calls.append({"name": "weather", "arguments": {"city": city.title()}, "output": report})
        plan, context, output = ["find the city", "call weather", "answer"], [], f"It is {report} in {city.title()}."
    else:
        context = _retrieve(prompt)
        plan = ["retrieve passages", "answer from the best passage"]
        output = context[0] if context else "I don't know; please contact support@acme.example."
    words = len(prompt.split()) + sum(len(c.split()) for c in context)
    return {"output": output, "trusys": {
        "query": prompt, "context": context, "tool_calls": tool_calls, "plan": plan,
        "usage": {"prompt_tokens": words, "completion_tokens": len(output.split())}}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8765)
    serve(answer, parser.parse_args().port, "support agent")


if __name__ == "__main__":
    main()
