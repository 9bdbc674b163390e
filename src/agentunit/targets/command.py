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
from agentunit.media.templates import MediaFiller, media_variables, used_media
from agentunit.targets._limits import max_response_bytes, read_capped, read_tail
from agentunit.targets.base import Reply, Target, output_is_media, template_variables, wrap_media_output

STDERR_TAIL_CHARS = 500
STDERR_KEEP_BYTES = 4096  # room for the tail after undecodable bytes and redaction


class CommandTarget(Target):
    """``{type: command, argv, stdin, timeout, cwd, env, max_response_bytes, output_is_media}``.

    ``argv`` is a list (or a string split like a shell would, without running a shell); each element
    and ``stdin`` are templates over ``prompt``, ``id`` and the case vars. No shell is involved, so a
    prompt cannot inject commands. ``env`` values (the suite's own) may use ``${ENV}``; case data is
    never interpolated. The answer is stdout without its trailing newline; a JSON object with
    ``trusys`` is read as an envelope. A non-zero exit or a timeout (default 60 s; the process group
    is killed) errors the case with the end of stderr. Stdout is read up to ``max_response_bytes``
    (10 MiB; more kills the process group and errors the case); of stderr only the end is kept.
    A case's media are template variables (``{{ image | path }}``, ``| data_uri``, ``| base64``,
    ``| mime``; agentunit.media.templates); a temporary file made for ``path`` lives until the command
    exits. With ``output_is_media: true`` stdout is a media reference (a relative path is relative to
    the command's working directory), the reply's output medium.
    """

    kind = "command"

    def __init__(self, spec: dict[str, Any]):
        super().__init__(spec)
        argv = spec["argv"]
        self.argv = shlex.split(argv) if isinstance(argv, str) else [str(a) for a in argv]
        self.timeout = float(spec.get("timeout", 60))
        self.max_response_bytes = max_response_bytes(spec, "command target")
        self.output_is_media = output_is_media(spec, "command target")

    def request(self, case: DatasetCase) -> dict[str, Any]:
        variables = template_variables(case)
        media = media_variables(case)
        if media:
            variables.update(media)
        stdin = self.spec.get("stdin")
        request = {"argv": [render(a, variables) for a in self.argv],
                   "stdin": render(str(stdin), variables) if stdin is not None else None}
        used = used_media(request, case) if media else None
        if used:
            request["media"] = used
        return request

    async def send(self, case: DatasetCase, request: dict[str, Any]) -> Reply:
        with MediaFiller(case) as media:  # a temporary file made for `| path` lives until the command exits
            if request.get("media"):
                argv, stdin = await asyncio.to_thread(media.fill, [request["argv"], request["stdin"]])
                request = {**request, "argv": argv, "stdin": stdin}
            text = await self._run(request)
        if self.output_is_media:
            return Reply(body=wrap_media_output(text, os.path.abspath(self.spec.get("cwd") or os.getcwd())))
        return Reply(body=text)

    async def _run(self, request: dict[str, Any]) -> str:
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
            stdout, stderr = await asyncio.wait_for(self._communicate(process, stdin_data), self.timeout)
        except asyncio.TimeoutError:
            await _reap(process)
            raise TargetError(f"command timed out after {self.timeout:g} s") from None
        except BaseException:  # stdout over the limit, or the run's own deadline cancelled the call
            await _reap(process)
            raise
        if process.returncode != 0:
            tail = self.redact(stderr.decode(errors="replace")).strip()[-STDERR_TAIL_CHARS:]
            raise TargetError(f"command exited with status {process.returncode}: {tail}")
        return stdout.decode(errors="replace").rstrip("\r\n")

    async def _communicate(self, process: asyncio.subprocess.Process, stdin_data: str | None) -> tuple[bytes, bytes]:
        """(stdout, end of stderr) once the process exits; stdin is written while both are read.

        Like ``communicate()`` but bounded: stdout over ``max_response_bytes`` raises TargetError, and
        only the last ``STDERR_KEEP_BYTES`` of stderr are kept however much the command writes.
        """
        assert process.stdout is not None and process.stderr is not None

        async def feed() -> None:
            if process.stdin is None:
                return
            try:
                if stdin_data is not None:
                    process.stdin.write(stdin_data.encode("utf-8", "replace"))
                    await process.stdin.drain()
            except (BrokenPipeError, ConnectionResetError):
                pass  # the command exited without reading all its input: its exit status tells
            finally:
                process.stdin.close()

        tasks = [asyncio.ensure_future(read_capped(process.stdout, self.max_response_bytes, "command output")),
                 asyncio.ensure_future(read_tail(process.stderr, STDERR_KEEP_BYTES)), asyncio.ensure_future(feed())]
        try:
            stdout, stderr, _ = await asyncio.gather(*tasks)
        finally:  # on an error, stop the other readers and let them release their streams
            for task in tasks:
                task.cancel()
            await asyncio.wait(tasks)
        await process.wait()
        return stdout, stderr


async def _reap(process: asyncio.subprocess.Process) -> None:
    """Kill the process group and wait for it.

    The pipes are read to their end meanwhile: asyncio's ``wait()`` also waits for the pipes to close,
    and a pipe paused on a full buffer (output nobody reads any more) never reports its end. A pipe
    still held open after 5 s (a process that left the group) is closed from our side.
    """
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass

    async def drain(stream: asyncio.StreamReader | None) -> None:
        while stream is not None and await stream.read(65536):
            pass

    try:
        await asyncio.wait_for(asyncio.gather(drain(process.stdout), drain(process.stderr), process.wait()), 5)
    except asyncio.TimeoutError:
        transport = getattr(process, "_transport", None)  # asyncio's Process has no public close
        if transport is not None:
            transport.close()
