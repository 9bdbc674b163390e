"""How the sandbox runs each language: a file name and a command template.

A language is a ``Language(name, filename, command)``: the program is saved as ``filename`` in the
sandbox's directory and ``command`` runs it. The template is split like a shell line and ``{file}``
is replaced by the file's name; the run's ``args`` are appended. The command's first word is looked
up on the sandbox's ``PATH`` (``/usr/local/bin:/usr/bin:/bin``: the system's read-only copies); an
absolute path outside the system directories (a Python built from source, under pyenv or conda)
has its installation directory mounted read-only as well.

Add a language with ``register_language``::

    register_language(Language("ruby", "main.rb", "ruby {file}"))
    register_language(Language("c", "main.c", "sh -c 'cc -O1 -o prog {file} && exec ./prog \\"$@\\"' sh"))
"""

from __future__ import annotations

import os
import shlex
import shutil
import sys
from dataclasses import dataclass, field

from agentunit.code.extract import normalise_language
from agentunit.errors import AgentUnitError

SANDBOX_PATH = "/usr/local/bin:/usr/bin:/bin"
# Directories every sandbox mounts read-only anyway; an executable under them needs nothing more.
SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/etc")


class UnknownLanguage(AgentUnitError):
    """The sandbox has no command for this language; names the known ones and how to add one."""


@dataclass(frozen=True)
class Language:
    """A language the sandbox can run.

    Args:
        name: canonical lowercase name (``python``); fence tags are matched after ``normalise_language``.
        filename: the name the program is saved under in the sandbox directory.
        command: the command template; ``{file}`` is replaced by ``filename``.
        fallbacks: absolute executables to use, in order, when the template's first word is not on
            the sandbox's PATH (Python: the interpreter running agentunit).
    """

    name: str
    filename: str
    command: str
    fallbacks: tuple[str, ...] = field(default=())

    def argv(self, args: list[str] | tuple[str, ...] = ()) -> list[str]:
        """The command line for one run: the template with ``{file}`` filled in, then ``args``."""
        return [word.replace("{file}", self.filename) for word in shlex.split(self.command)] + [str(a) for a in args]


def _python_fallbacks() -> tuple[str, ...]:
    base = getattr(sys, "_base_executable", None) or sys.executable
    return tuple(dict.fromkeys(os.path.realpath(p) for p in (base, sys.executable) if p))


_LANGUAGES: dict[str, Language] = {}


def register_language(language: Language) -> Language:
    """Add (or replace) a language, under its normalised name."""
    _LANGUAGES[normalise_language(language.name)] = language
    return language


register_language(Language("python", "main.py", "python3 -E -s -B {file}", _python_fallbacks()))
register_language(Language("javascript", "main.js", "node {file}"))
register_language(Language("bash", "main.sh", "bash {file}"))


def languages() -> list[str]:
    """The names of every registered language, sorted."""
    return sorted(_LANGUAGES)


def get_language(name: str) -> Language:
    """The language registered under ``name`` (aliases folded: ``py``, ``js``, ``sh``); raises UnknownLanguage."""
    language = _LANGUAGES.get(normalise_language(name))
    if language is None:
        raise UnknownLanguage(f"the sandbox cannot run {name!r} (languages: {', '.join(languages())}; add one "
                              f"with agentunit.code.register_language(Language(name, filename, command)))")
    return language


def resolve_executable(argv: list[str]) -> tuple[list[str], list[str]]:
    """``argv`` with its first word made absolute, and the host directories to mount read-only for it.

    A word on the sandbox's PATH is used as it is; otherwise the language's fallbacks are tried by the
    caller (see ``command_for``). An absolute executable outside the system directories brings its
    installation prefix (the parent of its ``bin``) along.
    """
    first = argv[0]
    path = first if os.path.isabs(first) else shutil.which(first, path=SANDBOX_PATH)
    if path is None:
        raise UnknownLanguage(f"{first!r} is not installed (looked in {SANDBOX_PATH})")
    real = os.path.realpath(path)
    if real.startswith(tuple(d + "/" for d in SYSTEM_DIRS)):
        return [path, *argv[1:]], []
    bin_dir = os.path.dirname(real)
    prefix = os.path.dirname(bin_dir) if os.path.basename(bin_dir) == "bin" else bin_dir
    return [real, *argv[1:]], [prefix]


def command_for(language: Language, args: list[str] | tuple[str, ...] = ()) -> tuple[list[str], list[str]]:
    """The argv that runs ``language``'s program with ``args``, and the host directories it needs mounted.

    The template's executable is looked up on the sandbox PATH first, then each fallback in turn.
    """
    argv = language.argv(args)
    try:
        return resolve_executable(argv)
    except UnknownLanguage:
        for fallback in language.fallbacks:
            if os.path.isfile(fallback) and os.access(fallback, os.X_OK):
                return resolve_executable([fallback, *argv[1:]])
        raise UnknownLanguage(f"cannot run {language.name}: {argv[0]!r} is not installed "
                              f"(looked in {SANDBOX_PATH})") from None
