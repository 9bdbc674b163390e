"""A tiny offline 'assistant' used by the Trusys-format example suite: arithmetic and capitals."""

from __future__ import annotations

import operator
import re

_OPS = {"+": operator.add, "-": operator.sub, "*": operator.mul, "x": operator.mul, "/": operator.truediv}
_ARITHMETIC = re.compile(r"(-?\d+(?:\.\d+)?)\s*([-+*x/])\s*(-?\d+(?:\.\d+)?)")
_CAPITALS = {"france": "Paris", "germany": "Berlin", "japan": "Tokyo", "italy": "Rome", "spain": "Madrid"}


def answer(prompt: str) -> str:
    """Answer 'What is A op B?' with the number and 'Capital of X?' with the city; else say so."""
    match = _ARITHMETIC.search(prompt)
    if match:
        left, op, right = match.groups()
        value = _OPS[op](float(left), float(right))
        return f"{value:g}"
    for country, city in _CAPITALS.items():
        if country in prompt.lower():
            return city
    return "I don't know."
