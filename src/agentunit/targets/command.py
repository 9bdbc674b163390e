"""Run a command per case as the system under test."""

from __future__ import annotations

import asyncio
import os
import shlex
import signal
from typing import Any

from agentunit.core.templating import interpolate_env, render
from agentunit.datasets.base import DatasetCase
from agentunit.errors import TargetError
from agentunit.targets.base import Reply, Target, template_variables


class CommandTarget(Target):
    """``{type: command, argv, stdin, timeout, cwd, env}``.

    ``argv`` is a list (or a string split like a shell would, without running a shell); each element
    and ``stdin`` are templates over ``prompt``, ``id`` and the case vars. No shell is involved, so a
    prompt cannot inject commands. The answer is stdout without its trailing newline; a JSON object
    with ``trusys`` is read as an envelope. A non-zero exit or a timeout (default 60 s; the process
    group is killed) errors the case with the end of stderr.
    """

    kind = "command"

    def __init__(self, spec: dict[str, Any]):
        super().__init__(spec)
        argv = spec["argv"]
        self.argv = shlex.split(argv) if isinstance(argv, str) else [str(a) for a in argv]
        self.timeout = float(spec.get("timeout", 60))

    def request(self, case: DatasetCase) -> dict[str, Any]:
        variables = template_variables(case)
        stdin = self.spec.get("stdin")
        return {"argv": [render(a, variables) for a in self.argv],
                "stdin": render(str(stdin), variables) if stdin is not None else None}

    async def send(self, case: DatasetCase, request: dict[str, Any]) -> Reply:
        env = None
        if self.spec.get("env"):
            env = {**os.environ, **{k: interpolate_env(str(v), self.secrets) for k, v in self.spec["env"].items()}}
        stdin_data = request["stdin"]
        try:
            process = await asyncio.create_subprocess_exec(
                *request["argv"],
                stdin=asyncio.subprocess.PIPE if stdin_data is not None else asyncio.subprocess.DEVNULL,
                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
                cwd=self.spec.get("cwd"), env=env, start_new_session=True)
        except OSError as exc:
            raise TargetError(f"cannot start {request['argv'][0]!r}: {exc.strerror or exc}") from exc
        try:
            stdout, stderr = await asyncio.wait_for(
                process.communicate(stdin_data.encode() if stdin_data is not None else None), self.timeout)
        except (asyncio.TimeoutError, asyncio.CancelledError):
            _kill_group(process)
            await process.wait()
            raise TargetError(f"command timed out after {self.timeout:g} s") from None
        if process.returncode != 0:
            tail = stderr.decode(errors="replace").strip()[-500:]
            raise TargetError(f"command exited with status {process.returncode}: {tail}")
        return Reply(body=stdout.decode(errors="replace").rstrip("\r\n"))


def _kill_group(process: asyncio.subprocess.Process) -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
