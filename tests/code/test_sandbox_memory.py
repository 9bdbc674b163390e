"""The sandbox's memory total over the whole process tree (issue 50): a cgroup v2 of its own where one can
be made, else the tree's resident memory watched; and limits that never exceed a share of the machine."""

from __future__ import annotations

import os

import pytest

import agentunit.code._memory as memory_module
import agentunit.code.sandbox as sandbox_module
from agentunit.code import Limits
from tests.code.sandboxing import requires_bwrap, run

MIB = 1024 * 1024

# N children, each allocating (and touching) SIZE MiB, then holding it for a while.
FORKS = r"""
import os, time
kids = []
for _ in range(N):
    pid = os.fork()
    if pid == 0:
        block = b"\x01" * (SIZE * 1024 * 1024)
        time.sleep(HOLD)
        os._exit(0)
    kids.append(pid)
for pid in kids:
    os.waitpid(pid, 0)
print("all done")
"""


def _forks(n: int, size_mb: int, hold_s: float) -> str:
    return FORKS.replace("N", str(n)).replace("SIZE", str(size_mb)).replace("HOLD", str(hold_s))


ISOLATIONS = [pytest.param("bubblewrap", marks=requires_bwrap), "none"]


@pytest.mark.parametrize("isolation", ISOLATIONS)
def test_a_tree_over_the_total_is_killed_though_each_process_is_under_its_limit(isolation):
    # 4 × 150 MiB: each child is under its 200 MiB address space, together they pass the 300 MiB total.
    # Before the total existed this ran to the end (exit 0, 600 MiB held for the whole hold). The timeout is past
    # the 30 s hold: the total stops the tree, never the timeout, however long a busy machine takes.
    result = run(_forks(4, 150, 30), isolation=isolation, timeout=120, memory_mb=200, total_memory_mb=300)
    assert not result.timed_out
    assert not result.ok and "all done" not in result.stdout
    mechanism = result.isolation["memory"].split(":")[0]
    assert mechanism in ("cgroup", "rss-watch") and "300 MiB in all" in result.isolation["memory"]
    assert [hit for hit in result.limits_hit if hit.startswith(
        f"memory: 300 MiB in all for the program's processes ({mechanism})")], result.limits_hit
    assert "memory: 300 MiB in all" in result.failure()
    assert result.describe()["isolation"]["memory"] == result.isolation["memory"]


@pytest.mark.parametrize("isolation", ISOLATIONS)
def test_a_tree_under_the_total_runs_to_its_end(isolation):
    result = run(_forks(2, 100, 0.5), isolation=isolation, timeout=120, memory_mb=200, total_memory_mb=300)
    assert result.ok and result.stdout == "all done\n" and result.limits_hit == []


def test_limits_never_exceed_a_share_of_the_machine(monkeypatch):
    ram_mb = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") // MIB
    assert 1 <= sandbox_module.machine_share_mb() <= ram_mb // 4
    monkeypatch.setattr(sandbox_module, "machine_share_mb", lambda: 512)
    assert Limits().total_mb == 512 and Limits().process_mb == 512  # 1024 MiB per process by default
    assert Limits(total_memory_mb=100_000).total_mb == 512
    limits = Limits(memory_mb=300, total_memory_mb=200)
    assert limits.total_mb == 200 and limits.process_mb == 200
    assert limits.describe()["memory_mb"] == 200 and limits.describe()["total_memory_mb"] == 200
    assert Limits.from_config({"total_memory_mb": 256}).total_mb == 256


def test_the_cgroup_of_agentunit_is_found_from_proc():
    mountinfo = ("30 1 0:26 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw\n"
                 "31 1 0:27 / /proc rw - proc proc rw\n")
    assert memory_module._own_cgroup_dir(mountinfo, "0::/user.slice/run.scope\n") == \
        "/sys/fs/cgroup/user.slice/run.scope"
    assert memory_module._own_cgroup_dir(mountinfo, "0::/\n") == "/sys/fs/cgroup"
    hybrid = "41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n"
    assert memory_module._own_cgroup_dir(hybrid, "4:memory:/x\n0::/\n") == "/sys/fs/cgroup/unified"
    assert memory_module._own_cgroup_dir(mountinfo, "4:memory:/x\n") is None  # cgroup v1 only
    assert memory_module._own_cgroup_dir("31 1 0:27 / /proc rw - proc proc rw\n", "0::/\n") is None


def test_a_cgroup_serves_only_with_memory_and_pids_for_its_children(tmp_path, monkeypatch):
    monkeypatch.setattr(memory_module, "_own_cgroup_dir", lambda: str(tmp_path))
    (tmp_path / "cgroup.controllers").write_text("cpu io memory pids\n")
    (tmp_path / "cgroup.subtree_control").write_text("memory pids\n")
    assert memory_module._cgroup_parent.__wrapped__() == str(tmp_path)
    (tmp_path / "cgroup.controllers").write_text("cpu io hugetlb\n")  # the memory controller is on cgroup v1
    assert memory_module._cgroup_parent.__wrapped__() is None


def _fake_cgroups(monkeypatch, folder, procs=None):
    """``folder`` stands in for the cgroup hierarchy (this checks the wiring, not the kernel): a new cgroup
    comes with its cgroup.procs, an empty file or a link to ``procs``."""
    real_mkdir = os.mkdir

    def mkdir_like_the_kernel(path, *args, **kwargs):
        real_mkdir(path, *args, **kwargs)
        if os.path.dirname(path) == str(folder):
            if procs:
                os.symlink(procs, os.path.join(path, "cgroup.procs"))
            else:
                open(os.path.join(path, "cgroup.procs"), "w").close()

    monkeypatch.setattr(os, "mkdir", mkdir_like_the_kernel)
    monkeypatch.setattr(memory_module, "_cgroup_parent", lambda: str(folder))
    monkeypatch.setattr(memory_module, "_cgroups_refused", False)
    monkeypatch.setattr(sandbox_module, "machine_share_mb", lambda: 4096)


@requires_bwrap
def test_a_run_enters_its_cgroup_with_the_limits_written(tmp_path, monkeypatch):
    # The run writes its limits in its cgroup, and the program, between fork and exec, "0" (itself) to
    # cgroup.procs.
    _fake_cgroups(monkeypatch, tmp_path)
    result = run("print('inside')", memory_mb=256, total_memory_mb=1000, processes=20)
    assert result.ok and result.stdout == "inside\n"
    assert result.isolation["memory"].startswith("cgroup: 1000 MiB in all (memory.max, no swap), 23 processes")
    (group,) = [p for p in tmp_path.iterdir() if p.name.startswith("agentunit-")]
    assert (group / "memory.max").read_text() == str(1000 * MIB) and (group / "pids.max").read_text() == "23"
    assert (group / "cgroup.procs").read_text() == "0"


@requires_bwrap
def test_a_program_that_cannot_enter_its_cgroup_runs_under_the_watch(tmp_path, monkeypatch):
    _fake_cgroups(monkeypatch, tmp_path, procs="/dev/full")  # every write fails (ENOSPC)
    result = run("print('watched')", total_memory_mb=1000)
    assert result.ok and result.stdout == "watched\n" and result.isolation["memory"].startswith("rss-watch:")
    assert memory_module._cgroups_refused  # and from then on, no cgroup is tried


@requires_bwrap
@pytest.mark.skipif(memory_module._cgroup_parent() is None,
                    reason="no cgroup v2 with memory and pids to delegate here (the rss-watch tests cover the total)")
def test_the_kernel_holds_the_total_in_a_real_cgroup():
    result = run(_forks(4, 150, 30), timeout=120, memory_mb=200, total_memory_mb=300)
    assert result.isolation["memory"].startswith("cgroup:") and not result.ok and not result.timed_out
    assert "memory: 300 MiB in all for the program's processes (cgroup), killed by the kernel" in result.limits_hit
    assert not [p for p in os.listdir(memory_module._cgroup_parent()) if p.startswith(f"agentunit-{os.getpid()}-")]
