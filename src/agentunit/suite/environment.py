"""The preflight of a run: what a suite's targets need from the environment, checked before the first case.

- Every ``${NAME}`` must be set: a target reads the environment where the suite wrote ``${NAME}`` (an
  ``http`` target's ``url`` and header values, an ``openai`` target's header values and ``api_key_env``,
  a ``command`` target's ``env`` values). An unset variable would fail every case the same way; it is
  one suite problem instead, naming where the suite reads it.
- An API key a target or promptfoo provider needs must be set: an ``openai`` target (or provider) that
  talks to OpenAI's own API without ``api_key_env`` sends ``OPENAI_API_KEY`` — without it every case
  would be refused the same way.
- With ``connect`` (``agentunit run``, not ``--dry-run``): each ``http``/``openai`` target's host and port
  must accept a TCP connection (one attempt each, ``CONNECT_TIMEOUT_S``): an app that is not running is
  one message, ``nothing answers at HOST:PORT — is the app running?``, not four retries per case.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

from agentunit.core.templating import ENV_REF, interpolate_env
from agentunit.errors import AgentUnitError, SuiteError
from agentunit.suite.problems import Problems

_READ_FIELDS = ("url", "headers", "env")
CONNECT_TIMEOUT_S = 5.0  # the preflight's one connection attempt per address
PROVIDERS_OVERRIDE = "AGENTUNIT_PROMPTFOO_PROVIDERS=echo"  # agentunit.promptfoo.config.PROVIDERS_ENV
_DEFAULT_PORTS = {"http": 80, "https": 443}


def check_environment(suite: Any, *, connect: bool = False) -> None:
    """Raise SuiteError naming each environment variable a target of ``suite`` reads and that is not set
    (its file, line and field, and the ``export`` to type); AgentUnitError, one message, for an API key a
    target needs and that is not set, and with ``connect`` for a target's address where nothing answers."""
    missing = {name: where for name, where in _references(suite) if not os.environ.get(name)}
    if missing:
        problems = Problems(file=suite.file)
        for name, where in missing.items():
            problems.error(f"environment variable {name} is not set", where,
                           suggestion=f"export {name}=… before the run (nothing was sent)")
        raise SuiteError(problems.resolve(problems.errors))
    unset = _unset_keys(suite)
    if unset:
        raise AgentUnitError(unset)
    if connect:
        silent = _silent_address(suite)
        if silent:
            raise AgentUnitError(silent)


def _target_specs(suite: Any) -> Iterator[tuple[dict[str, Any], tuple[Any, ...], str | None]]:
    """(target spec, key path, promptfoo provider id or None) of each target the run may send to."""
    providers = getattr(getattr(suite, "matrix", None), "all_providers", None)
    if providers is not None:  # a promptfoo config: its providers, the tests' own included
        for provider in providers:
            if isinstance(provider.target, dict):
                yield provider.target, tuple(provider.key_path), provider.provider_id
        return
    if isinstance(suite.target, dict):
        yield suite.target, ("target",), None
    if suite.variants is not None:
        for variant in suite.variants.targets:
            if isinstance(variant.spec, dict):
                yield variant.spec, ("targets", variant.index), None


def _unset_keys(suite: Any) -> str | None:
    """One message for the API keys that targets or providers of ``suite`` send and that are not set."""
    needing: dict[str, list[str]] = {}
    promptfoo = False
    for spec, at, provider in _target_specs(suite):
        if spec.get("type") != "openai":
            continue
        from agentunit.targets.openai import DEFAULT_BASE_URL, DEFAULT_KEY_ENV

        env = spec.get("api_key_env")
        if not isinstance(env, str):  # none named: needed only by OpenAI's own API (a local server needs none)
            if _host(str(spec.get("base_url", DEFAULT_BASE_URL))) != _host(DEFAULT_BASE_URL):
                continue
            env = DEFAULT_KEY_ENV
        if not os.environ.get(env):
            promptfoo = promptfoo or provider is not None
            where = provider or (f"{at[0]}[{at[1]}]" if len(at) > 1 else at[0])
            needing.setdefault(env, []).append(where)
    messages = []
    for env, users in needing.items():
        many = len(users) > 1
        if promptfoo:
            messages.append(f"{env} is not set — the provider{'s' if many else ''} {', '.join(dict.fromkeys(users))} "
                            f"need{'' if many else 's'} it")
        else:
            messages.append(f"{env} is not set — the openai {' and '.join(users)} need{'' if many else 's'} it "
                            "for OpenAI's API")
    if not messages:
        return None
    if promptfoo:
        return "; ".join(messages) + f" (or run with {PROVIDERS_OVERRIDE})"
    return "; ".join(messages) + " (export it, or set base_url to your own server; nothing was sent)"


def _silent_address(suite: Any) -> str | None:
    """``nothing answers at HOST:PORT — is the app running?`` for the first address of an ``http`` or
    ``openai`` target where a TCP connection is refused or times out; None when each one answers."""
    seen: set[tuple[str, int]] = set()
    for spec, _, _ in _target_specs(suite):
        address = _address(spec)
        if address is None or address in seen:
            continue
        seen.add(address)
        host, port = address
        shown = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
        try:
            socket.create_connection(address, timeout=CONNECT_TIMEOUT_S).close()
        except socket.gaierror:
            return f"nothing answers at {shown} — the name {host} does not resolve; is the address right?"
        except OSError:
            return f"nothing answers at {shown} — is the app running?"
    return None


def _address(spec: dict[str, Any]) -> tuple[str, int] | None:
    """The (host, port) an ``http`` or ``openai`` target sends to; None for other targets and for a URL whose
    host is filled in per case (a template)."""
    if spec.get("type") == "http":
        url = spec.get("url")
    elif spec.get("type") == "openai":
        from agentunit.targets.openai import DEFAULT_BASE_URL

        url = spec.get("base_url", DEFAULT_BASE_URL)
    else:
        return None
    if not isinstance(url, str) or "{{" in url or "{%" in url:
        return None
    try:
        parts = urlsplit(interpolate_env(url).strip())
        port = parts.port or _DEFAULT_PORTS.get(parts.scheme.lower())
    except (AgentUnitError, ValueError):  # an unset variable (reported above) or a port that is no number
        return None
    if not parts.hostname or port is None:
        return None
    return parts.hostname, port


def _host(url: str) -> str | None:
    try:
        return urlsplit(url.strip()).hostname
    except ValueError:
        return None


def _references(suite: Any) -> Iterator[tuple[str, tuple[Any, ...]]]:
    """(variable, key path) for each ``${NAME}`` the suite's targets read, first place per variable."""
    specs: list[tuple[tuple[Any, ...], Any]] = [(("target",), suite.target)]
    if suite.variants is not None:
        specs += [(("targets", t.index), t.spec) for t in suite.variants.targets]
    seen: set[str] = set()
    for at, spec in specs:
        if not isinstance(spec, dict):
            continue
        found = list(_env_refs({k: v for k, v in spec.items() if k in _READ_FIELDS}, at))
        key_env = spec.get("api_key_env")
        if spec.get("type") == "openai" and isinstance(key_env, str):
            found.append((key_env, (*at, "api_key_env")))
        for name, where in found:
            if name not in seen:
                seen.add(name)
                yield name, where


def _env_refs(value: Any, at: tuple[Any, ...]) -> Iterator[tuple[str, tuple[Any, ...]]]:
    if isinstance(value, str):
        for name in ENV_REF.findall(value):
            yield name, at
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _env_refs(item, (*at, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _env_refs(item, (*at, index))
