"""Escape attempts by a hostile program, each contained by the bubblewrap sandbox.

Every program reports what it managed to do on stdout; "ESCAPED" means the sandbox failed. The
host-side checks (a server that must see no connection, a file that must not appear, a process
that must be gone) do not trust the program's word.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import time
import uuid

import pytest

from tests.code.sandboxing import host_processes_with, requires_bwrap, run
from tests.conftest import ROOT
from tests.process_helpers import eventually

pytestmark = requires_bwrap


def _contained(result, *, stdout_has: str | None = None) -> None:
    assert "ESCAPED" not in result.stdout, result.stdout
    if stdout_has is not None:
        assert stdout_has in result.stdout, (result.stdout, result.stderr)


def _left_behind(result) -> list[int]:
    """Host processes still alive as the sandbox's own uid (root gives each sandbox one). Zombies are
    dead: bubblewrap's PID 1 can be one for a moment, until the host's init reaps it."""
    match = re.search(r"host uid (\d+)", result.isolation["user"])
    if match is None:
        return []
    uid = int(match.group(1))
    return [int(e.name) for e in os.scandir("/proc") if e.name.isdigit() and _alive_as(e.path, uid)]


def _alive_as(path: str, uid: int) -> bool:
    try:
        with open(f"{path}/stat") as handle:
            state = handle.read().rsplit(")", 1)[1].split()[0]
        return os.stat(path).st_uid == uid and state != "Z"
    except (OSError, IndexError):
        return False


# -- network ------------------------------------------------------------------------------------

def test_connect_to_a_server_on_the_hosts_loopback_is_refused():
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    server.settimeout(0.5)
    port = server.getsockname()[1]
    result = run(f"""
import socket
try:
    socket.create_connection(("127.0.0.1", {port}), timeout=1)
    print("ESCAPED")
except OSError as exc:
    print("blocked", exc)
""")
    with pytest.raises(socket.timeout):
        server.accept()  # nothing reached the host's server
    server.close()
    _contained(result, stdout_has="blocked")


def test_connect_to_the_internet_fails():
    result = run("""
import socket
for address in [("1.1.1.1", 53), ("8.8.8.8", 443), ("2606:4700:4700::1111", 53)]:
    try:
        socket.create_connection(address, timeout=1)
        print("ESCAPED", address)
    except OSError as exc:
        print("blocked", exc.errno)
print(open("/proc/net/dev").read())
""")
    _contained(result, stdout_has="blocked")
    interfaces = [line.split(":")[0].strip() for line in result.stdout.splitlines() if ":" in line]
    assert interfaces == ["lo"]  # a network namespace of its own: loopback only


def test_dns_resolution_fails():
    result = run("""
import socket
try:
    print("ESCAPED", socket.getaddrinfo("example.com", 443))
except OSError as exc:
    print("blocked", exc)
""")
    _contained(result, stdout_has="blocked")


def test_udp_to_the_host_is_not_delivered():
    receiver = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    receiver.bind(("127.0.0.1", 0))
    receiver.settimeout(0.3)
    port = receiver.getsockname()[1]
    run(f"""
import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for _ in range(5):
    try:
        s.sendto(b"ESCAPED", ("127.0.0.1", {port}))
    except OSError:
        pass
""")
    with pytest.raises(socket.timeout):
        receiver.recv(100)
    receiver.close()


# -- processes ----------------------------------------------------------------------------------

def test_python_fork_bomb_is_contained():
    result = run("""
import os
while True:
    try:
        os.fork()
    except OSError:
        pass
""", processes=32, timeout=2)
    assert result.timed_out  # it forks until its timeout (the sandbox's clock), then its whole tree is killed
    assert not result.ok and _left_behind(result) == []
    assert subprocess.run(["true"]).returncode == 0  # the host can still start processes


def test_bash_fork_bomb_is_contained():
    result = run(":(){ :|:& };:", "bash", processes=32, timeout=2)  # its shell may end first: the tree goes with it
    assert _left_behind(result) == []
    assert subprocess.run(["true"]).returncode == 0


def test_thread_bomb_hits_the_process_limit():
    result = run("""
import threading, time
threads = []
try:
    for _ in range(10000):
        t = threading.Thread(target=time.sleep, args=(5,), daemon=True)
        t.start()
        threads.append(t)
    print("ESCAPED", len(threads))
except RuntimeError as exc:
    print("stopped after", len(threads), exc)
""", processes=16)
    _contained(result, stdout_has="stopped after")
    assert int(result.stdout.split()[2]) <= 16


def test_killing_the_parent_and_everything_reachable_does_not_touch_the_host():
    sentinel = subprocess.Popen(["sleep", "30"])
    try:
        result = run(f"""
import os, signal
for target in (os.getppid(), 1, {os.getpid()}, {sentinel.pid}):
    try:
        os.kill(target, signal.SIGKILL)
    except OSError as exc:
        print("no", target, exc)
try:
    os.kill(-1, signal.SIGKILL)
except OSError as exc:
    print("no -1", exc)
""")
        time.sleep(0.2)
        assert sentinel.poll() is None, "the sandbox killed a host process"
        assert not result.ok or "no" in result.stdout
    finally:
        sentinel.kill()
        sentinel.wait()


def test_a_background_process_is_gone_when_the_run_ends():
    token = f"{time.time_ns() % 10**9}.{os.getpid()}"
    result = run(f"""
import os, subprocess
subprocess.Popen(["sleep", "{token}1"], start_new_session=True)
if os.fork() == 0:  # a double-forked daemon
    os.setsid()
    if os.fork() == 0:
        os.execvp("sleep", ["sleep", "{token}2"])
    os._exit(0)
print("started")
""")
    assert result.ok and "started" in result.stdout
    assert eventually(lambda: host_processes_with(token) == [])  # killed with the run (a minute at most)


def test_a_disowned_shell_job_is_gone_when_the_run_ends():
    token = f"{time.time_ns() % 10**9}.{os.getpid()}"
    result = run(f"nohup sleep {token} >/dev/null 2>&1 &\ndisown\necho started", "bash")
    assert result.ok and "started" in result.stdout
    assert eventually(lambda: host_processes_with(token) == [])


def test_sleeping_forever_is_killed_at_the_timeout():
    start = time.monotonic()
    result = run("import time\ntime.sleep(10**6)", timeout=1)
    assert time.monotonic() - start >= 0.9  # not before it (how long after depends on the machine's load)
    assert result.timed_out and result.exit_code is None
    assert result.limits_hit == ["timeout: 1 s wall clock, process tree killed"]


def test_a_busy_loop_hits_the_cpu_limit():
    # 1 s of CPU takes far longer than 1 s on a busy machine: the CPU limit stops it, never the timeout
    result = run("while True:\n    pass", timeout=120, cpu_seconds=1)
    assert not result.timed_out
    assert result.signal in ("SIGXCPU", "SIGKILL") and any(h.startswith("cpu") for h in result.limits_hit)


def test_the_program_cannot_raise_its_limits():
    result = run("""
import resource
for name in ("RLIMIT_NPROC", "RLIMIT_AS", "RLIMIT_CPU", "RLIMIT_FSIZE"):
    which = getattr(resource, name)
    try:
        resource.setrlimit(which, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
        print("ESCAPED", name)
    except (ValueError, OSError):
        print("kept", name)
""")
    _contained(result, stdout_has="kept RLIMIT_NPROC")


# -- memory, disk, output -----------------------------------------------------------------------

def test_memory_bomb_fails_with_the_memory_limit():
    result = run("""
blocks = []
while True:
    blocks.append(bytearray(50 * 1024 * 1024))
""", memory_mb=256)
    assert not result.ok
    assert any(h.startswith("memory") for h in result.limits_hit), result.stderr[-500:]


def test_one_huge_file_hits_the_file_size_limit():
    result = run("""
with open("big", "wb") as handle:
    while True:
        handle.write(b"x" * 1024 * 1024)
""", file_size_mb=4)
    assert not result.ok
    assert any(h.startswith("file size") for h in result.limits_hit), result.stderr[-500:]


def test_many_files_fill_only_the_sandboxs_own_small_disk():
    result = run("""
import os
for i in range(10**6):
    with open(f"f{i}", "wb") as handle:
        handle.write(b"x" * 1024 * 1024)
""", disk_mb=8, file_size_mb=2)
    assert not result.ok
    assert any(h.startswith("disk") for h in result.limits_hit), result.stderr[-500:]


def test_infinite_stdout_is_capped_and_stopped():
    result = run("while True:\n    print('y' * 1000)", output_kb=64)
    assert not result.timed_out  # stopped at the cap, not at the (60 s) timeout
    assert len(result.stdout) <= 64 * 1024
    assert result.exit_code is None and result.limits_hit[0].startswith("output: stdout")


def test_infinite_stderr_is_capped_and_stopped():
    result = run("yes error >&2", "bash", output_kb=16)
    assert len(result.stderr) <= 16 * 1024
    assert result.limits_hit[0].startswith("output: stderr")


def test_open_files_exhaustion_hits_the_open_files_limit():
    result = run("""
handles = []
while True:
    handles.append(open("/dev/null"))
""", open_files=64)
    assert not result.ok
    assert any(h.startswith("open files") for h in result.limits_hit)


# -- filesystem and secrets ---------------------------------------------------------------------

def test_writing_outside_the_sandbox_directory_fails(tmp_path):
    target = tmp_path / "written-by-sandbox"
    result = run(f"""
for path in ["/usr/escape", "/etc/escape", "/escape", "/var/tmp/escape", "/proc/escape", "/dev/escape",
             "{target}", "{ROOT}/escape"]:
    try:
        with open(path, "w") as handle:
            handle.write("x")
        print("ESCAPED", path)
    except OSError as exc:
        print("blocked", path, exc.errno)
with open("inside", "w") as handle:  # its own directory is writable
    handle.write("ok")
print("own dir ok")
""")
    _contained(result, stdout_has="own dir ok")
    assert not target.exists() and not (ROOT / "escape").exists()


def test_environment_secrets_are_not_visible(monkeypatch):
    secret = f"sk-test-{uuid.uuid4().hex}"
    monkeypatch.setenv("OPENAI_API_KEY", secret)
    monkeypatch.setenv("AGENTUNIT_FAKE_TOKEN", secret)
    result = run("""
import os
print(dict(os.environ))
for pid in ("self", "1", "2"):
    try:
        print(open(f"/proc/{pid}/environ", "rb").read())
    except OSError:
        pass
""")
    assert result.ok
    assert secret not in result.stdout + result.stderr
    assert "OPENAI_API_KEY" not in result.stdout


def test_home_files_are_not_visible(tmp_path, monkeypatch):
    home = tmp_path / "home"
    home.mkdir()
    (home / ".netrc").write_text("machine example.com password hunter2")
    monkeypatch.setenv("HOME", str(home))
    result = run(f"""
import os
print("home is", os.path.expanduser("~"))
for path in ["{home}/.netrc", os.path.expanduser("~/.netrc"), "/root/.bashrc", "/root/.ssh/id_rsa"]:
    try:
        print("ESCAPED", path, open(path).read())
    except OSError:
        print("hidden", path)
for directory in ("/root", "/home"):
    print(directory, os.path.exists(directory))
""")
    _contained(result, stdout_has="hidden")
    assert "hunter2" not in result.stdout and "home is /sandbox" in result.stdout
    assert "/root False" in result.stdout and "/home False" in result.stdout


def test_other_temporary_files_and_the_project_are_not_visible(tmp_path):
    (tmp_path / "other.txt").write_text("private")
    result = run(f"""
import os
print(sorted(os.listdir("/tmp")))
for path in ["{tmp_path}/other.txt", "{ROOT}/pyproject.toml", "/work"]:
    print("ESCAPED" if os.path.exists(path) else "hidden", path)
""")
    _contained(result, stdout_has="hidden")
    assert result.stdout.splitlines()[0] == "[]"


def test_etc_shadow_is_not_readable_directly_or_through_a_symlink():
    result = run("""
import os
os.symlink("/etc/shadow", "shadow-link")
for path in ("/etc/shadow", "shadow-link", "/etc/gshadow", "/etc/sudoers"):
    try:
        print("ESCAPED", path, open(path).read()[:20])
    except OSError as exc:
        print("hidden", path, exc.errno)
""")
    _contained(result, stdout_has="hidden /etc/shadow")


def test_host_processes_are_not_visible_in_proc():
    result = run(f"""
import json, os
pids = sorted(int(p) for p in os.listdir("/proc") if p.isdigit())
print(json.dumps(pids))
for pid in ({os.getpid()}, {os.getppid()}):
    if pid >= 10 and os.path.exists(f"/proc/{{pid}}/cmdline"):  # low numbers are the sandbox's own
        print("ESCAPED", pid, open(f"/proc/{{pid}}/cmdline", "rb").read()[:80])
print("self", os.getpid(), "host pid 1 is", open("/proc/1/cmdline", "rb").read()[:40])
""")
    _contained(result)
    pids = json.loads(result.stdout.splitlines()[0])
    assert len(pids) <= 4 and max(pids) < 10  # its own PID namespace: bubblewrap's init and the program


def test_devices_and_sockets_of_the_host_are_absent():
    result = run("""
import os
for path in ("/dev/sda", "/dev/vda", "/dev/mem", "/dev/kmsg", "/var/run/docker.sock", "/run/docker.sock",
             "/sys/fs/cgroup", "/dev/shm/x"):
    print("ESCAPED" if os.path.exists(path) else "absent", path)
print(sorted(os.listdir("/dev")))
""")
    _contained(result, stdout_has="absent /dev/sda")


def test_no_new_user_namespace_for_more_privileges():
    result = run("""
unshare -r id && echo ESCAPED-unshare
unshare -n true && echo ESCAPED-netns
mount -t tmpfs none /usr 2>/dev/null && echo ESCAPED-mount
chroot / true 2>/dev/null && echo ESCAPED-chroot
echo done
""", "bash")
    _contained(result, stdout_has="done")


def test_signals_to_the_terminal_and_session_are_contained():
    before = signal.getsignal(signal.SIGINT)
    result = run("""
import os, signal
try:
    os.killpg(os.getpgid(os.getppid()), signal.SIGINT)
except OSError as exc:
    print("no", exc)
print("sid", os.getsid(0))
""")
    assert signal.getsignal(signal.SIGINT) is before  # the test runner was not interrupted
    assert "sid" in result.stdout or not result.ok


@pytest.mark.skipif(os.geteuid() != 0, reason="a uid per sandbox needs root; as a user they share your process budget")
def test_parallel_sandboxes_do_not_share_a_process_budget():
    """A fork bomb next to normal programs: the others still run (each sandbox has its own uid as root)."""
    import asyncio

    from agentunit.code.sandbox import Limits, Sandbox

    async def both():
        bomb = Sandbox(limits=Limits(timeout=2, processes=16)).run_program(
            "import os\nwhile True:\n    try: os.fork()\n    except OSError: pass", "python")
        normal = [Sandbox(limits=Limits(timeout=60)).run_program(f"print({i})", "python") for i in range(4)]
        return await asyncio.gather(bomb, *normal)

    results = asyncio.run(both())
    assert [r.stdout.strip() for r in results[1:]] == ["0", "1", "2", "3"]
