"""Package facades whose names import their module on first use (PEP 562), so importing one submodule
of a package, or the package itself, does not import every other (issue 20: start-up pays only for
what the run uses)."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any


def lazy_exports(namespace: dict[str, Any], exports: dict[str, str]) -> tuple[Callable[[str], Any],
                                                                           Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of a package whose public ``exports`` (name → module, absolute
    or relative to the package) are imported when first asked for and then kept in ``namespace``."""
    package = namespace["__name__"]

    def __getattr__(name: str) -> Any:
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        where = module if module.startswith("agentunit.") else f"{package}.{module}"
        value = getattr(importlib.import_module(where), name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted({*namespace, *exports})

    return __getattr__, __dir__
